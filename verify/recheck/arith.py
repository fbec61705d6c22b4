"""The recheck's own arithmetic: the seeded draws, the literal eq. 3 forward pass mod p, FLINT's rank.

Nothing here comes from the engine.  The seeded draws reproduce the *documented* draw of the exports'
provenance (``seed`` and ``weight_range`` name a ``random.Random`` stream; docs/certificates.md,
docs/mathematics.md §3 and §7), so that a value "at these weights" is recomputed at the same weights.

The forward pass is eq. 3 of [L20] (levine2020_limits_to_depth_efficiencies.md §2) read literally, per
head and with the N x N score matrix, not through the engine's identity y = F(S) x:

    Y = sum_h W^{O,h} (W^{V,h} X) ((W^{K,h} X)^T (W^{Q,h} X))          (+ X with residual connections)

Exactness over GF(p) with numpy int64 (p < 2^31): every operand is kept in [0, p); in a product the
right factor is split into 16-bit halves, so each elementwise product is < 2^31 * 2^16 = 2^47 and a sum
of K <= 2^15 of them stays below 2^62 < 2^63 (K = d_x, d_a or N here, refused above 2^15); the halves
are reduced mod p and recombined as (2^16 (high mod p) + low mod p) mod p < 2^48.  The test
``test_matmul_largest_sum`` runs it at the largest operands.
For p >= 2^31 (certificates of older versions) the same code runs on Python integers (numpy object
arrays), exact at any size.  Ranks and determinants are FLINT's ``nmod_mat`` (python-flint).
"""

from __future__ import annotations

import random

import numpy as np

__all__ = ["seeded_weights", "embedding_columns", "positional_coefficients", "positional_vectors",
           "forward_output", "nmod_rank", "nmod_det", "dtype_for", "TOKEN_PRIME"]

#: The prime of every token rank in the exports (docs/mathematics.md §7: 2^31 - 1).
TOKEN_PRIME = 2**31 - 1
#: Entries of the vocabulary and positional factors are uniform in [-2^20, 2^20] (docs/mathematics.md §7).
EMBEDDING_RANGE = 2**20


def seeded_weights(depth: int, width: int, heads: int, attn_dim: int, seed: int, weight_range: int) -> list:
    """Per layer, per head, (query, key, value, output) integer matrices: the documented seeded draw
    (``random.Random("verify-weights:<seed>")``, entries uniform in [-range, range], layer by layer, head
    by head, query/key/value d_a x d_x then output d_x x d_a, row by row)."""
    rng = random.Random(f"verify-weights:{seed}")

    def matrix(rows, cols):
        return [[rng.randint(-weight_range, weight_range) for _ in range(cols)] for _ in range(rows)]

    layers = []
    for _ in range(depth):
        layer = []
        for _ in range(heads):
            q, k, v = matrix(attn_dim, width), matrix(attn_dim, width), matrix(attn_dim, width)
            layer.append((q, k, v, matrix(width, attn_dim)))
        layers.append(layer)
    return layers


def _embedding_matrix(rng, rows, cols):
    return [[rng.randint(-EMBEDDING_RANGE, EMBEDDING_RANGE) for _ in range(cols)] for _ in range(rows)]


def embedding_columns(width: int, vocab: int, rank: int, seed: int) -> list[list[int]]:
    """E_w = P Q e_w, [W21] eq. 3 (vocabulary embedding of rank r): P (d_x x r) then Q (r x V) from the
    stream ``verify-embedding:vocab:<seed>``."""
    rng = random.Random(f"verify-embedding:vocab:{seed}")
    left, right = _embedding_matrix(rng, width, rank), _embedding_matrix(rng, rank, vocab)
    return [[sum(left[i][k] * right[k][w] for k in range(rank)) for i in range(width)] for w in range(vocab)]


