"""The two-limb Karatsuba products of ``verify.exact.floatmod`` (module notes: Karatsuba, shift).

Expected values come from Python integers and FLINT's ``nmod_mat``, never from the float code.
The chunk itself is pinned to its closed form in test_floatmod_adversarial.py (a chunk one past
LIMIT / s^2 still sums below 2^53, since LIMIT = 2^53 - 2p leaves about s^2 of slack; only the
closed form catches it).
"""

from __future__ import annotations

import flint
import numpy as np
import pytest

from verify.exact.elimination import rank_mod_p
from verify.exact.floatmod import ModArith

#: Karatsuba primes: the largest below 2^40 (b = 20, chunk 8190) and 2^42 (b = 21, chunk 2046), and the largest
#: whose Karatsuba chunk is still >= 256 (b = 22).
PRIMES = [1099511627689, 4398046511093, 31988991918047]


def largest_sum_entries(p: int, bits: int) -> list[int]:
    """Reduced entries (|x| <= (p-1)/2) whose balanced limbs have the largest |x_0 + x_1|, both signs:
    x_1 = (p-1)/2 >> b (or one less) and x_0 = 2^(b-1) - 1, computed with Python integers."""
    top = (p - 1) // 2
    out = []
    for high in (top >> bits, (top >> bits) - 1):
        x = high * 2**bits + 2 ** (bits - 1) - 1
        if x <= top:
            out += [x, -x]
    return out


@pytest.mark.parametrize("p", PRIMES)
def test_karatsuba_is_the_default_below_its_bound(p):
    ar = ModArith(p)
    assert ar.limbs == 2 and ar.karatsuba
    assert ModArith(p, karatsuba=False).karatsuba is False


@pytest.mark.parametrize("p", PRIMES)
def test_product_at_the_chunk_with_the_largest_limb_sums(p):
    """C - A B at inner dimension chunk (and chunk +- 1, 2 chunk + 1) with every entry of the largest
    limb sum, one sign per row/column, and odd values: every partial sum of the three products at
    its largest, against Python integers."""
    ar = ModArith(p)
    big = largest_sum_entries(p, ar.bits)
    x = big[0]
    parts = ar._split(np.array([float(x)]))
    assert abs(int(parts[0][0]) + int(parts[1][0])) >= ar.sum_bound - 2  # the sum really is near s
    rng = np.random.default_rng(p % 2**32)
    inners = [ar.chunk, ar.chunk - 1, ar.chunk + 1] + ([2 * ar.chunk + 1] if ar.chunk < 3000 else [])
    for inner in inners:
        a = np.array([np.full(inner, x), np.full(inner, -x), rng.choice(big, inner)], dtype=np.int64)
        b = np.array([np.full(inner, x), np.full(inner, -x), rng.choice(big, inner)], dtype=np.int64).T
        c = np.array([[(p - 1) // 2, -((p - 1) // 2), 1]] * 3, dtype=np.int64)
        out = ar.from_ints(c)
        ar.submul(out, ar.from_ints(a), ar.from_ints(b))
        want = (c.astype(object) - a.astype(object) @ b.astype(object)) % p
        assert np.abs(out).max() <= ar.h
        assert (ar.to_ints(out).astype(object) == want).all(), f"p={p} inner={inner}"


@pytest.mark.parametrize("p", PRIMES)
def test_shift_at_its_input_bound(p):
    """2^b x mod p in floats for every |x| <= 2p + 4 at the extremes, both signs and parities."""
    ar = ModArith(p)
    values = [2 * p + 4, 2 * p + 3, p, p + 1, (p - 1) // 2, 1, 0, 2**ar.bits + 1, 3 * p // 2]
    values += [-v for v in values]
    out = np.array(values, dtype=np.float64)
    ar._shift(out, np.empty_like(out), np.empty_like(out))
    assert np.abs(out).max() <= p / 2 + 1
    assert [int(v) % p for v in out] == [(v << ar.bits) % p for v in values]


@pytest.mark.parametrize("p", PRIMES)
@pytest.mark.parametrize("rows,cols", [(37, 29), (400, 300)])  # 400 x 300: the banded combination
def test_karatsuba_equals_four_products_on_random_blocks(p, rows, cols):
    """Against the four-product plan on every entry and Python integers on a sample (all entries
    of the small block)."""
    rng = np.random.default_rng(7)
    a, b = rng.integers(0, p, (rows, 600)), rng.integers(0, p, (600, cols))
    c = rng.integers(0, p, (rows, cols))
    results = []
    for karatsuba in (True, False):
        ar = ModArith(p, karatsuba=karatsuba)
        out = ar.from_ints(c)
        ar.submul(out, ar.from_ints(a), ar.from_ints(b))
        assert np.abs(out).max() <= ar.h
        results.append(ar.to_ints(out))
    assert (results[1] == results[0]).all()
    picks = [(i, j) for i in range(rows) for j in range(cols)] if rows < 100 else \
        [(int(i), int(j)) for i, j in zip(rng.integers(0, rows, 60), rng.integers(0, cols, 60))] + [(rows - 1, cols - 1)]
    for i, j in picks:
        want = (int(c[i, j]) - sum(int(x) * int(y) for x, y in zip(a[i], b[:, j]))) % p
        assert int(results[0][i, j]) == want, (i, j)


def test_rank_pin_against_flint_at_300_of_rank_250():
    """A 300 x 300 matrix of rank 250 over GF(2^40 - 87), eliminated with Karatsuba products,
    against FLINT's nmod_mat rank (and the planted rank 250)."""
    p = PRIMES[0]
    rng = np.random.default_rng(2026)
    left, right = rng.integers(0, p, (300, 250)), rng.integers(0, p, (250, 300))
    product = flint.nmod_mat(300, 250, left.ravel().tolist(), p) * flint.nmod_mat(250, 300, right.ravel().tolist(), p)
    matrix = np.array([int(v) for v in product.entries()], dtype=np.int64).reshape(300, 300)
    assert ModArith(p).karatsuba
    expected = product.rank()
    assert expected == 250
    assert rank_mod_p(matrix, p) == expected
    result = rank_mod_p(matrix, p, pivots=True)
    assert result.rank == 250 and result.limbs == 2
