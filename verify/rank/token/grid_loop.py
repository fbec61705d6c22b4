"""The token Gram route's forward pass over a grid of point pairs, compiled by numba: one loop per pair.

``GramModel.evaluate_grid`` forms S and layer 1's map G_1 once per side point (both are affine in the
point z) and then runs layers 2..L on every pair (left, right).  As numpy passes over stacks of d x d
int64 matrices that costs a whole-array pass per product, limb split and reduction (``gram._mm``):
about 3.6 us a pair at depth 3, d_x = 4, most of it in int64 ``%`` (about 10-25 ns an entry) and in the
temporaries.  The loop here does, for one pair at a time and in registers and a few d x d scratch
arrays, the same recursion (docs/mathematics.md §1, eq. 3):

    S_1 = S_left + S_right,  G_1 = G_left + G_right,
    S_(l+1) = G_l S_l G_l^T,  G_l = sum_h A_h S_l B_h (+ I with residuals)   (l = 1 .. L - 1),
    row = e_p^T (sum_h A_L,h S_L B_L,h (+ I)) G_(L-1) ... G_1,  y = row . x_query,

with S_L itself never formed: e_p^T A_h S_L B_h = (((e_p^T A_h) G_(L-1)) S_(L-1)) G_(L-1)^T B_h, four
vector-matrix products instead of two matrix products (as ``GramModel._rows_from`` does).

Exactness (int64, p < 2^31, d < 2^14): every value is a residue in [0, p) and every product and sum goes
through the mod-p layer's compiled primitives (``verify.exact.modp_compiled``, argument there), so nothing
reaches 2^63.  ``tests/rank/test_grid_loop.py`` checks the loop bit for bit against ``GramModel.evaluate``
(the numpy limb route) and against Python integers at p - 1 everywhere (the largest sums).

Compiled on first use (cached beside the module), without the GIL, so ``evaluate_grid`` runs it on bands of
left rows in threads, one per core (numba's own ``parallel=True`` took 44 s to compile here against 13 s);
it runs it from ``COMPILED_MIN_PAIRS`` pairs
on, and keeps its numpy passes (the same values, slower) below that and where numba cannot be imported or
cannot cache (``gram._compiled_grid`` gives None).  Written by
hand: no library here runs a batched modular matrix recursion (numba only compiles the loop).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ...exact.modp_compiled import mul as _mul
from ...exact.modp_compiled import mul_t as _mul_t
from ...exact.modp_compiled import part as _part
from ...exact.modp_compiled import red as _red
from ...exact.modp_compiled import vec as _vec
from ...exact.modp_compiled import vec_t as _vec_t

__all__ = ["grid"]


@njit(cache=True, nogil=True)
def grid(s_left: np.ndarray, s_right: np.ndarray, g_left: np.ndarray, g_right: np.ndarray, a: np.ndarray, b: np.ndarray,
         residual: bool, output: int, queries: np.ndarray, p: int, out: np.ndarray) -> None:
    """out[i, j] = y at the pair (left i, right j), mod p (module notes).

    s_left, s_right: S of each side point (K0 in the left's), n x d x d residues; g_left, g_right: G_1 of
    each (the identity in the left's), ignored at one layer; a, b: the layer maps, layers x heads x d x d;
    ``residual``: 1 with residual connections; ``output``: the output index p of e_p; queries: x_w of
    each left row, n_left x d."""
    n_left, n_right, d = s_left.shape[0], s_right.shape[0], s_left.shape[1]
    layers, heads = a.shape[0], a.shape[1]
    s = np.empty((d, d), dtype=np.int64)
    g = np.empty((d, d), dtype=np.int64)
    t = np.empty((d, d), dtype=np.int64)
    u = np.empty((d, d), dtype=np.int64)
    maps = np.empty((max(layers - 1, 1), d, d), dtype=np.int64)
    row = np.empty(d, dtype=np.int64)
    acc_row = np.empty(d, dtype=np.int64)
    tmp = np.empty(d, dtype=np.int64)
    for i in range(n_left):
        for j in range(n_right):
            for r in range(d):
                for c in range(d):
                    s[r, c] = _red(s_left[i, r, c] + s_right[j, r, c], p)
            for layer in range(layers - 1):
                if layer == 0:
                    for r in range(d):
                        for c in range(d):
                            g[r, c] = _red(g_left[i, r, c] + g_right[j, r, c], p)
                else:
                    for r in range(d):
                        for c in range(d):
                            g[r, c] = 1 if (residual and r == c) else 0
                    for h in range(heads):
                        _mul(a[layer, h], s, t, p)
                        _mul(t, b[layer, h], u, p)
                        for r in range(d):
                            for c in range(d):
                                g[r, c] = _red(g[r, c] + u[r, c], p)
                maps[layer] = g
                if layer < layers - 2:
                    _mul(g, s, t, p)
                    _mul_t(t, g, s, p)  # S_(l+1) = G S G^T
            # the last layer's row p: e_p^T A_h S_L B_h with S_L = G S G^T never formed (G = G_(L-1)),
            # ((e_p^T A_h G) S) G^T B_h in vector-matrix products
            last = layers - 1
            for c in range(d):
                acc_row[c] = 1 if (residual and c == output) else 0
            for h in range(heads):
                if last:
                    _vec(a[last, h, output], g, row, p)
                    _vec(row, s, tmp, p)
                    _vec_t(tmp, g, row, p)
                    _vec(row, b[last, h], tmp, p)
                    row[:] = tmp
                else:
                    _vec(a[last, h, output], s, tmp, p)
                    _vec(tmp, b[last, h], row, p)
                for c in range(d):
                    acc_row[c] = _red(acc_row[c] + row[c], p)
            for layer in range(layers - 2, -1, -1):
                _vec(acc_row, maps[layer], tmp, p)
                acc_row[:] = tmp
            acc = 0
            for c in range(d):
                acc += _part(acc_row[c] * queries[i, c], p)
            out[i, j] = _red(acc, p)
