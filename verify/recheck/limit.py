"""The N-independent limit of a token cell without positional embeddings, recomputed by the recheck's own route
(issue 46 item 8; docs/mathematics.md §7 "The N-independent limit", MATH.md §11 "The rank lemma").

Without positions every layer of eq. 3 is permutation-equivariant, so the output at a position holding token w is
g_w(c), a polynomial of degree <= C = (3^L - 1)/2 in the token counts c in Z^V, and the token matrix at N is
M[(w, a), b] = g_w(e_w + a + b) with a the counts of the other A positions (sum N/2 - 1) and b those of the B side
(sum N/2).  The limit Lambda is the rank of (w, a) x b -> g_w(e_w + a + b) for a, b on the hyperplanes
sum a = alpha, sum b = beta at generic alpha, beta (the engine draws a random N).  This module evaluates g_w at
points that are no token counts by the literal pass with column weights (``batched``: eq. 3 with column v of
weight c_v is eq. 3 with token v repeated c_v times, S = X diag(c) X^T), at the recheck's own random alpha, beta,
k random row points (w cycling over the tokens, a uniform on its hyperplane mod p) and k random column points:

- every such matrix has rank <= Lambda (it is A B with A of Lambda columns: MATH.md §11's rank lemma, upper side;
  mod p the rank of an integer polynomial matrix only drops), so a rank above a stated limit contradicts it,
  with proof, whatever the limit's label;
- rank = the stated limit recomputes it as a certified lower bound (equal to it, the value's own argument);
- a rank below it (k too small, or a zero of a minor hit) is no contradiction: beyond this recheck.

With positional embeddings S also carries the positional sums and K_0, and the limit's points are not recomputed
here (its line stays beyond the budget, saying so).  ``first_even_n`` replaces the scans "the first even N whose
counting cap reaches X" by a doubling search, so a huge X in a file costs a few dozen steps, not X.
"""

from __future__ import annotations

import random
from math import comb

import numpy as np

from . import arith
from .batched import BatchedPass
from .core import BEYOND, CONFIRMED, CONTRADICTED
from .network import rank_seconds, seconds_per_sequence

__all__ = ["first_even_n", "limit_rank", "limit_seconds", "check_limit_value", "EXTRA"]

#: Row and column points beyond the stated limit (a k x k matrix of rank Lambda needs k >= Lambda).
EXTRA = 4


def first_even_n(vocab: int, target: int, positional: bool) -> int | None:
    """The first even N >= 2 whose counting cap (V^(N/2) with positions, binom(N/2 + V - 1, V - 1) without;
    docs/mathematics.md §7) reaches ``target``, None if none does (V = 1); the cap grows with N, so doubling then
    bisection finds it."""
    def cap(n):
        half = n // 2
        return vocab**half if positional else comb(half + vocab - 1, vocab - 1)
    if vocab <= 1 and cap(2) < target:
        return None
    high = 2
    while cap(high) < target:
        high *= 2
    low = max(2, high // 2)
    if cap(low) >= target:
        return low
    while high - low > 2:  # cap(low) < target <= cap(high), both even
        mid = (low + high) // 2
        mid += mid % 2
        if cap(mid) >= target:
            high = mid
        else:
            low = mid
    return high


def limit_seconds(cell, k: int) -> float:
    """Price of ``limit_rank``: k^2 weighted passes over V columns, a k x k rank, and building the network."""
    return (k * k * seconds_per_sequence(cell.depth, cell.width, cell.heads, cell.attn_dim, cell.vocab)
            + rank_seconds(k, k) + cell.net.setup_seconds())


def _hyperplane(rng, count: int, v: int, total: int, p: int) -> np.ndarray:
    """``count`` points of GF(p)^V uniform on {sum = total}: V - 1 free coordinates, the last one fixed."""
    free = np.array([[rng.randrange(p) for _ in range(v - 1)] for _ in range(count)], dtype=np.int64).reshape(count,
                                                                                                               v - 1)
    last = (total - free.sum(axis=1)) % p
    return np.concatenate([free, last[:, None]], axis=1) % p


def limit_rank(cell, k: int, seed: str) -> int:
    """Rank mod p of [g_w(e_w + a_i + b_j)] at k random row points (w_i = i mod V, a_i) and k random columns b_j
    (module doc); a certified lower bound on the limit Lambda."""
    p, v = cell.p, cell.vocab
    net = cell.net
    rng = random.Random(f"recheck-limit:{seed}:{k}")
    alpha, beta = rng.randrange(p), rng.randrange(p)
    rows_a, cols_b = _hyperplane(rng, k, v, alpha, p), _hyperplane(rng, k, v, beta, p)
    tokens = np.arange(k) % v
    x = np.ascontiguousarray(net.columns.T)  # (d_x, V): the token vectors, one column each
    run = BatchedPass(net.layers, p)
    matrix = np.zeros((k, k), dtype=np.int64)
    for w in range(v):
        rows = np.flatnonzero(tokens == w)
        if not len(rows):
            continue
        counts = (rows_a[rows][:, None, :] + cols_b[None, :, :]) % p  # (rows, k, V)
        counts[:, :, w] = (counts[:, :, w] + 1) % p                    # the output position's own token
        weights = counts.reshape(-1, v)
        batch = np.broadcast_to(x, (len(weights),) + x.shape)
        matrix[rows] = run.output(batch, cell.output, w, weights).reshape(len(rows), k)
    return arith.nmod_rank(matrix, p)


def check_limit_value(rc, where: str, cell, stated: int, at_least: bool) -> None:
    """One line: the limit ``stated`` (``at_least``: a partial result '>= stated') recomputed (module doc)."""
    shown = f"limit {'>= ' if at_least else ''}{stated}"
    if cell.positional_rank:
        rc.add(where, f"{shown} recomputed", BEYOND, "a limit with positional embeddings is not recomputed by this "
               "recheck (its points carry the positional sums; docs/recheck.md)")
        return
    k = stated + EXTRA

    def run():
        found = limit_rank(cell, k, where)
        if found < stated:
            found = max(found, limit_rank(cell, k + 8, where + ":more"))
        how = (f"the V-token weighted literal pass at {k} random row and column points on random side sums, mod "
               f"{cell.p}: rank {found}")
        if found > stated and not at_least:
            return CONTRADICTED, how + ", a certified lower bound on the limit above the stated limit"
        if found >= stated:
            return CONFIRMED, how + (", a certified lower bound" + (" at least" if at_least else " equal to")
                                     + " the stated limit")
        return BEYOND, how + f" < {stated}; not a contradiction (a random matrix is a lower bound)"
    rc.later(where, f"{shown} recomputed", limit_seconds(cell, k), run)


def recheck_stated_limit(rc, where: str, cell, limit_text: str, at_least_text: str | None = None) -> None:
    """The atlas's or probe's limit as written ('661', '>= 299', or empty with ``limit_at_least``), recomputed
    by ``check_limit_value`` where one is stated."""
    text = (limit_text or "").strip()
    at_least = text.startswith(">= ") or (not text and bool((at_least_text or "").strip()))
    value = text[3:] if text.startswith(">= ") else (text or (at_least_text or "").strip())
    if value.isdigit():
        check_limit_value(rc, where, cell, int(value), at_least)
