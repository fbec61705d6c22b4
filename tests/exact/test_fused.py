"""The compiled Karatsuba loops of ``verify.exact.fused`` against numpy's passes and Python integers.

The split and the combination do the same float64 operations as ``ModArith``'s numpy passes, so
they must agree bit for bit; the fused rank-one update takes another route than ``ModArith.mul``
(a Karatsuba product of inner dimension one), so it is checked on residues against Python integers.
"""

from __future__ import annotations

import numpy as np
import pytest
from numba import njit

from verify.exact import fused, tuning
from verify.exact.floatmod import ModArith

PRIMES = [2**40 - 87, 4398046511093, 31988991918047]


def _pair(p):
    return ModArith(p, fused=True), ModArith(p, fused=False)


def _extremes(ar, shape, rng):
    """Reduced entries, a third of them at +-(p-1)/2 and its neighbours (the largest limbs)."""
    top = (ar.p - 1) // 2
    values = rng.integers(-top, top + 1, shape)
    mask = rng.random(shape) < 0.33
    values[mask] = rng.choice([top, -top, top - 1, -(top - 1), 2 ** (ar.bits - 1) - 1], mask.sum())
    return values.astype(np.float64)


@pytest.mark.parametrize("p", PRIMES)
def test_split_is_bit_for_bit_numpys_on_a_strided_view(p):
    compiled, passes = _pair(p)
    rng = np.random.default_rng(1)
    parent = _extremes(compiled, (60, 90), rng)
    view = parent[5:50, 7:80]  # rows not contiguous with each other, as an elimination's panels
    outs = []
    for ar in (compiled, passes):
        low, high, total = (np.full(view.shape, np.nan) for _ in range(3))
        ar._split_sum(view, low, high, total)
        outs.append((low, high, total))
    for a, b in zip(*outs, strict=False):
        assert np.array_equal(a, b)
    low, high, total = outs[0]
    assert (low + 2.0**compiled.bits * high == view).all() and (total == low + high).all()
    assert np.abs(total).max() <= compiled.sum_bound


@pytest.mark.parametrize("p", PRIMES)
def test_combination_is_bit_for_bit_numpys_at_the_largest_products(p):
    """L, H and X at the largest magnitudes the plan allows (k l_0^2, k l_1^2, 2 k l_0 l_1, both
    signs) and random ones, combined into a strided c: the same floats as numpy's passes, and the
    residues Python's."""
    compiled, passes = _pair(p)
    k, low_bound, high_bound = compiled.chunk, 2 ** (compiled.bits - 1), (compiled.h >> compiled.bits) + 1
    rng = np.random.default_rng(2)
    shape = (40, 70)
    big_l, big_h, big_x = k * low_bound**2, k * high_bound**2, 2 * k * low_bound * high_bound
    lo = rng.integers(-big_l, big_l + 1, shape, dtype=np.int64)
    hi = rng.integers(-big_h, big_h + 1, shape, dtype=np.int64)
    x = rng.integers(-big_x, big_x + 1, shape, dtype=np.int64)
    signs = rng.choice([-1, 1], (3, shape[0], 1))
    lo[:, :5], hi[:, :5], x[:, :5] = signs[0] * big_l, signs[1] * big_h, signs[2] * big_x  # the extremes
    middle = lo + hi + x  # M = L + H + X, |.| <= k s^2 <= LIMIT
    assert np.abs(middle).max() <= compiled.limit
    parent = _extremes(compiled, (50, 90), rng)
    results = []
    for ar in (compiled, passes):
        c = parent.copy()
        ar._combine(c[3:43, 10:80], lo.astype(np.float64), middle.astype(np.float64), hi.astype(np.float64))
        results.append(c)
    assert np.array_equal(results[0], results[1])
    assert np.abs(results[0]).max() <= compiled.h
    p_obj = compiled.p
    want = (parent[3:43, 10:80].astype(np.int64).astype(object)
            - (lo.astype(object) + x.astype(object) * 2**compiled.bits
               + hi.astype(object) * 2 ** (2 * compiled.bits))) % p_obj
    assert (results[0][3:43, 10:80].astype(np.int64).astype(object) % p_obj == want).all()
    assert np.array_equal(results[0][:3], parent[:3]) and np.array_equal(results[0][:, :10], parent[:, :10])


@pytest.mark.parametrize("p", PRIMES)
def test_rank_one_against_python_integers(p):
    """target - left right^T mod p on a strided target with extreme entries: residues Python's,
    entries reduced, the rest of the parent untouched; and the same residues as ``mul``'s route."""
    compiled, passes = _pair(p)
    rng = np.random.default_rng(3)
    parent = _extremes(compiled, (30, 50), rng)
    left_parent = _extremes(compiled, (30, 4), rng)
    right = _extremes(compiled, (40,), rng)
    results = []
    for ar in (compiled, passes):
        out = parent.copy()
        ar.rank_one(out[2:27, 5:45], left_parent[2:27, 1], right)
        results.append(out)
    as_int = lambda a: a.astype(np.int64).astype(object)  # noqa: E731
    want = (as_int(parent[2:27, 5:45]) - np.outer(as_int(left_parent[2:27, 1]), as_int(right))) % p
    for out in results:
        assert (as_int(out[2:27, 5:45]) % p == want).all()
        assert np.abs(out).max() <= compiled.h
        assert np.array_equal(out[:2], parent[:2]) and np.array_equal(out[:, :5], parent[:, :5])


