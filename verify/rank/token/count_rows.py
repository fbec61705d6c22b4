"""Rows against every column of the count matrix (no positional embedding; ``route.count_rank``'s matrix).

Without positions the token matrix reduces to the count matrix: row (w, a') (query token w, free counts a' of the
other A positions, on the principal lattice of order min(N/2 - 1, C)), column b' (free counts of B, order
min(N/2, C)), entry g_w(a' + b' + e_w).  Its rank at these weights mod p is sep(N) exactly; any set of its rows
against every column has a rank that is a certified lower bound on it (a submatrix), hence on the generic sep
(docs/mathematics.md §3).  Where the matrix is tall (V binom(min(N/2 - 1, C) + V - 1, V - 1) rows against
binom(min(N/2, C) + V - 1, V - 1) columns: 20,020 x 5,005 at (r, L, N) = (10, 5, 12)), ``count_rows_rank`` ranks k
seeded random rows against every column instead: k / rows of the elimination's work, the same evaluations of F
at most (each distinct count vector of N tokens once), and enough whenever the rank it aims at is at most k.
"""

from __future__ import annotations

import random

import numpy as np

from .gram import GramModel
from .route import lattice, rank_mod_p

__all__ = ["count_rows_rank"]


def _sequences(counts: np.ndarray, w: int) -> np.ndarray:
    """A token sequence for each count vector (rows, V counts of all N tokens, c_w >= 1): the query token w at
    position 0, then the other tokens in increasing order (without positions only the counts matter)."""
    rest = counts.copy()
    rest[:, w] -= 1
    ends = np.cumsum(rest, axis=1)  # the slot s (of N - 1) holds the token v with ends[v - 1] <= s < ends[v]
    slots = np.arange(rest.sum(axis=1).max(initial=0))
    out = np.empty((len(counts), len(slots) + 1), dtype=np.int64)
    out[:, 0] = w
    for start in range(0, len(counts), 4096):
        part = slice(start, start + 4096)
        out[part, 1:] = (ends[part, None, :] <= slots[None, :, None]).sum(axis=2)
    return out


def _values(model: GramModel, counts: np.ndarray, w: int) -> np.ndarray:
    """g_w at each count vector: the batched literal pass on one sequence each (``batched.batched_values``), the
    same values as ``GramModel.evaluate`` of the count points (``tests/rank/test_batched_pass.py``)."""
    from .batched import batched_values

    return batched_values(model, _sequences(counts, w))


def count_rows_rank(model: GramModel, tokens: int, k: int, seed: int = 0) -> tuple[int, int, int, int, int]:
    """(rank mod p of k seeded random rows of the count matrix at N = ``tokens`` against every column, rows taken,
    rows of the whole matrix, columns, evaluations of F).  Every row is taken where k reaches their number."""
    vocab, p, degree = model.embedding.vocab, model.p, model.spec.layer_degree
    half, m = tokens // 2, vocab - 1
    rows, cols = lattice(min(half - 1, degree), m), lattice(min(half, degree), m)
    total = vocab * len(rows)
    picks = sorted(random.Random(f"verify-count-rows:{seed}:{tokens}").sample(range(total), min(k, total)))
    base = 2 * degree + 3  # every coordinate of a' + b' + e_w is below it: an exact additive key (as count_rank)
    weights = base ** np.arange(m, dtype=np.int64)
    blocks, evaluations = [], 0
    chosen = np.array(picks, dtype=np.int64)
    for w in range(vocab):
        mine = chosen[(chosen // len(rows)) == w] % len(rows)
        if not len(mine):
            continue
        shift = np.zeros(m, dtype=np.int64)
        if w < m:
            shift[w] = 1
        points = (rows[mine] + shift)[:, None, :] + cols[None, :, :]
        flat = points.reshape(len(mine) * len(cols), m)
        _, first, inverse = np.unique(flat @ weights, return_index=True, return_inverse=True)
        free = flat[first]
        counts = np.zeros((len(free), vocab), dtype=np.int64)
        counts[:, :m] = free
        counts[:, m] = tokens - free.sum(axis=1)  # >= 1 at w = V - 1: the query's own token is counted
        values = _values(model, counts, w)
        evaluations += len(counts)
        blocks.append(values[inverse.ravel()].reshape(len(mine), len(cols)))
    matrix = np.vstack(blocks)
    return rank_mod_p(matrix, p), len(picks), total, len(cols), evaluations
