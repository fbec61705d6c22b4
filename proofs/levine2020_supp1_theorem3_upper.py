from verify.authoring import Claim, RankBound

from ._common import MAIN, C, H, Source, d_a
from ._small_n import at_small_n

BOUND = (H * (d_a + 1)) ** C

CLAIM = Claim(
    id="levine2020_supp1_theorem3_upper",
    source=Source(MAIN, "supplement A.2", "Theorem 3"),
    statement="For any depth, N > 1, partition and output: sep(y_p^i) <= (H (d_a + 1))^C(L).",
    formulas={"sep_upper": BOUND},
    domain="every spec (no regime)",
    left_out="N from 2 up to 2(d_x + 1) beyond the small specs: exact ranks at N = 2 and 4 (coefficient route, "
             "check 'bound at the smallest N') reach only L = 1 with d_x <= 6, L = 2 with d_x <= 4 (N = 4: d_x <= "
             "3) and L = 3 with d_x = 2 (one more, L = 2, d_x = 4, N = 4, takes about 55 s); the reduced-route "
             "ranks hold from N = 2(d_x + 1) on.",
    checks=[RankBound(BOUND, "upper", "sep")],
)

# rule 2 (whole domains): the same bound at the smallest N (proofs/_small_n.py)
CLAIM.checks.append(at_small_n(next(c for c in CLAIM.checks if isinstance(c, RankBound))))
