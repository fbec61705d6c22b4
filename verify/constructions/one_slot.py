"""The one-slot construction: sep >= ((floor((d_x - 1)/2) over 3^(L-2))) for every H dividing d_x (issue 34).

A repair of the lower-bound construction of the first supplement (Lemma 4, eq. 20; revised supplement
Lemma 6, eq. 17), whose per-head layout reaches only H floor((d_a - 1)/2) columns of V.  Here the D =
floor((d_x - 1)/2) column pairs are not tied to heads until layer 2.  Coordinates (0-based): A-side 0..D-1,
B-side D..2D-1, the constant 2D (< d_x); the slot is coordinate 0.  With eq. 3's layer
y^j = sum_h W^{O,h} W^{V,h} S (W^{K,h})^T W^{Q,h} x^j, S = sum_k x^k x^k^T:

* layer 1: every head's query and key read the constant, so every score is x^j_c x^k_c = 1; values and
  outputs copy the 2D + 1 used coordinates, split into blocks of d_a over the heads.  With templates
  x = (v, 0, 1) at one position of A, (0, w, 1) at one position of B and the filler (0, 0, 1) elsewhere,
  each position gets u = (v, w, N);
* layer 2: head h's query reads the A-side coordinates k of its share S_h (|S_h| <= d_a), its key the
  matching B-side coordinates D + k, its value the constant, its output the slot, so the heads together
  write N * N * <v, w> into the slot;
* layers 3..L: head 0 cubes the slot (query, key, value and output all on coordinate 0).

At N = 2 (A = {0}, B = {1}) the grid matrix M[i, j] = y_0^0(t^A_i, t^B_j) is therefore
c * (V W^T)^{.3^(L-2)} with c a nonzero constant (the slot holds s_2 = 4 <v, w> after layer 2 and
s_l = 2 s_{l-1}^3 after layer l >= 3), whose rank for
generic V, W with m rows is the number of degree-3^(L-2) monomials in D variables,
((D over 3^(L-2))) (first supplement B.2, Claim 2's argument).  A rank at one point never exceeds the
generic rank, so sep >= ((D over 3^(L-2))) almost everywhere; D = floor((d_x - 1)/2) >= floor((d_x - H)/2)
for every H >= 1.  Entries are 0 and 1, so the weights are integers (the certificate stores them).
"""

from __future__ import annotations

import random
from math import comb
from typing import Any

import flint

from ..model.spec import LayerWeights, NetworkSpec, Weights

__all__ = ["columns", "one_slot_bound", "one_slot_weights", "layout_templates", "layout_grid_rank"]


def columns(width: int) -> int:
    """D = floor((d_x - 1)/2): the column pairs the one-slot layout places (2D + 1 <= d_x coordinates)."""
    return (width - 1) // 2


def one_slot_bound(depth: int, width: int) -> int:
    """((floor((d_x - 1)/2) over 3^(L-2))) = C(D + 3^(L-2) - 1, 3^(L-2)), the rank the layout proves.

    >>> one_slot_bound(2, 12), one_slot_bound(3, 12), one_slot_bound(3, 8)
    (5, 35, 10)
    """
    d, k = columns(width), 3 ** (depth - 2)
    return comb(d + k - 1, k) if d else 0


def _zeros(rows: int, cols: int) -> list[list[int]]:
    return [[0] * cols for _ in range(rows)]


def _freeze(m) -> tuple[Any, ...]:
    return tuple(tuple(row) for row in m)


