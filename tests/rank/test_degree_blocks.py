"""Degree blocks ranked by slice + complement with propagation, against every block ranked whole."""

import random
from contextlib import contextmanager

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from verify import Field
from verify.exact.compositions import compositions
from verify.rank import degree_blocks
from verify.rank.blocks import rank_dense
from verify.rank.degree_blocks import block_rank, degree_block_ranks
from verify.rank.moments import AdditiveEncoder, DenseMoments, SearchMoments, Terms, moment_table, moment_terms

P = 2**31 - 1


def _random_q(nvars, degree, count, forms, seed):
    """q_k = sum_j c_kj l_j^degree for ``forms`` random linear forms: catalecticant blocks of rank
    at most ``forms`` (deficient whenever forms is small), generic otherwise."""
    field = Field(P)
    ctx = field.poly_context(("s", nvars))
    gens = ctx.gens()
    rng = random.Random(seed)
    linear = [sum((g * rng.randrange(P) for g in gens), ctx.from_dict({})) for _ in range(forms)]
    powers = [l**degree for l in linear]
    return field, [sum((f * rng.randrange(P) for f in powers), ctx.from_dict({})) for _ in range(count)]


def _exponents(q, nvars):
    return [np.array(poly.monoms(), dtype=np.int64).reshape(len(poly), nvars) for poly in q]


def _search(field, q, nvars, degree):
    encoder = AdditiveEncoder(nvars, degree + 1)
    terms = moment_terms(_exponents(q, nvars), [poly.coeffs() for poly in q], field, encoder)
    return SearchMoments(terms, encoder, np.int64)


def _whole_block_ranks(field, q, nvars, top):
    """Every degree block gathered by the sorted search and ranked whole by FLINT."""
    moments = _search(field, q, nvars, top)
    total = 0
    for a in range(top + 1):
        rows, cols = moments.keys(compositions(a, nvars)), moments.keys(compositions(top - a, nvars))
        block = np.hstack([moments.gather(k, rows, cols) for k in range(moments.count)])
        total += rank_dense(field, block, *block.shape).rank
    return total


@given(nvars=st.integers(2, 4), degree=st.integers(2, 6), count=st.integers(1, 3), forms=st.integers(1, 12),
       seed=st.integers(0, 10**6))
def test_slice_and_propagation_give_the_sum_of_whole_block_ranks(nvars, degree, count, forms, seed):
    field, q = _random_q(nvars, degree, count, forms, seed)
    if any(len(poly) == 0 for poly in q):
        return
    moments = moment_table(_exponents(q, nvars), [poly.coeffs() for poly in q], field, nvars, degree, True)
    rank, blocks, _ = degree_block_ranks(field, moments, nvars, degree)
    assert rank == _whole_block_ranks(field, q, nvars, degree)
    assert all(b.rank <= min(b.rows, b.cols) for b in blocks)


def test_a_single_power_has_rank_one_in_every_block():
    # q = l^6 in 3 variables: every derivative is a multiple of a power of l, so each block has rank 1
    field, q = _random_q(3, 6, 1, 1, 7)
    rank, blocks, _ = degree_block_ranks(field, _search(field, q, 3, 6), 3, 6)
    assert rank == 7 and [b.rank for b in blocks] == [1] * 7


@pytest.mark.parametrize("nvars, degree, count, forms", [(4, 6, 2, 3), (3, 6, 2, 20), (4, 5, 3, 40), (3, 8, 1, 7)])
def test_heavy_and_mild_deficiency_both_match_whole_block_ranks(nvars, degree, count, forms):
    # few forms: blocks of rank <= 3 (whole-block elimination); many: nearly full (slice and complement)
    field, q = _random_q(nvars, degree, count, forms, 11)
    moments = moment_table(_exponents(q, nvars), [poly.coeffs() for poly in q], field, nvars, degree, True)
    rank, _, _ = degree_block_ranks(field, moments, nvars, degree)
    assert rank == _whole_block_ranks(field, q, nvars, degree)


@contextmanager
def _small_probe(on: bool = True):
    """Run the probe and narrow slices on blocks this small (PROBE_MIN 8, SLICE_EXTRA 4) while on."""
    saved = degree_blocks.PROBE_MIN, degree_blocks.SLICE_EXTRA
    if on:
        degree_blocks.PROBE_MIN, degree_blocks.SLICE_EXTRA = 8, 4
    try:
        yield
    finally:
        degree_blocks.PROBE_MIN, degree_blocks.SLICE_EXTRA = saved


