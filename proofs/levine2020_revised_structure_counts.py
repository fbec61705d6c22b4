"""The structure and term counts behind the upper bounds of the revised supplement (A.1-A.3): C(L) from its
recursion, Corollary 1's index expansion and Theorem 1's P/Q split, the swap-pattern count of eq. 6, the
multiset identity, and the counts of Theorem 2's chi functions."""

import random
from itertools import product
from math import comb, prod

import flint
from hypothesis import strategies as st

from verify.authoring import Cases, Claim, shifted, strict

from ._common import REVISED, Source


def _c(depth):
    return (3**depth - 1) // 2


def _recursion(depth, offset=0):
    """C(1) = 1 and C(L+1) = 3 C(L) + 1 (Lemma 1's induction) against the closed form (3^L - 1)/2."""
    value = 1
    for _ in range(depth - 1):
        value = 3 * value + 1
    ok = value == _c(depth) + offset
    return ok, f"L={depth}: recursion {value}, closed form {_c(depth) + offset}"


def _dot(u, v):
    return sum(a * b for a, b in zip(u, v, strict=False))


def _matmul(a, b):
    return [[sum(a[i][k] * b[k][j] for k in range(len(b))) for j in range(len(b[0]))] for i in range(len(a))]


def _expansion(factors, d_a, width, tokens, shift=0):
    """Eq. 2 as a matrix product against Corollary 1's index sum (eq. 5) and against Theorem 1's split over
    P_1..P_C in {P, Q}^C, with random integer A^(c), B^(c) (d_a x d_x) and inputs; exact integers."""
    rng = random.Random(f"structure:{factors}:{d_a}:{width}:{tokens}")
    mat = lambda r, c: [[rng.randint(-3, 3) for _ in range(c)] for _ in range(r)]  # noqa: E731
    a = [mat(d_a, width) for _ in range(factors + 1)]
    b = [mat(d_a, width) for _ in range(factors + 1)]
    x = [[rng.randint(-3, 3) for _ in range(width)] for _ in range(tokens)]  # x[j] = x^(j)
    part_p = set(range(tokens // 2))

    def m_of(c, positions):  # M^(c) restricted to positions: sum_j <A_r1, x_j><B_r2, x_j>
        return [[sum(_dot(a[c][r1], x[j]) * _dot(b[c][r2], x[j]) for j in positions) for r2 in range(d_a)]
                for r1 in range(d_a)]

    def chain(ms, i, p):  # B^(0)T_p M^(1)...M^(C) A^(0) x^(i)
        row = [[b[0][r][p] for r in range(d_a)]]
        for m in ms:
            row = _matmul(row, m)
        return sum(row[0][r] * _dot(a[0][r], x[i]) for r in range(d_a))

    full = [m_of(c, range(tokens)) for c in range(1, factors + 1)]
    for i, p in product(range(tokens), range(width)):
        target = chain(full, i, p)
        index_sum = 0
        for js in product(range(tokens), repeat=factors):
            for rs in product(range(d_a), repeat=factors + 1):
                term = b[0][rs[0]][p] * _dot(a[0][rs[-1]], x[i])
                for c in range(factors):
                    term *= _dot(a[c + 1][rs[c]], x[js[c]]) * _dot(b[c + 1][rs[c + 1 - shift]], x[js[c]])
                index_sum += term
        split = sum(chain([m_of(c + 1, part_p if side else set(range(tokens)) - part_p)
                           for c, side in enumerate(sides)], i, p)
                    for sides in product((True, False), repeat=factors))
        if index_sum != target or split != target:
            return False, f"C={factors} d_a={d_a} d_x={width} N={tokens}: eq. 2 {target}, eq. 5 {index_sum}, " \
                          f"P/Q split {split} at i={i} p={p}", {"C": factors, "i": i, "p": p}
    return True, f"C={factors} d_a={d_a} d_x={width} N={tokens}: eq. 2 = eq. 5 = P/Q split at every (i, p)"


def _swaps(factors, offset=0):
    """Theorem 1, eq. 6: the 2^C segment sequences (with P_{C+1} = P, as i is in P) grouped by their number b of
    swap positions beta in [C] (P_beta != P_beta+1): binom(C, b) of them each, each leaving d_a^b free r indices,
    so the term count is H^C sum_b binom(C, b) d_a^b = (H (d_a + 1))^C."""
    by_b = [0] * (factors + 1)
    for sides in product((0, 1), repeat=factors):
        seq = sides + (0,)
        by_b[sum(seq[c] != seq[c + 1] for c in range(factors))] += 1
    ok = by_b == [comb(factors, b + offset) for b in range(factors + 1)]
    for d_a, heads in product(range(1, 6), range(1, 4)):
        total = heads**factors * sum(n * d_a**b for b, n in enumerate(by_b))
        ok = ok and total == (heads * (d_a + 1)) ** factors
    return ok, f"C={factors}: swap counts {by_b}" + (" = binom(C, b); H^C sum = (H(d_a+1))^C for d_a <= 5, H <= 3"
                                                      if ok else " (mismatch)")


def _multiset(n, k, offset=0):
    count = sum(1 for a in product(range(k + 1), repeat=n) if sum(a) == k)
    ok = count == comb(n + k - 1 + offset, k)
    return ok, f"n={n} k={k}: {count} compositions, stated {comb(n + k - 1 + offset, k)}"


def _compositions(total, parts):
    return [a for a in product(range(total + 1), repeat=parts) if sum(a) == total]


def _chi_counts(width, factors, strict=False):
    """Theorem 2: ((d_x over 2C)) power vectors (so d_x ((d_x over 2C)) chi with the output coordinate), each
    splitting n_m = r_mP + r_mQ in n_m + 1 = ((2 over n_m)) ways, and (lemma 3 with n = 2)
    prod_m (n_m + 1) <= (2C/d_x + 1)^d_x with equality iff all n_m are equal; the product of the counts is eq. 8."""
    comps = _compositions(2 * factors, width)
    ok = len(comps) == comb(width + 2 * factors - 1, 2 * factors)
    worst = 0
    for n in comps:
        splits = sum(1 for r in product(*(range(m + 1) for m in n)) if all(0 <= m - s
                                                                           for m, s in zip(n, r, strict=False)))
        left, right = prod(m + 1 for m in n) * width**width, (2 * factors + width) ** width
        equal_clause = (left == right) == (len(set(n)) == 1) and not (strict and left == right)
        ok = ok and splits == prod(m + 1 for m in n) == prod(comb(2 + m - 1, m) for m in n) \
            and left <= right and equal_clause
        worst = max(worst, prod(m + 1 for m in n))
    bound = width * comb(width + 2 * factors - 1, 2 * factors) * (factors + 1) * flint.fmpq(2 * factors + width,
                                                                                              width) ** width
    eq8 = width * (factors + 1) * comb(width + 2 * factors - 1, 2 * factors) * (flint.fmpq(2 * factors, width) + 1) \
        ** width
    ok = ok and bound == eq8
    return ok, f"d_x={width} C={factors}: {len(comps)} power vectors, max splits {worst} <= " \
               f"(2C/d_x+1)^d_x = {flint.fmpq(2 * factors + width, width) ** width}"


def _chi_rank(width, factors, drop=0):
    """The printed chi (unit coefficients) on N = 4 positions, P = {1, 2} holding i = 1: its P/Q coefficient matrix
    has rank <= (C+1) prod_m (n_m + 1) for every power vector n and output coordinate alpha (exact rank); ``drop``
    lowers the factor C+1 by that much."""
    tokens = 4
    worst = (0, 0)
    per_position = [e for total in range(0, 2 * factors + 1, 2) for e in _compositions(total, width)]
    for n in _compositions(2 * factors, width):
        # exponent vectors per position, each of even degree 2 o_j, with column sums n; x^(i)_alpha multiplies
        # every P-monomial alike and does not change the rank
        monomials = [choice for choice in product(per_position, repeat=tokens)
                     if all(sum(e[m] for e in choice) == n[m] for m in range(width))]
        rows = {r: k for k, r in enumerate(sorted({c[:2] for c in monomials}))}
        cols = {c: k for k, c in enumerate(sorted({c[2:] for c in monomials}))}
        matrix = flint.fmpz_mat(len(rows), len(cols))
        for c in monomials:
            matrix[rows[c[:2]], cols[c[2:]]] = 1
        rank, bound = matrix.rank(), (factors + 1 - drop) * prod(m + 1 for m in n)
        if rank > bound:
            return False, f"d_x={width} C={factors} n={n}: rank {rank} > {bound}", {"n": list(n)}
        worst = max(worst, (rank, bound))
    return True, f"d_x={width} C={factors}: largest chi rank {worst[0]} (bound {worst[1]})"


CLAIM = Claim(
    id="levine2020_revised_structure_counts",
    source=Source(REVISED, "A.1-A.3", "Lemma 1's recursion, Corollary 1 (eq. 5), proofs of Theorems 1-2 (eq. 6, chi)"),
    statement="C(L+1) = 3C(L) + 1 gives C(L) = (3^L - 1)/2; eq. 2 expands into Corollary 1's index sum and into the "
              "sum over P_1..P_C in {P, Q}; the segment sequences with b swaps number binom(C, b), so the count is "
              "H^C sum_b binom(C, b) d_a^b = (H(d_a + 1))^C; |{a in Z>=0^n : sum a = k}| = ((n over k)); Theorem 2 has "
              "d_x ((d_x over 2C)) chi, each of sep <= (C+1) prod ((2 over n_m)) <= (C+1)(2C/d_x + 1)^d_x.",
    domain="C(L) for L = 1..15; expansions at C in {1, 2, 4}, d_a = 2, d_x = 2, N in {2, 4}; swaps for C = 1..10; "
           "multisets n = 1..5, k = 0..6; chi counts d_x = 1..4, C in {1, 4} and (d_x, C) = (2, 13); chi ranks "
           "d_x = 1, 2, C = 1, 2 on N = 4",
    reading="The swap positions are read as distinct (0 < beta_b < ... < beta_1 <= C): read literally, the printed "
            "'<=' between betas would repeat positions and over-count.  ((2 over r_beta)) is read as ((2 over "
            "n_beta)), the number of ways to split n_beta between P and Q.",
    checks=[Cases(list(range(1, 16)), _recursion, name="C(L) recursion against its closed form",
                  strategy=st.integers(1, 200), search=30,
                  perturb={"closed form + 1": shifted(_recursion, offset=1)}),
            Cases([(1, 2, 2, 2), (1, 2, 2, 4), (2, 2, 2, 2), (2, 2, 2, 4), (4, 2, 2, 2)], _expansion,
                  name="eq. 2 = Corollary 1's index sum = Theorem 1's P/Q split (exact)",
                  perturb={"B^(c) indexed by r_c instead of r_(c+1)": shifted(_expansion, shift=1)}),
            Cases(list(range(1, 11)), _swaps, name="swap patterns and Theorem 1's term count",
                  perturb={"binom(C, b + 1) sequences with b swaps": shifted(_swaps, offset=1)}),
            Cases([(n, k) for n in range(1, 6) for k in range(0, 7)], _multiset, name="multiset identity",
                  strategy=st.tuples(st.integers(1, 4), st.integers(0, 12)), search=20,
                  perturb={"binom(n + k, k) compositions": shifted(_multiset, offset=1)}),
            Cases([(w, c) for w in range(1, 5) for c in (1, 4)] + [(2, 13)], _chi_counts,
                  name="number of chi, splits per chi, lemma 3 at n = 2 with its equality clause",
                  perturb={"lemma 3 strict": strict(_chi_counts, strict=True)}),
            Cases([(1, 1), (1, 2), (2, 1), (2, 2)], _chi_rank, name="rank of each printed chi across P/Q",
                  perturb={"sep(chi) <= C prod (n_m + 1) (factor C+1 -> C)": shifted(_chi_rank, drop=1)})],
)
