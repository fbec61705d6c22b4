"""Independent check of every float64 elimination: P A Q = L U over GF(p) on random vectors.

Freivalds' check (R. Freivalds, "Probabilistic machines can use less running time", IFIP 1977):
if D = P A Q - L U is not zero, then D x = 0 for at most a fraction 1/p of the vectors x uniform
over GF(p)^n (a nonzero row of D is a nonzero linear form, zero on a hyperplane).  So k independent
vectors let a wrong factorization pass with probability at most p^-k.  ``vector_count`` picks
k = ceil(64 / log2 p), several where p is small: a false pass has probability at most 2^-64.

The vectors are drawn (seeded by the shape and the prime) and A x is formed *before* the
elimination, from the caller's integers, reduced in row bands by the check's own code (``_residues``),
so the check needs O((m + n) k) extra memory plus one band, never a second copy of A.  Afterwards
L (U (Q^T x)) is formed from the factors stored in place (row bands, the triangular parts of each
diagonal band masked in a small copy) and compared with P (A x).  Together with a nonzero
diagonal of U, P A Q = L U proves rank A = r: L's first r rows are unit lower triangular and U's
first r columns upper triangular with a nonzero diagonal, so L U has rank exactly r.  Cost: three passes over the stored
matrix, O(m n k) multiply-adds in exact BLAS products of the check's own (``_subtract_product``: plain chunked products
and ``fmod`` for p below about 2^23.5; above, base-2^b digits of the thin operand, reduced in int64), against O(m n r)
for the elimination.  They share no code with the elimination's ``ModArith.submul``, so a fault there
cannot cancel itself out: a product that silently did nothing would leave both A x and L U x at
zero, and a shared check would pass.  Nor does the check use ``ModArith``'s input reduction
(``from_ints``), its canonical residues (``to_ints``) or its zero test (``nonzero``): a fault in the
first would have the elimination and the check agree on the wrong matrix, and one in the others
could make every comparison pass (both planted and caught in ``tests/exact/test_factorcheck.py``).

Digits (p above about 2^23.5, where plain chunks would be shorter than ``PLAIN_MIN_CHUNK``: 8 indices at
67,108,859 and 1 at 189,812,507; limbs from 189,812,533): every product has a thin operand (k vectors), so the check
splits that one, never the stored matrix.  Its residues v in [0, p) are written in base 2^b, v = sum_i 2^(b i)
v_i with 0 <= v_i < 2^b, and the matrix M (|.| <= h) multiplies all the digit columns in one BLAS
product over inner chunks of s indices: every partial sum is at most s h (2^b - 1) <= 2^53
(``digit_plan``), so exact, and converts to int64 exactly.  Then M v = sum_i 2^(b i) (M v_i) mod p
by Horner's rule in int64 (r 2^b + t < p 2^b + p < 2^63, since b <= 62 - bits(p)).  One read of
the stored matrix per product, where the four limb products split it into limbs first: at
p = 2^40 - 87 and 4000^2 the check fell from about 0.45 s to about 0.05 s.

The same sketch checks a null space (``verify.exact.nullspace``): the left vectors z^T A, formed
before the elimination, must vanish on every returned null vector.

A failed check raises ``FactorizationCheckError`` naming the matrix; it never becomes a result.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import ceil, log2
from typing import TYPE_CHECKING

import numpy as np

from . import tuning

if TYPE_CHECKING:
    from .device import DeviceArray
    from .floatmod import ModArith

__all__ = ["CHECK", "FactorizationCheckError", "Sketch", "vector_count", "digit_plan", "sketch", "check_factorization",
           "check_null_rows"]

#: How results name the check.
CHECK = "freivalds P A Q = L U"
#: Bits of confidence: a wrong factorization passes with probability at most 2^-BITS.
BITS = 64
# Tuned (``verify.exact.tuning``, with what each is for): PLAIN_MIN_CHUNK, the shortest inner chunk of the
# plain one-limb products (digits below it); BAND, rows per band of the stored factors' products;
# READ_BAND, DEVICE_READ_BAND and DIGIT_READ_BAND, entries per band when the caller's matrix is read
# (imported above).


class FactorizationCheckError(RuntimeError):
    """An elimination's factors do not reproduce its input: an internal fault, never a result."""


def vector_count(p: int) -> int:
    """Random vectors for a false pass below 2^-64 over GF(p): ceil(64 / log2 p).

    >>> vector_count(1048573), vector_count(8388593), vector_count(2**46 - 21), vector_count(7)
    (4, 3, 2, 23)
    """
    return max(1, ceil(BITS / log2(p)))


