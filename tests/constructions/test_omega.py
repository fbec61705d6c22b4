"""The Omega-matrix construction and Lemmas 5-6 of the first supplement."""

from itertools import permutations
from math import comb

import flint
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from verify.constructions.omega import bad_omegas, determinant_polynomial, exponent_matrix, hadamard_gram, omega_rows


@pytest.mark.parametrize("d,lam", [(2, 1), (2, 2), (3, 2), (2, 3), (3, 3), (4, 2)])
def test_hadamard_power_has_full_multiset_rank(d, lam):
    assert hadamard_gram(omega_rows(d, lam, 2), lam).rank() == comb(d + lam - 1, lam)


@pytest.mark.parametrize("d,lam", [(2, 2), (3, 2), (2, 3)])
def test_determinant_polynomial_matches_direct_determinants(d, lam):
    poly = determinant_polynomial(d, lam)
    exps = exponent_matrix(d, lam)
    for omega in (-3, 5, 11):  # points not used by the interpolation
        assert poly(omega) == flint.fmpz_mat([[omega**e for e in row] for row in exps]).det()


def test_bad_omegas_are_where_the_rank_drops():
    found = bad_omegas(2, 2)
    assert found["integer_roots"] == [-1, 0, 1]
    assert hadamard_gram(omega_rows(2, 2, 1), 2).rank() < 3 <= hadamard_gram(omega_rows(2, 2, 2), 2).rank()


@given(st.integers(2, 5), st.integers(1, 3), st.data())
def test_vector_rearrangement_is_strict_for_distinct_nonnegative_vectors_lemma_6(count, dim, data):
    vectors = data.draw(st.lists(st.tuples(*[st.integers(0, 6)] * dim), min_size=count, max_size=count,
                                 unique=True))
    sigma = data.draw(st.permutations(range(count)))
    assume(list(sigma) != list(range(count)))
    cross = sum(sum(a * b for a, b in zip(vectors[i], vectors[sigma[i]], strict=False)) for i in range(count))
    assert cross < sum(sum(a * a for a in v) for v in vectors)


@st.composite
def unique_top_term_matrices(draw):
    n = draw(st.integers(1, 4))
    exps = [[draw(st.integers(0, 6)) for _ in range(n)] for _ in range(n)]
    coeffs = [[draw(st.integers(1, 5)) for _ in range(n)] for _ in range(n)]
    weights = sorted((sum(exps[i][p[i]] for i in range(n)), p) for p in permutations(range(n)))
    assume(len(weights) == 1 or weights[-1][0] > weights[-2][0])
    return exps, coeffs


@given(unique_top_term_matrices())
def test_unique_highest_degree_term_makes_the_determinant_nonzero_lemma_5(case):
    exps, coeffs = case
    n = len(exps)
    det = flint.fmpz_poly([0])
    for p in permutations(range(n)):
        sign = (-1) ** sum(1 for i in range(n) for j in range(i + 1, n) if p[i] > p[j])
        term = flint.fmpz_poly([sign])
        for i in range(n):
            term *= flint.fmpz_poly([0] * exps[i][p[i]] + [coeffs[i][p[i]]])
        det += term
    assert det != 0