def positional_coefficients(positional_rank: int, seed: int, position: int) -> list[int]:
    """pi_j in Z^R: position j's coefficients in the columns of P' (stream ``verify-embedding:pos:<seed>:<j>``)."""
    rng = random.Random(f"verify-embedding:pos:{seed}:{position}")
    return [rng.randint(-EMBEDDING_RANGE, EMBEDDING_RANGE) for _ in range(positional_rank)]


def positional_vectors(width: int, positional_rank: int, seed: int, tokens: int) -> list[list[int]]:
    """p_j = P' pi_j for j < N (zero vectors when R = 0); P' from ``verify-embedding:pos-left:<seed>``."""
    if positional_rank == 0:
        return [[0] * width for _ in range(tokens)]
    left = _embedding_matrix(random.Random(f"verify-embedding:pos-left:{seed}"), width, positional_rank)
    out = []
    for j in range(tokens):
        pi = positional_coefficients(positional_rank, seed, j)
        out.append([sum(left[i][k] * pi[k] for k in range(positional_rank)) for i in range(width)])
    return out


def dtype_for(p: int):
    """int64 where the module's exactness argument holds (p < 2^31), else Python integers."""
    return np.int64 if p < 2**31 else object


def _matmul(a, b, p: int):
    """(..., I, K) @ (..., K, J) mod p (module doc).  int64: b is split into 16-bit halves, b = 2^16 b_hi + b_lo,
    so each product is < 2^31 * 2^16 = 2^47 and a sum of K <= 2^15 of them < 2^62: ``np.matmul`` is exact."""
    if a.dtype == object:
        acc = None
        for k in range(a.shape[-1]):
            term = (a[..., :, k, None] * b[..., None, k, :]) % p
            acc = term if acc is None else acc + term
        return acc % p
    if a.shape[-1] > 2**15:
        raise ValueError("the int64 product is exact only for inner dimensions up to 2^15")
    low = np.matmul(a, b & 0xFFFF) % p
    high = np.matmul(a, b >> 16) % p
    return ((high << 16) + low) % p


def forward_output(layers: list, inputs: np.ndarray, p: int, output: int, position: int,
                   residual: bool = False, every: bool = False) -> np.ndarray:
    """y_output^position mod p for a batch of inputs (shape (B, d_x, N), entries in [0, p)) after every layer
    of eq. 3 (module doc); ``every``: the whole (B, d_x, N) output instead.

    Cost: per layer and head O(B N d_a d_x) for the projections and O(B N^2 d_a) for the scores, in numpy
    operations over the batch."""
    dtype = inputs.dtype
    x = inputs
    for layer in layers:
        y = None
        for q, k, v, o in layer:
            wq, wk, wv, wo = (np.array([[c % p for c in row] for row in m], dtype=dtype) for m in (q, k, v, o))
            queries, keys, values = _matmul(wq, x, p), _matmul(wk, x, p), _matmul(wv, x, p)
            scores = _matmul(np.swapaxes(keys, -1, -2), queries, p)        # (B, N, N): (x^j)^T W^K^T W^Q x^i
            head = _matmul(wo, _matmul(values, scores, p), p)
            y = head if y is None else (y + head) % p
        x = (y + x) % p if residual else y
    return x if every else x[:, output, position]


def nmod_rank(matrix, p: int) -> int:
    """Rank over GF(p) by FLINT's ``nmod_mat`` (a 2-D array or nested list of residues)."""
    import flint

    rows = matrix.tolist() if isinstance(matrix, np.ndarray) and matrix.dtype == np.int64 else \
        [[int(c) for c in row] for row in matrix]  # int64 residues convert to Python integers in C
    if not rows or not rows[0]:
        return 0
    return flint.nmod_mat(rows, p).rank()


def nmod_det(matrix, p: int) -> int:
    """Determinant over GF(p) by FLINT's ``nmod_mat``."""
    import flint

    return int(flint.nmod_mat([[int(c) for c in row] for row in matrix], p).det())
