"""The closed forms the exports' labels rest on, recomputed from the papers and docs/mathematics.md.

Each function cites the statement it evaluates.  All are exact integers or rationals (``fractions``);
a probability is compared with the printed one after rounding up to 3 significant digits, the way the
exports print a bound (a printed bound may only be rounded up).
"""

from __future__ import annotations

import math
from decimal import ROUND_CEILING, Decimal
from fractions import Fraction
from math import comb

__all__ = ["layer_degree", "multichoose", "count_cap", "hilbert_cap", "eq74", "eq74_caps", "hilbert_at_positions",
           "side_points", "hilbert_seconds", "derivative_bound", "free_variables", "block_bound", "thm2_proof_bound",
           "residue_sample", "entry_degree", "union_probability", "every_sequence_probability", "limit_probability",
           "round_up", "EMBEDDING_SAMPLE"]


def layer_degree(depth: int) -> int:
    """C(L) = (3^L - 1)/2, the degree of F(S) in S ([L20] supplement Lemma 1: C(L) = 3 C(L-1) + 1)."""
    return (3**depth - 1) // 2


def multichoose(n: int, k: int) -> int:
    """((n over k)) = binom(n + k - 1, k), 0 for n <= 0 < k ([W21] Theorem 2, [L20] eqs. 6-7)."""
    if k == 0:
        return 1
    return comb(n + k - 1, k) if n > 0 else 0


