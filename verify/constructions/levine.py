"""The weight-and-template construction behind the lower bounds of Theorems 1-2, exactly in Q(i).

First supplement (``levine2020_limits_to_depth_efficiencies.md``) Lemma 4, eq. 20; revised
supplement Lemma 6, eq. 17: for a matrix V (M/2 rows, l2-normalised, (d_x - H)/2 columns) there
are weights (using the imaginary unit) and M + 1 templates such that the grid sub-matrix on rows
(i_1, M+1, ..., M+1), i_1 <= M/2, and columns (j_1, M+1, ...), j_1 > M/2, equals
Const * (V V^T)^{.3^(L-2)}.  The network is the engine's eq. 3 (``network.output_coordinate``)
evaluated over Gaussian rationals.  Indices below are 0-based; c = floor((d_a - 1)/2).

``printed`` is a set of the printed readings to apply, each one defect of the text (the
corrected construction is the empty set):

* ``value_rows``: W^{V,1,h} rows (d_a-1)/2 < i <= d_a - 1 ask i = j - d_a(h-1) (and i = j -
  d_a(h-1) - (d_a-1)/2) with j in the first (second) half, which no i in that range meets, so
  those rows keep only the constant column; corrected: row c + r reads coordinate r of each half.
* ``value_scale``: the printed factor 1/N multiplies the whole of W^{V,1,h}; eq. 24-26 need it on
  the constant column only.
* ``template_offset``: the second-half templates read row i - M/2 + 1 of V; corrected i - M/2.
* ``phi``: phi(j) = floor((j-1)/d_a)(d_a - 1) + ((j-1) mod d_a) + 1 (runs past V's (d_x-H)/2
  columns when H >= 2); corrected floor((j-1)/d_a) c + ((j-1) mod d_a) + 1.
* ``last_layer``: W^{V,L,h} = i 1_{j=d_a} (head 1's constant coordinate for every head) with
  W^{O,L,h} placing head h in its own segment, so y_p sees one head's partial Gram; corrected:
  W^{V,L,h} reads head h's own constant coordinate and every W^{O,L,h} writes into every
  coordinate, so y_p sums the heads (eq. 41's sum over h).
"""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any

from ..exact.gaussian import GaussianRational, I
from ..model.network import output_coordinate
from ..model.spec import LayerWeights, NetworkSpec, Weights
from .vocabulary import Layout

__all__ = ["DEFECTS", "construction", "grid_submatrix", "hadamard_target", "proportional", "unit_rows"]

DEFECTS = ("value_rows", "value_scale", "template_offset", "phi", "last_layer")


def unit_rows(count: int, dim: int, seed: int) -> list[list[Fraction]]:
    """``count`` rational unit vectors in Q^dim (inverse stereographic projection of random points)."""
    rng = random.Random(f"levine-lemma4:{seed}:{count}:{dim}")
    rows = []
    for _ in range(count):
        t = [Fraction(rng.randint(-4, 4), rng.randint(1, 3)) for _ in range(dim - 1)]
        norm = sum(x * x for x in t)
        rows.append([2 * x / (norm + 1) for x in t] + [(norm - 1) / (norm + 1)])
    return rows


def _zeros(rows: int, cols: int) -> list[list[Any]]:
    return [[0] * cols for _ in range(rows)]


def _freeze(m):
    return tuple(tuple(row) for row in m)


