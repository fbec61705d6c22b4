"""Counting caps on the separation rank of a network on token inputs (``docs/mathematics.md`` §7).

On tokens the network is a function on [V]^N, and sep w.r.t. (A, B) is the rank of the matrix
M[left, right] = y(left, right) over all assignments of the A and B positions.  The rank is at most
the number of distinct rows and the number of distinct columns, whatever the weights:

* without positional embeddings the network is permutation-equivariant: y^i is a function of the
  query token w_i and the multiset of all tokens.  With the query i in A, a column depends only on the
  multiset of the N/2 B tokens, binom(N/2 + V - 1, V - 1) of them; a row only on (w_i, multiset of
  the other N/2 - 1 A tokens), V binom(N/2 + V - 2, V - 1) of them;
* with positional embeddings (any rank >= 1) both sides count the V^(N/2) sequences.

The binding cap is the smaller side.  Without positions the B side binds from N = 4 on (the two sides
are equal, V each, at N = 2).  These are caps on sep itself (any weights, any field).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from math import comb

__all__ = ["CountCaps", "count_caps", "gram_log2_bytes"]


@dataclass(frozen=True)
class CountCaps:
    """The counting caps at one N: rows (A side, query included), columns (B side), and their min."""

    tokens: int
    a_side: int
    b_side: int

    @property
    def cap(self) -> int:
        return min(self.a_side, self.b_side)

    @property
    def binding(self) -> str:
        if self.a_side == self.b_side:
            return "both"
        return "A" if self.a_side < self.b_side else "B"


def count_caps(vocab: int, tokens: int, positional: bool) -> CountCaps:
    """The counting caps for V = ``vocab`` tokens at even N = ``tokens`` (query position in A).

    >>> count_caps(3, 6, False).cap   # multisets of 3 tokens out of 3 words: binom(5, 2)
    10
    >>> count_caps(3, 6, True).cap    # sequences: 3^3
    27
    >>> count_caps(3, 2, False)       # one token a side: V rows, V columns
    CountCaps(tokens=2, a_side=3, b_side=3)
    """
    if tokens < 2 or tokens % 2:
        raise ValueError(f"the counting caps need an even N >= 2, got {tokens}")
    half = tokens // 2
    if positional:
        return CountCaps(tokens, vocab**half, vocab**half)
    return CountCaps(tokens, vocab * comb(half - 1 + vocab - 1, vocab - 1), comb(half + vocab - 1, vocab - 1))


def gram_log2_bytes(vocab: int, tokens: int, degree: int, positional: bool) -> float:
    """A lower bound on log2 of the bytes the Gram route (``route``) holds at N = ``tokens``.

    Without positions: the V binom(min(N/2 - 1, C) + V - 1, V - 1) x binom(min(N/2, C) + V - 1, V - 1)
    int64 matrix of ``count_rank`` (C = ``degree``).  With them: the first sample's k x k int64
    matrix, k = min(V^(N/2), 17) (``sequence_rank`` never doubles past 4 million evaluations).
    Closed form in logs, so any V and N are priced at once, before anything is allocated.

    >>> 2 ** gram_log2_bytes(3, 200, 4, False) <= 8 * 3 * 15 * 15   # binom(6, 2) = 15 lattice points a side
    True
    """
    from ..memory import log2_multichoose

    half, log2_v = tokens // 2, math.log2(vocab)
    if positional:
        return 3 + 2 * min(half * log2_v, math.log2(17))

    def side(order: int) -> float:  # log2 binom(order + V - 1, V - 1), a lower bound at any size
        return log2_multichoose(math.log2(order), vocab - 1) if order > 0 else 0.0

    return 3 + log2_v + side(min(half - 1, degree)) + side(min(half, degree))
