"""The derivative-space upper bound: its closed form against independent counts, the block shapes
the reduced route builds, exact ranks, and the certainty it gives to ``verify sep``."""

import itertools
import math
from fractions import Fraction

import networkx as nx
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from verify import Field, NetworkSpec, draw_weights
from verify.exact.compositions import compositions
from verify.exact.fields import DEFAULT_PRIME
from verify.rank.bound import degree_block_sizes, derivative_bound, homogeneous_bound, staircase_bound
from verify.rank.moments import moment_table
from verify.rank.reduced import _split, reduced_polynomials
from verify.rank.routes import rank_once as separation_rank  # one run at the given seed


def _monomials(nvars, degree):
    """Exponent vectors of degree ``degree`` by brute force (not the stars-and-bars formula)."""
    return [e for e in itertools.product(range(degree + 1), repeat=nvars) if sum(e) == degree]


@given(nvars=st.integers(1, 4), top=st.integers(0, 5), comps=st.integers(1, 3))
def test_degree_block_sizes_count_the_monomials_of_each_degree(nvars, top, comps):
    expected = [(len(_monomials(nvars, a)), comps * len(_monomials(nvars, top - a))) for a in range(top + 1)]
    assert degree_block_sizes(nvars, top, comps) == expected


def _term_rank(allowed):
    """Largest rank any matrix with this zero pattern can have: a maximum bipartite matching."""
    graph = nx.Graph()
    rows = [("r", i) for i in range(allowed.shape[0])]
    graph.add_nodes_from(rows)
    graph.add_nodes_from(("c", j) for j in range(allowed.shape[1]))
    graph.add_edges_from((("r", i), ("c", j)) for i, j in zip(*np.nonzero(allowed), strict=False))
    return len(nx.bipartite.hopcroft_karp_matching(graph, top_nodes=rows)) // 2


@pytest.mark.parametrize("nvars,top,comps", [(1, 3, 1), (1, 4, 2), (2, 2, 1), (2, 3, 2), (3, 2, 2), (3, 1, 3)])
def test_staircase_bound_is_the_term_rank_of_the_degree_pattern(nvars, top, comps):
    """(B2) is the largest rank a matrix with rows |alpha| <= C, columns (k, |beta| <= C) and zeros where
    |alpha| + |beta| > C can have (König: max matching), so it is the best count from that pattern."""
    degrees = [sum(e) for t in range(top + 1) for e in _monomials(nvars, t)]
    allowed = np.array([[a + b <= top for _ in range(comps) for b in degrees] for a in degrees])
    assert staircase_bound(nvars, top, comps) == _term_rank(allowed)


def _whole_catalecticant(spec):
    """The whole catalecticant (every degree pair), built as the residual branch of the reduced route
    does, split along its nonzero pattern: the shapes of the blocks the data gives."""
    field = Field(DEFAULT_PRIME)
    nvars = spec.width * (spec.width + 1) // 2
    _, q = reduced_polynomials(spec, draw_weights(spec, 3), field)
    exponents = [np.array(p.monoms(), dtype=np.int64).reshape(len(p), nvars) for p in q]
    top = spec.layer_degree
    moments = moment_table(exponents, [p.coeffs() for p in q], field, nvars, top, False)
    keys = moments.keys(np.vstack([compositions(t, nvars) for t in range(top + 1)]))
    whole = np.hstack([moments.gather(k, keys, keys) for k in range(moments.count)])
    pieces, _ = _split(whole)
    return field, pieces


@pytest.mark.parametrize("depth,width,heads", [(1, 2, 1), (2, 2, 1), (2, 2, 2), (1, 3, 1), (2, 3, 3)])
def test_closed_form_block_shapes_are_the_components_of_the_whole_catalecticant(depth, width, heads):
    """Independent route: no degree grading assumed, the blocks come from the nonzero pattern."""
    spec = NetworkSpec(depth=depth, width=width, heads=heads)
    field, pieces = _whole_catalecticant(spec)
    bound = derivative_bound(spec)
    assert sorted(p.shape for p in pieces) == sorted((rows, cols) for rows, cols, _ in bound.blocks)
    ranks = [field.from_rows(np.ascontiguousarray(p)).rank() for p in pieces]
    assert sum(ranks) == separation_rank(spec, "reduced").rank <= bound.total


@pytest.mark.parametrize("depth,width,heads,residual", [(1, 2, 1, False), (2, 2, 1, False), (2, 2, 2, False),
                                                        (2, 3, 1, False), (1, 3, 1, True), (2, 2, 1, True)])