@dataclass
class Sketch:
    """Random vectors drawn before an elimination and A's products with them (negated, reduced)."""

    x: object  # n x k, reduced
    neg_ax: object  # m x k: -(A x), reduced
    z: object | None = None  # k x m, reduced (left vectors, for null spaces)
    neg_za: object | None = None  # k x n: -(z^T A), reduced
    vectors: int = 0
    prime: int = 0


def digit_plan(p: int, h: int, inner: int) -> tuple[int, int]:
    """(digit bits b, inner chunk s) of the check's digit products mod ``p`` for a matrix with
    |entries| <= ``h`` (ModArith's h for reduced values, p - 1 for the caller's residues read by
    ``sketch``; module notes: digits): the widest b <= min(16, 62 - bits(p)) whose chunk
    s = floor(2^53 / (h (2^b - 1))) covers ``inner`` or at least 1024 indices, else b = 1.

    >>> digit_plan(2**40 - 87, 2**39 + 1, 4000), digit_plan(2**46 - 21, 2**45 + 1, 4000)
    ((4, 1092), (1, 255))
    """
    for bits in range(min(16, 62 - p.bit_length()), 1, -1):
        step = 2**53 // (h * (2**bits - 1))
        if step >= max(1, min(inner, 1024)):
            return bits, step
    return 1, 2**53 // h


