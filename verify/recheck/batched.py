"""The literal forward pass of eq. 3 of [L20] over a batch of inputs at once, mod p in exact int64 (issue 49
item 6, issue 46 item 8): the same function as ``arith.forward_output`` (tests compare both, and a Python-integer
pass), organised so that the work is a few large array products per layer instead of many small ones.

    Y = sum_h W^{O,h} (W^{V,h} X) diag(c) ((W^{K,h} X)^T (W^{Q,h} X))        (+ X with residual connections)

``c`` is a weight per column (default 1): eq. 3 with column j repeated c_j times is eq. 3 with weight c_j on it,
because S = X diag(c) X^T is the only place the repeats enter (every column is mapped by the same T(S), docs/
mathematics.md §1); the limit check (``limit``) evaluates at weights that are no token counts.

Layout per layer: the query, key and value projections of every head are one product of the stacked
(3 H d_a) x d_x weight matrix with each input of the batch; the output projection of every head is one product of
the d_x x (H d_a) matrix with the stacked head outputs; the scores and their use are batched products of small
matrices.  Products of small matrices run one BLAS call per input (no BLAS threads, which a loaded machine
punishes), and ``output`` runs the batch in chunks of ``CHUNK`` inputs, so that its arrays stay in cache.  In the
last layer only the output coordinate at the output position is formed (one score column per sequence, not N).

Exactness (int64, p < 2^31; every operand is kept in [0, p), so below 2^31):
- ``_mm(a, b)``: b is split into 16-bit halves b = 2^16 b_hi + b_lo; each elementwise product a b_half is
  < 2^31 * 2^16 = 2^47.  For K <= 2^6 = ``MAX_FLOAT_INNER`` the products run in float64 (BLAS): every partial
  sum, in whatever order BLAS adds, is an integer below K 2^47 <= 2^53, so float64 holds it exactly and its
  conversion back to int64 is exact.  For 2^6 < K <= 2^15 = ``MAX_INNER`` they run in int64: a sum of K products
  is < K 2^47 <= 2^62 < 2^63 (refused above).  The inner dimensions here are d_x, d_a, N and H d_a, each at most
  64 * 64 = 2^12 by ``fields.LIMITS``.  The low half's sum (< 2^62) and 2^16 (high mod p) < 2^47 are added
  (< 2^63) and reduced once mod p.
- weights times values: one product of two residues, < 2^62, reduced at once.
``tests/recheck/test_batched.py`` runs ``_mm`` at exactly the largest sums: K = 2^6 (float64) and K = 2^15
(int64) products of (p - 1)(2^16 - 1).
"""

from __future__ import annotations

import numpy as np

__all__ = ["BatchedPass", "MAX_INNER"]

#: The largest inner dimension of an exact int64 product (module doc).
MAX_INNER = 2**15
#: Inputs per chunk of ``BatchedPass.output`` (measured: 128 to 512 fastest at d_x = 11, N = 8).
CHUNK = 256
#: The largest inner dimension of an exact float64 product (module doc): K 2^47 <= 2^53.
MAX_FLOAT_INNER = 2**6


def _mm(a: np.ndarray, b: np.ndarray, p: int) -> np.ndarray:
    """(..., I, K) @ (..., K, J) mod p, exact (module doc): float64 products (BLAS) for K <= ``MAX_FLOAT_INNER``,
    int64 products up to ``MAX_INNER``."""
    k = a.shape[-1]
    if k > MAX_INNER:
        raise ValueError(f"an exact int64 product needs an inner dimension <= {MAX_INNER}")
    if k <= MAX_FLOAT_INNER:
        af = a.astype(np.float64)
        low = np.matmul(af, (b & 0xFFFF).astype(np.float64)).astype(np.int64)
        high = np.matmul(af, (b >> 16).astype(np.float64)).astype(np.int64) % p
    else:
        low = np.matmul(a, b & 0xFFFF)
        high = np.matmul(a, b >> 16) % p
    return ((high << 16) + low) % p