class _MatrixMoments:
    """A 'moment table' that is just a matrix: block_rank then ranks exactly this matrix."""

    count = 1

    def __init__(self, matrix):
        self.matrix = matrix

    def gather(self, k, row_keys, col_keys):
        return self.matrix[np.ix_(row_keys, col_keys)]


@given(rows=st.integers(34, 120), low=st.integers(0, 6), generic=st.integers(0, 140), plain=st.integers(0, 400),
       seed=st.integers(0, 10**6), hint=st.one_of(st.none(), st.integers(0, 120)))
@settings(max_examples=40, deadline=None)
def test_block_rank_equals_the_whole_rank_whatever_the_slice_misses(rows, low, generic, plain, seed, hint):
    # `plain` columns in a rank-`low` space and `generic` columns in general position: the random
    # slice sees only some generic columns, so the complement (exact, mixed, or saturated and
    # then ranked whole) must supply the rest
    rng = np.random.default_rng(seed)
    cols = generic + plain
    if cols == 0:
        return
    u = rng.integers(0, P, size=(rows, low), dtype=np.int64)
    v = rng.integers(0, P, size=(low, plain), dtype=np.int64)
    low_part = (u.astype(object) @ v.astype(object)) % P if low else np.zeros((rows, plain), dtype=object)
    matrix = np.hstack([low_part.astype(np.int64), rng.integers(0, P, size=(rows, generic), dtype=np.int64)])
    matrix = matrix[:, rng.permutation(cols)]
    for field in (Field(P), Field(None)):
        expected = rank_dense(field, matrix, rows, cols).rank
        for m in (matrix, matrix.T):
            # the probe and the hinted narrow slice off (real sizes), then on at these sizes
            for small in (False, True):
                with _small_probe(small):
                    got = block_rank(field, _MatrixMoments(np.ascontiguousarray(m)), np.arange(m.shape[0]),
                                     np.arange(m.shape[1]), hint)
                assert got.rank == expected


@given(nvars=st.integers(1, 6), degree=st.integers(0, 7), density=st.floats(0.05, 1.0), seed=st.integers(0, 10**6))
@settings(max_examples=40, deadline=None)
def test_dense_positions_look_up_the_same_values_as_the_sorted_search(nvars, degree, density, seed):
    rng = np.random.default_rng(seed)
    every = compositions(degree, nvars)
    exponents = [every[rng.random(len(every)) < density] for _ in range(2)]
    values = [rng.integers(1, P, size=len(e)) for e in exponents]
    dense = DenseMoments(nvars, degree, exponents, values, np.int64)
    encoder = AdditiveEncoder(nvars, degree + 1)
    terms = []
    for exps, vals in zip(exponents, values, strict=False):
        keys = encoder.encode(exps)
        order = np.argsort(keys)
        terms.append(Terms(keys[order], vals[order]))
    search = SearchMoments(terms, encoder, np.int64)
    for a in range(degree + 1):
        rows, cols = compositions(a, nvars), compositions(degree - a, nvars)
        for k in range(2):
            assert np.array_equal(dense.gather(k, dense.keys(rows), dense.keys(cols)),
                                  search.gather(k, search.keys(rows), search.keys(cols)))


@pytest.mark.parametrize("rank, hint", [(100, 5), (100, None), (3, 3), (3, None), (40, 20), (60, 200)])
def test_a_wrong_hint_costs_time_but_never_changes_the_rank(rank, hint):
    # a hint far below the rank makes the narrow slice independent (so it is discarded); one far
    # above skips the narrow slice; either way the rank is the whole block's
    rng = np.random.default_rng(rank)
    u = rng.integers(0, P, size=(100, rank), dtype=np.int64).astype(object)
    v = rng.integers(0, P, size=(rank, 300), dtype=np.int64).astype(object)
    matrix = ((u @ v) % P).astype(np.int64)
    field = Field(P)
    with _small_probe():
        got = block_rank(field, _MatrixMoments(matrix), np.arange(100), np.arange(300), hint)
    assert got.rank == rank == rank_dense(field, matrix, 100, 300).rank