def thm2_proof_bound(r: int, depth: int, heads: int) -> int | None:
    """[W21] Theorem 2's proof bound ((floor((r - 1 - H)/2) over 3^(L-2))) (Corollary 2 with Lemma 7;
    docs/mathematics.md §7, 'The conjecture on N'); None where it does not apply (L < 2 or r - 1 <= H)."""
    if depth < 2 or r - 1 <= heads:
        return None
    return multichoose((r - 1 - heads) // 2, 3 ** (depth - 2))


def count_cap(vocab: int, tokens: int, positional: bool) -> int:
    """The counting cap (docs/mathematics.md §7): V^(N/2) with positions, binom(N/2 + V - 1, V - 1) without
    (the B side's multisets); a bound on the rank of the token matrix at every weight."""
    half = tokens // 2
    return vocab**half if positional else comb(half + vocab - 1, vocab - 1)


def hilbert_cap(size: int, degree: int, vocab: int, positional_rank: int) -> int:
    """min of the caps (a), (b), (c) on H_X(j) (docs/mathematics.md §7, eq. 7.4's caps); 0 for j < 0."""
    if degree < 0:
        return 0
    m = (vocab - 1) * (1 + positional_rank)
    a = sum(comb(size, i) * (vocab - 1) ** i for i in range(min(degree, size) + 1))
    return min(a, comb(degree + m, m), vocab**size)


def eq74(depth: int, vocab: int, tokens: int, h_b, h_a) -> int:
    """min over k = 0..C+1 of H_B(k - 1) + V H_A'(C - k) (docs/mathematics.md eq. 7.4); ``h_b``, ``h_a``
    functions of the degree j (0 for j < 0)."""
    c = layer_degree(depth)
    return min((h_b(k - 1) if k >= 1 else 0) + vocab * (h_a(c - k) if c - k >= 0 else 0) for k in range(c + 2))


def eq74_caps(depth: int, vocab: int, positional_rank: int, tokens: int) -> int:
    """eq. 7.4 with the proven caps: a bound at every weight and every positional embedding."""
    half = tokens // 2
    return eq74(depth, vocab, tokens, lambda j: hilbert_cap(half, j, vocab, positional_rank),
                lambda j: hilbert_cap(half - 1, j, vocab, positional_rank))


def side_points(vocab: int, pis: list[list[int]]) -> list[tuple]:
    """The distinct points z_X(s), s in [V]^X, in the free coordinates (c_v, m_v for v < V - 1).

    z_X = sum_{j in X} (e_{w_j}, e_{w_j} (x) pi_j) (docs/mathematics.md §7, the Gram route): c_v counts the
    positions holding v, m_v = sum of pi_j over them.  On a side c_{V-1} = |X| - sum_{v<V-1} c_v and
    m_{V-1} = sum_{j in X} pi_j - sum_{v<V-1} m_v, affine in the rest, so polynomials of degree <= j in the
    free coordinates give the same functions as in all of z."""
    import itertools

    free, big_r = vocab - 1, len(pis[0]) if pis else 0
    points = set()
    for seq in itertools.product(range(vocab), repeat=len(pis)):
        z = [0] * (free * (1 + big_r))
        for j, v in enumerate(seq):
            if v < free:
                z[v] += 1
                for k in range(big_r):
                    z[free + v * big_r + k] += pis[j][k]
        points.add(tuple(z))
    return sorted(points)


def hilbert_at_positions(points: list[tuple], max_degree: int, p: int) -> list[int]:
    """[H(0), ..., H(max_degree)] of a point set mod p (p < 2^31): H(j) is the rank over GF(p) of the matrix of
    every monomial of degree <= j in the free coordinates evaluated at the points.

    One elimination gives every j: with the monomials' columns ordered by degree, the rank of the first columns
    is the number of pivot columns among them (the column rank profile of the reduced row echelon form, FLINT's
    ``nmod_mat.rref``).  Columns are built (numpy int64: each product of two residues < 2^62) while they number at
    most 3 x the points; past that degree H is the number of points once it has reached it, else the remaining
    degrees are ranked one by one (``_hilbert_by_degree``).  Cost: ``hilbert_seconds``."""
    import itertools

    import flint
    import numpy as np

    n = len(points)
    m = len(points[0]) if points else 0
    if n == 0:
        return [0] * (max_degree + 1)
    z = np.array([[c % p for c in pt] for pt in points], dtype=np.int64).reshape(n, m)
    previous = {(): np.ones(n, dtype=np.int64)}
    columns, ends, top = [previous[()]], [1], 0
    for j in range(1, max_degree + 1):
        if len(columns) + comb(j + m - 1, m - 1) > 3 * n:
            break
        current = {}
        for combo in itertools.combinations_with_replacement(range(m), j):
            current[combo] = previous[combo[:-1]] * z[:, combo[-1]] % p
        previous = current
        columns.extend(current.values())
        ends.append(len(columns))
        top = j
    reduced, rank = flint.nmod_mat(np.stack(columns, axis=1).tolist(), p).rref()
    pivots, col = [], 0
    for row in range(rank):  # the leading entry of each nonzero row of the echelon form, left to right
        while int(reduced[row, col]) == 0:
            col += 1
        pivots.append(col)
        col += 1
    dims = [sum(1 for c in pivots if c < end) for end in ends]
    if top < max_degree:
        dims += [n] * (max_degree - top) if dims[-1] == n else _hilbert_by_degree(z, top + 1, max_degree, p)
    return dims


def _hilbert_by_degree(z, start: int, max_degree: int, p: int) -> list[int]:
    """[H(start), ..., H(max_degree)], one rank per degree (the columns outnumber 3 x the points there)."""
    import itertools

    import flint
    import numpy as np

    n, m = z.shape
    out = []
    for j in range(start, max_degree + 1):
        if out and out[-1] == n:  # every function on the points: H stays n
            out.append(n)
            continue
        columns = [np.ones(n, dtype=np.int64)]
        for degree in range(1, j + 1):
            for combo in itertools.combinations_with_replacement(range(m), degree):
                value = np.ones(n, dtype=np.int64)
                for c in combo:
                    value = value * z[:, c] % p
                columns.append(value)
        out.append(flint.nmod_mat(np.stack(columns, axis=1).tolist(), p).rank())
    return out


def hilbert_seconds(points: int, m: int, max_degree: int) -> float:
    """Price of ``hilbert_at_positions``: building and converting the points x columns matrix (1.5e-6 s an entry)
    and its echelon form (points x columns x min of the two / 2e9), columns up to 3 x the points; a degree past
    that is priced as one rank of its own (measured on the 2-core test machine at N = 12..22, with slack)."""
    cols, top = 0, 0
    for j in range(max_degree + 1):
        more = comb(j + m - 1, m - 1) if j else 1
        if j and cols + more > 3 * points:
            break
        cols, top = cols + more, j
    total = 0.05 + points * cols * min(points, cols) / 2e9 + points * cols * 1.5e-6
    for j in range(top + 1, max_degree + 1):  # the degrees ranked one by one (stops once H is every point)
        width = comb(j + m, m)
        total += points * width * min(points, width) / 2e9 + points * width * 1.5e-6
    return total


def free_variables(width: int, vocab: int, positional_rank: int) -> int:
    """m = min((V - 1)(1 + R), d_x (d_x + 1)/2): the affine dimension of a side's points, and the variables
    of S (docs/mathematics.md §7, the N-independent limit)."""
    return min((vocab - 1) * (1 + positional_rank), width * (width + 1) // 2)


def derivative_bound(depth: int, width: int, vocab: int, positional_rank: int) -> int:
    """min over j0 of V sum_{j<j0} binom(j + m - 1, m - 1) + binom(C - j0 + m, m) (docs/mathematics.md §7):
    the span of the derivatives of g_1..g_V, a bound on sep(N) at every N and every weight."""
    c, m = layer_degree(depth), free_variables(width, vocab, positional_rank)
    best, below = None, 0
    for j0 in range(c + 2):
        total = below + (comb(c - j0 + m, m) if j0 <= c else 0)
        best = total if best is None else min(best, total)
        below += vocab * comb(j0 + m - 1, m - 1)
    return best


def _monomials(x: int, m: int) -> int:
    """M(x, m): monomials of degree x in m variables."""
    if x < 0:
        return 0
    if m == 0:
        return 1 if x == 0 else 0
    return comb(x + m - 1, m - 1)


def block_bound(depth: int, width: int, heads: int, attn_dim: int, residual: bool) -> tuple[int, str]:
    """A proven upper bound on the generic sep of the continuous network (docs/mathematics.md §2 and §6):
    (B2) the staircase for residual networks; else the sum over degree blocks a = 0..C of the least of
    (B1) min(rows, cols), (B3) the first layer's kernel and, for L = 3 with one head of d_a = d_x, (B4)
    on block 7.  Returns (bound, which)."""
    n, c, d = width * (width + 1) // 2, layer_degree(depth), width
    if residual:
        return min(comb(t - 1 + n, n) + d * comb(c - t + n, n) for t in range(c + 2)), "B2"
    k = max(0, n - heads * attn_dim * attn_dim)
    e = layer_degree(depth - 1)
    comp = min(d, heads * attn_dim)
    total, which = 0, "B1"
    for a in range(c + 1):
        rows, cols = _monomials(a, n), d * _monomials(c - a, n)
        best = min(rows, cols)
        if k and c * (e + 2) <= 3 * 10**6:
            r_ai = [_monomials(i, k) * _monomials(a - i, n - k) for i in range(e + 1)]
            q_aj = [comp * _monomials(j, k) * _monomials(c - a - j, n - k) for j in range(e + 1)]
            kernel = min(sum(r_ai[:t]) + sum(q_aj[:e - t + 1]) for t in range(e + 2))
            if kernel < best:
                best, which = kernel, "B3"
        if depth == 3 and heads == 1 and attn_dim == width and a == 7 and width >= 2:
            big_n = width - 2
            h = comb(big_n + 14, big_n) - 2 * comb(big_n + 12, big_n) + comb(big_n + 10, big_n)
            b4 = min(comb(n + 6, n - 1) - h, d * comb(n + 5, n - 1))
            if b4 < best:
                best, which = b4, "B4"
        total += best
    return total, which


def residue_sample(count: int, p: int | None) -> Fraction:
    """Effective Schwartz-Zippel set size of ``count`` consecutive integers read mod p: count / ceil(count/p)
    (each residue is hit at most ceil(count/p) times; docs/mathematics.md §3)."""
    if p is None or p >= count:
        return Fraction(count)
    return Fraction(count, -(-count // p))


#: |S| of the positional coefficients pi (uniform in [-2^20, 2^20]) read mod p > 2^21 + 1.
EMBEDDING_SAMPLE = 2 * 2**20 + 1


def entry_degree(depth: int) -> int:
    """Degree of one token-matrix entry in every random value: weights 2(3^L - 1), embedding factors 4C + 2,
    the limit's random points and K0 C each (docs/mathematics.md §7; 2(3^L - 1) + 6C + 2)."""
    return 2 * (3**depth - 1) + 6 * layer_degree(depth) + 2


def union_probability(depth: int, vocab: int, positional_rank: int, tokens: int, p: int) -> Fraction:
    """Eq. 7.4 with H at random positions is below eq. 7.4 with the generic H only if some H_X(j), j = 1..C, on
    either side dropped: a nonzero H x H minor of monomials of degree <= j in pi, of degree <= j cap_X(j),
    vanished (Schwartz-Zippel over |S| = residue_sample(2^21 + 1, p)); k is read off the same pi, so the union
    runs over every j on both sides (docs/mathematics.md §7, the positional bound; issue 39 item 1)."""
    c, half = layer_degree(depth), tokens // 2
    total = Fraction(0)
    for size in (half, half - 1):
        if size >= 1:
            total += sum(j * hilbert_cap(size, j, vocab, positional_rank) for j in range(1, c + 1))
    return total / residue_sample(EMBEDDING_SAMPLE, p)


def _token_sample(weight_range: int, p: int) -> Fraction:
    return min(residue_sample(2 * weight_range + 1, p), residue_sample(EMBEDDING_SAMPLE, p))


def every_sequence_probability(proven: int, depth: int, weight_range: int, p: int) -> Fraction:
    """Every sequence kept: the rank at the weights is below the generic one only if a nonzero minor of size
    <= proven, of degree <= proven * entry_degree, vanished (Schwartz-Zippel; docs/mathematics.md §7, every sequence
    kept)."""
    return Fraction(proven * entry_degree(depth)) / _token_sample(weight_range, p)


def limit_probability(upper: int, depth: int, weight_range: int, p: int) -> Fraction:
    """The computed N-independent limit (docs/mathematics.md §7): it doubles k = 8, 16, ... (at most upper + 1)
    until the rank of the V k x k matrix at random points stops short of k or meets ``upper``; the k where it stops
    is read off the same draws, so the union runs over every k the doubling can reach: each matrix falls below its
    generic rank min(k, Lambda) only if a minor of size <= min(k, upper), of degree <= that times entry_degree,
    vanished (Schwartz-Zippel over |S'|), or the elimination's random mixing failed (min(k, upper) / p)."""
    steps, k = [], min(8, upper + 1)
    while True:
        steps.append(k)
        if k >= upper + 1:
            break
        k = min(2 * k, upper + 1)
    sample = _token_sample(weight_range, p)
    return sum((Fraction(min(k, upper) * entry_degree(depth)) / sample + Fraction(min(k, upper), p) for k in steps),
               Fraction(0))


def round_up(value: Fraction, digits: int = 3) -> float:
    """A bound as the exports print it: min(1, value) rounded up to ``digits`` significant digits."""
    if value >= 1:
        return 1.0
    if value <= 0:
        return 0.0
    as_float = math.nextafter(float(value), 1.0)
    exact = Decimal(as_float)
    up = exact.quantize(Decimal(1).scaleb(exact.adjusted() - digits + 1), rounding=ROUND_CEILING)
    return float(f"{float(up):.{digits}g}")

