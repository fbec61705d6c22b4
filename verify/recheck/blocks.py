"""A `verify sep --store` store's ``degree_block`` rows: the rank of degree block a of the catalecticant of
q(S) = F(S)^T e_p, recomputed at the row's own seed, weight range and prime (docs/mathematics.md §2, route 3).

The route differs from the engine's (which builds the catalecticant's slices from moment sums): block a's rank
is dim span{d^alpha q : |alpha| = a} (§2), and the coefficient of t^a in q(U + t W) is
sum_{|alpha| = a} W^alpha / alpha! (d^alpha q)(U).  So the matrix M[i, (j, k)] = [t^a] q_k(U_j + t W_i) at K random
symmetric W_i and J random symmetric U_j equals E_W Cat_a E_U (Cat_a the block, E_W and E_U evaluations of
monomials), and rank M <= rank Cat_a over GF(p): a certified lower bound on the stored rank, equal to it unless
the random points hit a zero of a nonzero minor (Schwartz-Zippel).  [t^a] is read off q(U + t W) at t = 0..C by
the inverse Vandermonde matrix mod p (p > C).  F(S) = T_L(S_{L-1}) ... T_1(S_0), S_l = T_l S_{l-1} T_l^T,
T(S) = sum_h W^{O,h} W^{V,h} S (W^{K,h})^T W^{Q,h} (docs/mathematics.md §1), in ``arith``'s exact products mod p.
"""

from __future__ import annotations

import math
import random
from math import comb

import numpy as np

from . import arith, formulas
from .core import BEYOND, CONTRADICTED, RECOMPUTED, Recheck

__all__ = ["check_block_row", "gram_map", "block_rank", "block_seconds"]

#: Points beyond the stated rank on each side (a random K x K' evaluation of a rank-r block needs K, K' >= r).
EXTRA = 4
#: Measured seconds per d x d product mod p in a batch (2-core test machine, with slack): int64 and Python ints.
PRODUCT_SECONDS = {np.int64: 2e-7, object: 4e-6}


def gram_map(layers: list, gram: np.ndarray, p: int) -> np.ndarray:
    """F(S) mod p for a batch of Gram matrices S (shape (B, d, d), entries in [0, p)) (module doc)."""
    dtype = gram.dtype
    product = arith._matmul  # the recheck's exact product mod p (int64 split into 16-bit halves, or Python ints)
    f = np.broadcast_to(np.eye(gram.shape[-1], dtype=dtype), gram.shape).copy()
    s = gram
    for layer in layers:
        t = None
        for q, k, v, o in layer:
            wq, wk, wv, wo = (np.array([[c % p for c in row] for row in m], dtype=dtype) for m in (q, k, v, o))
            head = product(product(product(product(wo, wv, p), s, p), wk.T.copy(), p), wq, p)
            t = head if t is None else (t + head) % p
        f = product(t, f, p)
        s = product(product(t, s, p), np.swapaxes(t, -1, -2).copy(), p)
    return f


def _symmetric(rng, count: int, width: int, p: int, dtype) -> np.ndarray:
    out = np.zeros((count, width, width), dtype=dtype)
    for b in range(count):
        for u in range(width):
            for v in range(u, width):
                out[b, u, v] = out[b, v, u] = rng.randrange(p)
    return out


def block_rank(layers: list, width: int, depth: int, degree: int, output: int, p: int, rows: int, cols: int,
               seed: str) -> int:
    """rank mod p of M[i, (j, k)] = [t^degree] q_k(U_j + t W_i) on ``rows`` random W and ``cols`` random U (k over
    the d_x components): a certified lower bound on the rank of degree block ``degree`` (module doc)."""
    import flint

    top = formulas.layer_degree(depth)
    dtype = arith.dtype_for(p)
    rng = random.Random(f"recheck-block:{seed}")
    w, u = _symmetric(rng, rows, width, p, dtype), _symmetric(rng, cols, width, p, dtype)
    vandermonde = flint.nmod_mat([[pow(t, e, p) for e in range(top + 1)] for t in range(top + 1)], p)
    inverse = vandermonde.inv()  # once: row ``degree`` of it picks the t^degree coefficient
    pick = [int(inverse[degree, t]) for t in range(top + 1)]
    matrix = np.zeros((rows, cols * width), dtype=object)
    for i in range(rows):
        acc = np.zeros((cols, width), dtype=object)
        for t in range(top + 1):
            points = (u + (t * w[i]) % p) % p
            values = gram_map(layers, points, p)[:, output, :]  # q_k = F[output, k] at each U_j + t W_i
            acc = (acc + pick[t] * values.astype(object)) % p
        matrix[i] = acc.reshape(-1)
    return arith.nmod_rank(matrix, p)


