"""Eq. 9 of the revised supplement: the corrected chain from Theorem 2's bound to its closed form, each step on
its stated domain, both readings of the garbled factor, and the exact extent of 'only for 3^L > d_x'."""

import sympy as sp

from verify.authoring import Cases, Claim, InequalityChain

from ._common import ABOVE_THRESHOLD, REVISED, C, L, Source, d_x, log3, multichoose

E = sp.E
LINE1 = log3(d_x * (C + 1) * multichoose(d_x, 2 * C) * (2 * C / d_x + 1) ** d_x)
LINE2 = log3(d_x * (C + 1) * (2 * E * (d_x + 2 * C) / d_x) ** d_x * (2 * C / d_x + 1) ** d_x)
LINE3 = log3(3**L * d_x * (2 * E) ** d_x * ((3**L - 1) / d_x + 1) ** (2 * d_x))
LINE4 = log3(3**L * d_x * (2 * E) ** d_x * (2 * 3**L / d_x) ** (2 * d_x))          # reading A: (2 3^L / d_x)
LINE4_B = log3(3**L * d_x * (2 * E) ** d_x * ((2 * 3**L - 1) / d_x) ** (2 * d_x))  # reading B: (2 3^L - 1)/d_x
LINE5 = L + log3(d_x) + d_x * log3(2 * E) + 2 * d_x * log3(2 * 3**L / d_x)
LINE6 = (2 * d_x + 1) * L + log3(d_x) + 2 * d_x * (log3(2 * sp.sqrt(2 * E)) - log3(d_x))

GRID = {L: list(range(1, 7)), d_x: list(range(1, 31)) + [80, 81, 82, 242, 243, 244]}  # edges 3^L - 1, 3^L, 3^L + 1
RANGES = {L: (1, 9), d_x: (1, 300)}


def _needs_regime(depth):
    """Line 3 <= line 4 (reading A) iff (3^L - 1 + d_x) <= 2 3^L iff d_x <= 3^L + 1: exact over integers.

    Checked for every d_x up to 3^L + 5, so the step is seen to fail just past its regime."""
    top = 3**depth
    wrong = [w for w in range(1, top + 6) if ((top - 1 + w) <= 2 * top) != (w <= top + 1)]
    fails_past = [w for w in range(1, top + 6) if top - 1 + w > 2 * top]
    ok = not wrong and fails_past and min(fails_past) == top + 2
    return ok, f"L={depth}: step 3->4 holds exactly for d_x <= {top + 1}, first failure d_x = {min(fails_past)}"


CLAIM = Claim(
    id="levine2020_revised_theorem2_chain",
    source=Source(REVISED, "A.3", "eq. 9 (corrected chain after Theorem 2)"),
    statement="log3[d_x (C+1) ((d_x over 2C)) (2C/d_x+1)^d_x] <= log3[d_x (C+1) (2e(d_x+2C)/d_x)^d_x (2C/d_x+1)^d_x] "
              "<= log3[3^L d_x (2e)^d_x ((3^L-1)/d_x + 1)^(2d_x)] <= (only for 3^L > d_x) "
              "log3[3^L d_x (2e)^d_x (2 3^L/d_x)^(2d_x)] = L + log3 d_x + d_x log3 2e + 2 d_x log3(2 3^L/d_x) "
              "= (2d_x + 1)L + log3 d_x + 2d_x(log3 2 sqrt(2e) - log3 d_x).",
    formulas={f"line{i}": s for i, s in enumerate([LINE1, LINE2, LINE3, LINE4, LINE5, LINE6], start=1)}
    | {"line4_reading_B": LINE4_B},
    domain="L in 1..6, d_x in 1..30 and 80-82, 242-244 (d_x = 1 and d_x = 3^L +- 1 included), plus 40 seeded random "
           "points up to L = 9, d_x = 300; lines 3-6 only where 3^L > d_x",
    reading="The fourth line's factor is garbled ('(2 . 3L - 1 / dx)'); reading A is 2 3^L/d_x (what line 5 uses and "
            "the author response prints), reading B is (2 3^L - 1)/d_x.  Both are checked; both hold.  The last two "
            "relations are printed as <= but are identities; they are checked as equalities.",
    checks=[InequalityChain([LINE1, LINE2, LINE3], ["<=", "<="], grid=GRID, search=40, search_ranges=RANGES,
                            name="lines 1-3 for every (L, d_x)"),
            InequalityChain([LINE3, LINE4, LINE5, LINE6], ["<=", "=", "="], grid=GRID, regime=ABOVE_THRESHOLD,
                            search=40, search_ranges=RANGES, name="lines 3-6 for 3^L > d_x (reading A)"),
            InequalityChain([LINE3, LINE4_B, LINE5], ["<=", "<="], grid=GRID, regime=ABOVE_THRESHOLD,
                            search=40, search_ranges=RANGES, name="lines 3-5 for 3^L > d_x (reading B)"),
            Cases(list(range(1, 7)), _needs_regime, name="line 3 -> 4 holds exactly up to d_x = 3^L + 1")],
)
