"""Author response, lines 16-18: Theorem 2 'is also tight w.r.t. leading terms of depth and width'.

The two sides of eq. 7 (log3 scale) are linear in L with slopes 2 d_x + 1 (upper) and
d_x/2 - H/2 - 1 (lower).  Read as: their ratio stays bounded.  Two readings of where: for large width
at a bounded head count (the ratio of slopes tends to 4), or at every width and head count the
theorem allows (1 < H < d_x, H dividing d_x).  Decided exactly with sympy.
"""

import sympy as sp

from verify.authoring import Cases, Claim, Property, neighbour

from ._common import RESPONSE, H, L, Source, d_x, log3

LOWER = sp.Rational(1, 2) * d_x * L - L * (H / 2 + 1) - d_x * (1 + sp.Rational(1, 2) * log3((d_x - H) / 2))
UPPER = 2 * d_x * L + L - 2 * d_x * log3(d_x / (2 * sp.sqrt(2 * sp.E))) + log3(d_x)
LOWER_SLOPE = sp.diff(LOWER, L)
UPPER_SLOPE = sp.diff(UPPER, L)
SMALL = [(d, h) for d in range(4, 13) for h in range(2, d) if d % h == 0]


def _large_width(stated=4):
    """Upper slope / lower slope -> ``stated`` as d_x grows with H fixed."""
    def check():
        limit = sp.limit(UPPER_SLOPE / LOWER_SLOPE, d_x, sp.oo)
        return limit == stated, f"slopes {UPPER_SLOPE} and {LOWER_SLOPE}; ratio -> {limit} as d_x -> oo", None
    return check


def _grows(width, heads):
    """The lower bound grows with L (positive slope), so the ratio of the two sides stays bounded as L grows."""
    slope = LOWER_SLOPE.subs({d_x: width, H: heads})
    return slope > 0, f"d_x={width} H={heads}: lower slope {slope}", \
        None if slope > 0 else {"d_x": width, "H": heads, "lower_slope": str(slope)}


def _zero_slope_cases(width, heads):
    """Corrected: the lower slope is (d_x - H)/2 - 1, positive exactly when d_x - H > 2."""
    slope = LOWER_SLOPE.subs({d_x: width, H: heads})
    return (slope > 0) == (width - heads > 2) and slope == sp.Rational(width - heads, 2) - 1, \
        f"d_x={width} H={heads}: slope {slope}"


CLAIM = Claim(
    id="levine2020_response_theorem2_tightness",
    source=Source(RESPONSE, "lines 16-18", "'Th2 is also tight w.r.t. leading terms of depth and width'"),
    statement="The lower and upper bounds of eq. 7 agree in their leading terms up to a constant factor.",
    formulas={"lower_slope": LOWER_SLOPE, "upper_slope": UPPER_SLOPE},
    reading="Leading terms are the coefficients of L.  For large d_x at bounded H their ratio tends to 4; at "
            "d_x - H <= 2 (d_x = 4, H = 2) the lower bound does not grow with L at all.",
    checks=[Property(_large_width(), name="ratio of slopes for large width", reading="large width",
                     perturb={"ratio -> 2": neighbour(_large_width, factory=True, stated=2)}),
            Cases(SMALL, _grows, name="lower bound grows with L at every admissible (d_x, H)",
                  reading="every width")],
    expected="ambiguous",
    corrected_statement="Tight up to a factor 4 in the leading terms for large d_x at bounded H; the lower bound's "
                        "slope (d_x - H)/2 - 1 vanishes at d_x - H = 2 (d_x = 4, H = 2), where it does not grow "
                        "with depth.",
    corrected_checks=[Cases(SMALL, _zero_slope_cases, name="lower slope (d_x - H)/2 - 1")],
)