def test_every_degree_block_rank_over_q_is_within_the_closed_form(depth, width, heads, residual):
    """The inequalities (B1) and (B3) rest on, rank <= bound <= min(rows, cols), against exact ranks over Q
    per block; one head has no first-layer kernel (k = 0), so there the bound is min(rows, cols)."""
    spec = NetworkSpec(depth=depth, width=width, heads=heads, residual=residual)
    result = separation_rank(spec, "reduced", field=Field(None))
    bound = derivative_bound(spec)
    assert result.rank <= bound.total == result.extra["upper_bound"]
    for block in result.blocks:
        assert block.rank <= min(block.rows, block.cols)
        if not residual:
            assert block.rank <= block.upper_bound <= min(block.rows, block.cols)
            if heads == 1:
                assert block.upper_bound == min(block.rows, block.cols)


def test_sep_certifies_exact_where_the_rank_meets_the_bound():
    """Depth 2, width 2, one head: ranks 1, 3, 6, 6, 2 meet min(rows, cols) on every degree block."""
    out = separation_rank(NetworkSpec(depth=2, width=2), "reduced").as_dict()
    assert out["rank"] == out["upper_bound"] == 1 + 3 + 6 + 6 + 2
    assert out["certified_exact"] is True and out["probability_bound"] == 0
    assert "exactly" in out["meaning"]
    assert [b["upper_bound"] for b in out["blocks"]] == [1, 3, 6, 6, 2]


def _expected_bound(upper, degree, sample, field_size=None):
    """upper * degree / sample (+ upper / |field|), from the closed forms alone."""
    value = Fraction(upper * degree, sample) + (Fraction(upper, field_size) if field_size else 0)
    return float(value)


def test_probability_bound_uses_the_upper_bound_and_the_weight_degree_2_3L_minus_2():
    """Depth 2, width 3, two heads of d_a = 1: rank below the bound 26 (block 1: at most 6 rows, its
    first-layer kernel is 6 - 2 = 4-dimensional, d_a H = 2 components; (B3) gives 1 + 6 + 9 + 8 + 2).
    The minor to bound is 26 x 26 of degree 26 * 2(3^2 - 1) in weights from 2^32 + 1 integers
    (Schwartz-Zippel), plus 26/p for the random mixing.  A degree of C(L) = 4 per entry, or the
    rank in place of 26, changes it."""
    spec = NetworkSpec(depth=2, width=3, heads=2, attn_dim=1)
    result = separation_rank(spec, "reduced")
    assert derivative_bound(spec).total == 26
    assert result.rank < 26 and not result.certainty.certified_exact
    expected = _expected_bound(26, 16, 2 * 2**31 + 1, DEFAULT_PRIME)
    assert expected <= result.certainty.probability_bound <= expected * (1 + 1e-12)
    assert "GF(p)" in result.certainty.explanation  # the bad-prime caveat is printed with the number


def test_coefficient_and_grid_bounds_pin_their_degrees():
    """Two tokens, depth 2, width 2: rank 15 (below the reduced value 18, N < 2(d_x+1)).  Coefficients:
    degree 2(3^L - 1) = 16 in the weights; the full grid adds 3^L = 9 for the templates."""
    spec = NetworkSpec(depth=2, width=2, tokens=2)
    coefficients = separation_rank(spec, "coefficients")
    grid = separation_rank(spec, "grid")
    assert coefficients.rank == grid.rank == 15
    low = _expected_bound(18, 16, 2 * 2**31 + 1)
    assert low <= coefficients.certainty.probability_bound <= low * (1 + 1e-12)
    low = _expected_bound(18, 16 + 9, 2 * 2**31 + 1)
    assert low <= grid.certainty.probability_bound <= low * (1 + 1e-12)


@given(nvars=st.integers(1, 12), top=st.integers(0, 200), comps=st.integers(1, 6))
def test_closed_forms_equal_the_sums_and_minima_they_replace(nvars, top, comps):
    """Hockey-stick sum and convex minimum against the plain loops over a and t."""
    sizes = degree_block_sizes(nvars, top, comps)
    assert homogeneous_bound(nvars, top, comps) == sum(min(rows, cols) for rows, cols in sizes)
    assert staircase_bound(nvars, top, comps) == min(
        sum(math.comb(a + nvars - 1, nvars - 1) for a in range(t)) +
        comps * sum(math.comb(b + nvars - 1, nvars - 1) for b in range(top - t + 1)) for t in range(top + 2))


def test_the_bound_is_cheap_at_depth_200():
    bound = derivative_bound(NetworkSpec(depth=200, width=3))
    assert bound.blocks == () and bound.total > 3**200
