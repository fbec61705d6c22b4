"""§2.2: 'the Feed-Forward and residual connection can be now effectively embedded within W^{O,l,h}'.

A linear feed-forward map A (ReLU and layer-norm removed) after a layer is absorbed by replacing
every W^{O,l,h} with A W^{O,l,h}.  The residual connection is not: eq. 3 is a homogeneous cubic in
its input for every choice of weights, while y + x has a degree-1 part.  The authors concede the
second point in their response (lines 20-21).
"""

import random

from verify.authoring import Cases, Claim, neighbour
from verify.authoring.network import LayerWeights, NetworkSpec, Weights, draw_weights, forward

from ._common import MAIN, Source
from ._layers import degrees, one_layer, symbolic_inputs

RESIDUAL_CASES = [(1, 1, 1), (1, 2, 1), (1, 2, 2), (2, 1, 1), (2, 2, 1)]
FF_CASES = [(1, 2, 1), (2, 2, 1), (2, 2, 2), (2, 3, 3), (3, 1, 1)]


def _residual_homogeneous(depth, width, heads):
    """Printed: with the residual connection y_p^i is still of the form of eq. 3 (homogeneous, degree 3^L)."""
    found = degrees(depth, width, heads, residual=True)
    holds = found == {3**depth}
    return holds, f"residual L={depth} d_x={width} H={heads}: degrees {sorted(found)}", \
        None if holds else {"depth": depth, "width": width, "heads": heads, "residual_degrees": sorted(found),
                            "eq3_degrees": [3**depth]}


def _residual_linear_part(depth, width, heads, lowest=1):
    """Corrected: with the residual connection y_p^i has a term of degree ``lowest`` (1: the skip path)."""
    found = degrees(depth, width, heads, residual=True)
    return min(found) == lowest and max(found) == 3**depth, \
        f"residual L={depth} d_x={width} H={heads}: degrees {sorted(found)}"


def _matrix(width, seed):
    rng = random.Random(f"ff:{seed}")
    return [[rng.randint(-9, 9) for _ in range(width)] for _ in range(width)]


def _times(a, columns):
    zero = columns[0][0] * 0
    return [[sum((a[r][c] * x[c] for c in range(len(x))), zero) for r in range(len(a))] for x in columns]


def _feed_forward(depth, width, heads, transpose=False):
    """A linear map A after every layer equals the network with W^{O,l,h} -> A W^{O,l,h} (exact polynomials)."""
    spec = NetworkSpec(depth=depth, width=width, heads=heads)
    weights = draw_weights(spec, 0)
    maps = [_matrix(width, layer) for layer in range(depth)]
    columns = symbolic_inputs(width, 3)
    step = NetworkSpec(depth=1, width=width, heads=heads)
    for layer, a in enumerate(maps):
        columns = _times(a, forward(step, one_layer(weights, layer), columns))
    absorbed = []
    for layer, a in zip(weights.layers, maps, strict=False):
        a = [list(r) for r in zip(*a, strict=False)] if transpose else a
        outputs = tuple(tuple(tuple(sum(a[r][c] * o[c][s] for c in range(width)) for s in range(len(o[0])))
                              for r in range(width)) for o in layer.output)
        absorbed.append(LayerWeights(layer.query, layer.key, layer.value, outputs))
    merged = forward(spec, Weights(tuple(absorbed), weights.seed, weights.weight_range), symbolic_inputs(width, 3))
    holds = merged == columns
    return holds, f"L={depth} d_x={width} H={heads}: A y^l {'=' if holds else '!='} network with A W^O"


CLAIM = Claim(
    id="levine2020_residual_in_output_matrix",
    source=Source(MAIN, "§2.2", "after eq. 3: feed-forward and residual connection embedded within W^{O,l,h}"),
    statement="In the analysed network (no ReLU, no layer-norm), the feed-forward sublayer and the residual "
              "connection can be embedded within the output matrices W^{O,l,h} of eq. 3.",
    domain="L = 1-3, d_x = 1-3, several H; N = 2 (residual degrees) and N = 3 (feed-forward), exact integers",
    reading="Embedded means: the network with the sublayer equals a network of the form of eq. 3 with other "
            "W^O.  Every eq. 3 network is homogeneous of degree 3^L, so a residual network with any other "
            "degree is not of that form.",
    checks=[Cases(FF_CASES, _feed_forward, name="linear feed-forward absorbed into W^O",
                  perturb={"absorbed as A^T W^O": neighbour(_feed_forward, transpose=True)}),
            Cases(RESIDUAL_CASES, _residual_homogeneous, name="residual network of the form of eq. 3")],
    expected="erratum",
    corrected_statement="The linear feed-forward map is absorbed by W^{O,l,h} -> A W^{O,l,h}; the residual "
                        "connection is not: with it y_p^i has monomials of every odd degree from 1 to 3^L, while "
                        "eq. 3 gives only degree 3^L (as the author response concedes, lines 20-21).",
    corrected_checks=[Cases(FF_CASES, _feed_forward, name="linear feed-forward absorbed into W^O",
                            perturb={"absorbed as A^T W^O": neighbour(_feed_forward, transpose=True)}),
                      Cases(RESIDUAL_CASES, _residual_linear_part, name="residual network has a degree-1 part",
                            perturb={"lowest degree 3 (no skip path)": neighbour(_residual_linear_part, lowest=3)})],
)
