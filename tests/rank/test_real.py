"""Real BERT layers (eqs. 1-2) and the numerical grid rank: numeric routes checked against exact ones."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from verify import Field, NetworkSpec, draw_weights
from verify.model.bert import RealWeights, draw_real_weights, forward, forward_mp
from verify.rank.grid import grid_rank
from verify.rank.numrank import grid_matrix, numerical_rank, real_grid_rank


def _as_real(weights) -> RealWeights:
    """The exact engine's integer weights as float64 arrays (eq. 3 needs no feed-forward)."""
    layers = weights.layers
    return RealWeights([np.array(l.query, dtype=float) for l in layers], [np.array(l.key, dtype=float) for l in layers],
                       [np.array(l.value, dtype=float) for l in layers],
                       [np.array(l.output, dtype=float) for l in layers],
                       [], [])


@pytest.mark.parametrize("depth, width, heads, templates", [(1, 2, 1, 6), (1, 3, 1, 6), (2, 2, 1, 8), (2, 2, 2, 8)])
def test_numerical_rank_of_the_linearised_network_equals_its_exact_grid_rank(depth, width, heads, templates):
    spec = NetworkSpec(depth=depth, width=width, heads=heads, tokens=4)
    weights = draw_weights(spec, seed=3, weight_range=2)
    rng = np.random.default_rng(5)
    temps = rng.integers(-3, 4, size=(templates, width))
    exact = grid_rank(spec, weights, Field(None), (0, 1), [tuple(int(v) for v in t) for t in temps], 4.0).rank
    matrix = grid_matrix(lambda x: forward(x, _as_real(weights), real=False), temps.astype(float), 4, (0, 1))
    found = numerical_rank(matrix)
    assert found.rank == exact
    assert found.gap_decades > 6  # an unambiguous cut, not a coin toss


@given(rows=st.integers(3, 30), cols=st.integers(3, 30), inner=st.integers(1, 3), seed=st.integers(0, 10**6))
def test_numerical_rank_of_a_random_product_is_its_inner_dimension(rows, cols, inner, seed):
    rng = np.random.default_rng(seed)
    matrix = rng.standard_normal((rows, inner)) @ rng.standard_normal((inner, cols))
    assert numerical_rank(matrix).rank == inner


def test_full_rank_matrix_is_reported_full_against_the_rounding_floor():
    assert numerical_rank(np.eye(5) + np.diag([1.0, 2, 3, 4, 5]) * 0.1).rank == 5
    assert numerical_rank(np.zeros((3, 3))).rank == 0


@pytest.mark.parametrize("real", [True, False])
def test_float64_forward_agrees_with_the_mpmath_loop_implementation(real):
    spec = NetworkSpec(depth=2, width=4, heads=2)
    weights = draw_real_weights(spec, seed=1)
    x = np.random.default_rng(2).standard_normal((3, 4, 4))
    batch = forward(x, weights, real)
    for b in range(3):
        slow = forward_mp(x[b].tolist(), weights, real, dps=40)
        ref = np.array([[float(v) for v in token] for token in slow])
        assert np.allclose(batch[b], ref, rtol=1e-11, atol=1e-12)


def test_real_layer_softmax_rows_and_layer_norm_by_hand():
    # one head, d_x = d_a = 2, identity-like weights: check eq. 1-2 against a hand computation
    eye = np.eye(2)
    w = RealWeights([eye[None]], [eye[None]], [eye[None]], [eye[None]], [np.vstack([eye] * 4)],
                    [np.hstack([eye] * 4) / 4])
    x = np.array([[[1.0, 0.0], [0.0, 1.0]]])
    scores = np.array([[1.0, 0.0], [0.0, 1.0]]) / np.sqrt(2)
    attn = np.exp(scores) / np.exp(scores).sum(axis=1, keepdims=True)
    v = attn @ x[0] + x[0]
    normed = (v - v.mean(axis=1, keepdims=True)) / np.sqrt(v.var(axis=1, keepdims=True) + 1e-5)
    expected = np.maximum(normed, 0)  # FF2 (FF1 h) with FF1 = 4 stacked I, FF2 = mean of the copies
    assert np.allclose(forward(x, w, real=True)[0], expected)


def test_real_grid_rank_reports_gap_cap_and_mp_confirmation():
    found = real_grid_rank(NetworkSpec(depth=1, width=2, heads=1), seed=0, templates=6, tokens=4)
    data = found.as_dict()
    assert data["certainty"].startswith("numeric") and data["grid_cap"] == 21
    assert data["mp_max_rel_diff"] < 1e-10 and 1 <= data["rank"] <= 21
