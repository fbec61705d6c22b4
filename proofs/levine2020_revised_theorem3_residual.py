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
    checks=[RankBound(BOUND, "upper", "log3", residual=True)],
)
