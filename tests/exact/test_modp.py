"""The mod-p layer (verify.exact.modp): each product plan at exactly its largest sum, against Python
integers and FLINT (routes that share no code with it), and the folded callers giving the same values."""

from __future__ import annotations

import flint
import numpy as np
import pytest

from verify.exact import modp
from verify.exact.floatmod import MAX_PRIME
from verify.exact.modp import (
    INNER_CHUNK,
    INT64_INNER_MAX,
    LIMB_BITS,
    floor_mod,
    int64_product,
    product,
    residues,
    three_limb_product,
)

P63 = 2**63 - 25


def _exact(left, right, p):
    return (np.asarray(left).astype(object) @ np.asarray(right).astype(object)) % p


def test_the_21_bit_limb_chunk_is_the_largest_exact_one():
    # closed form: 2^11 products of two 21-bit limbs stay below 2^53, one more may not
    top = (2**LIMB_BITS - 1) ** 2
    assert 3 * LIMB_BITS >= 63 and INNER_CHUNK * top < 2**53 < (INNER_CHUNK + 1) * top


@pytest.mark.parametrize("inner", [INNER_CHUNK, 2 * INNER_CHUNK, INNER_CHUNK + 1])
def test_three_limbs_at_exactly_the_largest_sum(inner):
    # p - 1 = 2^63 - 26 has limbs (2^21 - 26, 2^21 - 1, 2^21 - 1): the top limbs of a full chunk of
    # (p - 1) x (p - 1) sum to exactly INNER_CHUNK (2^21 - 1)^2, the largest float64 sum of the plan
    left = np.full((2, inner), P63 - 1, dtype=np.int64)
    right = np.full((inner, 3), P63 - 1, dtype=np.int64)
    right[:, 1] = 2**62 + (2**42 - 1)  # below p, with the two low limbs at 2^21 - 1 as well
    left[1, ::2] = 0
    got = three_limb_product(left, right, P63)
    assert (got == _exact(left, right, P63)).all()
    assert int(got[0, 0]) == (inner * (P63 - 1) ** 2) % P63


def test_the_product_plan_by_prime_against_flint():
    rng = np.random.default_rng(3)
    for p in (1048573, 2**40 - 87, 2**50 - 27, 2**50 + 55, P63):  # one limb, Karatsuba, three, 21-bit limbs
        left = rng.integers(-2**62, 2**62, (5, 700), dtype=np.int64)
        right = rng.integers(-2**62, 2**62, (700, 4), dtype=np.int64)
        left[0] = p - 1
        want = flint.nmod_mat([[int(v) for v in row] for row in left], p) * flint.nmod_mat(
            [[int(v) for v in row] for row in right], p)
        got = product(left, right.copy(), p, overwrite=True)
        assert got.tolist() == [[int(want[i, j]) for j in range(4)] for i in range(5)], p
    assert 2**50 - 27 < MAX_PRIME <= 2**50 + 55  # both sides of the float64 limbs' range were used


@pytest.mark.parametrize("p", [2**31 - 1, 2**31 - 19, 65521])
def test_16_bit_limbs_at_exactly_the_largest_sum(p):
    # the longest inner dimension allowed, every entry at its largest: a's p - 1 against b's largest low
    # limb (2^16 - 1) and largest high limb; the sums reach (2^14 - 1)(p - 1)(2^16 - 1) < 2^61
    d = INT64_INNER_MAX - 1
    assert d * (2**31 - 2) * (2**16 - 1) < 2**61
    a = np.full((2, d), p - 1, dtype=np.int64)
    a[1, ::3] = 1
    b = np.empty((d, 3), dtype=np.int64)
    b[:, 0] = p - 1
    b[:, 1] = (p - 1) - ((p - 1) & 0xFFFF) - 1 if p > 2**16 else p - 1  # low limb 2^16 - 1 (below p)
    b[:, 2] = (p - 1) >> 1
    assert p < 2**16 or int(b[0, 1]) & 0xFFFF == 0xFFFF
    assert int64_product(a, b, p).tolist() == _exact(a, b, p).tolist()
    with pytest.raises(ValueError):
        int64_product(np.zeros((1, INT64_INNER_MAX), dtype=np.int64), np.zeros((INT64_INNER_MAX, 1), dtype=np.int64), p)


def test_16_bit_limbs_on_broadcast_stacks():
    rng = np.random.default_rng(5)
    p = 2**31 - 1
    a, b = rng.integers(0, p, (7, 5, 6)), rng.integers(0, p, (6, 4))
    assert int64_product(a, b, p).tolist() == [_exact(a[n], b, p).tolist() for n in range(7)]


@pytest.mark.parametrize("p", [5, 101, 103, 227, 1048573, 94906249])
def test_float_floor_at_exactly_its_largest_input(p):
    top = 2**53 - p - 1  # the largest input floor_mod accepts (a < 2^53 - p)
    values = [0, p - 1, p, top, top - 1, (top // p) * p, (top // p) * p - 1]
    # where the quotient comes out one low (fl(1/103) < 1/103: 103 fl(1/103) < 1, so r = p before the
    # correction) or one high (227: a = 2^45 227 - 1, found by search), both correction steps are used
    values += [p * 2**m for m in range(40) if p * 2**m <= top] + [7986852464164863] * (p == 227)
    got = floor_mod(np.array(values, dtype=np.float64), p)
    assert [int(v) for v in got] == [v % p for v in values]


def test_residues_of_any_integers():
    rows = [[-1, 2**70 + 3, 0], [7, -(2**64), 12]]
    assert residues(rows, 7).tolist() == [[6, (2**70 + 3) % 7, 0], [0, (-(2**64)) % 7, 5]]
    as_objects = residues(rows, P63, dtype=object)
    assert as_objects.dtype == object and as_objects[0, 1] == (2**70 + 3) % P63


def test_the_folded_callers_use_the_layer():
    from verify.constructions import grid_eval
    from verify.exact import kernels
    from verify.rank.token import gram as token_gram

    assert token_gram._mm is modp.int64_product and token_gram._reduce is modp.reduce_int64
    assert grid_eval.floor_mod is modp.floor_mod  # by its own name: no private alias (issue 42)
    assert kernels.three_limb_product is modp.three_limb_product
