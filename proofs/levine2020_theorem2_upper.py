import sympy as sp

from verify.authoring import Claim, RankBound

from ._common import ABOVE_THRESHOLD, MAIN, L, Source, d_x, log3
from ._small_n import at_small_n

C1 = L
C2 = -2 * d_x * log3(d_x / (2 * sp.E)) + log3(d_x)
BOUND = 2 * d_x * L + C1 + C2

CLAIM = Claim(
    id="levine2020_theorem2_upper",
    expected="not-decided",
    source=Source(MAIN, "§4.2", "Theorem 2, eq. 7 (upper bound), c_1 = L, c_2 = -2 d_x log3(d_x/2e) + log3 d_x"),
    statement="For L > log3 d_x, almost everywhere log3 sep(y_p^i) <= 2 d_x L + c_1 + c_2.",
    formulas={"log3_sep_upper": BOUND, "c_1": C1, "c_2": C2},
    domain="L >= 1, H divides d_x",
    regime=ABOVE_THRESHOLD,
    left_out="N from 2 up to 2(d_x + 1) beyond the small specs: exact ranks at N = 2 and 4 (coefficient route, "
             "check 'bound at the smallest N') reach only L = 1 with d_x <= 6, L = 2 with d_x <= 4 (N = 4: d_x <= "
             "3) and L = 3 with d_x = 2 (one more, L = 2, d_x = 4, N = 4, takes about 55 s); the reduced-route "
             "ranks hold from N = 2(d_x + 1) on.",
    checks=[RankBound(BOUND, "upper", "log3", regime=ABOVE_THRESHOLD)],
)

# rule 2 (whole domains): the same bound at the smallest N (proofs/_small_n.py)
CLAIM.checks.append(at_small_n(next(c for c in CLAIM.checks if isinstance(c, RankBound))))
