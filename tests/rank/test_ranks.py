"""Separation ranks: the routes agree, fields and templates bound each other as they must."""

import random

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from strategies import small_specs
from verify import Field, NetworkSpec
from verify.model.partitions import balanced_partitions
from verify.rank.blocks import rank_by_blocks, rank_dense
from verify.rank.routes import rank_once as separation_rank  # one run at the given seed

GF = Field(2**63 - 25)
QQ = Field(None)


@given(small_specs(depths=(1,), widths=(2, 3), tokens=2))
def test_grid_and_coefficient_routes_agree_on_depth_one(spec):
    assert separation_rank(spec, "grid").rank == separation_rank(spec, "coefficients").rank


@pytest.mark.parametrize("heads", [1, 2])
def test_grid_and_coefficient_routes_agree_on_depth_two(heads):
    spec = NetworkSpec(depth=2, width=2, heads=heads, tokens=2)
    assert separation_rank(spec, "grid").rank == separation_rank(spec, "coefficients").rank == 15


def test_grid_and_coefficient_routes_agree_with_four_tokens():
    spec = NetworkSpec(depth=1, width=2, heads=2, tokens=4)
    assert separation_rank(spec, "grid").rank == separation_rank(spec, "coefficients").rank


@given(small_specs(depths=(1, 2), widths=(2,), tokens=2), st.integers(1, 6))
def test_grid_rank_with_few_templates_never_exceeds_the_coefficient_rank(spec, templates):
    small = separation_rank(spec, "grid", templates=templates)
    assert small.rank <= min(templates**1, separation_rank(spec, "coefficients").rank)
    if small.certainty.certified_exact:  # a lower bound meeting the derivative-space bound is exact anyway
        assert small.rank == small.extra["upper_bound"] and small.certainty.probability_bound == 0
    else:
        assert small.certainty.probability_bound is None  # too few templates: no equality claimed


@given(small_specs(depths=(1, 2), widths=(2, 3), tokens=2), st.sampled_from([3, 5, 7, 101, 65537]))
def test_rank_mod_p_never_exceeds_the_rank_over_q(spec, p):
    assert separation_rank(spec, field=Field(p)).rank <= separation_rank(spec, field=QQ).rank


@given(small_specs(depths=(1, 2), widths=(2, 3), tokens=2))
def test_rank_mod_a_large_prime_equals_the_rank_over_q(spec):
    assert separation_rank(spec, field=GF).rank == separation_rank(spec, field=QQ).rank


def test_small_weight_range_can_only_lower_the_rank():
    spec = NetworkSpec(depth=2, width=2, heads=1, tokens=2)
    generic = separation_rank(spec).rank
    assert all(separation_rank(spec, seed=s, weight_range=1).rank <= generic for s in range(5))


@given(small_specs(depths=(1,), widths=(2, 3, 4), residual=False))
def test_one_layer_rank_is_one_plus_min_of_width_and_heads_times_attn_dim(spec):
    # y = a^T S_A B x^i + tr(S_B M(x^i)): one A-only term plus the rank of the linear map
    # x -> sym(M(x)), which is min(d_x, H d_a) for generic weights (derivation in the test name).
    spec = NetworkSpec(depth=1, width=spec.width, heads=spec.heads, tokens=2 * (spec.width + 1))
    expected = 1 + min(spec.width, spec.heads * spec.attn_dim)
    assert separation_rank(spec, "reduced").rank == expected
    assert separation_rank(spec, "coefficients").rank == expected


def test_one_layer_with_narrow_attention():
    spec = NetworkSpec(depth=1, width=3, heads=1, attn_dim=1, tokens=8)
    assert separation_rank(spec, "coefficients").rank == separation_rank(spec, "reduced").rank == 2


@pytest.mark.parametrize("depth,width,heads,tokens", [(1, 2, 1, 4), (1, 3, 3, 4), (2, 2, 2, 4), (1, 2, 2, 6),
                                                      (2, 2, 1, 6)])
def test_rank_is_the_same_for_every_balanced_partition_claim_1(depth, width, heads, tokens):
    spec = NetworkSpec(depth=depth, width=width, heads=heads, tokens=tokens)
    ranks = {separation_rank(spec, partition=part).rank for part in balanced_partitions(tokens)}
    assert len(ranks) == 1


def test_unbalanced_partition_can_differ():
    # a one-position B sees only one vector: fewer separable functions than a balanced cut
    spec = NetworkSpec(depth=2, width=2, tokens=6)
    assert separation_rank(spec, partition=(0, 1, 2, 3, 4)).rank < separation_rank(spec).rank


@st.composite
def block_diagonal(draw):
    sizes = draw(st.lists(st.tuples(st.integers(1, 4), st.integers(1, 4)), min_size=1, max_size=4))
    entries, r0, c0, expected = [], 0, 0, 0
    for rows, cols in sizes:
        rank = draw(st.integers(1, min(rows, cols)))
        left = np.array(draw(st.lists(st.integers(-3, 3), min_size=rows * rank,
                                      max_size=rows * rank))).reshape(rows, rank)
        right = np.array(draw(st.lists(st.integers(-3, 3), min_size=rank * cols,
                                       max_size=rank * cols))).reshape(rank, cols)
        block = left @ right
        expected += int(np.linalg.matrix_rank(block.astype(float)))
        for i in range(rows):
            for j in range(cols):
                if block[i, j]:
                    entries.append((r0 + i, c0 + j, int(block[i, j])))
        r0, c0 = r0 + rows, c0 + cols
    perm_r = draw(st.permutations(range(r0)))
    perm_c = draw(st.permutations(range(c0)))
    return [(perm_r[r], perm_c[c], v) for r, c, v in entries], r0, c0, expected


@given(block_diagonal())
def test_rank_by_blocks_equals_the_dense_rank_of_a_permuted_block_matrix(case):
    entries, rows, cols, expected_float = case
    if not entries:
        return
    r = np.array([e[0] for e in entries], dtype=np.int64)
    c = np.array([e[1] for e in entries], dtype=np.int64)
    v = [e[2] for e in entries]
    dense = [[0] * cols for _ in range(rows)]
    for i, j, x in entries:
        dense[i][j] = x
    assert rank_by_blocks(QQ, r, c, v).rank == rank_dense(QQ, dense, rows, cols).rank == expected_float


def test_column_compression_is_a_lower_bound_and_equal_here():
    rng = random.Random(1)
    rows, cols = 5, 60
    left = [[rng.randint(-9, 9) for _ in range(3)] for _ in range(rows)]
    right = [[rng.randint(-9, 9) for _ in range(cols)] for _ in range(3)]
    dense = [[sum(left[i][k] * right[k][j] for k in range(3)) for j in range(cols)] for i in range(rows)]
    plain = rank_dense(GF, dense, rows, cols)
    squeezed = rank_dense(GF, dense, rows, cols, compress_ratio=4, rng=rng)
    assert squeezed.compressed_to == rows and squeezed.rank == plain.rank == 3