class BatchedPass:
    """Eq. 3 at fixed integer weights mod p < 2^31, over batches of inputs (module doc).

    ``layers``: per layer, per head, (query, key, value, output) integer matrices as ``arith.seeded_weights``
    draws them (query/key/value d_a x d_x, output d_x x d_a)."""

    p: int
    residual: bool
    heads: int
    attn_dim: int
    qkv: list[np.ndarray]  # per layer, the stacked query, key and value rows (3 H d_a x d_x) mod p
    out: list[np.ndarray]  # per layer, the heads' output maps side by side (d_x x H d_a) mod p

    def __init__(self, layers: list, p: int, residual: bool = False):
        if not 2 < p < 2**31:
            raise ValueError("the int64 pass needs a modulus 2 < p < 2^31")
        self.p, self.residual = p, residual
        self.heads = len(layers[0]) if layers else 0
        self.attn_dim = len(layers[0][0][0]) if layers else 0
        self.qkv, self.out = [], []
        for layer in layers:
            stacked = [row for head in layer for matrix in head[:3] for row in matrix]  # (3 H d_a, d_x)
            self.qkv.append(np.array([[c % p for c in row] for row in stacked], dtype=np.int64))
            out = [[c % p for h in layer for c in h[3][i]] for i in range(len(layer[0][3]))]  # (d_x, H d_a)
            self.out.append(np.array(out, dtype=np.int64))

    def _project(self, index: int, x: np.ndarray):
        """Per head (queries, keys, values), each (B, d_a, N), of the layer ``index`` at x (B, d_x, N)."""
        b, _, n = x.shape
        proj = _mm(self.qkv[index], x, self.p).reshape(b, self.heads, 3, self.attn_dim, n)
        return np.moveaxis(proj, 0, 2)  # (H, 3, B, d_a, N)

    def layer(self, index: int, x: np.ndarray, weights: np.ndarray | None) -> np.ndarray:
        """The whole output (B, d_x, N) of layer ``index`` at x (B, d_x, N), column weights (B, N) or None."""
        p = self.p
        proj = self._project(index, x)
        heads = []
        for h in range(self.heads):
            queries, keys, values = proj[h, 0], proj[h, 1], proj[h, 2]
            if weights is not None:
                values = values * weights[:, None, :] % p
            scores = _mm(np.swapaxes(keys, -1, -2), queries, p)      # (B, N, N): (x^j)^T W^K^T W^Q x^i
            heads.append(_mm(values, scores, p))                      # (B, d_a, N)
        y = _mm(self.out[index], np.concatenate(heads, axis=1), p)   # (B, d_x, N): sum_h W^{O,h} head_h
        return (y + x) % p if self.residual else y

    def output(self, x: np.ndarray, output: int, position: int, weights: np.ndarray | None = None) -> np.ndarray:
        """y_output^position mod p of each input of the batch x (B, d_x, N), entries in [0, p); ``weights`` (B, N):
        column weights (module doc), None for 1."""
        x = np.asarray(x, dtype=np.int64)
        if weights is not None:
            weights = np.asarray(weights, dtype=np.int64) % self.p
        if len(x) > CHUNK:
            return np.concatenate([self.output(x[s:s + CHUNK], output, position,
                                               None if weights is None else weights[s:s + CHUNK])
                                   for s in range(0, len(x), CHUNK)])
        last = len(self.qkv) - 1
        for index in range(last):
            x = self.layer(index, x, weights)
        return self._last(last, x, output, position, weights)

    def _last(self, index: int, x: np.ndarray, output: int, position: int, weights) -> np.ndarray:
        """The last layer at one output coordinate and position: one score column per input."""
        p = self.p
        proj = self._project(index, x)
        total = np.zeros(x.shape[0], dtype=np.int64)
        for h in range(self.heads):
            query, keys, values = proj[h, 0][:, :, position:position + 1], proj[h, 1], proj[h, 2]
            if weights is not None:
                values = values * weights[:, None, :] % p
            column = _mm(np.swapaxes(keys, -1, -2), query, p)          # (B, N, 1)
            head = _mm(values, column, p)                               # (B, d_a, 1)
            row = self.out[index][output, h * self.attn_dim:(h + 1) * self.attn_dim][None, None, :]
            total = (total + _mm(row, head, p)[:, 0, 0]) % p           # W^{O,h}[output] . head
        if self.residual:
            total = (total + x[:, output, position]) % p
        return total
