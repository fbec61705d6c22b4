"""The literal forward pass of eq. 3 over a block of token sequences at once, compiled by numba.

``batched.batched_grid`` evaluates y = e_o^T (output column 0 after L layers) for every pair (left sequence,
right sequence) of a grid.  Each layer of eq. 3 is Y = sum_h A_h X (X^T B_h X) (+ X with residuals), with
A_h = W^{O,h} W^{V,h} and B_h = (W^{K,h})^T W^{Q,h} (``network.layer_maps``), on the d x N matrix X of the
sequence's columns.  The sequences of a block are the innermost axis of every array (X is d x N x B), so each
scalar step of the recursion is one loop over the block that the compiler vectorises (AVX-512 multiplies
eight int64 lanes at once): no loop per sequence in Python, and no per-sequence call.

* Layer 1 reads tables: the input column of position n holding token w is x_n(w) = E_w + pos_n, so
  A_h x_n(w) and the score x_n(w)^T B_h x_m(w') take V N and V^2 N^2 values, formed once per grid
  (``batched.tables``); only Y_1 = sum_h W_h Sigma_h (d N^2 products a head) is formed per sequence.
* Layers 2..L-1: U = B_h X, Sigma = X^T U, W = A_h X, Y += W Sigma, per head.
* Layer L: only y = e_o^T Y[:, 0] = sum_h (e_o^T A_h X)(X^T B_h x_0) (+ x_0[o]).

Exactness (int64 words, p < 2^31, module ``batched`` checks d, N, H): every stored value is a residue in
[0, p), so a product of two is at most (p - 1)^2 < 2^62.  ``fold`` maps a product t < 2^62 to a value
congruent mod p below 2^32 (p = 2^31 - 1: (t & p) + (t >> 31) <= (2^31 - 1) + (2^31 - 1); other primes
t % p < 2^31).  Every sum adds at most K = H N max(d, N) + 1 < 2^20 such terms (``batched.MAX_TERMS``), so
it stays below 2^20 2^32 = 2^52 < 2^63, and ``reduce`` takes any t < 2^63 to [0, p): for p = 2^31 - 1 two
folds, (t & p) + (t >> 31) < 2^31 + 2^32, then once more to at most p + 2 < 2p, then one subtraction;
other primes t % p.  ``tests/rank/test_batched_pass.py`` checks the pass at p - 1 in every entry (the
largest products at the largest K the test's shapes allow) against Python integers.
Written by hand: no library here runs a modular small-matrix recursion vectorised across a batch.
"""

from __future__ import annotations

import numpy as np
from numba import njit

__all__ = ["block_pass", "fold", "reduce"]

MERSENNE = 2**31 - 1


@njit(inline="always")
def fold(t, p):
    """A value congruent to the product t < 2^62 mod p, below 2^32."""
    if p == MERSENNE:
        return (t & MERSENNE) + (t >> 31)
    return t % p


@njit(inline="always")
def reduce(t, p):
    """t mod p in [0, p) for 0 <= t < 2^63."""
    if p == MERSENNE:
        t = (t & MERSENNE) + (t >> 31)  # < 2^31 + 2^32
        t = (t & MERSENNE) + (t >> 31)  # <= p + 2
        return t - MERSENNE if t >= MERSENNE else t
    return t % p


@njit(inline="always")
def _fixed_times(m, x, out, nb, p, acc):
    """out[r, n, :] = sum_k m[r, k] x[k, n, :] mod p (m a fixed d x d matrix; the block's first nb lanes)."""
    d, cols = x.shape[0], x.shape[1]
    for r in range(d):
        for n in range(cols):
            acc[:nb] = 0
            for k in range(d):
                c = m[r, k]
                if c == 0:
                    continue
                for b in range(nb):
                    acc[b] += fold(c * x[k, n, b], p)
            for b in range(nb):
                out[r, n, b] = reduce(acc[b], p)


