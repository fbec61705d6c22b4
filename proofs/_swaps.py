"""Side sequences and swap indices of the proof of Theorem 3 (first supplement A.2), by enumeration.

A side sequence gives each factor M^(c), c = 1..C, the side P or Q of its summed position j_c; the
output position i is in P, so the side after M^(C) is P (s_{C+1} = P).  Its swaps are the
beta in [C] with s_beta != s_{beta+1}, listed C = beta_0 > beta_1 > ... > beta_b > beta_{b+1} = 0.
"""

from itertools import product


def sequences(c: int):
    """Every side sequence (s_1, ..., s_C) in {P, Q}^C, as strings."""
    return ("".join(s) for s in product("PQ", repeat=c))


def betas(seq: str) -> list[int]:
    """[beta_0, beta_1, ..., beta_b, beta_{b+1}] = [C, swaps descending ..., 0]."""
    c = len(seq)
    padded = seq + "P"
    swaps = [b for b in range(c, 0, -1) if padded[b - 1] != padded[b]]
    return [c] + swaps + [0]


def blocks(beta: list[int], first: int, last: int) -> list[int] | None:
    """The c in the blocks (beta_{2m+first+1}, beta_{2m+first}] for m = 0..last (first = 0: the P blocks,
    first = 1: the Q blocks), in order; None when a block reads a beta index past beta_{b+1}."""
    out = []
    for m in range(0, last + 1):
        hi, lo = 2 * m + first, 2 * m + first + 1
        if lo >= len(beta):
            return None
        out.extend(range(beta[lo] + 1, beta[hi] + 1))
    return out
