"""Exact ranks of the degree blocks of a homogeneous q = F(S)^T e_p (MATH.md §2, route 3).

Block a has rows alpha (|alpha| = a) and columns (k, beta) (|beta| = C - a); up to a row
scaling by alpha! it is the catalecticant, so its rank is dim D_a with
D_a = span{d^beta q_k : |beta| = C - a}.  Two exact facts cut the work:

* **Propagation.**  D_a = span{d_i g : g in D_{a+1}}.  Hence if block a has full row rank
  (D_a = all degree-a polynomials) so has every block below it (derivatives of all monomials of
  degree a give all monomials of degree a - 1, p > C), and if block a has full column rank (the
  derivatives of order C - a are independent) so has every block above it (a relation among
  order-(m-1) derivatives, differentiated by any d_i, is one among order-m derivatives).
  Only the blocks from the widest-to-tallest turn outward up to the first full one are ranked.
* **Slice and complement.**  For an m x n block B (m <= n, else transposed), S = B restricted to
  m + 32 seeded random columns and R = the other columns: rank(B) = rank(S) + rank(Y^T R), where
  the columns of Y span the left null space of S.  A generic block is full on its slice
  (Y empty: one (m+32) x m elimination instead of m x n); a deficient one adds only the
  product Y^T R (one FLINT multiplication) and its rank.
  When the slice shows a heavy deficiency, so that eliminating the whole block (about
  short * long * rank operations) is cheaper than the complement, the whole block is ranked.
"""

from __future__ import annotations

import random
from math import comb

import numpy as np

from .blocks import Block
from .fields import Field

__all__ = ["degree_block_ranks", "block_rank"]

#: Columns gathered beyond the short side for the slice S.
SLICE_EXTRA = 32


def _lines(gather, terms, row_keys, col_keys, dtype, idx: np.ndarray, wide: bool) -> np.ndarray:
    """Columns ``idx`` of B (wide) or rows ``idx`` of B, as a short x len(idx) array."""
    per = len(col_keys)
    if wide:
        parts = []
        for k, t in enumerate(terms):
            sel = idx[(idx >= k * per) & (idx < (k + 1) * per)] - k * per
            if len(sel):
                parts.append(gather(t, row_keys, col_keys[sel], dtype))
        return np.hstack(parts)
    return np.hstack([gather(t, row_keys[idx], col_keys, dtype) for t in terms]).T


def block_rank(field: Field, gather, terms, row_keys: np.ndarray, col_keys: np.ndarray, dtype) -> Block:
    """Exact rank of the block with rows ``row_keys`` and columns (k, ``col_keys``), k over ``terms``."""
    m, per = len(row_keys), len(col_keys)
    n = per * len(terms)
    wide = m <= n
    short, long = min(m, n), max(m, n)
    if short == 0:
        return Block(m, n, 0)
    take = min(long, short + SLICE_EXTRA)
    pick = np.array(sorted(random.Random(f"verify-slice:{m}x{n}").sample(range(long), take)), dtype=np.int64)
    slice_ = _lines(gather, terms, row_keys, col_keys, dtype, pick, wide)
    matrix = field.from_rows(np.ascontiguousarray(slice_.T))
    del slice_  # the FLINT copy is all the elimination needs
    basis, nullity = matrix.nullspace()
    del matrix
    if nullity == 0:
        return Block(m, n, short)
    rest = np.setdiff1d(np.arange(long, dtype=np.int64), pick)
    if len(rest) == 0:
        return Block(m, n, short - nullity)
    # a heavily deficient block: FLINT's elimination of the whole block costs about
    # short * long * rank, less than the complement's product and its rank
    if short * long * (short - nullity) < nullity * short * len(rest) + nullity * nullity * len(rest):
        del basis
        whole = _lines(gather, terms, row_keys, col_keys, dtype, np.arange(long, dtype=np.int64), wide)
        return Block(m, n, field.from_rows(whole).rank())
    # Y^T from the first ``nullity`` columns of the basis, entry by entry (never the whole matrix as a list)
    left = field.matrix(nullity, short, [int(basis[i, c]) for c in range(nullity) for i in range(short)])
    del basis
    rest_block = field.from_rows(np.ascontiguousarray(_lines(gather, terms, row_keys, col_keys, dtype, rest, wide)))
    extra = (left * rest_block).rank()  # one FLINT product, no entry-wise copying
    return Block(m, n, short - nullity + extra)


def degree_block_ranks(field: Field, gather, terms, encoder, compositions, nvars: int, top: int, dtype,
                       progress=None) -> tuple[int, list[Block], list[str]]:
    """Sum of the degree-block ranks of a homogeneous q of degree ``top`` (see the module notes)."""
    count = len(terms)
    sizes = [(comb(a + nvars - 1, nvars - 1), count * comb(top - a + nvars - 1, nvars - 1)) for a in range(top + 1)]
    turn = max(a for a, (rows, cols) in enumerate(sizes) if rows <= cols)
    found: dict[int, Block] = {}
    notes = []

    def rank_of(a: int) -> Block:
        keys_rows = encoder.encode(compositions(a, nvars))
        keys_cols = encoder.encode(compositions(top - a, nvars))
        block = block_rank(field, gather, terms, keys_rows, keys_cols, dtype)
        if progress is not None:
            progress(len(found) + 1, top + 1)
        return block

    for a in range(turn, -1, -1):  # wide blocks, outward: full row rank propagates down
        found[a] = rank_of(a)
        if found[a].rank == sizes[a][0]:
            for below in range(a):
                found[below] = Block(*sizes[below], sizes[below][0], implied_by=a)
            if a:
                notes.append(f"degree blocks 0..{a - 1} have full row rank because block {a} has")
            break
    for a in range(turn + 1, top + 1):  # tall blocks, outward: full column rank propagates up
        found[a] = rank_of(a)
        if found[a].rank == sizes[a][1]:
            for above in range(a + 1, top + 1):
                found[above] = Block(*sizes[above], sizes[above][1], implied_by=a)
            if a < top:
                notes.append(f"degree blocks {a + 1}..{top} have full column rank because block {a} has")
            break
    if progress is not None:
        progress(top + 1, top + 1)
    blocks = [found[a] for a in range(top + 1)]
    return sum(b.rank for b in blocks), blocks, notes
