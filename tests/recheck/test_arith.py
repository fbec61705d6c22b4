"""The recheck's own arithmetic: the literal eq. 3 pass against closed forms, the int64 product at its
largest sums, and the documented seeded draws."""

from __future__ import annotations

import random

import numpy as np

from verify.recheck import arith

P = 2**31 - 1


def test_one_layer_of_width_one_is_o_v_k_q_x_i_times_the_sum_of_squares():
    # d_x = d_a = 1: y^i = o v (sum_j (k x_j)(q x_i) x_j) = o v k q x_i sum_j x_j^2 ([L20] eq. 3 by hand)
    q, k, v, o = 3, 5, 7, 11
    layers = [[([[q]], [[k]], [[v]], [[o]])]]
    xs = [2, -3, 4]
    inputs = np.array([[[x % P for x in xs]]], dtype=np.int64)
    for i in range(3):
        expect = o * v * k * q * xs[i] * sum(x * x for x in xs)
        assert arith.forward_output(layers, inputs, P, 0, i)[0] == expect % P


def test_two_heads_add_and_the_residual_adds_the_input():
    # two heads of width 1 add their outputs; with residual connections x_i is added per layer
    layers = [[([[1]], [[1]], [[1]], [[1]]), ([[2]], [[1]], [[1]], [[1]])]]
    xs = [1, 2]
    inputs = np.array([[xs]], dtype=np.int64)
    s = sum(x * x for x in xs)
    assert arith.forward_output(layers, inputs, P, 0, 1)[0] == 3 * xs[1] * s
    assert arith.forward_output(layers, inputs, P, 0, 1, residual=True)[0] == 3 * xs[1] * s + xs[1]


def test_matmul_largest_sum():
    # every entry p - 1 and the largest inner dimension the int64 path accepts (2^15): the exactness argument's
    # extreme, against Python integers
    k = 2**15
    a = np.full((1, 2, k), P - 1, dtype=np.int64)
    b = np.full((1, k, 2), P - 1, dtype=np.int64)
    got = arith._matmul(a, b, P)
    assert (got == (k * (P - 1) ** 2) % P).all()


def test_object_path_agrees_with_int64_at_a_prime_below_2_31():
    rng = random.Random(1)
    layers = arith.seeded_weights(2, 3, 1, 3, 0, 2**31)
    xs = [[rng.randrange(P) for _ in range(4)] for _ in range(3)]
    small = arith.forward_output(layers, np.array([xs], dtype=np.int64), P, 0, 0)[0]
    big = arith.forward_output(layers, np.array([xs], dtype=object), P, 0, 0)[0]
    assert int(small) == int(big)


def test_seeded_weights_are_the_documented_stream():
    # random.Random("verify-weights:<seed>"), uniform in [-range, range], query of layer 0 head 0 first, row by row
    rng = random.Random("verify-weights:3")
    first = [rng.randint(-10, 10) for _ in range(2)]
    assert arith.seeded_weights(1, 2, 1, 2, 3, 10)[0][0][0][0] == first


def test_nmod_rank_and_det():
    assert arith.nmod_rank([[1, 2], [2, 4]], 7) == 1
    assert arith.nmod_rank([[1, 2], [3, 4]], 7) == 2
    assert arith.nmod_det([[1, 2], [3, 4]], 7) == (4 - 6) % 7