def block_seconds(depth: int, width: int, heads: int, rows: int, cols: int, p: int) -> float:
    """Price of ``block_rank``: rows x cols x (C + 1) Gram maps of L (5 H + 3) products, and the rank."""
    if rows * cols > 10**15:  # beyond any budget; a file's huge rank must not overflow the float price
        return math.inf
    products = rows * cols * (formulas.layer_degree(depth) + 1) * depth * (5 * heads + 3)
    per = PRODUCT_SECONDS[arith.dtype_for(p)] * max(1, width**3 // 27)
    return 0.05 + products * per + rows * cols * width * (min(rows, cols * width) / 2e9 + 2e-6)


def check_block_row(rc: Recheck, where: str, spec: dict, field, seed, params: dict, value: dict) -> None:
    """Every check of one degree-block row: its shape (closed forms), its rank against the block's size, and the
    rank recomputed by ``block_rank`` within the budget (module doc)."""
    import flint

    depth, width, heads = spec["depth"], spec["width"], spec["heads"]
    attn_dim = spec.get("attn_dim") or width // heads
    a, weight_range = params["degree"], params["weight_range"]
    where = f"{where} (L={depth}, d_x={width}, H={heads}) block {a}"
    digits = str(field)[3:] if str(field).startswith("gf:") else ""
    p = int(digits) if digits.isdigit() and digits.isascii() and len(digits) <= 20 else None  # P < 2^64 below
    top, n = formulas.layer_degree(depth), width * (width + 1) // 2
    usable = p is not None and top < p < 2**64 and bool(flint.fmpz(p).is_prime())
    if spec.get("residual") or not usable or not 0 <= a <= top:
        rc.add(where, f"degree block {a} in {field}", CONTRADICTED, "degree blocks are ranked for a homogeneous "
               f"network over a prime field gf:P with C = {top} < P < 2^64, at a degree 0..C")
        return
    rows, cols = comb(a + n - 1, n - 1), width * comb(top - a + n - 1, n - 1)
    rc.check(where, f"rows {value.get('rows')}, cols {value.get('cols')}", (value.get("rows"), value.get("cols")) ==
             (rows, cols), "C(a+n-1, n-1) and d_x C(C-a+n-1, n-1) (docs/mathematics.md §2)",
             f"block {a} has {rows} rows and {cols} columns")
    if value.get("ranked") is False:  # left out by a later run of the block-level repeats: no rank stated
        return
    rank = value["rank"]
    if not 0 <= rank <= min(rows, cols):
        rc.add(where, f"rank {rank}", CONTRADICTED, f"not a rank of a {rows} x {cols} block")
        return
    k_rows, k_cols = min(rank + EXTRA, rows), -(-min(rank + EXTRA, cols) // width)
    price = block_seconds(depth, width, heads, k_rows, k_cols, p)

    def run():
        layers = arith.seeded_weights(depth, width, heads, attn_dim, seed, weight_range)
        found = block_rank(layers, width, depth, a, spec.get("output") or 0, p, k_rows, k_cols, f"{where}:1")
        how = (f"[t^{a}] q(U + t W) at {k_rows} random W against {k_cols} random U mod {p}, seed {seed}, "
               f"weight range {weight_range}: rank {found}")
        if found > rank:
            return CONTRADICTED, how + f" > {rank}, a certified lower bound on the block's rank above it"
        if found == rank:
            return RECOMPUTED, how + " (a certified lower bound equal to the stored rank)"
        again = block_rank(layers, width, depth, a, spec.get("output") or 0, p, k_rows, k_cols, f"{where}:2")
        if again >= rank:
            return RECOMPUTED, f"a second draw has rank {again} ({how}): equal to the stored rank"
        return (CONTRADICTED, f"two independent draws have ranks {found}, {again} < {rank} ({how}); the value can "
                              "still be right only if both hit a zero of a nonzero minor", False)
    rc.later(where, f"rank {rank}", price, run)
    _ = BEYOND  # a task priced beyond the budget stays ``beyond the budget`` (core)
