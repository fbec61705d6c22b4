"""The mod-p product plans, in one place: which plan multiplies what, and the exactness argument of each.

Every plan computes (a @ b) mod p exactly; they differ in the prime range and the word they compute in.
The ones that were written out in the callers live here; the larger plans keep their own modules and
are listed here so that this is the one map:

=====================  ==============  ====================================================================
plan                   where           primes, word, exactness
=====================  ==============  ====================================================================
one float64 limb       ``floatmod``    p < 2^23 (chunks of >= 256 indices): reduced |x| <= h = (p-1)/2 + 2,
                                       C - A B over k indices has sums <= h + k h^2 <= 2^53 - 2p
wide (two/three        ``floatmod``    p < 2^50: balanced limbs of b bits, every limb product sum k l^2
float64 limbs)                         <= 2^53 - 2p; recombined with ``ModArith.mul``
Karatsuba (two limbs)  ``karatsuba``   about 2^23.5 < p < 2^44.9: three limb products instead of four
                                       (compiled passes in ``fused``)
digits                 ``factorcheck``  the factorization check's thin products with k-bit digits of one
                                       operand (``digit_plan``)
small-prime windows    ``floatmod``    int8 x int8 -> int32 and float32 windows at p < 2^8 / 2^12
                                       (``small_prime_windows``; printed by a benchmark, not built)
three 21-bit limbs     here            p < 2^63: ``three_limb_product``
16-bit int64 limbs     here            p < 2^31, inner < 2^14: ``int64_product`` (the token routes)
compiled int64         ``modp_        p < 2^31, inner < 2^14: d x d products one pair at a time in numba
                       compiled``      loops (``verify.rank.token.grid_loop``); Mersenne folds at 2^31 - 1
float64 floor          here            0 <= a < 2^53 - p: ``floor_mod`` (the certificate's grid)
device                 ``blocklu``,    the float64 plans above through the array module (cupy), and the
                       ``leaves``      leaf inverse's fraction-free steps (p < 2^26)
=====================  ==============  ====================================================================

``product(left, right, p)`` picks the float64 limbs below ``MAX_PRIME`` and the three 21-bit limbs
above; the tuned cut-offs every plan uses are in ``verify.exact.tuning``.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import SupportsInt

import numpy as np
from numpy.typing import DTypeLike

from .floatmod import MAX_PRIME, ModArith

__all__ = ["product", "float_product", "three_limb_product", "int64_product", "reduce_int64", "floor_mod",
           "residues", "LIMB_BITS", "INNER_CHUNK", "INT64_LIMB_BITS", "INT64_INNER_MAX"]

#: Bits per limb of ``three_limb_product`` (3 x 21 = 63 >= bits of any p < 2^63).
LIMB_BITS = 21
#: Inner indices per float64 product of 21-bit limbs: (2^21 - 1)^2 * 2^11 < 2^53, every sum exact.
INNER_CHUNK = 2**11
#: Bits of the low limb of ``int64_product``'s right factor.
INT64_LIMB_BITS = 16
#: ``int64_product``'s inner dimension must be below this (its sums then stay below 2^61).
INT64_INNER_MAX = 2**14


def float_product(left: np.ndarray, right: np.ndarray, p: int, overwrite: bool = False) -> np.ndarray:
    """(left @ right) mod p, p < 2^50, as int64 residues in [0, p), for int64 inputs (any integers),
    through ``ModArith``'s float64 limbs (exact by its module notes); ``overwrite`` lets the conversion
    of ``right`` reuse its memory."""
    ar = ModArith(p)
    out = np.zeros((left.shape[0], right.shape[1]))
    ar.submul(out, ar.from_ints(left), ar.from_ints(right, overwrite))  # -(left @ right)
    return (-ar.to_ints(out)) % p


def product(left: np.ndarray, right: np.ndarray, p: int, overwrite: bool = False) -> np.ndarray:
    """(left @ right) mod p as int64 residues for any word-size prime: the float64 limbs below
    ``MAX_PRIME``, the three 21-bit limbs above."""
    if p < MAX_PRIME:
        return float_product(left, right, p, overwrite)
    return three_limb_product(np.mod(left, p), np.mod(right, p), p)


def _limbs(matrix: np.ndarray) -> list[np.ndarray]:
    mask = (1 << LIMB_BITS) - 1
    return [((matrix >> (LIMB_BITS * i)) & mask).astype(np.float64) for i in range(3)]


def three_limb_product(left: np.ndarray, right: np.ndarray, modulus: int) -> np.ndarray:
    """(left @ right) mod ``modulus`` exactly, for int64 entries in [0, modulus), modulus < 2^63.

    Entries are cut into three 21-bit limbs; a product of two limbs is at most (2^21 - 1)^2 < 2^42, so
    a float64 product over at most ``INNER_CHUNK`` = 2^11 inner indices is an exact integer at most
    (2^21 - 1)^2 2^11 < 2^53.  The nine limb products are grouped by shift 21 (i + j), reduced mod p
    per inner chunk, and the five shifted sums (uint64: at most three sums < 2^53 added to a residue
    < 2^63 stay < 2^64) combined in Python integers.  Returns int64 residues.

    >>> p = 2**63 - 25
    >>> a = np.array([[p - 1, 2]], dtype=np.int64); b = np.array([[p - 1], [p - 2]], dtype=np.int64)
    >>> int(three_limb_product(a, b, p)[0, 0]) == ((p - 1) ** 2 + 2 * (p - 2)) % p
    True
    """
    if not 2 <= modulus < 2**63:
        raise ValueError(f"modulus {modulus} is outside 2..2^63-1")
    rows, inner = left.shape
    cols = right.shape[1]
    shifted = [np.zeros((rows, cols), dtype=np.uint64) for _ in range(5)]
    for start in range(0, inner, INNER_CHUNK):
        stacked = np.vstack(_limbs(left[:, start:start + INNER_CHUNK]))  # limb i of left in rows i*t..
        for j, limb in enumerate(_limbs(right[start:start + INNER_CHUNK])):
            # exact: each entry < 2^53; three of them added to a value < p < 2^63 stay < 2^64
            products = (stacked @ limb).astype(np.uint64)
            for i in range(3):
                shifted[i + j] += products[i * rows:(i + 1) * rows]
        for s in shifted:
            np.remainder(s, np.uint64(modulus), out=s)
    out = np.zeros((rows, cols), dtype=object)
    for s, part in enumerate(shifted):
        out += part.astype(object) * pow(2, LIMB_BITS * s, modulus)
    return (out % modulus).astype(np.int64)


def reduce_int64(x: np.ndarray, p: int) -> np.ndarray:
    """x mod p for an int64 array with 0 <= x < 2^63 (numpy divides by a scalar without a hardware
    division; folding 2^31 = 1 mod 2^31 - 1 by shifts and masks measured no faster)."""
    return x % p


def int64_product(a: np.ndarray, b: np.ndarray, p: int) -> np.ndarray:
    """(a b) mod p for (stacks of, broadcast) int64 matrices, entries in [0, p), p < 2^31, inner size d < 2^14.

    b is split into 16-bit limbs, b = 2^16 b_hi + b_lo, and each limb product is one numpy int64
    matmul: a b_lo has terms <= (2^31 - 2)(2^16 - 1) < 2^47 and a b_hi terms < 2^31 2^15 = 2^46, so a
    sum of d <= 2^14 - 1 terms stays below 2^61.  Recombination: for p = 2^31 - 1, with H = a b_hi =
    2^15 H_1 + H_0 (H_0 < 2^15), 2^16 H = 2^31 H_1 + 2^16 H_0 = H_1 + 2^16 H_0 mod p, and
    H_1 + 2^16 H_0 + a b_lo < 2^46 + 2^31 + 2^61 < 2^62 is reduced once; other primes reduce each part
    and ((a b_hi mod p) << 16) < 2^47.  No int64 sum can wrap.
    """
    if a.shape[-1] >= INT64_INNER_MAX:
        raise ValueError("int64_product's limb argument needs d < 2^14")
    if p >= 2**31:
        raise ValueError("int64_product needs a prime below 2^31")
    low, high = b & 0xFFFF, b >> INT64_LIMB_BITS
    if p == 2**31 - 1:
        top = a @ high
        return reduce_int64((top >> 15) + ((top & 0x7FFF) << 16) + a @ low, p)
    return ((a @ low) % p + (((a @ high) % p) << 16) % p) % p


def floor_mod(a: np.ndarray, p: int) -> np.ndarray:
    """a mod p for float64 integers 0 <= a < 2^53 - p, p >= 5, as float64 residues in [0, p).

    q = floor(a * fl(1/p)) is floor(a/p) or one off: a * fl(1/p) has relative error below 2^-51 and
    a/p < 2^53/p, so its absolute error is below 4/p < 1; then p q <= a + p < 2^53 is exact, and one
    correction step puts a - p q into [0, p) (``np.fmod`` is exact too, but 20 times slower)."""
    r = a - p * np.floor(a * (1.0 / p))
    np.add(r, p, out=r, where=r < 0)
    np.subtract(r, p, out=r, where=r >= p)
    return r


def residues(rows: Iterable[Iterable[SupportsInt]], p: int, dtype: DTypeLike = np.int64) -> np.ndarray:
    """A matrix of integers (nested sequences, any size) reduced to [0, p) in Python integers, as
    ``dtype`` (int64, or object to keep Python integers for exact products after)."""
    return np.array([[int(v) % p for v in row] for row in rows], dtype=dtype)
