"""The float64-BLAS elimination over GF(p) (verify.exact.elimination) against FLINT's nmod_mat rank.

Expected ranks come from FLINT (an independent elimination); pivots are checked by FLINT's rank
of the pivot submatrix; products by Python integer arithmetic.
"""

from __future__ import annotations

import flint
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from verify.exact.elimination import rank_mod_p
from verify.exact.floatmod import ModArith
from verify.exact.tuning import BASE

#: One prime per product split: one limb (chunk 512), one limb forced at p near 2^26 (chunk 7,
#: delayed reduction every 8 updates), two limbs by Karatsuba (the smallest two-limb prime, whose
#: rank-one updates still delay reduction; and 2^40 - 87, fused rank-one updates), two limbs by four
#: products (2^44.9 < p < 2^46), three limbs (p near 2^50).
PRIMES = [(8388593, None), (67108859, 1), (11863289, None), (2**40 - 87, None), (2**46 - 21, None),
          (2**50 - 27, None)]


def flint_rank(matrix: np.ndarray, p: int) -> int:
    rows, cols = matrix.shape
    if rows == 0 or cols == 0:
        return 0
    return flint.nmod_mat(rows, cols, [int(v) % p for v in matrix.ravel()], p).rank()


def low_rank(rng, rows: int, cols: int, rank: int, p: int) -> np.ndarray:
    """A rows x cols matrix of rank <= rank: a product of two random factors mod p (object ints)."""
    left = rng.integers(0, p, (rows, rank)).astype(object)
    right = rng.integers(0, p, (rank, cols)).astype(object)
    return (left @ right) % p if rank else np.zeros((rows, cols), dtype=object)


def check(matrix: np.ndarray, p: int, limbs=None) -> int:
    """rank_mod_p agrees with FLINT, and its pivot submatrix is invertible in FLINT."""
    found = rank_mod_p(matrix, p, pivots=True, limbs=limbs)
    assert found.rank == flint_rank(matrix, p)
    assert len(found.rows) == len(found.cols) == found.rank
    assert len(set(found.rows.tolist())) == len(set(found.cols.tolist())) == found.rank
    assert flint_rank(matrix[np.ix_(found.rows, found.cols)], p) == found.rank
    return found.rank


@pytest.mark.parametrize("p,limbs", PRIMES)
@pytest.mark.parametrize("shape,rank", [((70, 70), 70), ((90, 60), 35), ((40, 130), 40), ((130, 41), 17),
                                        ((1, 75), 1), ((75, 1), 1), ((100, 100), 0), ((64, 97), 63)])
def test_rank_and_pivots_match_flint_on_every_shape_and_rank(p, limbs, shape, rank):
    rng = np.random.default_rng(hash((p, shape, rank)) % 2**32)
    assert check(low_rank(rng, *shape, rank, p), p, limbs) == min(rank, *shape)


