"""Designed low-rank and nearly-full blocks at the sizes where the float64 elimination runs (short
side >= 256), rank and null space against FLINT's nmod_mat at several primes.

Low rank k is planted as a product of random n x k and k x m factors (rank k with overwhelming
probability; FLINT says which); nearly full is a random matrix with its last column a copy of an
earlier one (rank min(n, m) - 1 when m <= n).  Entries are the canonical residues (p - 1 and
(p + 1)/2 included) or their centred negatives, so that every product bound meets the largest values.
"""

from __future__ import annotations

import flint
import numpy as np
import pytest

from verify.exact.elimination import rank_mod_p
from verify.exact.nullspace import null_space

#: about 2^20 (the fast prime), just below 2^23 (one limb, chunk 512), a two-limb prime, a three-limb one
PRIMES = [1048573, 8388593, 2**46 - 21, 2**50 - 27]
#: the three-limb products cost most: low-rank and null-space designs run at the first three only
FAST = PRIMES[:3]


def to_flint(matrix: np.ndarray, p: int) -> flint.nmod_mat:
    return flint.nmod_mat(matrix.shape[0], matrix.shape[1], [int(v) % p for v in matrix.ravel()], p)


def low_rank(rng, rows: int, cols: int, rank: int, p: int) -> np.ndarray:
    left = to_flint(rng.integers(0, p, (rows, rank), dtype=np.int64), p)
    right = to_flint(rng.integers(0, p, (rank, cols), dtype=np.int64), p)
    product = left * right
    return np.array([int(v) for v in product.entries()], dtype=np.int64).reshape(rows, cols)


def extreme(rng, rows: int, cols: int, p: int) -> np.ndarray:
    """Entries among p - 1, (p + 1)/2, (p - 1)/2, 1 and random residues."""
    choices = np.array([p - 1, (p + 1) // 2, (p - 1) // 2, 1], dtype=np.int64)
    out = rng.integers(0, p, (rows, cols), dtype=np.int64)
    mask = rng.random((rows, cols)) < 0.6
    out[mask] = rng.choice(choices, int(mask.sum()))
    return out


def nearly_full(rng, rows: int, cols: int, p: int) -> np.ndarray:
    matrix = extreme(rng, rows, cols, p)
    matrix[:, -1] = matrix[:, rng.integers(0, cols - 1)]  # a duplicated column
    return matrix


def check_null_space(matrix: np.ndarray, p: int, rank: int) -> None:
    space = null_space(matrix, p)
    assert (space.rank, space.nullity) == (rank, matrix.shape[1] - rank)
    rows = space.rows()
    assert rows.shape == (space.nullity, matrix.shape[1])
    if space.nullity:
        basis = to_flint(rows, p)
        assert basis.rank() == space.nullity  # independent
        assert all(int(v) == 0 for v in (to_flint(matrix, p) * basis.transpose()).entries())  # annihilated
        mix = np.random.default_rng(1).integers(0, p, (space.nullity, 3), dtype=np.int64)
        mixed = to_flint(space.rows(mix), p)
        assert mixed.rank() == min(3, space.nullity)
        assert all(int(v) == 0 for v in (to_flint(matrix, p) * mixed.transpose()).entries())


@pytest.mark.parametrize("p", FAST)
@pytest.mark.parametrize("rows,cols,rank", [(256, 256, 255), (260, 400, 7), (400, 256, 131), (300, 300, 290)])
def test_planted_low_rank_matches_flint(p, rows, cols, rank):
    rng = np.random.default_rng(rows * 1000 + cols + p % 997)
    matrix = low_rank(rng, rows, cols, rank, p)
    expected = to_flint(matrix, p).rank()
    assert expected == rank  # the factors are generic at these seeds
    found = rank_mod_p(matrix, p, pivots=True)
    assert found.rank == expected
    assert to_flint(matrix[np.ix_(found.rows, found.cols)], p).rank() == expected  # the pivots are real
    centred = np.where(matrix > p // 2, matrix - p, matrix)  # the same residues, centred
    assert rank_mod_p(centred, p) == expected


@pytest.mark.parametrize("p", PRIMES)
@pytest.mark.parametrize("rows,cols", [(300, 300), (256, 400)])
def test_nearly_full_blocks_match_flint(p, rows, cols):
    rng = np.random.default_rng(rows + 7 * cols + p % 991)
    matrix = nearly_full(rng, rows, cols, p)
    expected = to_flint(matrix, p).rank()
    assert expected == min(rows, cols) - (1 if cols <= rows else 0)
    assert rank_mod_p(matrix, p) == expected
    assert rank_mod_p(matrix.T.copy(), p) == expected


@pytest.mark.parametrize("p", FAST)
@pytest.mark.parametrize("rows,cols,rank", [(260, 300, 259), (300, 400, 200), (256, 300, 32)])
def test_null_spaces_of_designed_blocks_against_flint(p, rows, cols, rank):
    rng = np.random.default_rng(rank + p % 1009)
    matrix = low_rank(rng, rows, cols, rank, p)
    matrix[:, ::7] = np.where(matrix[:, ::7] == 0, 0, p - matrix[:, ::7])  # negated columns: the same rank
    expected = to_flint(matrix, p).rank()
    assert expected == rank
    check_null_space(matrix, p, expected)


@pytest.mark.parametrize("p", FAST)
def test_null_space_when_the_pivot_columns_are_not_the_first(p):
    """Zero columns in front and dependent columns between the pivots: the column permutation is a
    long cycle (not its own inverse), so null vectors put back in the wrong order are caught."""
    rng = np.random.default_rng(p % 4099)
    matrix = np.hstack([np.zeros((260, 3), dtype=np.int64), low_rank(rng, 260, 297, 180, p)])
    matrix[:, 40] = matrix[:, 5]  # a repeated pivot column
    matrix[:, 120:125] = 0
    expected = to_flint(matrix, p).rank()
    assert expected == 180
    check_null_space(matrix, p, expected)


def test_a_rank_690_block_of_side_700_at_the_one_limb_prime():
    """The block size the planted centring bug was seen on (rank 700 reported for 690)."""
    p = 8388593
    rng = np.random.default_rng(690)
    matrix = low_rank(rng, 700, 700, 690, p)
    assert to_flint(matrix, p).rank() == 690 == rank_mod_p(matrix, p)
