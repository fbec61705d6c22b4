"""§4.1 (proof sketch of Theorem 1): y_p^i is a degree-3^L polynomial in the N d_x inputs, each layer
multiplying the degree by 3, so sep is at most its number of monomials, at most (3^L + N d_x)^(N d_x)."""

from verify.authoring import Claim, InequalityChain, Property, shifted
from verify.authoring.network import DEFAULT_PRIME, Field, NetworkSpec, draw_weights, output_polynomial
from verify.authoring.ranks import rank_once as separation_rank  # one run at the given seed

from ._common import WIES, L, N, Source, d_x, multichoose

#: (depth, width, tokens): every size the literal forward pass expands in well under a second.
SIZES = [(1, 1, 2), (1, 2, 2), (1, 3, 2), (1, 1, 4), (1, 2, 4), (2, 1, 2), (2, 2, 2), (2, 1, 4), (3, 1, 2)]
#: The monomial count of a homogeneous degree-3^L polynomial in N d_x variables, and the sketch's bound.
COUNT = multichoose(N * d_x, 3**L)
BOUND = (3**L + N * d_x) ** (N * d_x)


def _degrees(shift: int = 0, slack: int = 0):
    """Expand y_p^i by the literal forward pass (eq. 5) at random weights: every monomial has degree
    3^L + shift, and the exact sep (coefficient route, balanced partition) is at most the number of
    monomials - slack (shift = slack = 0 is the statement)."""
    lines = []
    for depth, width, tokens in SIZES:
        spec = NetworkSpec(depth=depth, width=width, tokens=tokens)
        poly = output_polynomial(spec, draw_weights(spec, 0), Field(DEFAULT_PRIME))
        degrees = {sum(m) for m in poly.monoms()}
        room = multichoose(tokens * width, 3**depth)
        sep = separation_rank(spec, "coefficients").rank
        if degrees != {3**depth + shift} or not sep <= len(poly) - slack <= room - slack:
            return False, f"L={depth} d_x={width} N={tokens}: degrees {sorted(degrees)}, sep {sep}, {len(poly)} " \
                          f"monomials (room {room})", {"L": depth, "d_x": width, "N": tokens}
        lines.append(f"L={depth} d_x={width} N={tokens}: sep {sep} <= {len(poly)} monomials, all of degree {3**depth}")
    return True, "; ".join(lines), None


CLAIM = Claim(
    id="wies2021_sketch_monomials",
    source=Source(WIES, "§4.1", "proof sketch of Theorem 1, paragraph 2"),
    statement="Each layer is a degree-3 polynomial in its N d_x inputs, so y_p^i is a degree-3^L polynomial; sep is "
              "at most its number of monomials, at most (3^L + N d_x)^(N d_x).",
    formulas={"monomials_room": COUNT, "sketch_bound": BOUND},
    domain="degree and sep: L = 1-3, d_x = 1-3, N = 2 and 4 (SIZES); count: L = 1..5, N = 1..6, d_x = 1..6 and 100 "
           "random points",
    reading="sep is the exact coefficient-route rank for the balanced partition.  'Degree 3^L' is checked as "
            "homogeneity: every monomial of the literal forward pass has degree exactly "
            "3^L (no positional term).  The O(...) is checked with constant 1 through the count of degree-3^L "
            "monomials, ((N d_x over 3^L)) <= (3^L + N d_x)^(N d_x).",
    checks=[Property(_degrees, name="literal forward pass: degree 3^L, sep <= monomials <= ((N d_x over 3^L))",
                     perturb={"degree 3^L - 1": shifted(_degrees, shift=-1),
                              "degree 3^L + 1": shifted(_degrees, shift=1),
                              "sep <= monomials - 1": shifted(_degrees, slack=1)}),
            InequalityChain([COUNT, BOUND], ["<="], grid={L: list(range(1, 6)), N: list(range(1, 7)),
                                                          d_x: list(range(1, 7))},
                            search=100, search_ranges={L: (1, 8), N: (1, 40), d_x: (1, 40)},
                            name="((N d_x over 3^L)) <= (3^L + N d_x)^(N d_x)")],
)