@pytest.mark.parametrize("p,limbs", PRIMES)
def test_adversarial_matrices_match_flint(p, limbs):
    rng = np.random.default_rng(7)
    base = low_rank(rng, 60, 50, 20, p)
    zero_cols = base.copy()
    zero_cols[:, ::3] = 0  # zero columns, also at the start of every base panel
    repeated = np.hstack([base[:, :10]] * 6)  # one 10-column block repeated
    all_top = np.full((45, 55), p - 1, dtype=object)  # every entry p - 1: rank 1
    extreme = np.where(rng.integers(0, 2, (80, 80)) == 1, (p - 1) // 2, (p + 1) // 2).astype(object)
    staircase = np.triu(low_rank(rng, 70, 70, 70, p))  # zero below the diagonal
    staircase[np.arange(0, 70, 4), np.arange(0, 70, 4)] = 0
    for matrix in (base, zero_cols, repeated, all_top, extreme, staircase, base.T, repeated.T):
        check(matrix, p, limbs)
    assert check(all_top, p, limbs) == 1


def test_empty_matrices_have_rank_zero():
    for shape in [(0, 0), (0, 5), (5, 0)]:
        found = rank_mod_p(np.zeros(shape, dtype=np.int64), 101, pivots=True)
        assert found.rank == 0 and found.rows.size == found.cols.size == 0


def test_entries_are_reduced_from_any_integer_input():
    p = 8388593
    small = np.array([[1, 2], [3, 4]], dtype=np.int64)
    shifted = small + p * np.array([[5, -7], [2**40, -(2**40)]], dtype=np.int64)  # past 2^53: integer path
    assert rank_mod_p(shifted, p) == rank_mod_p(small, p) == 2
    # Python ints past 2^63: the first row vanishes mod p, the second is 2^70 (1, 2)
    assert rank_mod_p(np.array([[p, 2 * p], [1, 2]], dtype=object) * (2**70), p) == 1


@settings(max_examples=30, deadline=None)
@given(rows=st.integers(1, 3 * BASE), cols=st.integers(1, 3 * BASE), rank=st.integers(0, 3 * BASE),
       prime=st.sampled_from(PRIMES), seed=st.integers(0, 2**32 - 1))
def test_rank_of_a_random_product_matches_flint_and_its_pivot_block_is_invertible(rows, cols, rank, prime, seed):
    p, limbs = prime
    check(low_rank(np.random.default_rng(seed), rows, cols, rank, p), p, limbs)


@settings(max_examples=20, deadline=None)
@given(rows=st.integers(1, 40), cols=st.integers(1, 40), seed=st.integers(0, 2**32 - 1),
       density=st.sampled_from([0.05, 0.2, 0.5]))
def test_rank_of_a_sparse_small_entry_matrix_matches_flint(rows, cols, seed, density):
    rng = np.random.default_rng(seed)
    matrix = np.where(rng.random((rows, cols)) < density, rng.integers(-3, 4, (rows, cols)), 0)
    check(matrix.astype(np.int64), 101)


@pytest.mark.parametrize("p,limbs", PRIMES)
def test_submul_is_exact_past_the_chunk_at_the_largest_entries(p, limbs):
    """C - A B mod p over inner dimensions past several chunks, with every entry of largest
    magnitude (balanced +-(p-1)/2), against Python integers."""
    ar = ModArith(p, np, limbs)
    rng = np.random.default_rng(3)
    inner = min(3 * ar.chunk + 5, 1200)
    top = (p - 1) // 2
    a = np.where(rng.integers(0, 2, (6, inner)) == 1, top, -top).astype(np.int64)
    b = np.where(rng.integers(0, 2, (inner, 5)) == 1, top, -top).astype(np.int64)
    c = rng.integers(0, p, (6, 5))
    a[0], b[:, 0] = top, top  # one all-positive dot product: the largest partial sums
    out = ar.from_ints(c)
    ar.submul(out, ar.from_ints(a), ar.from_ints(b))
    expected = (c.astype(object) - a.astype(object) @ b.astype(object)) % p
    assert (ar.to_ints(out).astype(object) == expected).all()
    assert np.abs(out).max() <= ar.h


@pytest.mark.parametrize("p,limbs", PRIMES)
def test_delayed_rank_one_updates_stay_exact_at_the_largest_entries(p, limbs):
    """Many same-sign rank-one updates of the largest magnitude, as the base case applies them
    (reduction delayed while |x| <= h + pending h^2 < 2^53), against Python integers."""
    from verify.exact.elimination import _Pluq

    ar = ModArith(p, np, limbs)
    top = (p - 1) // 2
    start = np.full((4, 3), top, dtype=np.int64)
    target = ar.from_ints(start)
    left, right = ar.from_ints(np.full(4, top)), ar.from_ints(np.full(3, -top))
    engine, pending, updates = _Pluq(ar, target, [], []), 0, 3 * max(ar.delay, 1) + 1
    for _ in range(updates):
        pending = engine._rank_one(target, left, right, pending)
    ar.reduce(target)
    assert (ar.to_ints(target) == (top + updates * top * top) % p).all()


@pytest.mark.parametrize("p,limbs", PRIMES)
def test_delayed_schur_updates_stay_exact_at_the_largest_entries(p, limbs):
    """Repeated C - A B with reduction delayed between products (``submul(..., pending=...)``), every
    entry of largest magnitude and one sign, against Python integers."""
    ar = ModArith(p, np, limbs)
    top = (p - 1) // 2
    inner = min(ar.chunk // 2 + 3, 300)
    a, b = np.full((3, inner), top, dtype=np.int64), np.full((inner, 2), -top, dtype=np.int64)
    c = ar.from_ints(np.full((3, 2), top, dtype=np.int64))
    pending = 0
    for _ in range(5):
        pending = ar.submul(c, ar.from_ints(a), ar.from_ints(b), pending)
        assert np.abs(c).max() <= ar.h + pending * ar.h * ar.h < 2**53
    ar.reduce(c)
    assert (ar.to_ints(c) == (top + 5 * inner * top * top) % p).all()


@pytest.mark.parametrize("p,limbs", PRIMES[::2] + [(101, None)])
@pytest.mark.parametrize("shape,rank", [((40, 90), 25), ((90, 40), 40), ((70, 70), 33), ((5, 60), 0)])
@pytest.mark.parametrize("columns", ["random", "zero and repeated"])
def test_null_space_rows_are_annihilated_and_span_the_kernel(p, limbs, shape, rank, columns):
    """M x = 0 for every row x (Python integers); the rows have FLINT rank cols - rank(M); mixed
    rows (basis times a seeded matrix H) are annihilated too and have rank min(nullity, t) here."""
    from verify.exact.nullspace import null_space

    rng = np.random.default_rng(13)
    matrix = low_rank(rng, *shape, rank, p)
    if columns != "random":  # pivots away from the leading columns: a nontrivial column permutation
        matrix[:, ::3] = 0
        matrix[:, 4] = matrix[:, 1]
    space = null_space(matrix, p)
    assert space.rank == flint_rank(matrix, p) and space.nullity == shape[1] - space.rank
    basis = space.rows()
    assert basis.shape == (space.nullity, shape[1])
    assert not ((matrix.astype(object) @ basis.T.astype(object)) % p).any()
    assert flint_rank(basis, p) == space.nullity
    mix = rng.integers(0, p, (space.nullity, 7))
    mixed = space.rows(mix)
    assert not ((matrix.astype(object) @ mixed.T.astype(object)) % p).any()
    assert flint_rank(mixed, p) == min(space.nullity, 7)


def test_overwrite_ranks_in_the_inputs_memory_with_the_same_rank():
    rng = np.random.default_rng(21)
    p = 8388593
    matrix = low_rank(rng, 90, 70, 40, p).astype(np.int64)
    expected = flint_rank(matrix, p)
    for view in (matrix.copy(), matrix.T.copy().T):  # C and Fortran layouts
        assert rank_mod_p(view, p, overwrite=True) == expected
        assert view.dtype == np.int64 and not (view == matrix).all()  # consumed


def flint_column_profile(matrix: np.ndarray, p: int) -> list[int]:
    """The lexicographically first independent columns, by FLINT ranks of the column prefixes."""
    profile, rank = [], 0
    for j in range(matrix.shape[1]):
        if flint_rank(matrix[:, :j + 1], p) > rank:
            profile.append(j)
            rank += 1
    return profile


def panel_matrices(rng, p: int) -> list[np.ndarray]:
    """Matrices whose base panels see dependent columns before their pivot columns (column moves
    under rows already eliminated), pivots far below (row swaps into earlier panels' L), and a rank
    found only in the last panel."""
    rows, cols = 90, 5 * BASE + 7
    mixed = low_rank(rng, rows, cols, 50, p)
    mixed[:, BASE:BASE + BASE // 2] = (mixed[:, :BASE // 2] * 3 + mixed[:, 1:BASE // 2 + 1]) % p  # dependent
    mixed[:, 2 * BASE:2 * BASE + 5] = 0  # zero columns opening a panel
    mixed[:60, 3 * BASE:4 * BASE] = 0  # pivots only in the bottom rows
    mixed[:, 3 * BASE + 3] = mixed[:, 2]  # a dependent column after the zero rows' panel start
    last = np.zeros((rows, cols), dtype=object)
    last[rows - 6:, cols - 4:] = low_rank(rng, 6, 4, 3, p)  # rank 3, found in the last panel only
    wide = np.hstack([np.zeros((20, 2 * BASE), dtype=object), low_rank(rng, 20, BASE + 3, 12, p)])
    return [mixed, last, wide, mixed.T.copy()]


@pytest.mark.parametrize("p,limbs", PRIMES)
def test_pivot_columns_are_the_column_rank_profile_across_panels(p, limbs):
    """Pivot columns are FLINT's column rank profile, the pivot block is invertible, and the null
    space read from the factors is annihilated (the swaps made inside a panel reach every row and
    column outside it)."""
    from verify.exact.nullspace import null_space

    for matrix in panel_matrices(np.random.default_rng(5), p):
        found = rank_mod_p(matrix, p, pivots=True, limbs=limbs)
        assert sorted(found.cols.tolist()) == flint_column_profile(matrix, p)
        check(matrix, p, limbs)
        if limbs is None:
            space = null_space(matrix, p)
            basis = space.rows()
            assert basis.shape[0] == matrix.shape[1] - found.rank
            assert not ((matrix.astype(object) @ basis.T.astype(object)) % p).any()
            assert flint_rank(basis, p) == basis.shape[0]
