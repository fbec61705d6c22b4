"""Degree blocks ranked by slice + complement with propagation, against every block ranked whole."""

import random

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from verify import Field
from verify.blocks import rank_dense
from verify.compositions import compositions
from verify.degree_blocks import degree_block_ranks
from verify.reduced import _Encoder, _gather, _moment_terms

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


def _whole_block_ranks(field, terms, encoder, nvars, top):
    total = 0
    for a in range(top + 1):
        rows, cols = encoder.encode(compositions(a, nvars)), encoder.encode(compositions(top - a, nvars))
        block = np.hstack([_gather(t, rows, cols, np.int64) for t in terms])
        total += rank_dense(field, block, *block.shape).rank
    return total


@given(nvars=st.integers(2, 4), degree=st.integers(2, 6), count=st.integers(1, 3), forms=st.integers(1, 12),
       seed=st.integers(0, 10**6))
def test_slice_and_propagation_give_the_sum_of_whole_block_ranks(nvars, degree, count, forms, seed):
    field, q = _random_q(nvars, degree, count, forms, seed)
    if any(len(poly) == 0 for poly in q):
        return
    exponents = [np.array(poly.monoms(), dtype=np.int64).reshape(len(poly), nvars) for poly in q]
    encoder = _Encoder(nvars, degree + 1)
    terms = _moment_terms(exponents, [poly.coeffs() for poly in q], field, encoder)
    rank, blocks, _ = degree_block_ranks(field, _gather, terms, encoder, compositions, nvars, degree, np.int64)
    assert rank == _whole_block_ranks(field, terms, encoder, nvars, degree)
    assert all(b.rank <= min(b.rows, b.cols) for b in blocks)


def test_a_single_power_has_rank_one_in_every_block():
    # q = l^6 in 3 variables: every derivative is a multiple of a power of l, so each block has rank 1
    field, q = _random_q(3, 6, 1, 1, 7)
    exponents = [np.array(q[0].monoms(), dtype=np.int64).reshape(len(q[0]), 3)]
    encoder = _Encoder(3, 7)
    terms = _moment_terms(exponents, [q[0].coeffs()], field, encoder)
    rank, blocks, _ = degree_block_ranks(field, _gather, terms, encoder, compositions, 3, 6, np.int64)
    assert rank == 7 and [b.rank for b in blocks] == [1] * 7


@pytest.mark.parametrize("nvars, degree, count, forms", [(4, 6, 2, 3), (3, 6, 2, 20), (4, 5, 3, 40), (3, 8, 1, 7)])
def test_heavy_and_mild_deficiency_both_match_whole_block_ranks(nvars, degree, count, forms):
    # few forms: blocks of rank <= 3 (whole-block elimination); many: nearly full (slice and complement)
    field, q = _random_q(nvars, degree, count, forms, 11)
    exponents = [np.array(poly.monoms(), dtype=np.int64).reshape(len(poly), nvars) for poly in q]
    encoder = _Encoder(nvars, degree + 1)
    terms = _moment_terms(exponents, [poly.coeffs() for poly in q], field, encoder)
    rank, _, _ = degree_block_ranks(field, _gather, terms, encoder, compositions, nvars, degree, np.int64)
    assert rank == _whole_block_ranks(field, terms, encoder, nvars, degree)