def test_a_block_ranked_whole_after_a_saturated_mixing_is_priced_before_it_is_gathered(monkeypatch):
    """A 100 x 300 block whose first 200 columns have rank 10 and last 100 are random: its slice (132
    random columns, about 44 of them random) leaves a null space wider than 2 rows whose mixed
    complement (2 rows, COMPLEMENT_ROWS patched) saturates, so the block is ranked whole: with a limit
    below its 100 x 300 x 28 bytes that is refused, with a large one it gives FLINT's rank, 100."""
    from verify.errors import InputError

    rng = np.random.default_rng(3)
    u = rng.integers(0, P, size=(100, 10), dtype=np.int64).astype(object)
    v = rng.integers(0, P, size=(10, 200), dtype=np.int64).astype(object)
    matrix = np.hstack([((u @ v) % P).astype(np.int64), rng.integers(0, P, size=(100, 100), dtype=np.int64)])
    field = Field(P)
    monkeypatch.setattr(degree_blocks, "COMPLEMENT_ROWS", 2)
    expected = rank_dense(field, matrix, 100, 300).rank
    got = block_rank(field, _MatrixMoments(matrix), np.arange(100), np.arange(300), None, 0, max_memory_gib=1.0)
    assert got.rank == expected == 100
    with pytest.raises(InputError, match="ranked whole"):
        block_rank(field, _MatrixMoments(matrix), np.arange(100), np.arange(300), None, 0,
                   max_memory_gib=100 * 300 * 27 / 2**30)


# ---- stop at the proven bound: a slice reaching a block's proven upper bound is its rank ----

def _forms_bounds(nvars, degree, count, forms, slack):
    """Proven bounds for q built from ``forms`` powers: each block's rank is at most forms (its
    columns lie in the span of the powers l_j^a), so min(rows, cols, forms + slack) bounds it."""
    from math import comb

    return [min(comb(a + nvars - 1, nvars - 1), count * comb(degree - a + nvars - 1, nvars - 1), forms + slack)
            for a in range(degree + 1)]


@given(nvars=st.integers(2, 4), degree=st.integers(3, 6), count=st.integers(1, 3), forms=st.integers(1, 30),
       slack=st.integers(0, 3), seed=st.integers(0, 10**6))
@settings(max_examples=40, deadline=None)
def test_proven_block_bounds_tight_or_loose_give_the_whole_block_ranks(nvars, degree, count, forms, slack, seed):
    # slack 0: the bound is met and each block stops at its slice; slack > 0: a loose (still valid)
    # bound the slice cannot reach, so the complement must supply the rest
    field, q = _random_q(nvars, degree, count, forms, seed)
    if any(len(poly) == 0 for poly in q):
        return
    moments = moment_table(_exponents(q, nvars), [poly.coeffs() for poly in q], field, nvars, degree, True)
    uppers = _forms_bounds(nvars, degree, count, forms, slack)
    with _small_probe():
        rank, blocks, _ = degree_block_ranks(field, moments, nvars, degree, uppers=uppers)
    assert rank == _whole_block_ranks(field, q, nvars, degree)
    assert all(b.rank <= u for b, u in zip(blocks, uppers, strict=False))


def test_a_slice_reaching_the_bound_skips_the_complement(monkeypatch):
    # 3 forms in 4 variables at degree 8: the middle blocks (35 x 70 and wider) have rank 3 = the
    # bound, so no complement is formed; without the bounds the same blocks need one
    field, q = _random_q(4, 8, 2, 3, 5)
    moments = moment_table(_exponents(q, 4), [poly.coeffs() for poly in q], field, 4, 8, True)
    expected = _whole_block_ranks(field, q, 4, 8)

    def refused(*args, **kwargs):
        raise AssertionError("complement formed although the slice met the proven bound")

    with _small_probe():
        rank_without, _, _ = degree_block_ranks(field, moments, 4, 8)
        monkeypatch.setattr(degree_blocks, "_complement_rank", refused)
        with pytest.raises(AssertionError, match="complement formed"):
            degree_block_ranks(field, moments, 4, 8)
        rank, blocks, _ = degree_block_ranks(field, moments, 4, 8, uppers=_forms_bounds(4, 8, 2, 3, 0))
    assert rank == rank_without == expected
