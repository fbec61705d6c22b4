import sympy as sp

from verify.authoring import Claim, Property, RankBound

from ._common import ABOVE_THRESHOLD, RESPONSE, H, L, Source, d_x, log3
from ._reach import EQ7_GAP, EQ7_GRID, EQ7_SMALLEST, REPAIRED, gap_check
from ._small_n import at_small_n

UPPER = 2 * d_x * L + L - 2 * d_x * log3(d_x / (2 * sp.sqrt(2 * sp.E))) + log3(d_x)
LOWER = sp.Rational(1, 2) * d_x * L - L * (H / 2 + 1) - d_x * (1 + sp.Rational(1, 2) * log3((d_x - H) / 2))

CLAIM = Claim(
    id="levine2020_response_theorem2_explicit",
    expected="gap",  # its lower half is eq. 7's (claim levine2020_theorem2_lower), with the same proof gap
    gap="The lower half, eq. 7 restated: " + EQ7_GAP + REPAIRED,
    gap_checks=[Property(gap_check(LOWER, ABOVE_THRESHOLD, EQ7_SMALLEST, **EQ7_GRID),
                         name="the lower half against the construction's corrected reach, d_a even, L <= 12")],
    source=Source(RESPONSE, "lines 16-20", "Theorem 2 as restated, with the corrected c_2"),
    statement="For L > log3 d_x: 1/2 d_x L + b_1 + b_2 <= log3 sep(y) <= 2 d_x L + c_1 + c_2 with c_1 = L and "
              "c_2 = -2 d_x log3(d_x / (2 sqrt(2e))) + log3 d_x.",
    formulas={"upper": UPPER, "lower": LOWER},
    regime=ABOVE_THRESHOLD,
    passage="levine2020_theorem2_lower_bound",
    reading="Two-sided: verified only if each side is; the lower half is eq. 7's (claim levine2020_theorem2_lower, the "
            "same passage, gap).  The response's c_2 is garbled ('... sqrt 2e + log3 d_x'); it is taken as the closed "
            "form of the corrected chain (claim levine2020_response_corrected_chain); b_1, b_2 as in the main text.",
    left_out="N from 2 up to 2(d_x + 1) beyond the small specs: exact ranks at N = 2 and 4 (coefficient route, "
             "check 'bound at the smallest N') reach only L = 1 with d_x <= 6, L = 2 with d_x <= 4 (N = 4: d_x <= "
             "3) and L = 3 with d_x = 2 (L = 2, d_x = 4, N = 4 takes about 55 s); the reduced-route ranks hold "
             "from N = 2(d_x + 1) on.",
    checks=[RankBound(UPPER, "upper", "log3", regime=ABOVE_THRESHOLD, name="upper bound vs exact ranks"),
            RankBound(LOWER, "lower", "log3", regime=ABOVE_THRESHOLD, condition=lambda s: s.heads < s.width,
                      name="lower bound vs exact ranks")],
)

# rule 2 (whole domains): the same bound(s) at the smallest N (proofs/_small_n.py)
for _bound in [c for c in CLAIM.checks if isinstance(c, RankBound)]:
    CLAIM.checks.append(at_small_n(_bound, name=f"{_bound.name}: bound at the smallest N (coefficient route, "
                                                 "N = 2 and 4)"))

# one statement, two sides: each must be verified (verify.claims.record, Check.side)
CLAIM.checks[0].side, CLAIM.checks[1].side = "upper", "lower"
