"""§2.2 and §4.1: every layer of eq. 3 integrates 3 copies of its input (Key, Query and Value)."""

from verify.authoring import Cases, Claim, shifted

from ._common import MAIN, Source
from ._layers import degrees

CASES = [(1, 1, 1), (1, 2, 1), (1, 2, 2), (1, 3, 3), (1, 4, 2), (2, 1, 1), (2, 2, 1), (2, 2, 2), (3, 1, 1)]


def _case(depth, width, heads, copies=3):
    """y_p^i is homogeneous of degree copies^L: each layer is a form of degree ``copies`` in its input."""
    found = degrees(depth, width, heads, tokens=2)
    want = {copies**depth}
    line = f"L={depth} d_x={width} H={heads}: degrees {sorted(found)}"
    return found == want, line, None if found == want else {"depth": depth, "width": width, "heads": heads,
                                                            "degrees": sorted(found), "stated": copies**depth}


CLAIM = Claim(
    id="levine2020_layer_three_copies",
    source=Source(MAIN, "§2.2 after eq. 3; §4.1 first paragraph",
                  "'every layer integrates 3 copies of its input'; 'introduced 3 times into the Key/Query/Value'"),
    statement="Each layer of eq. 3 is a homogeneous form of degree 3 in its input, so y_p^i is homogeneous of "
              "degree 3^L in the network's input.",
    domain="L = 1-3, d_x = 1-4, several H, N = 2 (exact integer polynomials at seed 0)",
    reading="Three copies of the input per layer means degree exactly 3 per layer; composed over L layers, "
            "every monomial of y_p^i has degree 3^L.",
    checks=[Cases(CASES, _case, name="degrees of y_p^i",
                  perturb={"2 copies per layer (degree 2^L)": shifted(_case, copies=2),
                           "4 copies per layer (degree 4^L)": shifted(_case, copies=4)})],
)
