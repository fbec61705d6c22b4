"""The forward pass of eq. 3 over any exact ring.

Each layer maps the columns x^j of X to y^j = T(S) x^j (plus x^j with residual connections),
with S = sum_j x^j x^j^T and T(S) = sum_h W^{O,h} W^{V,h} S (W^{K,h})^T W^{Q,h}
(``levine2020_limits_to_depth_efficiencies.md`` eq. 3, vectorised as in the supplement's
proof of Lemma 1; ``docs/mathematics.md`` §1).

The entries may be elements of any python-flint ring that supports ``+``, ``*`` and
multiplication by Python integers: ``fmpz``, ``nmod``, ``fmpq`` and the multivariate
polynomials over them.  The same code therefore evaluates the network at a point and
builds its exact polynomial.
"""

from __future__ import annotations

from typing import Any

from .spec import NetworkSpec, Weights

__all__ = ["layer_maps", "attention_matrix", "forward", "output_coordinate"]


def _int_matmul(a, b):
    """Product of two integer matrices given as nested tuples."""
    return tuple(tuple(sum(a[i][k] * b[k][j] for k in range(len(b))) for j in range(len(b[0])))
                 for i in range(len(a)))


def _transpose(a):
    return tuple(zip(*a, strict=False))


def layer_maps(weights: Weights) -> list[list[tuple[Any, ...]]]:
    """Per layer, per head, the integer pair (A_h, B_h) with T(S) = sum_h A_h S B_h.

    A_h = W^{O,h} W^{V,h} and B_h = (W^{K,h})^T W^{Q,h}, both d_x x d_x (eq. 3).
    """
    maps = []
    for layer in weights.layers:
        maps.append([(_int_matmul(o, v), _int_matmul(_transpose(k), q))
                     for q, k, v, o in zip(layer.query, layer.key, layer.value, layer.output, strict=False)])
    return maps


def _gram(columns, zero):
    """S = sum_j x^j x^j^T, symmetric, as a list of lists."""
    d = len(columns[0])
    s = [[zero] * d for _ in range(d)]
    for a in range(d):
        for b in range(a, d):
            acc = zero
            for x in columns:
                acc = acc + x[a] * x[b]
            s[a][b] = acc
            s[b][a] = acc
    return s


def _left_int(a, m, zero):
    """Integer matrix a times ring matrix m."""
    rows, inner, cols = len(a), len(m), len(m[0])
    out = []
    for i in range(rows):
        row = []
        for j in range(cols):
            acc = zero
            for k in range(inner):
                if a[i][k]:
                    acc = acc + m[k][j] * a[i][k]
            row.append(acc)
        out.append(row)
    return out


def attention_matrix(maps_of_layer: list[tuple[Any, ...]], s: list[list[Any]], zero: Any) -> list[list[Any]]:
    """T(S) = sum_h A_h S B_h for one layer (eq. 3), as a list of lists of ring elements."""
    d = len(s)
    total = [[zero] * d for _ in range(d)]
    for a_h, b_h in maps_of_layer:
        left = _left_int(a_h, s, zero)  # A_h S
        for i in range(d):
            for j in range(d):
                acc = total[i][j]
                for k in range(d):
                    if b_h[k][j]:
                        acc = acc + left[i][k] * b_h[k][j]
                total[i][j] = acc
    return total


def _apply(t, x, zero, residual: bool):
    d = len(t)
    y = []
    for a in range(d):
        acc = x[a] if residual else zero
        for b in range(d):
            acc = acc + t[a][b] * x[b]
        y.append(acc)
    return y


def forward(spec: NetworkSpec, weights: Weights, inputs: list[Any], layers: int | None = None) -> list[Any]:
    """Apply ``layers`` (default all) layers of eq. 3 to the input columns.

    Parameters
    ----------
    spec : NetworkSpec
    weights : Weights
    inputs : list of N vectors, each a list of d_x ring elements
    layers : int, optional

    Returns
    -------
    list of N vectors: the outputs y^j of the last layer applied.

    Notes
    -----
    Cost per layer: O(N d_x^2) ring products for S, O(H d_x^3) for T(S), O(N d_x^2) for T x^j.
    """
    zero = inputs[0][0] * 0
    columns = [list(x) for x in inputs]
    for maps in layer_maps(weights)[: spec.depth if layers is None else layers]:
        t = attention_matrix(maps, _gram(columns, zero), zero)
        columns = [_apply(t, x, zero, spec.residual) for x in columns]
    return columns


def output_coordinate(spec: NetworkSpec, weights: Weights, inputs: list[Any]) -> Any:
    """y_p^i: coordinate p of the output at position i after all L layers (eq. 4).

    The last layer is contracted directly: y_p^i = sum_h (A_h^T e_p)^T S (B_h y^i), which
    avoids forming the whole of T(S) and every output position.
    """
    zero = inputs[0][0] * 0
    columns = forward(spec, weights, inputs, layers=spec.depth - 1)
    s = _gram(columns, zero)
    x = columns[spec.position]
    d = spec.width
    result = x[spec.output] if spec.residual else zero
    for a_h, b_h in layer_maps(weights)[-1]:
        bx = [sum((x[k] * b_h[j][k] for k in range(d) if b_h[j][k]), zero) for j in range(d)]
        for c in range(d):
            u = a_h[spec.output][c]
            if not u:
                continue
            row = zero
            for e in range(d):
                row = row + s[c][e] * bx[e]
            result = result + row * u
    return result
