"""The counting argument against the conjecture on N (vocabulary paper, section 4 and appendix B.2.2).

Without positional embeddings the token rank at N is at most the counting cap binom(N/2 + V - 1, V - 1)
(docs/mathematics.md section 7), a polynomial of degree V - 1 in N.  With V = r (Lemma 7's setting) Theorem 2's
proof gives ((floor((r - 1 - H)/2) over 3^(L-2))), which grows like 3^((L-2)(d-1)).  At N = c r L / log3 r the cap
is a polynomial in L, so from some depth on it falls below the bound, for every c.  Logs are decided in arb.
"""

import math
from fractions import Fraction
from math import comb

import flint

from verify.authoring import precision
from verify.authoring.probe import lemma7_lower_bound


def even_at_least(c: int, rank: int, depth: int, squared: bool = False) -> int:
    """The smallest even N >= c r L / log3 r (or its square, B.2.2's reading), certified in arb."""
    power = next((k for k in range(1, 64) if 3**k == rank), None)
    if power is not None:  # log3 r = k exactly: exact rationals
        x = Fraction(c * rank * depth, power)
        x = x * x if squared else x
        return 2 * (math.floor(x / 2) + 1) if x / 2 != math.floor(x / 2) else int(x)
    with precision(200):  # otherwise log3 r is irrational and so is N/2: arb separates it from the integers
        x = flint.arb(c * rank * depth) * flint.arb(3).log() / flint.arb(rank).log()
        if squared:
            x = x * x
        half = x / 2
        lo, hi = half.lower().floor(), half.upper().floor()
        if lo != hi or half.contains(lo):  # the ball meets an integer: not decided at this precision
            raise ArithmeticError(f"N/2 = {half} is not separated from an integer")
        return 2 * (int(lo.unique_fmpz()) + 1)


def cap_at(rank: int, tokens: int) -> int:
    return comb(tokens // 2 + rank - 1, rank - 1)


def first_failure(c: int, heads: int = 1, ranks=range(6, 13), depths=range(2, 80), squared: bool = False):
    """Smallest (L, r) (by L, then r) with cap(N_c) < Theorem 2's V = r bound, and the numbers."""
    for depth in depths:
        for rank in ranks:
            bound = lemma7_lower_bound(depth, rank, heads)
            if bound is None or bound < 2:
                continue
            tokens = even_at_least(c, rank, depth, squared)
            cap = cap_at(rank, tokens)
            if cap < bound:
                return {"c": c, "r": rank, "L": depth, "H": heads, "N": tokens, "cap": cap, "bound": bound}
    return None


def smallest_n(rank: int, depth: int, heads: int = 1) -> int:
    """N_min: the smallest even N whose counting cap reaches the bound (exact integers)."""
    bound = lemma7_lower_bound(depth, rank, heads) or 0
    tokens = 2
    while cap_at(rank, tokens) < bound:
        tokens += 2
    return tokens
