import sympy as sp

from verify.authoring import Claim, Property, RankBound

from ._common import ABOVE_THRESHOLD, MAIN, H, L, Source, d_x, log3
from ._reach import EQ7_GAP, EQ7_GRID, EQ7_SMALLEST, REPAIRED, gap_check
from ._small_n import at_small_n

B1 = -L * (H / 2 + 1)
B2 = -d_x * (1 + sp.Rational(1, 2) * log3((d_x - H) / 2))
BOUND = sp.Rational(1, 2) * d_x * L + B1 + B2

CLAIM = Claim(
    id="levine2020_theorem2_lower",
    expected="gap",  # rule 1: no strengthening refuted on the specs in reach; rule 5: the proof falls short (L >= 9)
    gap=EQ7_GAP + REPAIRED,
    gap_checks=[Property(gap_check(BOUND, ABOVE_THRESHOLD, EQ7_SMALLEST, **EQ7_GRID),
                         name="eq. 7 against the construction's corrected reach, d_a even, L <= 12")],
    source=Source(MAIN, "§4.2", "Theorem 2, eq. 7 (lower bound), b_1 = -L(H/2 + 1), "
                                 "b_2 = -d_x(1 + log3((d_x - H)/2)/2)"),
    statement="For L > log3 d_x, almost everywhere 1/2 d_x L + b_1 + b_2 <= log3 sep(y_p^i).",
    formulas={"log3_sep_lower": BOUND, "b_1": B1, "b_2": B2},
    domain="H < d_x (log3((d_x - H)/2) defined)",
    regime=ABOVE_THRESHOLD,
    passage="levine2020_theorem2_lower_bound",
    left_out="N from 2 up to 2(d_x + 1) beyond the small specs: exact ranks at N = 2 and 4 (coefficient route, "
             "check 'bound at the smallest N') reach only L = 1 with d_x <= 6, L = 2 with d_x <= 4 (N = 4: d_x <= "
             "3) and L = 3 with d_x = 2 (one more, L = 2, d_x = 4, N = 4, takes about 55 s); the reduced-route "
             "ranks hold from N = 2(d_x + 1) on.",
    checks=[RankBound(BOUND, "lower", "log3", regime=ABOVE_THRESHOLD, condition=lambda s: s.heads < s.width)],
)

# rule 2 (whole domains): the same bound at the smallest N (proofs/_small_n.py)
CLAIM.checks.append(at_small_n(next(c for c in CLAIM.checks if isinstance(c, RankBound))))