def _subtract_digits(ar: ModArith, c, matrix, thin, bound: int) -> None:
    """c <- c - matrix thin (mod p), centred, by base-2^b digits of ``thin`` (module notes: digits);
    |matrix| <= ``bound`` (h, or p - 1 for the caller's residues), |thin| < p, |c| <= p/2."""
    xp, p = ar.xp, ar.p
    bits, step = digit_plan(p, bound, matrix.shape[1])
    count, width = -(-p.bit_length() // bits), thin.shape[1]
    residues = xp.remainder(thin.astype(xp.int64), p)  # [0, p)
    digits = xp.concatenate([(residues >> (bits * i)) & (2**bits - 1) for i in range(count)], axis=1)
    digits = digits.astype(xp.float64)  # column block i: the digits v_i, 0 <= v_i < 2^b
    total = xp.zeros(c.shape, dtype=xp.int64)
    for k0 in range(0, matrix.shape[1], step):
        part = matrix[:, k0:k0 + step] @ digits[k0:k0 + step]  # |.| <= s h (2^b - 1) <= 2^53: exact
        part = xp.remainder(part.astype(xp.int64), p)
        value = part[:, (count - 1) * width:]
        for i in range(count - 2, -1, -1):  # Horner: < p 2^b + p < 2^63
            value = xp.remainder((value << bits) + part[:, i * width:(i + 1) * width], p)
        total = xp.remainder(total + value, p)
    out = xp.remainder(c.astype(xp.int64) - total, p)
    c[...] = out - p * (out > p // 2)


def _subtract_product(ar: ModArith, c, a, b, a_bound: int | None = None, b_bound: int | None = None) -> None:
    """c <- c - a b (mod p), in place, centred, for |a| <= ``a_bound``, |b| <= ``b_bound`` (each h by
    default, or p - 1 for residues in [0, p) from ``_residues``) and |c| <= p/2: the check's own
    products, sharing no code with the elimination's (``ModArith.submul``), so that a fault there
    cannot cancel itself out (a product that silently did nothing would leave A x and L U x both zero).

    One limb (h^2 + h <= LIMIT): plain BLAS products over inner chunks of k = (2^53 - p) // (a_bound
    b_bound) indices, each partial sum at most k a_bound b_bound, and |c - part| <= 2^53, all exact; then
    ``fmod`` (exact in IEEE arithmetic) and a centring, while k >= ``PLAIN_MIN_CHUNK``.  Larger primes:
    digits of the thinner operand (``_subtract_digits``; c - a b = (c^T - b^T a^T)^T where a is the
    thinner; every prime whose products need limbs is among them, its k at most 1)."""
    a_bound, b_bound = a_bound or ar.h, b_bound or ar.h
    step = (2**53 - ar.p) // (a_bound * b_bound)
    if step < tuning.PLAIN_MIN_CHUNK:
        if a.size < b.size:
            _subtract_digits(ar, c.T, b.T, a.T, b_bound)
        else:
            _subtract_digits(ar, c, a, b, a_bound)
        return
    for k0 in range(0, a.shape[1], step):
        c -= a[:, k0:k0 + step] @ b[k0:k0 + step]
        _centre(ar, c)


def _centre(ar: ModArith, c) -> None:
    """c <- c mod p in place, centred (|c| <= p/2), for integer-valued |c| <= 2^53: ``fmod`` (exact in
    IEEE arithmetic) to |c| < p, then one centring step either way."""
    p = float(ar.p)
    c[...] = ar.xp.fmod(c, p)
    c -= p * (c > p / 2)
    c += p * (c < -p / 2)


def _residues(ar: ModArith, values):
    """Integers (numpy int or object, an ``xp`` int array, or integer-valued floats) as float64 in
    ``ar.xp`` congruent to them mod p with |v| <= p - 1, by the check's own reduction: it never calls
    ``ModArith.from_ints`` / ``reduce``, so a fault in the elimination's input reduction changes the
    matrix the elimination sees but not the one the check multiplies, and the check fails.  Not
    centred (two more passes over the whole matrix, 0.1 s at 4000^2): its products take the bound
    p - 1 instead of h.  Entries already in range are only converted (exact: p < 2^53)."""
    xp, p = ar.xp, ar.p
    if getattr(values, "dtype", None) == object:
        values = np.mod(values, p).astype(np.int64)  # Python ints: exact
    values = xp.asarray(values)
    if values.size == 0:
        return values.astype(xp.float64)
    low, high = int(values.min()), int(values.max())  # integer-valued floats: int() is exact
    if values.dtype.kind in "biu":
        if not (0 <= low and high < p):
            wide = xp.uint64 if values.dtype.kind == "u" else xp.int64
            values = xp.remainder(values.astype(wide), wide(p))  # [0, p)
        return values.astype(xp.float64)
    values = values.astype(xp.float64)
    return values if -p < low and high < p else xp.fmod(values, float(p))  # fmod: exact, (-p, p)


def _random(ar: ModArith, shape, seed):
    """Seeded uniform residues of GF(p), centred (|v| <= (p - 1)/2 <= h), as an array of ``ar.xp``."""
    values = np.random.default_rng(seed).integers(0, ar.p, size=shape, dtype=np.int64)
    values -= ar.p * (values > ar.p // 2)
    return ar.xp.asarray(values.astype(np.float64))


def sketch(ar: ModArith, matrix: DeviceArray, left: bool = False) -> Sketch:
    """Draw k = ``vector_count(p)`` vectors (seeded by the shape and p) and form -(A x) (and, with
    ``left``, -(z^T A)) from the caller's ``matrix`` (integers, or reduced floats), reduced here in row
    bands by ``_residues``: call it before the elimination's ``from_ints``, which may overwrite the input.

    Bands of ``READ_BAND`` entries (cache-sized) where the plain products apply; there z^T A is summed
    band by band into an unreduced k x n accumulator, each entry at most (rows so far) h (p - 1), and
    folded into -(z^T A) (``_subtract_product``'s bound: |c - acc| <= p/2 + 2^53 - p, exact, then one
    ``fmod``) once per (2^53 - p) // ((p - 1) h) rows: an ``fmod`` of the whole accumulator after
    every band cost 0.44 s at 4000^2 (glibc's ``fmod`` slows with the quotient's size).  Primes that
    take digits, and rows longer than one plain chunk, read ``DIGIT_READ_BAND`` entries a band, so
    that the digits of the vectors, the Horner steps over the k x n accumulator and the chunks' small
    products recur a few times, not once per few rows."""
    xp, (m, n), k = ar.xp, matrix.shape, vector_count(ar.p)
    seed = [ar.p % 2**32, m, n, 0xF4E1]
    x = _random(ar, (n, k), seed)
    out = Sketch(x, xp.zeros((m, k), dtype=xp.float64), vectors=k, prime=ar.p)
    bound = ar.p - 1  # of the residues read (_residues), not centred
    fold = (2**53 - ar.p) // (bound * ar.h)  # rows of z^T A summed exactly before a reduction
    plain = fold >= tuning.PLAIN_MIN_CHUNK
    # bands of more rows where a band's A x takes several inner chunks (or digits): fewer small products
    entries = (tuning.DEVICE_READ_BAND if xp is not np else tuning.READ_BAND if plain and fold >= n
               else tuning.DIGIT_READ_BAND)
    step = max(1, min(entries // max(1, n), fold if plain else m))
    if left:
        out.z = _random(ar, (k, m), seed + [1])
        out.neg_za = xp.zeros((k, n), dtype=xp.float64)
        acc, rows = xp.zeros((k, n), dtype=xp.float64) if plain else None, 0
    for r0 in range(0, m, step):
        band = _residues(ar, matrix[r0:r0 + step])  # |.| <= p - 1
        _subtract_product(ar, out.neg_ax[r0:r0 + step], band, x, a_bound=bound)
        if not left:
            continue
        if not plain:
            _subtract_product(ar, out.neg_za, out.z[:, r0:r0 + step], band, b_bound=bound)
            continue
        if rows + band.shape[0] > fold:  # |acc| would pass fold h (p - 1) <= 2^53 - p: fold it in first
            _fold(ar, out.neg_za, acc)
            rows = 0
        acc += out.z[:, r0:r0 + step] @ band  # each term at most h (p - 1)
        rows += band.shape[0]
    if left and plain and rows:
        _fold(ar, out.neg_za, acc)
    return out


def _fold(ar: ModArith, c, acc) -> None:
    """c <- c - acc (mod p), centred, for |c| <= p/2 and |acc| <= 2^53 - p (so c - acc is exact); acc
    is zeroed for the next rows."""
    c -= acc
    _centre(ar, c)
    acc[...] = 0.0


def _fail(what: str, shape, p: int) -> FactorizationCheckError:
    return FactorizationCheckError(
        f"internal error: the float64 elimination's {what} over GF({p}) for a {shape[0]:,} x {shape[1]:,} "
        f"matrix failed its independent check (Freivalds); no rank is reported. Please report this "
        f"with the command line; --field gf:{2**63 - 25} ranks with FLINT instead")


def check_factorization(ar: ModArith, a: DeviceArray, rowperm: list[int], colperm: list[int], rank: int,
                        found: Sketch) -> None:
    """Raise ``FactorizationCheckError`` unless the factors stored in ``a`` (P A Q = L U, see
    ``verify.exact.elimination``) reproduce the sketch: L (U (Q^T x)) = P (A x) for every drawn x,
    and U's first ``rank`` diagonal entries are nonzero."""
    xp, m, r = ar.xp, a.shape[0], rank
    if r:
        diagonal = a[xp.arange(r), xp.arange(r)]
        if not bool((xp.fmod(diagonal, float(ar.p)) != 0).all()):  # the check's own test, not ModArith.nonzero
            raise _fail("U diagonal", a.shape, ar.p)
    xq = found.x[xp.asarray(np.asarray(colperm, dtype=np.int64))]  # Q^T x
    neg_ux = xp.zeros((r, found.vectors), dtype=xp.float64)  # -(U Q^T x), band by band
    for i0 in range(0, r, tuning.BAND):
        i1 = min(r, i0 + tuning.BAND)
        _subtract_product(ar, neg_ux[i0:i1], xp.triu(a[i0:i1, i0:i1]), xq[i0:i1])
        _subtract_product(ar, neg_ux[i0:i1], a[i0:i1, i1:], xq[i1:])
    lux = xp.zeros((m, found.vectors), dtype=xp.float64)  # L U Q^T x = -(L (-(U Q^T x)))
    for i0 in range(0, m, tuning.BAND):
        i1 = min(m, i0 + tuning.BAND)
        left = min(i0, r)
        _subtract_product(ar, lux[i0:i1], a[i0:i1, :left], neg_ux[:left])
        if i0 < r:  # the diagonal square: strictly lower part of the band, plus the identity
            j1 = min(i1, r)
            square = xp.tril(a[i0:i1, i0:j1], -1)
            square[xp.arange(j1 - i0), xp.arange(j1 - i0)] = 1.0
            _subtract_product(ar, lux[i0:i1], square, neg_ux[i0:j1])
    pax = -found.neg_ax[xp.asarray(np.asarray(rowperm, dtype=np.int64))]  # P A x
    if not bool((xp.fmod(lux - pax, float(ar.p)) == 0).all()):  # |lux - pax| <= p: exact; not ModArith.to_ints
        raise _fail("factorization P A Q = L U", a.shape, ar.p)


def check_null_rows(ar: ModArith, found: Sketch, rows: np.ndarray, shape: tuple[int, ...],
                    free: list[int] | None = None, mix: np.ndarray | None = None) -> None:
    """Raise ``FactorizationCheckError`` unless z^T A x = 0 for every null vector x (a row of the
    t x n int64 array ``rows``) and every drawn left vector z; and, given ``free`` (the columns the
    elimination left without a pivot), unless the rows restricted to them are ``mix``^T (a
    nullity x t integer matrix; the identity when None), which the rows were built to be: so they
    are the basis (or its combinations) asked for, never zeros (which pass z^T A x = 0 trivially)."""
    if found.neg_za is None or rows.shape[0] == 0:
        return
    xp = ar.xp
    if free is not None:
        picked = _residues(ar, rows[:, xp.asarray(np.asarray(free, dtype=np.int64))])  # t x nullity
        want = xp.eye(len(free), dtype=xp.float64) if mix is None else _residues(ar, mix).T
        if picked.shape != want.shape or not bool((xp.fmod(picked - want, float(ar.p)) == 0).all()):
            raise _fail("null space", shape, ar.p)  # |picked - want| <= 2 (p - 1): exact
    values = xp.ascontiguousarray(_residues(ar, rows).T)  # n x t, |.| <= p - 1
    product = xp.zeros((found.vectors, values.shape[1]), dtype=xp.float64)
    _subtract_product(ar, product, found.neg_za, values, b_bound=ar.p - 1)
    if bool((xp.fmod(product, float(ar.p)) != 0).any()):
        raise _fail("null space", shape, ar.p)
