"""The factorization check (verify.exact.factorcheck): it passes on true factorizations, and every
kind of wrong factor, permutation, rank or null vector makes it fail instead of giving a rank."""

from __future__ import annotations

import flint
import numpy as np
import pytest

from verify.exact import elimination
from verify.exact.elimination import factor, rank_mod_p
from verify.exact.factorcheck import FactorizationCheckError, check_factorization, vector_count
from verify.exact.floatmod import ModArith
from verify.exact.nullspace import null_space

PRIMES = [7, 101, 1048573, 8388593, 189812507, 2**46 - 21]


def _low_rank(m: int, n: int, r: int, p: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    left = rng.integers(0, p, (m, r), dtype=np.int64).astype(object)
    right = rng.integers(0, p, (r, n), dtype=np.int64).astype(object)
    return ((left @ right) % p).astype(np.int64)


def _flint_rank(matrix: np.ndarray, p: int) -> int:
    return flint.nmod_mat(matrix.shape[0], matrix.shape[1], [int(v) for v in matrix.ravel()], p).rank()


@pytest.mark.parametrize("p", PRIMES)
@pytest.mark.parametrize("m,n,r", [(1, 1, 1), (3, 1, 1), (1, 5, 1), (40, 1, 1), (37, 53, 20), (70, 40, 40),
                                   (90, 90, 89), (64, 64, 0)])
def test_true_factorizations_pass_and_give_flint_rank(p, m, n, r):
    matrix = _low_rank(m, n, r, p, seed=m * n + r)
    found = rank_mod_p(matrix, p, pivots=True)
    assert found.rank == _flint_rank(matrix, p)
    assert found.checked == vector_count(p) >= 1


def test_one_column_matrices_store_a_true_l():
    """A one-column panel used to alias the array, so its row swap acted twice and L was wrong
    (the rank was right); the check found it."""
    ar, a, rowperm, colperm, rank, sketch = factor(np.array([[0], [2], [3]]), 101)
    assert rank == 1 and rowperm[0] == 1 and int(a[0, 0]) == 2


def _factored(p=8388593, m=60, n=50, r=30, seed=1):
    return factor(_low_rank(m, n, r, p, seed), p)


@pytest.mark.parametrize("tamper", ["L", "U", "U12", "diagonal", "rowperm", "colperm", "rank_up", "rank_down",
                                    "schur"])
def test_every_wrong_part_of_a_factorization_is_caught(tamper):
    ar, a, rowperm, colperm, rank, sketch = _factored()
    if tamper == "L":
        a[rank + 3, 2] += 1
    elif tamper == "U":
        a[2, 5] += 1
    elif tamper == "U12":
        a[rank - 1, rank + 4] += 1
    elif tamper == "diagonal":
        a[4, 4] = 0
    elif tamper == "rowperm":
        rowperm[0], rowperm[-1] = rowperm[-1], rowperm[0]
    elif tamper == "colperm":
        colperm[0], colperm[-1] = colperm[-1], colperm[0]
    elif tamper == "rank_up":
        rank += 1
    elif tamper == "rank_down":
        rank -= 1
    elif tamper == "schur":  # a factorization claiming rank r with a nonzero trailing Schur complement
        pass
    if tamper == "schur":
        matrix = _low_rank(40, 40, 40, 8388593, 3)
        ar, a, rowperm, colperm, rank, sketch = factor(matrix, 8388593)
        rank -= 1
    with pytest.raises(FactorizationCheckError, match="independent check"):
        check_factorization(ar, a, rowperm, colperm, rank, sketch)


def test_a_planted_arithmetic_bug_raises_instead_of_giving_a_rank(monkeypatch):
    """A wrong pivot inverse (one changed line of the arithmetic) gives wrong multipliers: the
    check refuses the result."""
    real = ModArith.inverse
    monkeypatch.setattr(ModArith, "inverse", lambda self, v: self.balanced(real(self, v) + 1))
    matrix = _low_rank(80, 70, 50, 8388593, 5)
    with pytest.raises(FactorizationCheckError):
        rank_mod_p(matrix, 8388593)


def test_a_planted_triangular_solve_bug_raises(monkeypatch):
    """The issue's example: one changed comparison in the small-block triangular solve."""
    monkeypatch.setattr(elimination._Pluq, "_unit_lower_inverse",
                        lambda self, r0, c0, r: self.xp.zeros((r, r)))  # I - L^{-1} taken as 0: L^{-1} = I
    matrix = _low_rank(300, 300, 260, 1048573, 6)
    with pytest.raises(FactorizationCheckError):
        rank_mod_p(matrix, 1048573)


def test_null_vectors_are_checked(monkeypatch):
    matrix = _low_rank(50, 70, 30, 1048573, 7)
    space = null_space(matrix, 1048573)
    rows = space.rows()
    assert rows.shape == (40, 70) and not ((matrix.astype(object) @ rows.T.astype(object)) % 1048573).any()
    space.a[0, space.rank] += 1  # a wrong U12: the null vectors built from it are not null
    with pytest.raises(FactorizationCheckError, match="null space"):
        space.rows()


@pytest.mark.parametrize("fault", ["no-op", "low only"])
def test_a_karatsuba_product_fault_is_caught_by_the_checks_own_products(monkeypatch, fault):
    """The check multiplies by digits of the thin operand (``factorcheck._subtract_digits``), not by
    ``ModArith``.  A Karatsuba product that silently does nothing left both A x and L U x
    at zero when the check shared it, and a 500 x 500 matrix of rank 430 over GF(2^40 - 87) came out
    of rank 500 (seen before this test); now the check raises.  The same with a combination that drops
    all but L."""
    from verify.exact import karatsuba

    p = 2**40 - 87
    matrix = _low_rank(500, 500, 430, p, 11)
    assert _flint_rank(matrix, p) == 430 and rank_mod_p(matrix, p) == 430

    def broken(self, c, low, middle, high):
        if fault == "low only":
            c -= low
            self.reduce(c)

    monkeypatch.setattr(karatsuba.KaratsubaProducts, "_combine", broken)
    with pytest.raises(FactorizationCheckError):
        rank_mod_p(matrix, p)


@pytest.mark.parametrize("p", [1048573, 8388593, 189812507, 2**46 - 21, 2**50 - 27])
def test_a_product_that_does_nothing_is_caught_by_the_checks_own_products(monkeypatch, p):
    """The check's products are plain chunked BLAS products and ``fmod`` for one limb, digits of the
    thin operand above (``factorcheck._subtract_product``), never ``ModArith.submul``.  With submul
    made a no-op, a 300 x 300 matrix of rank 250 at 1,048,573 came out of full rank while a check
    through submul passed (both sides zero); now the check raises, at one limb, four limb products
    (2^46 - 21, where the check shared submul until the digits) and three limbs."""
    matrix = _low_rank(300, 300, 250, p, 12)
    assert _flint_rank(matrix, p) == 250 and rank_mod_p(matrix, p) == 250
    monkeypatch.setattr(ModArith, "submul", lambda self, c, a, b, pending=None: pending or 0)
    with pytest.raises(FactorizationCheckError):
        rank_mod_p(matrix, p)


@pytest.mark.parametrize("p", [8388593, 1048573])
def test_the_checks_own_product_at_its_chunk_with_the_largest_sums(p):
    """``_subtract_product`` (one limb) at inner dimension chunk - 1, chunk, chunk + 1 and 2 chunk + 1,
    chunk = (2^53 - p) // h^2, with entries of the largest magnitudes (h and the odd h - 1, one sign a
    row) and c at +-p/2: every residue against Python integers, every result centred."""
    from verify.exact.factorcheck import _subtract_product

    ar = ModArith(p)
    chunk = (2**53 - p) // (ar.h * ar.h)
    assert ar.small and chunk >= 1
    big = [ar.h, ar.h - 1] if (ar.h - 1) % 2 else [ar.h - 1, ar.h]
    rng = np.random.default_rng(p % 997)
    for inner in sorted({max(1, chunk - 1), chunk, chunk + 1, 2 * chunk + 1}):
        if inner > 70000:
            continue
        a = np.array([np.full(inner, big[1]), -np.full(inner, big[1]), rng.choice(big, inner)], dtype=np.int64)
        b = np.array([np.full(inner, big[1]), rng.choice(big, inner) * rng.choice([-1, 1], inner)], dtype=np.int64).T
        c = np.array([[(p - 1) // 2, -((p - 1) // 2)]] * 3, dtype=np.float64)
        out = c.copy()
        _subtract_product(ar, out, a.astype(np.float64), b.astype(np.float64))
        want = (c.astype(np.int64).astype(object) - a.astype(object) @ b.astype(object)) % p
        assert (out.astype(np.int64).astype(object) % p == want).all(), inner
        assert np.abs(out).max() <= p / 2


@pytest.mark.parametrize("p", [16777213, 189812507, 2**40 - 87, 2**41 - 21, 2**46 - 21, 2**50 - 27])
def test_the_checks_digit_product_at_its_chunk_with_the_largest_sums(p):
    """``_subtract_product`` where it multiplies by digits of the thin operand (primes that need limbs,
    and one-limb primes whose plain chunk would be shorter than ``PLAIN_MIN_CHUNK``: 127 indices at
    16,777,213, 1 at 189,812,507, the largest prime whose products need no limbs) at inner dimension
    chunk - 1, chunk, chunk + 1 and 2 chunk + 1 of ``digit_plan``: matrix entries +-g, g the odd one
    of h and h - 1 (h = ModArith's bound, above every reduced value; odd, so that a sum past 2^53 is
    not representable) and thin entries -1 (residue p - 1, whose base-2^b digits are
    nearly all 2^b - 1, so the digit sums reach s h (2^b - 1)), c at +-p/2; both orientations (the thin
    operand on the right, as in A x, and on the left, as in z^T A); every residue against Python
    integers, every result centred."""
    from verify.exact.factorcheck import _subtract_product, digit_plan
    from verify.exact.tuning import PLAIN_MIN_CHUNK

    ar = ModArith(p)
    assert not ar.small or (2**53 - p) // (ar.h * ar.h) < PLAIN_MIN_CHUNK
    bits, chunk = digit_plan(p, ar.h, 4000)
    assert chunk * ar.h * (2**bits - 1) <= 2**53 < (chunk + 1) * ar.h * (2**bits - 1)
    g = ar.h if ar.h % 2 else ar.h - 1
    rng = np.random.default_rng(p % 991)
    for inner in sorted({max(1, chunk - 1), chunk, chunk + 1, 2 * chunk + 1}):
        a = np.array([np.full(inner, g), -np.full(inner, g), rng.choice([-g, g], inner)], dtype=np.int64)
        b = np.array([np.full(inner, -1), np.where(rng.random(inner) < 0.8, -1, rng.integers(-ar.h, ar.h, inner))],
                     dtype=np.int64).T
        c = np.array([[(p - 1) // 2, -((p - 1) // 2)]] * 3, dtype=np.float64)
        want = (c.astype(np.int64).astype(object) - a.astype(object) @ b.astype(object)) % p
        out = c.copy()
        _subtract_product(ar, out, a.astype(np.float64), b.astype(np.float64))
        assert (out.astype(np.int64).astype(object) % p == want).all(), inner
        left = c.T.copy()  # (c^T - b^T a^T): the thin operand on the left
        _subtract_product(ar, left, b.T.astype(np.float64), a.T.astype(np.float64))
        assert (left.T.astype(np.int64).astype(object) % p == want).all(), inner
        assert np.abs(out).max() <= p / 2 and np.abs(left).max() <= p / 2


@pytest.mark.parametrize("p", [189812533, 2**31 - 1, 2**40 - 87])
def test_the_checks_digit_product_with_its_widest_digits(p):
    """``_subtract_product`` where ``digit_plan`` picks wide digits (b >= 10): at 189,812,533 (the
    smallest prime whose products need limbs, b = 16) and 2^31 - 1 (b = 13) at every inner dimension
    from 1,024 on, and at 2^40 - 87 for inner dimensions 1 and 2 (b = 14, 12).  There a digit block's
    sum, up to s h (2^b - 1) ~ 2^53, shifted by b bits before its reduction mod p would pass 2^63; the
    tests at the chunk with the largest sums use b <= 4 and cannot tell.  Thin residues 2^(b j) - 1
    (all digits 2^b - 1) and the largest below p with such low digits (its top digit at its largest
    too), matrix entries +-h and +-(h - 1), c at +-(p - 1)/2, inner 0 included; both
    orientations; every residue against Python integers, every result centred."""
    from verify.exact.factorcheck import _subtract_product, digit_plan

    ar = ModArith(p)
    h, top = ar.h, (p - 1) // 2
    assert not ar.small
    rng = np.random.default_rng(p % 983)
    inners = [0, 1, 2] if p > 2**32 else [0, 1, 1024, digit_plan(p, h, 1024)[1] + 1]
    for inner in inners:
        bits, step = digit_plan(p, h, inner)
        assert inner == 0 or bits >= 10
        low = bits * (-(-p.bit_length() // bits) - 1)  # the top digit's place
        ones = [2 ** (bits * j) - 1 for j in range(1, 8) if 2 ** (bits * j) <= p] + [(p >> low << low) - 1]
        ones = [v if v <= top else v - p for v in ones]  # centred; the last: every digit at its largest
        a = np.array([np.full(inner, h), -np.full(inner, h), rng.choice([h, -h, h - 1, 1 - h], inner)], dtype=np.int64)
        b = np.array([np.full(inner, ones[-1]), np.full(inner, ones[0]), rng.choice(ones + [top, -top, -1], inner)],
                     dtype=np.int64).T
        c = np.array([[top, -top, top]] * 3, dtype=np.float64)
        c[1] *= -1
        want = (c.astype(np.int64).astype(object) - a.astype(object) @ b.astype(object)) % p
        out = c.copy()
        _subtract_product(ar, out, a.astype(np.float64), b.astype(np.float64))
        assert (out.astype(np.int64).astype(object) % p == want).all(), inner
        left = c.T.copy()  # the thin operand on the left
        _subtract_product(ar, left, b.T.astype(np.float64), a.T.astype(np.float64))
        assert (left.T.astype(np.int64).astype(object) % p == want).all(), inner
        assert np.abs(out).max() <= top and np.abs(left).max() <= top


@pytest.mark.parametrize("p,digits", [(8388593, False), (16777213, True), (189812507, True), (189812533, True)])
def test_the_check_takes_digits_where_plain_chunks_would_be_short(monkeypatch, p, digits):
    """Plain one-limb chunks of (2^53 - p) // h^2 indices are 512 at 8,388,593 but 127 at 16,777,213
    and 1 at 189,812,507, where a 2000^2 rank took 5.0 s against 0.73 s with digits (measured by the
    audit of the digit check): there the check multiplies by digits, as above the limb threshold."""
    from verify.exact import factorcheck

    calls = []
    real = factorcheck._subtract_digits
    monkeypatch.setattr(factorcheck, "_subtract_digits", lambda *args: calls.append(1) or real(*args))
    matrix = _low_rank(40, 30, 20, p, 5)
    assert rank_mod_p(matrix, p) == _flint_rank(matrix, p) == 20
    assert bool(calls) == digits


@pytest.mark.parametrize("p", [1048573, 189812507, 2**40 - 87])
@pytest.mark.parametrize("fault", ["row lost", "one entry off by one"])
def test_a_fault_in_the_input_reduction_is_caught(monkeypatch, p, fault):
    """The check reduces the caller's integers itself (``factorcheck._residues``), never through
    ``ModArith.from_ints``: with from_ints losing a row, a full-rank 60 x 60 matrix came out of rank
    59 and the check passed, since it multiplied the same wrong matrix.  Now it raises, for ranks and
    null spaces, at one limb, one limb with digits, and limb products."""
    real = ModArith.from_ints

    def faulty(self, matrix, overwrite=False):
        out = real(self, matrix, overwrite)
        if out.ndim == 2 and out.shape[0] > 5 and out.shape[1] > 5:
            if fault == "row lost":
                out[3] = 0
            else:
                out[4, 2] += 1 if out[4, 2] < 0 else -1
        return out

    matrix = np.random.default_rng(p % 89).integers(0, p, (60, 60), dtype=np.int64)
    assert rank_mod_p(matrix, p) == _flint_rank(matrix, p) == 60
    monkeypatch.setattr(ModArith, "from_ints", faulty)
    with pytest.raises(FactorizationCheckError):
        rank_mod_p(matrix, p)
    with pytest.raises(FactorizationCheckError):
        null_space(matrix[:, :-10], p)  # 50 independent columns: the null space is zero


@pytest.mark.parametrize("helper", ["to_ints", "nonzero"])
def test_the_check_compares_without_modarith_helpers(monkeypatch, helper):
    """A ``ModArith.to_ints`` that returned zeros made every comparison of the check pass, so a
    tampered factor went through; a ``nonzero`` that said True hid a zero pivot.  The check now
    compares by its own ``fmod``."""
    ar, a, rowperm, colperm, rank, found = _factored()
    if helper == "to_ints":
        monkeypatch.setattr(ModArith, "to_ints", lambda self, v: self.xp.zeros(v.shape, dtype=self.xp.int64))
        a[rank + 3, 2] += 1
    else:
        monkeypatch.setattr(ModArith, "nonzero", lambda self, v: self.xp.ones(v.shape, dtype=bool))
        a[4, 4] = 0
    with pytest.raises(FactorizationCheckError, match="independent check"):
        check_factorization(ar, a, rowperm, colperm, rank, found)


@pytest.mark.parametrize("p", [7, 1048573, 8388593, 2**46 - 21, 2**50 - 27])
def test_the_checks_own_reduction_of_the_callers_integers(p):
    """``_residues``: congruent to the input mod p with |v| <= p - 1 for int64 at its extremes,
    Python integers past int64, uint64 past 2^63, int32, and integer-valued floats inside (-p, p) and
    past it up to 2^53; against Python's %."""
    from verify.exact.factorcheck import _residues

    ar = ModArith(p)
    edges = [0, 1, -1, p - 1, p, p + 1, -p, -(p - 1), 2**62, -(2**63), 2**63 - 1, 3 * p - 1]
    cases = [np.array([edges], dtype=np.int64),
             np.array([[0, p, p - 1, 1]], dtype=np.int64),  # p itself, with nothing out of [0, p] around it
             np.array([[2**100 + 5, -(2**90) - 3, p * 2**70, 17]], dtype=object),
             np.array([[2**64 - 1, 2**63 + 11, 5, p]], dtype=np.uint64),
             np.array([[2**31 - 1, -(2**31), 0, -5]], dtype=np.int32),
             np.array([[p - 1.0, -(p - 1.0), 0.0, 3.0]]),
             np.array([[2.0**53, -(2.0**53), p + 2.0, -3.0 * p]]),
             np.array([[float(p), -float(p), 1.0, 0.0]]),  # +-p itself: reduced, not converted as is
             np.zeros((0, 3), dtype=np.int64)]
    for values in cases:
        out = _residues(ar, values)
        assert out.dtype == np.float64 and out.shape == values.shape
        assert (np.abs(out) <= p - 1).all()
        for got, want in zip(out.ravel().tolist(), values.ravel().tolist(), strict=False):
            assert got == int(got) and (int(got) - int(want)) % p == 0, (want, got)


@pytest.mark.parametrize("p", [1048573, 8388593, 16777213, 2**46 - 21])
def test_the_sketch_of_residues_at_their_largest_crosses_its_chunk_exactly(p):
    """``sketch`` multiplies the caller's residues, |.| <= p - 1 (not centred), by the vectors: the
    plain chunk (2^53 - p) // ((p - 1) h) (16,384 indices at 1,048,573, 256 at 8,388,593) or, above,
    ``digit_plan`` with bound p - 1.  A matrix whose every entry is the odd p - 2 (and a row of
    p - 1, the largest residue) over an inner dimension of 2 chunks + 1: -(A x) against Python
    integers, and the same with the left vectors z^T A."""
    from verify.exact.factorcheck import digit_plan, sketch
    from verify.exact.tuning import PLAIN_MIN_CHUNK

    ar = ModArith(p)
    chunk = (2**53 - p) // ((p - 1) * ar.h)
    if chunk < PLAIN_MIN_CHUNK:
        chunk = digit_plan(p, p - 1, 4000)[1]
    inner = 2 * chunk + 1
    assert inner <= 40000
    matrix = np.full((3, inner), p - 2, dtype=np.int64)
    matrix[1] = p - 1
    found = sketch(ar, matrix, left=True)
    x = found.x.astype(np.int64).astype(object)
    z = found.z.astype(np.int64).astype(object)
    exact = matrix.astype(object)
    assert (np.abs(found.x) <= (p - 1) // 2).all()
    assert ((found.neg_ax.astype(np.int64).astype(object) + exact @ x) % p == 0).all()
    assert ((found.neg_za.astype(np.int64).astype(object) + z @ exact) % p == 0).all()
    assert np.abs(found.neg_ax).max() <= p / 2 and np.abs(found.neg_za).max() <= p / 2


@pytest.mark.parametrize("p", [1048573, 8388593, 16777213, 2**46 - 21, 2**50 - 27])
def test_the_checks_product_with_residue_bounds_at_the_largest_sums(p):
    """``_subtract_product`` with the bound p - 1 of ``_residues`` on either side: the caller's residues
    on the left (A x: ``a_bound``) and on the right (z^T A: ``b_bound``, the thin z on the left), both
    at inner dimension chunk, chunk + 1 and 2 chunk + 1 (the plain chunk (2^53 - p) // ((p - 1) h),
    or ``digit_plan`` with bound p - 1).  Residues the odd p - 2, thin entries +-g (g the odd one of h,
    h - 1) for plain chunks and -1 (digits at their largest) for digits; c at +-(p - 1)/2.  A bound taken
    as h (half of p - 1) doubles the chunk and the sums pass 2^53; against Python integers."""
    from verify.exact.factorcheck import _subtract_product, digit_plan
    from verify.exact.tuning import PLAIN_MIN_CHUNK

    ar = ModArith(p)
    g = ar.h if ar.h % 2 else ar.h - 1
    chunk = (2**53 - p) // ((p - 1) * ar.h)
    digits = chunk < PLAIN_MIN_CHUNK
    if digits:
        chunk = digit_plan(p, p - 1, 4000)[1]
    rng = np.random.default_rng(p % 977)
    for inner in sorted({chunk, chunk + 1, 2 * chunk + 1}):
        a = np.full((3, inner), p - 2, dtype=np.int64)
        a[2] = rng.choice([p - 2, p - 1], inner)
        thin = np.full((inner, 2), -1 if digits else g, dtype=np.int64)
        thin[:, 1] = rng.choice([-1, -3] if digits else [g, g - 2], inner)
        c = np.array([[(p - 1) // 2, -((p - 1) // 2)]] * 3, dtype=np.float64)
        want = (c.astype(np.int64).astype(object) - a.astype(object) @ thin.astype(object)) % p
        out = c.copy()
        _subtract_product(ar, out, a.astype(np.float64), thin.astype(np.float64), a_bound=p - 1)
        assert (out.astype(np.int64).astype(object) % p == want).all(), ("A x", inner)
        left = c.T.copy()  # (c^T - thin^T a^T): the residues on the right, as in z^T A
        _subtract_product(ar, left, thin.T.astype(np.float64), a.T.astype(np.float64), b_bound=p - 1)
        assert (left.T.astype(np.int64).astype(object) % p == want).all(), ("z^T A", inner)
        assert np.abs(out).max() <= p / 2 and np.abs(left).max() <= p / 2


@pytest.mark.parametrize("m,n", [(300, 300), (3, 2**16 + 3)])
def test_the_sketch_reads_the_matrix_in_several_bands(m, n):
    """``sketch`` reads ``READ_BAND`` = 2^16 entries at a time: 218 rows of 300 (two bands, so z^T A sums
    over both and each band's A x lands in its own rows), and a matrix wider than a band (one row a
    band); -(A x) and -(z^T A) against Python integers, on int64 entries past p."""
    from verify.exact.factorcheck import sketch

    p = 1048573
    matrix = np.random.default_rng(m).integers(-(2**40), 2**40, (m, n), dtype=np.int64)
    found = sketch(ModArith(p), matrix, left=True)
    exact = matrix.astype(object)
    x, z = (v.astype(np.int64).astype(object) for v in (found.x, found.z))
    assert ((found.neg_ax.astype(np.int64).astype(object) + exact @ x) % p == 0).all()
    assert ((found.neg_za.astype(np.int64).astype(object) + z @ exact) % p == 0).all()


@pytest.mark.parametrize("p", [1048573, 2**46 - 21])
def test_null_rows_at_the_largest_sums_pass_exactly_and_one_off_fails(p):
    """``check_null_rows`` multiplies -(z^T A) (|.| <= h) by the rows' residues (up to p - 1) over n = 2
    chunks + 1 of its bounds (3 rows, more than the one vector, so that at 2^46 - 21 the rows are the
    digit product's matrix): rows of the odd p - 2 and p - 4 (mixed, so that no sum is a multiple of a
    large power of 2), z of magnitude about p/2 (plain) or -1, -3 (digits at their largest), each row's
    last entry set so that z^T A x = 0 mod p: the check passes (a sum past 2^53 would round and
    raise); with one entry off by one it raises."""
    from verify.exact.factorcheck import Sketch, check_null_rows, digit_plan
    from verify.exact.tuning import PLAIN_MIN_CHUNK

    ar = ModArith(p)
    rng = np.random.default_rng(p % 967)
    chunk = (2**53 - p) // ((p - 1) * ar.h)
    digits = chunk < PLAIN_MIN_CHUNK
    if digits:
        chunk = digit_plan(p, p - 1, 4000)[1]
    n = 2 * chunk + 1
    big = -((p + 1) // 2) if ((p + 1) // 2) % 2 else -((p + 3) // 2)  # odd, |.| <= h
    neg_za = rng.choice([-1, -3] if digits else [big, big + 2], (1, n)).astype(np.int64)
    rows = rng.choice([p - 2, p - 4], (3, n)).astype(np.int64)
    z_last = pow(int(neg_za[0, -1]), -1, p)
    for row in rows:  # sum_j neg_za_j row_j = 0 mod p
        row[-1] = (-int(neg_za[0, :-1].astype(object) @ row[:-1].astype(object)) * z_last) % p
    found = Sketch(None, None, z=np.zeros((1, 1)), neg_za=neg_za.astype(np.float64), vectors=1, prime=p)
    check_null_rows(ar, found, rows, (1, n))
    rows[1, 0] -= 1
    with pytest.raises(FactorizationCheckError, match="null space"):
        check_null_rows(ar, found, rows, (1, n))


def test_every_returned_null_vector_is_checked_not_only_the_first():
    """A wrong U12 column past the first makes only a later basis vector wrong: the check multiplies
    every row, so it raises (a check of the first row alone passed)."""
    matrix = _low_rank(50, 70, 30, 1048573, 7)
    space = null_space(matrix, 1048573)
    space.a[0, space.cols - 1] += 1  # the last free column: only the last basis vector changes
    with pytest.raises(FactorizationCheckError, match="null space"):
        space.rows()


@pytest.mark.parametrize("p", [1048573, 2**46 - 21])
def test_overwrite_ranks_and_null_spaces_the_callers_integers(p):
    """With ``overwrite`` the elimination's copy is written over the caller's int64 memory, so the
    sketch must read the integers first (``factor``): entries past p (reduced, so the memory changes),
    ranks and nullities against FLINT, and a list of lists (converted, never overwritten)."""
    matrix = np.random.default_rng(p % 71).integers(-(2**62), 2**62, (40, 30), dtype=np.int64)
    matrix[30:] = matrix[:10]
    want = _flint_rank(matrix % p, p)
    assert rank_mod_p(matrix.copy(), p, overwrite=True) == want == 30
    assert null_space(matrix.T.copy(), p, overwrite=True).nullity == 40 - want
    assert rank_mod_p(matrix.tolist(), p) == want


@pytest.mark.parametrize("p", [1048573, 8388593])
@pytest.mark.parametrize("even_rows", [1, 2])
def test_the_left_sketch_folds_its_accumulator_before_a_sum_passes_two_to_the_53(monkeypatch, p, even_rows):
    """``sketch`` sums z^T A over row bands unreduced and folds it into -(z^T A) every (2^53 - p) //
    ((p - 1) h) rows (16,384 at 1,048,573, 256 at 8,388,593; one band each here).  Every vector entry
    the odd (p - 3)/2, every matrix entry the odd p - 2 but the first row's (or two rows'), the even
    p - 3, so that a sum past 2^53 is odd, which float64 cannot hold.  One even row: the first band's
    sum is odd, the second's even, and two bands summed unfolded (a fold every 2 bands, planted) fail.
    Two: the first fold + 1 rows sum past 2^53 to an odd total (a fold one row late, planted, fails:
    the bound's h above the largest centred vector entry (p - 1)/2 leaves less than a row of slack).
    Over 2 folds + 1 rows: -(z^T A) and -(A x) against Python integers."""
    from verify.exact import factorcheck

    monkeypatch.setattr(factorcheck, "_random",
                        lambda ar, shape, seed: np.full(shape, (ar.p - 3) // 2, dtype=np.float64))
    ar = ModArith(p)
    fold = (2**53 - p) // ((p - 1) * ar.h)
    assert fold * (p - 3) // 2 * (p - 2) <= 2**53 < 2 * fold * (p - 3) // 2 * (p - 2)
    matrix = np.full((2 * fold + 1, 2), p - 2, dtype=np.int64)
    matrix[:even_rows] = p - 3
    found = factorcheck.sketch(ar, matrix, left=True)
    exact, half = matrix.astype(object), (p - 3) // 2
    assert ((found.neg_za.astype(np.int64).astype(object) + half * exact.sum(axis=0)) % p == 0).all()
    assert ((found.neg_ax.astype(np.int64).astype(object) + half * exact.sum(axis=1)[:, None]) % p == 0).all()
    assert np.abs(found.neg_za).max() <= p / 2


@pytest.mark.parametrize("mixed", [False, True])
def test_null_rows_that_are_not_the_basis_asked_for_are_caught(monkeypatch, mixed):
    """Zero rows pass z^T A x = 0 trivially: with ``ModArith.to_ints`` returning zeros, ``rows()``
    gave ten all-zero "null vectors" with no error (the audit of the check's independence).  The check
    now also compares the rows on the columns without a pivot with the identity (or the mix) they
    were built from."""
    p = 1048573
    matrix = _low_rank(30, 40, 30, p, 21)
    mix = np.random.default_rng(2).integers(0, p, (10, 4), dtype=np.int64) if mixed else None
    space = null_space(matrix, p)
    rows = space.rows(mix)
    want = (mix.T.astype(object) if mixed else np.eye(10, dtype=np.int64).astype(object)) % p
    assert (rows[:, space.colperm[space.rank:]].astype(object) % p == want).all()
    assert not ((matrix.astype(object) @ rows.T.astype(object)) % p).any()
    monkeypatch.setattr(ModArith, "to_ints", lambda self, v: self.xp.zeros(v.shape, dtype=self.xp.int64))
    with pytest.raises(FactorizationCheckError, match="null space"):
        null_space(matrix, p).rows(mix)


@pytest.mark.parametrize("cols,rank,mixed", [(51, 50, False), (70, 30, True)])
def test_a_single_wrong_null_vector_is_caught(cols, rank, mixed):
    """One null vector (nullity 1, or a wide null space mixed down to one column) is checked like many:
    a check that skipped t = 1 let a wrong single vector through (issue 35).  Expected: FLINT's nullity,
    the vector null by exact integer products, then a wrong U12 entry raises."""
    p = 1048573
    matrix = _low_rank(50, cols, rank, p, 11)
    assert cols - _flint_rank(matrix, p) == cols - rank
    mix = np.random.default_rng(3).integers(1, p, (cols - rank, 1), dtype=np.int64) if mixed else None
    space = null_space(matrix, p)
    row = space.rows(mix)
    assert row.shape == (1, cols) and row.any()
    assert not ((matrix.astype(object) @ row.T.astype(object)) % p).any()
    space.a[0, space.rank] += 1  # a wrong U12: the single vector built from it is not null
    with pytest.raises(FactorizationCheckError, match="null space"):
        space.rows(mix)
