from verify.authoring import Claim, RankBound

from ._common import REVISED, H, L, N, Source, d_x, log3

BOUND = L * log3(L) + (4 * log3(d_x) + log3(N) - log3(H)) * (3**L - 1) / 2

CLAIM = Claim(
    id="levine2020_revised_theorem3_residual",
    source=Source(REVISED, "A.4 (residual connections)", "Theorem 3"),
    statement="With residual connections, log3 Sep(y_p^{L,i}) <= L log3 L + (4 log3 d_x + log3 N - log3 H)(3^L - 1)/2.",
    formulas={"log3_sep_upper": BOUND},
    reading="Compared at N = 2(d_x+1), the smallest N for which the exact (reduced) rank holds.",
    expected="not-decided",  # rule 1 (issue 20): no strengthening refuted on the specs in reach
    left_out="N < 2(d_x + 1), where the bound (which grows with log3 N) is smallest: the reduced-route ranks hold "
             "from N = 2(d_x + 1) on; N = 2 and 4 are checked at L <= 2, d_x <= 3 by "
             "levine2020_revised_residual_small_n.",
    checks=[RankBound(BOUND, "upper", "log3", residual=True)],
)
