"""The two-limb Karatsuba products of ``verify.exact.karatsuba`` (module notes: Karatsuba, shift).

Expected values come from Python integers and FLINT's ``nmod_mat``, never from the float code.
The chunk itself is pinned to its closed form in test_floatmod_adversarial.py (a chunk one past
LIMIT / s^2 still sums below 2^53, since LIMIT = 2^53 - 2p leaves about s^2 of slack; only the
closed form catches it).
"""

from __future__ import annotations

from fractions import Fraction

import flint
import numpy as np
import pytest

from verify.exact import tuning
from verify.exact.elimination import rank_mod_p
from verify.exact.floatmod import ModArith
from verify.exact.karatsuba import _karatsuba_plan, shift_output

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


@pytest.mark.parametrize("fused", [True, False])
@pytest.mark.parametrize("p", PRIMES)
def test_product_at_the_chunk_with_the_largest_limb_sums(p, fused):
    """C - A B at inner dimension chunk (and chunk +- 1, 2 chunk + 1) with every entry of the largest
    limb sum, one sign per row/column, and odd values: every partial sum of the three products at
    its largest, against Python integers; with the compiled loops and with numpy's passes."""
    ar = ModArith(p, fused=fused)
    assert (ar.fused is not None) == fused
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
def test_shift_at_its_input_bounds(p):
    """2^b x mod p in floats for unreduced |x| up to the largest input of each of the combination's two
    shifts (``shift_inputs``: k l_1^2 for H, 2 k l_0 l_1 + p/2 + d for Y), both signs and parities,
    against Python integers; the result within ``shift_output``."""
    ar = ModArith(p)
    values = [p, p + 1, (p - 1) // 2, 1, 0, 2**ar.bits + 1, 3 * p // 2]
    for bound in ar.shift_inputs:
        values += [bound, bound - 1, bound - p // 2, bound // 3]
    values += [-v for v in values]
    out = np.array(values, dtype=np.float64)
    assert [int(v) for v in out] == values  # every input is an exact float
    ar._shift(out, np.empty_like(out), np.empty_like(out))
    assert np.abs(out).max() <= shift_output(p, ar.bits, max(ar.shift_inputs))
    assert [int(v) % p for v in out] == [(v << ar.bits) % p for v in values]


@pytest.mark.parametrize("p", PRIMES)
def test_the_plan_checks_each_shift_and_the_final_sum(p):
    """The plan's chunk is the largest power-of-two fraction of LIMIT / s^2 whose two shifts and final
    sum stay exact: recomputed here from the closed forms of the module notes with Python integers."""
    ar = ModArith(p)
    low, high = 2 ** (ar.bits - 1), (ar.h >> ar.bits) + 1
    k = ar.chunk
    first = shift_output(p, ar.bits, k * high * high)
    assert first is not None and ar.shift_inputs == (k * high * high, 2 * k * low * high + first)
    second = shift_output(p, ar.bits, ar.shift_inputs[1])
    assert second is not None and ar.h + second + k * low * low <= ar.limit
    assert second - p // 2 < 2 ** (ar.bits + 2)  # d = p e is about 2^(b+1): a little over p/2


@pytest.mark.parametrize("p", PRIMES)
def test_shift_output_is_its_closed_form(p):
    """p/2 + p e with e = 2^b X / p * 2.0001 * 2^-53 (module notes: the shift), floored, at both of the
    plan's inputs: the rounding-error term is in the bound even where no input reaches it."""
    ar = ModArith(p)
    for bound in ar.shift_inputs:
        error = Fraction(bound * 2**ar.bits, p) * Fraction(20001, 10000) / 2**53
        assert shift_output(p, ar.bits, bound) == int(Fraction(p, 2) + p * error)


def test_the_plan_halves_the_chunk_until_the_final_sum_fits():
    """A LIMIT that holds one inner index's products and Y but not the final sum h + (p/2 + d) +
    l_0^2: the plan refuses (chunk 0) where LIMIT / s^2 alone would allow 1."""
    p = PRIMES[0]
    ar = ModArith(p)
    b, s = ar.bits, ar.sum_bound
    low, high = 2 ** (b - 1), (ar.h >> b) + 1
    second = 2 * low * high + shift_output(p, b, high * high)
    final = ar.h + shift_output(p, b, second) + low * low
    limit = max(second, s * s)
    assert limit // (s * s) == 1 and limit < final
    assert _karatsuba_plan(p, ar.h, limit)[2] == 0
    assert _karatsuba_plan(p, ar.h, final)[2] == 1  # the final sum at LIMIT exactly: allowed
    assert _karatsuba_plan(p, ar.h, ar.limit)[2] == ar.limit // (s * s)


def test_shift_output_refuses_an_input_whose_quotient_times_p_high_passes_2_53():
    """Q P_H > 2^53 once |x| 2^b / p P_H does: at b = 20, p = 2^40 - 87 (P_H = 2^20), |x| = 2^53 + 2^40
    is refused and LIMIT is not."""
    p = 2**40 - 87
    assert shift_output(p, 20, 2**53 + 2**40) is None
    assert shift_output(p, 20, 2**53 - 2 * p) is not None


@pytest.mark.parametrize("p", PRIMES)
@pytest.mark.parametrize("rows,cols", [(37, 29), (400, 300)])  # 400 x 300: the banded combination
def test_karatsuba_equals_four_products_on_random_blocks(p, rows, cols):
    """Karatsuba with the compiled loops, with numpy's passes, and the four-product plan agree on
    every entry; Python integers on a sample (all entries of the small block)."""
    rng = np.random.default_rng(7)
    a, b = rng.integers(0, p, (rows, 600)), rng.integers(0, p, (600, cols))
    c = rng.integers(0, p, (rows, cols))
    results = []
    for karatsuba, fused in ((True, True), (False, None), (True, False)):
        ar = ModArith(p, karatsuba=karatsuba, fused=fused)
        out = ar.from_ints(c)
        ar.submul(out, ar.from_ints(a), ar.from_ints(b))
        assert np.abs(out).max() <= ar.h
        results.append(ar.to_ints(out))
    assert (results[1] == results[0]).all() and (results[2] == results[0]).all()
    picks = [(i, j) for i in range(rows) for j in range(cols)] if rows < 100 else \
        [(int(i), int(j))
         for i, j in zip(rng.integers(0, rows, 60), rng.integers(0, cols, 60), strict=False)] + [(rows - 1, cols - 1)]
    for i, j in picks:
        want = (int(c[i, j]) - sum(int(x) * int(y) for x, y in zip(a[i], b[:, j], strict=False))) % p
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


@pytest.mark.parametrize("fused", [True, False])
@pytest.mark.parametrize("rows,inner,cols", [(1, 5, 7), (7, 5, 1), (1, 1, 1), (22, 9, 31)])
def test_thin_products_and_a_one_row_last_block_equal_python_integers(monkeypatch, fused, rows, inner, cols):
    """One-row and one-column products (an elimination's last Schur row), and with a 64-entry tile a
    22-row product whose last row block (height 64 // 9 = 7) has one row: every entry of C - A B is
    Python's.  An off-by-one in the row-block loop passed every other test of the Karatsuba product."""

    monkeypatch.setattr(tuning, "KARATSUBA_TILE", 64)
    p = PRIMES[0]
    rng = np.random.default_rng(rows * 100 + cols)
    a, b, c = rng.integers(0, p, (rows, inner)), rng.integers(0, p, (inner, cols)), rng.integers(0, p, (rows, cols))
    ar = ModArith(p, fused=fused)
    out = ar.from_ints(c)
    ar.submul(out, ar.from_ints(a), ar.from_ints(b))
    assert (ar.to_ints(out).astype(object) == (c.astype(object) - a.astype(object) @ b.astype(object)) % p).all()
