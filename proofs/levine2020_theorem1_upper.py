from verify.authoring import Claim, RankBound

from ._common import BELOW_THRESHOLD, MAIN, H, L, Source, d_x, log3
from ._small_n import at_small_n

BOUND = (3**L - 1) / 2 * log3(d_x + H)

CLAIM = Claim(
    id="levine2020_theorem1_upper",
    source=Source(MAIN, "§4.1", "Theorem 1, eq. 6 (upper bound)"),
    statement="For L < log3 d_x, almost everywhere log3 sep(y_p^i) <= (3^L - 1)/2 * log3(d_x + H).",
    formulas={"log3_sep_upper": BOUND},
    domain="L >= 1, H divides d_x, d_a = d_x/H",
    regime=BELOW_THRESHOLD,
    reading="The statement asks H > 1; the bound's proof (first supplement Theorem 3) holds for every H, "
            "so specs with H = 1 are compared too.",
    left_out="N from 2 up to 2(d_x + 1) beyond the small specs: exact ranks at N = 2 and 4 (coefficient route, "
             "check 'bound at the smallest N') reach only L = 1 with d_x <= 6, L = 2 with d_x <= 4 (N = 4: d_x <= "
             "3) and L = 3 with d_x = 2 (one more, L = 2, d_x = 4, N = 4, takes about 55 s); the reduced-route "
             "ranks hold from N = 2(d_x + 1) on.  In the regime the only depth-2 spec is (d_x, H) = (10, 2) (about "
             "90 s) and no depth >= 3 spec (d_x >= 28) has an exact rank.",
    checks=[RankBound(BOUND, "upper", "log3", regime=BELOW_THRESHOLD)],
)

# rule 2 (whole domains): the same bound at the smallest N (proofs/_small_n.py)
CLAIM.checks.append(at_small_n(next(c for c in CLAIM.checks if isinstance(c, RankBound))))
