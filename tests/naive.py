"""An independent, deliberately naive implementation of eq. 3, element by element.

y^i = sum_j sum_h <W^{Q,h} x^i, W^{K,h} x^j> W^{O,h} W^{V,h} x^j
(levine2020_limits_to_depth_efficiencies.md eq. 3, with W^O for the transcription's second W^Q),
plus x^i with residual connections.  No S, no T(S), no shared code with verify.model.network.
"""


def _mv(m, v):
    return [sum(m[r][c] * v[c] for c in range(len(v))) for r in range(len(m))]


def _dot(u, v):
    return sum(a * b for a, b in zip(u, v, strict=False))


def naive_forward(spec, weights, inputs):
    xs = [list(x) for x in inputs]
    for layer in weights.layers:
        ys = []
        for i in range(len(xs)):
            y = list(xs[i]) if spec.residual else [0] * spec.width
            for j in range(len(xs)):
                for q, k, v, o in zip(layer.query, layer.key, layer.value, layer.output, strict=False):
                    score = _dot(_mv(q, xs[i]), _mv(k, xs[j]))
                    contribution = _mv(o, _mv(v, xs[j]))
                    y = [a + score * b for a, b in zip(y, contribution, strict=False)]
            ys.append(y)
        xs = ys
    return xs
