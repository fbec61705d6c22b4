"""A proven upper bound on the token separation rank with positional embeddings (``docs/mathematics.md`` §7.4).

With the positional vectors fixed, the Gram sum depends on a sequence s only through the point
z(s) = sum_j zeta_j(s_j), zeta_j(v) = (e_v, e_v (x) pi_j) in Z^(V (1 + R)) (``gram``), so the entry
of the token matrix is g_{w0}(zeta_0(w0) + z_A'(s_A') + z_B(s_B)), g_w a polynomial of degree <= C =
(3^L - 1)/2 and w0 the token at the query position 0 (A' = A without it).  Let H_X(j) be the dimension of
the functions s -> f(z_X(s)) on [V]^X with deg f <= j, H_X(-1) = 0.  Then at every weight setting

    sep <= min over k = 0..C+1 of  H_B(k - 1) + V * H_A'(C - k)                         (eq. 7.4)

Proof: split g's expansion by its degree in z_B.  Terms of degree <= k - 1 in z_B give rows that are
functions of s_B in a space of dimension H_B(k - 1).  The others have degree <= C - k in
z_A = zeta_0(w0) + z_A'; for each w0 their columns lie in a space of dimension H_A'(C - k), and the V
values of w0 stack V such blocks.  Rank is subadditive.  The argument holds over any field, so it
bounds the rank over Q and the rank mod p alike (with H over that field).

Proven caps on H_X(j), at every pi (``hilbert_caps``):

* (a) sum_{i <= j} binom(|X|, i) (V - 1)^i: a monomial of degree i in z is a sum of products of i
  functions of one position each, so it depends on at most i positions, and the functions on [V]^X
  depending on at most i positions have that dimension;
* (b) binom(j + m, m), m = (V - 1)(1 + R): the counts sum to |X| and sum_v m_v = sum_{j in X} pi_j
  whatever the tokens, so z_X lies in an affine space of dimension m and f restricts to a polynomial
  of degree <= j in m variables;
* (c) V^|X|: all functions on [V]^X.

The min of the three is certified (any weights, any positions).  ``exact_hilbert`` computes H_X(j) at
given positions, mod p, as the dimension of V_j = V_{j-1} + sum_t z_t V_{j-1} on the distinct points
(every monomial of degree j is a coordinate times one of degree j - 1): the bound with it holds for
the rank mod p at those weights.  At random positions it equals the bound with the generic H unless
some H_X(j), on either side and at any j (the k attaining the minimum is read off the same draw), dropped: a
nonzero H x H minor of the monomial matrix, of degree <= j H in pi, vanishes (Schwartz-Zippel, the union over
every j: ``eq74_probability``, docs/mathematics.md §7 Lemma P).  Written by hand: no library here computes Hilbert
functions of a finite point set mod p (sympy's Groebner bases are far too slow at these sizes).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from math import comb
from typing import Any

import numpy as np

from ..certainty import PRIME_CONDITION, ProbabilityBound, union_bound

__all__ = ["hilbert_caps", "certified_hilbert", "exact_hilbert", "side_points", "positional_bound", "PositionalBound",
           "exact_bound_probability", "eq74_probability", "EQ74_EVENT", "bounds_at", "EXACT_HILBERT_POINTS",
           "counting_floor"]


def hilbert_caps(size: int, degree: int, vocab: int, positional_rank: int) -> tuple[int, int, int]:
    """The three proven caps (a), (b), (c) on H_X(``degree``) for a side of ``size`` positions (module doc);
    all 0 for degree < 0.

    >>> hilbert_caps(3, 2, 5, 2)   # 1 + 3*4 + 3*16, binom(14, 12), 5^3
    (61, 91, 125)
    """
    if degree < 0:
        return 0, 0, 0
    m = (vocab - 1) * (1 + positional_rank)
    a = sum(comb(size, i) * (vocab - 1) ** i for i in range(min(degree, size) + 1))
    return a, comb(degree + m, m), vocab**size


def certified_hilbert(size: int, degree: int, vocab: int, positional_rank: int) -> int:
    """min of the three caps: a proven upper bound on H_X(degree) at every positional embedding."""
    return min(hilbert_caps(size, degree, vocab, positional_rank))


def side_points(vocab: int, pis: list[list[int]]) -> np.ndarray:
    """The distinct points z_X(s), s in [V]^X, in free coordinates (c_v, m_v for v < V - 1), exact integers.

    ``pis``: pi_j of each position of the side (each a list of R integers).  The dropped coordinates
    (the last token's count and m) are affine in the kept ones, so polynomials of degree <= j in the
    kept coordinates give the same functions as in all of z.

    >>> side_points(2, [[1], [3]]).tolist()   # s in {0,1}^2: (c_0, m_0)
    [[0, 0], [1, 1], [1, 3], [2, 4]]
    """
    size = len(pis)
    big_r = len(pis[0]) if pis else 0
    free = vocab - 1
    grid = np.indices((vocab,) * size).reshape(size, -1).T if size else np.zeros((1, 0), dtype=np.int64)
    z = np.zeros((len(grid), free * (1 + big_r)), dtype=np.int64)
    for col in range(size):
        tokens = grid[:, col]
        kept = tokens < free
        z[np.flatnonzero(kept), tokens[kept]] += 1
        for k in range(big_r):
            z[np.flatnonzero(kept), free + tokens[kept] * big_r + k] += pis[col][k]
    return np.unique(z, axis=0)


def _pivot_columns(columns: np.ndarray, p: int) -> list[int]:
    """The lexicographically first independent columns of ``columns`` mod p (the pivot columns of its
    reduced echelon form, by FLINT's rref).  Only the pivots are read back from FLINT: row i's pivot is
    its first nonzero entry, right of row i - 1's, so one scan left to right reads about rows + cols
    entries, not the whole form."""
    import flint

    rows, cols = columns.shape
    reduced, rank = flint.nmod_mat(columns.tolist(), p).rref()
    pivots, col = [], 0
    for i in range(rank):
        while int(reduced[i, col]) == 0:
            col += 1
        pivots.append(col)
        col += 1
    return pivots


def exact_hilbert(points: np.ndarray, max_degree: int, p: int) -> list[int]:
    """[H(0), ..., H(max_degree)] of the point set mod p: dims of the polynomial functions of degree <= j.

    V_j = V_{j-1} + sum_t z_t N_{j-1} for any complement N_{j-1} of V_{j-2} in V_{j-1} (z_t V_{j-2} is
    in V_{j-1}), so each step multiplies only the new functions.  With the basis of V_{j-1} (values at the
    points) as the first columns of [basis, z_t N_{j-1}], the pivot columns of its echelon form (the
    first independent columns) are the whole basis and a set of products that completes it to V_j:
    those products are N_j, kept as their values (never read back from the echelon form).

    >>> exact_hilbert(side_points(2, [[1], [3]]), 3, 2**31 - 1)   # 4 points of a plane, in general position
    [1, 3, 4, 4]
    """
    n = len(points)
    z = (points % p).astype(np.int64).T  # coordinates as rows of functions on the points
    basis = new = np.ones((1, n), dtype=np.int64)
    dims = [1]
    while len(dims) <= max_degree:
        if len(basis) == n or len(new) == 0:  # every function on the points, or nothing new: H is constant
            dims.append(len(basis))
            continue
        products = np.vstack([(new * coordinate[None, :]) % p for coordinate in z])
        pivots = _pivot_columns(np.vstack([basis, products]).T, p)
        if pivots[:len(basis)] != list(range(len(basis))):
            raise AssertionError("the basis of V_(j-1) lost its independence: the elimination is wrong")
        new = products[[c - len(basis) for c in pivots[len(basis):]]]
        basis = np.vstack([basis, new])
        dims.append(len(basis))
    return dims[:max_degree + 1]


@dataclass(frozen=True)
class PositionalBound:
    """The bound of eq. 7.4 at one N: its value, the k attaining it, and the H values used there."""

    value: int
    k: int
    h_b: int
    h_a: int
    kind: str  # "certified" (closed-form caps) or "at these positions" (exact H mod p)

    def as_dict(self) -> dict[str, int | str]:
        return {"value": self.value, "k": self.k, "h_b": self.h_b, "h_a_prime": self.h_a, "kind": self.kind}


def positional_bound(depth: int, vocab: int, positional_rank: int, tokens: int, h_b: list[int] | None = None,
                     h_a: list[int] | None = None) -> PositionalBound:
    """min over k = 0..C+1 of H_B(k - 1) + V H_A'(C - k) (eq. 7.4), |B| = N/2, |A'| = N/2 - 1.

    ``h_b``, ``h_a``: lists of H_B(j), H_A'(j) for j = 0..C (``exact_hilbert``); omitted, the certified caps.

    >>> positional_bound(2, 5, 2, 6).value   # the exception 106 < 125 at L = 2, V = 5, N = 6: 61 + 5 * 9
    106
    """
    if tokens < 2 or tokens % 2:
        raise ValueError(f"the positional bound needs an even N >= 2, got {tokens}")
    degree = (3**depth - 1) // 2
    half = tokens // 2
    kind = "certified" if h_b is None else "at these positions"

    def hb(j):
        if j < 0:
            return 0
        return certified_hilbert(half, j, vocab, positional_rank) if h_b is None else h_b[j]

    def ha(j):
        if j < 0:
            return 0
        return certified_hilbert(half - 1, j, vocab, positional_rank) if h_a is None else h_a[j]

    best = None
    for k in range(degree + 2):
        b, a = hb(k - 1), ha(degree - k)
        value = b + vocab * a
        if best is None or value < best.value:
            best = PositionalBound(value, k, b, a, kind)
    return best


#: The event the probability of eq. 7.4 at the positions bounds (docs/mathematics.md §7, Lemma P).
EQ74_EVENT = "eq. 7.4 with H at the drawn positions (mod p) is below eq. 7.4 with the generic H"


def eq74_probability(depth: int, vocab: int, positional_rank: int, tokens: int,
                     sample: int | Fraction) -> ProbabilityBound:
    """Lemma P (docs/mathematics.md §7): Pr[``EQ74_EVENT``] <= sum over both sides X (|X| >= 1) and every j = 1..C
    of j cap_X(j) / |S|, unless p divides the content of every witness minor of some H_X(j).

    The k attaining the minimum is read off the same random positions, so the event only implies that SOME H_X(j)
    dropped below its generic value: the union runs over every j on both sides, whatever k and H were found (a
    two-term sum at the k found bounds a k fixed before the draw, not this event).  H_X(j) drops only if a nonzero
    H x H minor of the monomial matrix, of degree <= j H <= j cap_X(j) in pi, vanishes: Schwartz-Zippel over pi
    drawn from a set of effective size ``sample`` (``certainty.residue_sample_size``).  j = 0 (H = 1) and a side of
    no positions (H = 1 at every degree) add nothing.

    L = 2 (C = 4), V = 5, R = 2, N = 6: |B| = 3 gives j cap_B(j) = 13, 2*61, 3*125, 4*125 (1,010) and |A'| = 2
    gives 9, 2*25, 3*25, 4*25 (234), by hand from the three caps:

    >>> from fractions import Fraction
    >>> eq74_probability(2, 5, 2, 6, 2 * 2**20 + 1).bound == Fraction(1010 + 234, 2 * 2**20 + 1)
    True
    """
    degree = (3**depth - 1) // 2
    half = tokens // 2
    terms = [Fraction(j * certified_hilbert(size, j, vocab, positional_rank)) / Fraction(sample)
             for size in (half, half - 1) if size >= 1 for j in range(1, degree + 1)]
    return union_bound(EQ74_EVENT, terms, f"docs/mathematics.md §7 Lemma P: sum over B and A', j = 1..{degree}, "
                                 f"of j cap_X(j) / {sample} ({PRIME_CONDITION})")


def exact_bound_probability(depth: int, vocab: int, positional_rank: int, tokens: int, sample: int | Fraction) -> float:
    """``eq74_probability``'s bound rounded up to a float: the probability printed beside eq. 7.4 at the positions."""
    return eq74_probability(depth, vocab, positional_rank, tokens, sample).value


#: Most distinct sequences a side for which the probe computes H at its positions (``exact_hilbert`` ranks
#: matrices of about (1 + m) x points columns; 729 points at L = 3 take about half a minute on a loaded 2-core machine).
EXACT_HILBERT_POINTS = 729


@lru_cache(maxsize=64)
def _hilbert_at(vocab: int, pis: tuple, degree: int, p: int) -> tuple:
    return tuple(exact_hilbert(side_points(vocab, [list(pi) for pi in pis]), degree, p))


def bounds_at(depth: int, vocab: int, positions: list[list[int]], tokens: int, p: int, sample: int | Fraction,
              max_points: int = EXACT_HILBERT_POINTS) -> dict[str, Any]:
    """The bounds of eq. 7.4 for one probe row: ``certified`` (caps), and where each side has at most
    ``max_points`` sequences ``at_positions`` (H at the row's positions, mod p: a proven bound on the rank mod
    p at these weights) with ``probability`` (``exact_bound_probability``, pi from a set of size ``sample``);
    ``positions``: pi_j for j < N."""
    big_r = len(positions[0]) if positions and positions[0] else 0
    certified = positional_bound(depth, vocab, big_r, tokens)
    out = {"certified": certified.value, "at_positions": None, "probability": None}
    half = tokens // 2
    if vocab**half <= max_points:
        degree = (3**depth - 1) // 2
        h_b = _hilbert_at(vocab, tuple(map(tuple, positions[half:tokens])), degree, p)
        h_a = _hilbert_at(vocab, tuple(map(tuple, positions[1:half])), degree, p) if half > 1 else (1,) * (degree + 1)
        found = positional_bound(depth, vocab, big_r, tokens, list(h_b), list(h_a))
        out["at_positions"] = found.value
        out["probability"] = exact_bound_probability(depth, vocab, big_r, tokens, sample)
    return out


def counting_floor(vocab: int, bound: int, positional: bool) -> int:
    """The smallest even N whose counting cap reaches ``bound`` (``caps``): sep(N) < bound below it,
    for every weight.  With positions 2 ceil(log_V bound).

    >>> counting_floor(8, 55, True), counting_floor(8, 55, False)   # 8^2 = 64 >= 55; binom(3 + 7, 7) = 120
    (4, 6)
    """
    from .caps import count_caps

    tokens = 2
    while count_caps(vocab, tokens, positional).cap < bound:
        tokens += 2
    return tokens