def construction(width: int, heads: int, depth: int, tokens: int, v_matrix: list[list[Fraction]],
                 printed: frozenset[Any] = frozenset()) -> tuple[Weights, list[list[Any]]]:
    """The weights (depth layers, Gaussian-rational entries) and the M + 1 templates."""
    d_a = width // heads
    c = (d_a - 1) // 2
    layout = Layout(width, heads, heads * c, printed="phi" in printed)
    inv_n = Fraction(1, tokens)
    layers = []
    for layer in range(1, depth + 1):
        query, key, value, output = [], [], [], []
        for h in range(heads):
            s = d_a * h
            q = _zeros(d_a, width)
            v = _zeros(d_a, width)
            o = _zeros(width, d_a)
            if layer == 1:
                q[0][d_a - 1] = 1
                scale = inv_n if "value_scale" in printed else 1
                for r in range(c):
                    v[r][s + r] = scale
                    v[r][s + c + r] = scale * I
                    if "value_rows" not in printed:
                        v[c + r][s + r] = -scale
                        v[c + r][s + c + r] = -scale * I
                for r in range(c, d_a):
                    if r < 2 * c or r == d_a - 1:
                        v[r][s + d_a - 1] = inv_n
            elif layer == 2:
                for r in range(c):
                    q[r][s + r] = 1
            else:
                for j in range(width):
                    if (j + 1) % d_a:
                        q[0][j] = 1
            if 1 < layer < depth:
                for a in range(d_a):
                    v[a][s + a] = 1
            if layer == depth:
                column = d_a - 1 if "last_layer" in printed else s + d_a - 1
                for a in range(d_a):
                    v[a][column] = I
            for a in range(d_a):
                if layer == depth and "last_layer" not in printed:
                    for k in range(width):
                        o[k][0] = 1
                else:
                    o[s + a][a] = 1
            query.append(_freeze(q))
            key.append(_freeze(q))
            value.append(_freeze(v))
            output.append(_freeze(o))
        layers.append(LayerWeights(tuple(query), tuple(key), tuple(value), tuple(output)))
    half = len(v_matrix)
    templates = []
    for i in range(1, 2 * half + 2):
        x = []
        for j in range(1, width + 1):
            kind = layout.kind(j)
            if kind == "const":
                x.append(1)
            elif kind == "first" and i <= half:
                x.append(v_matrix[i - 1][layout.phi(j) - 1])
            elif kind == "second" and half < i <= 2 * half:
                row = i - half + 1 if "template_offset" in printed else i - half
                x.append(v_matrix[row - 1][layout.phi(j - c) - 1])
            else:
                x.append(0)
        templates.append([GaussianRational(e) for e in x])
    return Weights(tuple(layers), 0, 0), templates


def grid_submatrix(width: int, heads: int, depth: int, tokens: int, v_matrix: list[list[Fraction]],
                   printed: frozenset[Any] = frozenset(), output: int = 0) -> list[list[GaussianRational]]:
    """Eqs. 21-22's M/2 x M/2 sub-matrix: y_output^1 with x^(i_1) at position 1, x^(j_1) at N/2 + 1,
    x^(M+1) elsewhere (I = first N/2 positions)."""
    weights, templates = construction(width, heads, depth, tokens, v_matrix, printed)
    spec = NetworkSpec(depth=depth, width=width, heads=heads, tokens=tokens, output=output, position=0)
    half = len(v_matrix)
    filler = templates[-1]
    out = []
    for i1 in range(half):
        row = []
        for j1 in range(half):
            inputs = [filler] * tokens
            inputs[0] = templates[i1]
            inputs[tokens // 2] = templates[half + j1]
            row.append(output_coordinate(spec, weights, inputs))
        out.append(row)
    return out


def hadamard_target(v_matrix: list[list[Fraction]], power: int) -> list[list[Fraction]]:
    """(V V^T)^{.power}."""
    return [[sum(a * b for a, b in zip(u, w, strict=False)) ** power for w in v_matrix] for u in v_matrix]


def proportional(grid: list[list[Any]], target: list[list[Any]]) -> tuple[bool, GaussianRational | None]:
    """Whether grid = Const * target entry by entry for one nonzero Const (exactly); and Const."""
    const = None
    for grow, trow in zip(grid, target, strict=False):
        for g, t in zip(grow, trow, strict=False):
            if t != 0 and const is None:
                const = GaussianRational._of(g) / GaussianRational._of(t)
    if const is None or const == 0:
        return False, const
    return all(g == const * GaussianRational._of(t) for grow, trow in zip(grid, target, strict=False)
               for g, t in zip(grow, trow, strict=False)), const
