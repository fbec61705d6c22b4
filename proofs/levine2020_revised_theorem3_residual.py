from verify.authoring import Claim, RankBound

from ._common import REVISED, H, L, N, Source, d_x, log3
from ._small_n import at_small_n

BOUND = L * log3(L) + (4 * log3(d_x) + log3(N) - log3(H)) * (3**L - 1) / 2

CLAIM = Claim(
    id="levine2020_revised_theorem3_residual",
    source=Source(REVISED, "A.4 (residual connections)", "Theorem 3"),
    statement="With residual connections, log3 Sep(y_p^{L,i}) <= L log3 L + (4 log3 d_x + log3 N - log3 H)(3^L - 1)/2.",
    formulas={"log3_sep_upper": BOUND},
    reading="Compared at N = 2(d_x+1), the smallest N for which the exact (reduced) rank holds.",
    expected="not-decided",  # rule 1 (issue 20): no strengthening refuted on the specs in reach
    left_out="N from 2 up to 2(d_x + 1) beyond the small specs: exact residual ranks at N = 2 and 4 (coefficient "
             "route, check 'bound at the smallest N') reach only d_x <= 3 at L = 1 and d_x <= 2 at L = 2 (residual "
             "L = 2, d_x = 3 takes minutes); the reduced-route ranks hold from N = 2(d_x + 1) on.",
    checks=[RankBound(BOUND, "upper", "log3", residual=True)],
)

# rule 2 (whole domains): the same bound at the smallest N (proofs/_small_n.py)
CLAIM.checks.append(at_small_n(next(c for c in CLAIM.checks if isinstance(c, RankBound))))
