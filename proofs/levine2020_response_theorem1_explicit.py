from verify.authoring import Claim, Property, RankBound

from ._common import BELOW_THRESHOLD, RESPONSE, H, L, Source, d_x, log3
from ._reach import REPAIRED, gap_check
from ._small_n import at_small_n

A = -L + (2 - log3(2))
LOWER = 3 ** (L - 2) * (log3(d_x - H) + A)
UPPER = (3**L - 1) / 2 * log3(d_x + H)

CLAIM = Claim(
    id="levine2020_response_theorem1_explicit",
    source=Source(RESPONSE, "lines 3-4", "Theorem 1 as restated"),
    statement="3^(L-2) (log3(d_x - H) + a) <= log3 sep(y) <= (3^L - 1)/2 log3(d_x + H), a = -L + 2 - log3 2, "
              "for L < log3 d_x.",
    formulas={"lower": LOWER, "upper": UPPER, "a": A},
    regime=BELOW_THRESHOLD,
    passage="levine2020_theorem1_lower_bound",
    reading="Two-sided: verified only if each side is (issue 34).  The upper half refutes a strengthening; the lower "
            "half is eq. 6's lower bound (claim levine2020_theorem1_lower, the same passage), which refutes none and "
            "whose printed proof falls short at even d_a, so the whole is gap, as there.",
    expected="gap",
    gap="The lower half, eq. 6's lower bound restated (3^(L-2) = 3^L/9): at even d_a the printed per-head layout "
        "reaches H floor((d_a - 1)/2) columns, fewer than the floor((d_x - H)/2) the proof uses; smallest case (d_x, "
        "H, L) = (10, 5, 2) (d_a = 2), with d_a >= 3 (12, 2, 2)." + REPAIRED,
    gap_checks=[Property(gap_check(LOWER, BELOW_THRESHOLD, (10, 2, 5), heads_min=2),
                         name="the lower half against the construction's corrected reach, d_a even")],
    left_out="N from 2 up to 2(d_x + 1) beyond the small specs: exact ranks at N = 2 and 4 (coefficient route, "
             "check 'bound at the smallest N') reach only L = 1 with d_x <= 6, L = 2 with d_x <= 4 (N = 4: d_x <= "
             "3) and L = 3 with d_x = 2 (L = 2, d_x = 4, N = 4 takes about 55 s); the reduced-route ranks hold "
             "from N = 2(d_x + 1) on.  In the regime L < log3 d_x the small specs reach only L = 1 (d_x = 4..6; "
             "the lower bound's 1 < H < d_x: d_x = 4, 6); depth 2 needs d_x >= 10 (about 90 s at N = 2(d_x + 1)) "
             "and depth 3 d_x >= 28 (no exact rank).",
    checks=[RankBound(LOWER, "lower", "log3", regime=BELOW_THRESHOLD, condition=lambda s: 1 < s.heads < s.width,
                      name="lower bound vs exact ranks"),
            RankBound(UPPER, "upper", "log3", regime=BELOW_THRESHOLD, name="upper bound vs exact ranks")],
)

# rule 2 (whole domains): the same bound(s) at the smallest N (proofs/_small_n.py)
for _bound in [c for c in CLAIM.checks if isinstance(c, RankBound)]:
    CLAIM.checks.append(at_small_n(_bound, name=f"{_bound.name}: bound at the smallest N (coefficient route, "
                                                 "N = 2 and 4)"))

# one statement, two sides: each must be verified (verify.claims.record, Check.side)
CLAIM.checks[0].side, CLAIM.checks[1].side = "lower", "upper"