# over 80 lines: one compiled function holds the whole recursion, so numba keeps the block's scratch arrays and the
# loops over a block in one frame (helpers are inlined where they take no arrays of their own)
@njit(cache=True, nogil=True)
def block_pass(left, right, cols, tab_w, tab_s, a, b, residual, output, p, out, width):
    """out[i, j] = y at the sequence (left[i], right[j]) mod p, for every i and j (module notes).

    left: n_l x h token indices of positions 0..h-1; right: n_r x (N - h) of positions h..N-1; cols: the
    input columns x_n(w), N x V x d residues; tab_w: A_h x_n(w), H x N x V x d; tab_s: x_n(w)^T B_h x_m(w'),
    H x N x N x V x V; a, b: the layer maps, L x H x d x d; ``residual``: 1 with residual connections;
    ``output``: o of e_o; ``width``: sequences a block (B)."""
    n_left, h = left.shape
    n_right, nr = right.shape
    tokens = h + nr
    d = cols.shape[2]
    layers, heads = a.shape[0], a.shape[1]
    x = np.empty((d, tokens, width), dtype=np.int64)
    y = np.empty((d, tokens, width), dtype=np.int64)
    u = np.empty((d, tokens, width), dtype=np.int64)
    w = np.empty((d, tokens, width), dtype=np.int64)
    sig = np.empty((tokens, tokens, width), dtype=np.int64)
    acc = np.empty(width, dtype=np.int64)
    tok = np.empty((tokens, width), dtype=np.int64)
    res = np.empty(width, dtype=np.int64)
    for i in range(n_left):
        for j0 in range(0, n_right, width):
            nb = min(width, n_right - j0)
            for n in range(tokens):
                for q in range(nb):
                    tok[n, q] = left[i, n] if n < h else right[j0 + q, n - h]
            for n in range(tokens):
                for q in range(nb):
                    for r in range(d):
                        x[r, n, q] = cols[n, tok[n, q], r]
            for layer in range(layers - 1):
                for r in range(d):  # Y starts at X with residuals, else at 0
                    for m in range(tokens):
                        for q in range(nb):
                            y[r, m, q] = x[r, m, q] if residual else 0
                for hd in range(heads):
                    if layer == 0:  # the tables of layer 1
                        for n in range(tokens):
                            for m in range(tokens):
                                for q in range(nb):
                                    sig[n, m, q] = tab_s[hd, n, m, tok[n, q], tok[m, q]]
                            for r in range(d):
                                for q in range(nb):
                                    w[r, n, q] = tab_w[hd, n, tok[n, q], r]
                    else:
                        _fixed_times(b[layer, hd], x, u, nb, p, acc)  # U = B_h X
                        for n in range(tokens):  # Sigma = X^T U
                            for m in range(tokens):
                                acc[:nb] = 0
                                for k in range(d):
                                    for q in range(nb):
                                        acc[q] += fold(x[k, n, q] * u[k, m, q], p)
                                for q in range(nb):
                                    sig[n, m, q] = reduce(acc[q], p)
                        _fixed_times(a[layer, hd], x, w, nb, p, acc)  # W = A_h X
                    for r in range(d):  # Y += W Sigma
                        for m in range(tokens):
                            acc[:nb] = 0
                            for n in range(tokens):
                                for q in range(nb):
                                    acc[q] += fold(w[r, n, q] * sig[n, m, q], p)
                            for q in range(nb):
                                y[r, m, q] = reduce(y[r, m, q] + acc[q], p)
                x, y = y, x
            # layer L, column 0, row o: sum_h (e_o^T A_h X)(X^T B_h x_0)
            for q in range(nb):
                res[q] = x[output, 0, q] if residual else 0
            for hd in range(heads):
                # u[:, 0, :] = B_h x_0 ; w[0, n, :] = (e_o^T A_h X)[n] ; sig[0, n, :] = (X^T B_h x_0)[n]
                for r in range(d):
                    acc[:nb] = 0
                    for k in range(d):
                        c = b[layers - 1, hd, r, k]
                        for q in range(nb):
                            acc[q] += fold(c * x[k, 0, q], p)
                    for q in range(nb):
                        u[r, 0, q] = reduce(acc[q], p)
                for n in range(tokens):
                    acc[:nb] = 0
                    for k in range(d):
                        c = a[layers - 1, hd, output, k]
                        for q in range(nb):
                            acc[q] += fold(c * x[k, n, q], p)
                    for q in range(nb):
                        w[0, n, q] = reduce(acc[q], p)
                    acc[:nb] = 0
                    for k in range(d):
                        for q in range(nb):
                            acc[q] += fold(x[k, n, q] * u[k, 0, q], p)
                    for q in range(nb):
                        sig[0, n, q] = reduce(acc[q], p)
                acc[:nb] = 0
                for n in range(tokens):
                    for q in range(nb):
                        acc[q] += fold(w[0, n, q] * sig[0, n, q], p)
                for q in range(nb):
                    res[q] = reduce(res[q] + acc[q], p)
            for q in range(nb):
                out[i, j0 + q] = res[q]
