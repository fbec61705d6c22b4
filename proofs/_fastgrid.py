"""A batched grid matrix of y_p^0 for N = 2 positions, modulo a prime below 2^20, in float64 BLAS.

Every product of two residues is below 2^40 and every sum below 2^53 (at most H d_x <= 2^13 terms),
so float64 arithmetic is exact; ``_mod`` reduces exactly.  The layer is eq. 3 vectorised (supplement
eq. 9): y_i = sum_h W^O W^V (x_1 x_1^T + x_2 x_2^T) (W^K)^T W^Q x_i, for all m^2 template pairs at once.
"""

import random

import flint
import numpy as np

from verify.model.spec import NetworkSpec, draw_weights

PRIME = 1048573


def _mod(a, p=PRIME):
    return a - p * np.floor(a / p)


def grid_matrix(spec: NetworkSpec, m: int, seed: int = 0, p: int = PRIME):
    """(grid m x m mod p as float64, row templates, column templates, weights): seed-0 network weights,
    integer templates in [-50, 50] drawn from ``seed``."""
    if spec.heads * spec.width * p * p >= 2**53 or spec.residual:
        raise ValueError("float64 would not be exact here (or residual spec)")
    w = draw_weights(spec, 0)
    layers = []
    for layer in w.layers:
        heads = []
        for q, k, v, o in zip(layer.query, layer.key, layer.value, layer.output):
            q, k, v, o = (np.array(a, dtype=object) for a in (q, k, v, o))
            heads.append((np.mod(o.dot(v), p).astype(np.float64), np.mod(k.T.dot(q), p).astype(np.float64)))
        layers.append(heads)
    rng = random.Random(f"fast-grid:{seed}")
    rows = [[rng.randint(-50, 50) for _ in range(spec.width)] for _ in range(m)]
    cols = [[rng.randint(-50, 50) for _ in range(spec.width)] for _ in range(m)]
    xs = [np.repeat(np.array(rows, dtype=np.float64) % p, m, axis=0), np.tile(np.array(cols, dtype=np.float64) % p, (m, 1))]
    for heads in layers:
        ys = [0, 0]
        for ov, kq in heads:
            kx = [_mod(x @ kq.T) for x in xs]
            for i in range(2):
                c = [_mod(np.einsum("ij,ij->i", xs[j], kx[i]))[:, None] for j in range(2)]
                ys[i] = ys[i] + _mod(xs[0] * c[0] + xs[1] * c[1]) @ ov.T
        xs = [_mod(y) for y in ys]
    return xs[0][:, spec.output].reshape(m, m), rows, cols, w


def grid_rank(grid, p: int = PRIME) -> int:
    return flint.nmod_mat(grid.astype(np.int64).tolist(), p).rank()
