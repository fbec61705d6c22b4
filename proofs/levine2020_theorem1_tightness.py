"""After Theorem 1: its bounds 'grow double-exponentially with depth and polynomially with width, tightly
describing its behavior w.r.t. depth and width'.

Tight is read as: the two sides of eq. 6 (on the log3 scale) stay within a constant factor of each
other.  Two readings of where: at any fixed depth as the width grows, or over the whole regime
L < log3 d_x, up to its edge d_x = 3^L + 1 (H = 2 divides it).  Decided with sympy limits.
"""

import sympy as sp

from verify.authoring import Claim, InequalityChain, Property, neighbour

from ._common import BELOW_THRESHOLD, MAIN, H, L, Source, d_x, log3

LOWER = sp.Rational(1, 9) * 3**L * (log3(d_x - H) - L + 2 - log3(2))
UPPER = (3**L - 1) / 2 * log3(d_x + H)
RATIO = UPPER / LOWER


def _fixed_depth(bound=None):
    """For L = 2..4 and H = 2, upper/lower -> a finite limit as d_x grows (``bound``: a stated limit instead)."""
    def check():
        rows, bad = [], []
        for depth in range(2, 5):
            limit = sp.limit(RATIO.subs({L: depth, H: 2}), d_x, sp.oo)
            want = sp.Rational(3**depth - 1, 2 * 3 ** (depth - 2)) if bound is None else bound
            rows.append(f"L={depth}: {limit}")
            if limit != want:
                bad.append(depth)
        return not bad, "upper/lower as d_x -> oo: " + ", ".join(rows) + \
            (" = (3^L - 1)/(2 3^(L-2))" if bound is None else f" (stated {bound})"), \
            {"depths": bad} if bad else None
    return check


def _edge():
    """Along the edge of the regime, d_x = 3^L + 1 with H = 2, upper/lower stays bounded as L grows."""
    limit = sp.limit(RATIO.subs({d_x: 3**L + 1, H: 2}), L, sp.oo)
    return limit.is_finite is True, f"upper/lower at d_x = 3^L + 1, H = 2, as L -> oo: {limit}", \
        None if limit.is_finite else {"d_x": "3^L + 1", "H": 2, "limit": str(limit)}


#: The ratio on the regime's edge d_x = 3^L + 1, H = 2 (3^L + 1 is even, so H = 2 divides it).
EDGE = RATIO.subs({d_x: 3**L + 1, H: 2})


CLAIM = Claim(
    id="levine2020_theorem1_tightness",
    source=Source(MAIN, "§4.1", "after the proof sketch of Theorem 1: the bounds of eq. 6 'tightly describing its "
                                "behavior w.r.t. depth and width'"),
    statement="The two sides of eq. 6 (log3 scale) are within a constant factor of each other.",
    formulas={"lower": LOWER, "upper": UPPER, "ratio": RATIO},
    regime=BELOW_THRESHOLD,
    reading="At a fixed depth the ratio tends to (3^L - 1)/(2 3^(L-2)) < 9/2 (tight up to a factor 4.5); at the "
            "regime's edge d_x = 3^L + 1 it grows without bound, like 9L / (2(2 - log3 2)) ~ 3.3 L.",
    checks=[Property(_fixed_depth(), name="fixed depth, width growing", reading="fixed depth",
                     perturb={"limit 1 (bounds asymptotically equal)": neighbour(_fixed_depth, factory=True, bound=sp.Integer(1))}),
            Property(_edge, name="edge of the regime, depth growing", reading="whole regime")],
    expected="ambiguous",
    corrected_statement="Tight up to a factor below 9/2 in log3 sep at any fixed depth; at the edge of the regime "
                        "(d_x = 3^L + 1) the upper bound exceeds the lower by a factor between L and 4L (it grows "
                        "like 9L / (2(2 - log3 2)) ~ 3.3 L).",
    corrected_checks=[InequalityChain([L, EDGE, 4 * L], ["<=", "<="], grid={L: list(range(2, 41))}, search=0,
                                      name="L <= upper/lower <= 4L at d_x = 3^L + 1, L = 2..40")],
)
