"""The lower-bound constructions: Gaussian rationals, Levine's Lemma 4, the vocabulary paper's Lemmas 5-7."""

import random
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from verify.constructions.levine import grid_submatrix, hadamard_target, proportional, unit_rows
from verify.constructions.vocabulary import (
    Layout,
    carried_columns,
    convolution_embedding,
    embedding_target,
    large_n_construction,
    matrix_rank,
    vocabulary_matrix,
)
from verify.exact.gaussian import GaussianRational, I

small = st.integers(-50, 50)


@given(a=small, b=small, c=small, d=small)
def test_gaussian_products_and_sums_match_python_complex_on_small_integers(a, b, c, d):
    x, y = GaussianRational(a, b), GaussianRational(c, d)
    for got, want in ((x * y, complex(a, b) * complex(c, d)), (x + y, complex(a + c, b + d)),
                      (x - y, complex(a - c, b - d))):
        assert (float(got.re), float(got.im)) == (want.real, want.imag)
    if c or d:
        assert (x / y) * y == x


def test_imaginary_unit_squares_to_minus_one():
    assert I * I == -1 and I ** 4 == 1 and (1 + I) ** 2 == 2 * I


def test_unit_rows_are_rational_unit_vectors():
    for row in unit_rows(5, 4, 1):
        assert sum(x * x for x in row) == 1 and all(isinstance(x, Fraction) for x in row)


@pytest.mark.parametrize("width, heads", [(3, 1), (5, 1), (6, 2), (9, 3)])
def test_lemma4_depth_two_constant_is_eq46s_minus_2N(width, heads):
    # eqs. 42 and 46 at L = 2: y = N i (2 i (V V^T)) = -2 N (V V^T): an independent route to Const
    v = unit_rows(3, heads * ((width // heads - 1) // 2), 4)
    grid = grid_submatrix(width, heads, 2, 4, v)
    holds, const = proportional(grid, hadamard_target(v, 1))
    assert holds and const == -8


@pytest.mark.parametrize("width, c", [(3, 1), (5, 2), (7, 3)])
def test_lemma4_depth_three_constant_has_the_segment_sums_c_squared(width, c):
    # by hand: layer 3's key/query sum each of the c (first, second) pairs to 1, so eq. 34 gains c^2;
    # eqs. 42/46 give N^4 i (2i)^3 = 8 N^4
    v = unit_rows(3, c, 2)
    holds, const = proportional(grid_submatrix(width, 1, 3, 2, v), hadamard_target(v, 3))
    assert holds and const == 8 * 2**4 * c**2


def test_lemma4_printed_last_layer_sees_one_heads_partial_gram():
    v = unit_rows(3, 2, 0)
    grid = grid_submatrix(6, 2, 2, 4, v, frozenset(["last_layer"]))
    # head 1 carries column 1 only: y = N i (V[i][0] + i V[j][0])^2, its partial Gram, whose real parts no
    # longer cancel (rows are unit vectors only over both heads' columns)
    assert all(grid[i][j] == 4 * I * (v[i][0] + I * v[j][0]) ** 2 for i in range(3) for j in range(3))
    assert not proportional(grid, hadamard_target(v, 1))[0]


def _a(rows, cols, seed):
    rng = random.Random(seed)
    return [[rng.randint(1, 4) for _ in range(cols)] for _ in range(rows)]


@pytest.mark.parametrize("width, heads, r", [(5, 1, 5), (7, 1, 5), (9, 3, 9), (12, 3, 11), (8, 2, 8)])
def test_lemma6_corrected_vocabulary_matrix_has_rank_2n_plus_1_and_carries_each_column_once(width, heads, r):
    n = min((r - heads) // 2, heads * ((width // heads - 1) // 2))
    layout = Layout(width, heads, n)
    a = _a(4, n, width + r)
    m = vocabulary_matrix(layout, a, 9)
    # the H constant rows are one all-ones row, and the two halves hold independent copies of A^T
    # (generic A); at most r = H + 2n as the lemma says
    assert matrix_rank(m) == 1 + 2 * n <= r
    assert carried_columns(layout) == (list(range(1, n + 1)), list(range(1, n + 1)))
    assert all([m[k][i - 1] for k in range(width)] == embedding_target(layout, a, i) for i in range(1, 10))


def test_lemma6_printed_phi_skips_columns_with_two_heads():
    # d_x = 6, H = 2, d_a = 3: printed phi gives first-half coordinates 1 and 4 the numbers 1 and 3
    assert carried_columns(Layout(6, 2, 2, printed=True)) == ([1], [1])
    assert carried_columns(Layout(6, 2, 2)) == ([1, 2], [1, 2])


def test_lemma5_kernel_outputs_equal_the_targets():
    layout = Layout(9, 3, 3)
    a = _a(3, 3, 1)
    _, outputs, rank = convolution_embedding(layout, a, [1, 2, 4, 7], 2)
    assert outputs == [embedding_target(layout, a, t) for t in (1, 2, 4, 7)] and rank == 3 + 2 * 3


def test_lemma7_first_layer_output_is_the_value_map_of_the_counted_embedding():
    layout = Layout(7, 1, 2)  # r = 6: n = (6 - 1 - 1)/2 = 2
    a = [[1, 3], [2, 2]]
    rng = random.Random(3)
    vo = [(tuple(tuple(rng.randint(-3, 3) for _ in range(7)) for _ in range(7)),
           tuple(tuple(rng.randint(-3, 3) for _ in range(7)) for _ in range(7)))]
    outputs, target, u, tokens = large_n_construction(layout, a, vo, 1, 2)
    # by hand: N = 2 E n = 12; first half of the head (coordinates 1-3, c = 3) carries row 1 of A,
    # second half row 2, the constant coordinate counts every position
    assert tokens == 12 and u == [1, 3, 0, 2, 2, 0, 12]
    assert all(y == target for y in outputs)