def one_slot_weights(spec: NetworkSpec, pairs: int | None = None) -> Weights:
    """The layout's integer weights for ``spec`` (depth >= 2; every H dividing d_x, d_a = d_x / H).

    ``pairs`` (default D) is the number of column pairs placed; more than D does not fit (2 pairs + 1
    coordinates > d_x) and is refused, which the tests use to plant a layout with a column too many by
    aliasing (see ``tests/constructions/test_one_slot.py``).
    """
    width, heads, d_a = spec.width, spec.heads, spec.attn_dim
    d = columns(width) if pairs is None else pairs
    if spec.depth < 2 or heads * d_a != width or 2 * d + 1 > width:
        raise ValueError(f"the one-slot layout needs depth >= 2, d_a = d_x / H and 2D + 1 <= d_x (D = {d})")
    const = 2 * d
    used = list(range(2 * d + 1))
    layers = []
    for layer in range(1, spec.depth + 1):
        query, key, value, output = [], [], [], []
        for h in range(heads):
            q, k, v, o = _zeros(d_a, width), _zeros(d_a, width), _zeros(d_a, width), _zeros(width, d_a)
            if layer == 1:
                q[0][const] = k[0][const] = 1
                for r, coordinate in enumerate(used[h * d_a:(h + 1) * d_a]):
                    v[r][coordinate] = 1
                    o[coordinate][r] = 1
            elif layer == 2:
                share = range(h * d_a, min((h + 1) * d_a, d))
                for r, pair in enumerate(share):
                    q[r][pair] = 1
                    k[r][d + pair] = 1
                if len(share):
                    v[0][const] = 1
                    o[0][0] = 1
            elif h == 0:
                q[0][0] = k[0][0] = v[0][0] = o[0][0] = 1
            query.append(_freeze(q))
            key.append(_freeze(k))
            value.append(_freeze(v))
            output.append(_freeze(o))
        layers.append(LayerWeights(tuple(query), tuple(key), tuple(value), tuple(output)))
    return Weights(tuple(layers), 0, 1)


def layout_templates(width: int, v_rows: list[list[int]], w_rows: list[list[int]]) -> tuple[list[Any], list[Any]]:
    """Templates (v, 0, 1) for position 0 and (0, w, 1) for position 1 (zeros past coordinate 2D)."""
    d = columns(width)

    def place(a, b):
        x = [0] * width
        x[:d], x[d:2 * d], x[2 * d] = list(a), list(b), 1
        return x

    return [place(v, [0] * d) for v in v_rows], [place([0] * d, w) for w in w_rows]


def layout_grid_rank(depth: int, width: int, heads: int, rows: int, seed: int = 0, entries: int = 2**16) -> int:
    """Exact rank over Q of the ``rows`` x ``rows`` grid M[i, j] = y_0^0(t^A_i, t^B_j) (N = 2) of the layout,
    seeded layout templates with entries in [-entries, entries]; eq. 3 vectorised over Z (fmpz_mat), a route
    apart from the certificate's (mod p) and ``verify.model.network`` (point by point).  At most
    ``one_slot_bound(depth, width)`` for any templates (the grid is c (V W^T)^{.3^(L-2)})."""
    spec = NetworkSpec(depth=depth, width=width, heads=heads)
    maps = [[(flint.fmpz_mat([list(r) for r in o]) * flint.fmpz_mat([list(r) for r in v]),
              flint.fmpz_mat([list(r) for r in k]).transpose() * flint.fmpz_mat([list(r) for r in q]))
             for q, k, v, o in zip(layer.query, layer.key, layer.value, layer.output, strict=False)]
            for layer in one_slot_weights(spec).layers]
    rng = random.Random(f"one-slot-grid:{seed}:{depth}:{width}:{heads}:{rows}")
    d = columns(width)
    draw = lambda: [rng.randint(-entries, entries) for _ in range(d)]  # noqa: E731
    a, b = layout_templates(width, [draw() for _ in range(rows)], [draw() for _ in range(rows)])
    # Eq. 3's forward pass is written out here over fmpz on purpose, not shared with certificate.py's
    # mod-p pass (``_outputs``): the claims use this grid as a route independent of the certificate's.
    grid = []
    for s in a:
        row = []
        for t in b:
            x = flint.fmpz_mat([[s[c], t[c]] for c in range(width)])
            for heads_maps in maps:
                gram = x * x.transpose()
                y = None
                for ov, kq in heads_maps:
                    term = ov * gram * kq * x
                    y = term if y is None else y + term
                x = y
            row.append(x[0, 0])
        grid.append(row)
    return flint.fmpz_mat(grid).rank()