@pytest.mark.parametrize("p", PRIMES)
def test_a_vector_times_a_scalar_against_python_integers(p):
    """``mul(x, y)`` for a 1-D ``x`` (a strided row, extreme entries) and reduced ints y at +-(p-1)/2,
    +-1 and 0 (the elimination's multipliers): the compiled rank-one route and ``mul``'s uint64 route
    both give Python's residues, reduced, and leave x alone."""
    compiled, passes = _pair(p)
    rng = np.random.default_rng(4)
    parent = _extremes(compiled, (6, 70), rng)
    x = parent[2, 3:67]
    top = (p - 1) // 2
    for y in (top, -top, top - 1, 1, -1, 0, int(rng.integers(-top, top))):
        want = x.astype(np.int64).astype(object) * y % p
        for ar in (compiled, passes):
            before = parent.copy()
            out = ar.mul(x, y)
            assert out.shape == x.shape and (out.astype(np.int64).astype(object) % p == want).all(), y
            assert np.abs(out).max() <= compiled.h and np.array_equal(parent, before)


def test_a_transposed_target_is_updated_in_place():
    """A transposed target (neither rows nor columns contiguous): each row goes through the loop's
    contiguous buffer and back into the view."""
    ar = ModArith(PRIMES[0])
    rng = np.random.default_rng(4)
    parent = _extremes(ar, (20, 30), rng)
    left, right = _extremes(ar, (30,), rng), _extremes(ar, (20,), rng)
    out = parent.copy()
    ar.rank_one(out.T, left, right)
    as_int = lambda a: a.astype(np.int64).astype(object)  # noqa: E731
    assert (as_int(out.T) % ar.p == (as_int(parent.T) - np.outer(as_int(left), as_int(right))) % ar.p).all()


def test_products_in_many_tiles_equal_python_integers(monkeypatch):
    """With a tiny scratch limit every Karatsuba product runs in several column blocks of b and row
    blocks of a (scratch reused across them): C - A B still equals Python's on every entry."""
    monkeypatch.setattr(tuning, "KARATSUBA_TILE", 64)
    p = PRIMES[0]
    rng = np.random.default_rng(5)
    a, b, c = rng.integers(0, p, (23, 9)), rng.integers(0, p, (9, 31)), rng.integers(0, p, (23, 31))
    for flag in (True, False):
        ar = ModArith(p, fused=flag)
        out = ar.from_ints(c)
        ar.submul(out, ar.from_ints(a), ar.from_ints(b))
        want = (c.astype(object) - a.astype(object) @ b.astype(object)) % p
        assert (ar.to_ints(out).astype(object) == want).all()
        assert {key: value.size for key, value in ar._scratch.items()}["low"] <= 64


def test_compiled_loops_contain_no_fused_multiply_add():
    """numba compiles without fast-math; this confirms no vfmadd/vfmsub reached the machine code of
    any kernel (a fused multiply-add would skip a rounding the exactness argument counts).  Cached
    code cannot be inspected, so each kernel is compiled afresh, with its own options, for the
    signatures it was used with."""
    ar = ModArith(PRIMES[0])
    rng = np.random.default_rng(7)
    c = _extremes(ar, (8, 8), rng)
    ar.submul(c, _extremes(ar, (8, 3), rng), _extremes(ar, (3, 8), rng))
    ar.rank_one(c, c[:, 0].copy(), c[0].copy())
    for kernel in (fused.split_sum, fused.combine, fused.rank_one):
        assert kernel.signatures
        options = {key: value for key, value in kernel.targetoptions.items() if key not in ("cache", "nopython")}
        fresh = njit(**options)(kernel.py_func)  # its own options (fast-math included, were it set)
        for signature in kernel.signatures:
            fresh.compile(signature)
        code = "\n".join(fresh.inspect_asm().values())
        assert "round" in code  # rint: the code inspected is the kernel's
        assert not any(op in code for op in ("vfmadd", "vfmsub", "vfnmadd", "vfnmsub")), kernel


def test_without_the_compiled_loops_the_array_passes_take_over(monkeypatch):
    """Where numba cannot be imported (or cannot cache), ModArith falls back to numpy's passes, with
    the same residues; asking for the loops explicitly then fails loudly."""
    import sys

    import verify.exact

    monkeypatch.setitem(sys.modules, "verify.exact.fused", None)  # makes the import raise ImportError
    monkeypatch.delattr(verify.exact, "fused")
    ar = ModArith(PRIMES[0])
    assert ar.karatsuba and ar.fused is None
    rng = np.random.default_rng(8)
    a, b, c = (rng.integers(0, ar.p, shape) for shape in ((30, 20), (20, 25), (30, 25)))
    out = ar.from_ints(c)
    ar.submul(out, ar.from_ints(a), ar.from_ints(b))
    assert (ar.to_ints(out).astype(object) == (c.astype(object) - a.astype(object) @ b.astype(object)) % ar.p).all()
    with pytest.raises(ImportError):
        ModArith(PRIMES[0], fused=True)
