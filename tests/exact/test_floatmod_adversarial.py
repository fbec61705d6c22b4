"""Adversarial entries for every exactness argument of ``verify.exact.floatmod`` (module notes there).

Each test drives one written bound to the largest value it allows, with entries of largest magnitude
of both signs and of both parities, and compares with Python integers.  Parity matters: above 2^53
float64 holds only even integers, so a sum that overflows by one step is still exact when every
term is even (p = 8,388,593 has (p-1)/2 even); every test therefore mixes in odd magnitudes
((p-1)/2 - 1 there) so that an overflow is a wrong residue, not a lucky even number.

Primes: both sides of every limb threshold (the largest prime with one limb and chunk >= 256, the
smallest with two; the same for two and three limbs), the primes just below 2^20 and 2^23 where the
chunk and the delay are 32,768 and 512, a one-limb plan forced at p near 2^26 (chunk 8), and the
largest supported prime.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from verify.exact import tuning
from verify.exact.floatmod import MAX_PRIME, ModArith
from verify.exact.tuning import MIN_CHUNK

#: (prime, forced limbs or None, expected limbs): one-limb/two-limb and two-limb/three-limb
#: thresholds from both sides, with the chunk lengths the plan is known to give (``PLANS``).
PRIMES = [
    (1048571, None, 1),           # chunk = delay = 32768, (p-1)/2 odd
    (1048573, None, 1),           # FAST_PRIME: chunk 32767
    (8388593, None, 1),           # chunk = delay = 512, (p-1)/2 even
    (11863279, None, 1),          # largest prime whose one-limb chunk is >= 256 (chunk 256)
    (11863289, None, 2),          # the next prime: two limbs (Karatsuba)
    (1099511627689, None, 2),     # largest prime below 2^40: Karatsuba, b = 20, chunk 8190
    (31988991918047, None, 2),    # largest prime whose Karatsuba chunk is >= 256 (chunk 256)
    (31988991918109, None, 2),    # the next prime: four limb products (chunk 614)
    (67108859, 1, 1),             # one limb forced: chunk 8, delay 8
    (26322259, 1, 1),             # one limb forced: LIMIT mod h^2 < h, so the chunk's "- h" matters
    (98422984015831, None, 2),    # largest prime whose two-limb chunk is >= 256
    (98422984015871, None, 3),    # the next prime: three limbs
    (2**50 - 27, None, 3),        # largest supported prime
]
#: prime -> (limbs, chunk, delay) computed by hand from the module notes' bounds (closed form, not
#: read back from the code): one limb k = floor((LIMIT - h)/h^2), w limbs k = floor(LIMIT/l^2).
PLANS = {1048571: (1, 32768, 32768), 1048573: (1, 32767, 32767), 8388593: (1, 512, 512),
         11863279: (1, 256, 256), 67108859: (1, 8, 8), 98422984015831: (2, 256, 0), 2**50 - 27: (3, 1572864, 0),
         # Karatsuba: k = floor(LIMIT / s^2), s = 2^20 below 2^40 (8192 - 2 = 8190)
         1099511627689: (2, 8190, 0), 31988991918047: (2, 256, 0)}
LIMIT_OF = {p: 2**53 - 2 * p for p, _, _ in PRIMES}


def arith(p, limbs):
    return ModArith(p, np, limbs)


def exact(values) -> np.ndarray:
    return np.asarray(values, dtype=object)


def residues(ar: ModArith, x) -> np.ndarray:
    return ar.to_ints(x).astype(object)


def top_entries(p: int) -> list[int]:
    """Largest magnitudes of both signs and both parities, and the extreme canonical residues."""
    top = (p - 1) // 2
    return [top, -top, top - 1, -(top - 1), p - 1, (p + 1) // 2, 1, -1]


@pytest.mark.parametrize("p,limbs,expected", PRIMES)
def test_the_plan_is_the_largest_the_written_bounds_allow(p, limbs, expected):
    """h + chunk h^2 <= LIMIT (one limb) or chunk l^2 <= LIMIT (limbs), and one more index would
    break it; h + delay h^2 <= LIMIT < h + (delay + 1) h^2; limbs chosen as documented."""
    ar = arith(p, limbs)
    h, limit = (p - 1) // 2 + 2, 2**53 - 2 * p
    assert (ar.h, ar.limit, ar.limbs) == (h, limit, expected)
    if ar.limbs == 1:
        assert h + ar.chunk * h * h <= limit < h + (ar.chunk + 1) * h * h
    elif ar.karatsuba:  # three products of limb sums |x_0 + x_1| <= s = 2^(b-1) + (h >> b) + 1
        s = 2 ** (ar.bits - 1) + (h >> ar.bits) + 1
        assert s == min(2 ** (b - 1) + (h >> b) + 1 for b in range(2, 53))
        assert ar.chunk * s * s <= limit < (ar.chunk + 1) * s * s
    else:
        assert ar.chunk * ar.limb_bound**2 <= limit < (ar.chunk + 1) * ar.limb_bound**2
        top_limb = h >> (ar.bits * (ar.limbs - 1))
        assert ar.limb_bound >= max(2 ** (ar.bits - 1), top_limb + 1)
    if ar.small:
        assert h * h + h <= limit and h + ar.delay * h * h <= limit < h + (ar.delay + 1) * h * h
    else:
        assert h * h + h > limit and ar.delay == 0
    if p in PLANS:
        assert (ar.limbs, ar.chunk, ar.delay) == PLANS[p]
    if limbs is None and ar.limbs > 1:  # the default is the fewest limbs with a chunk >= MIN_CHUNK
        assert arith(p, ar.limbs - 1).chunk < MIN_CHUNK if arith_ok(p, ar.limbs - 1) else True
    assert ar.chunk >= MIN_CHUNK or limbs is not None


def arith_ok(p, limbs) -> bool:
    try:
        ModArith(p, np, limbs)
        return True
    except ValueError:
        return False


@pytest.mark.parametrize("p,limbs,expected", PRIMES)
def test_reduce_at_the_limit_of_both_signs(p, limbs, expected):
    """reduce(x) for |x| up to LIMIT (odd and even, both signs, near every half-multiple of p)."""
    ar = arith(p, limbs)
    limit = ar.limit
    values = [limit, -limit, limit - 1, -(limit - 1), 2**52 + 1, -(2**52 + 1), 0, 1, -1, p, -p,
              (p - 1) // 2, (p + 1) // 2, -(p - 1) // 2, -(p + 1) // 2, p * (limit // p), -p * (limit // p)]
    q = limit // p
    values += [q * p + (p - 1) // 2, q * p - (p - 1) // 2, (q - 1) * p + (p + 1) // 2, -(q * p + (p - 1) // 2)]
    values = [v for v in values if abs(v) <= limit]
    x = np.array(values, dtype=np.float64)
    assert [int(v) for v in x] == values  # every value is held exactly
    out = ar.reduce(x.copy())
    assert np.abs(out).max() <= ar.h
    assert (residues(ar, out) == exact([v % p for v in values])).all()
    # a large 2-D array: the banded path
    big = np.tile(np.array(values, dtype=np.float64), (3000, 1))
    assert (residues(ar, ar.reduce(big.copy())) == exact([[v % p for v in values]] * 3000)).all()


@pytest.mark.parametrize("p,limbs,expected", PRIMES)
def test_from_ints_centres_every_extreme_input(p, limbs, expected):
    ar = arith(p, limbs)
    raw = top_entries(p) + [0, p, -p, 2**62, -(2**62), 2**63 - 1, -(2**63), ar.limit, ar.limit + 1, -ar.limit - 1]
    for matrix in (np.array([raw], dtype=np.int64), np.array([raw + [2**100, -(2**100) - 1]], dtype=object)):
        out = ar.from_ints(matrix)
        want = exact([[int(v) % p for v in matrix[0]]])
        assert (residues(ar, out) == want).all()
        assert np.abs(out).max() <= (p - 1) // 2  # centred: |x| <= (p-1)/2
    # inside the float64 range but not residues: the reduce path of from_ints
    inside = [-1, -(p - 1), p, 2 * p + 1, -3 * p - 2, ar.limit, -ar.limit, ar.limit - 1, (p + 1) // 2 - p]
    out = ar.from_ints(np.array([inside], dtype=np.int64))
    assert (residues(ar, out) == exact([[v % p for v in inside]])).all()
    assert np.abs(out).max() <= ar.h
    residue_only = np.array([[p - 1, (p + 1) // 2, (p - 1) // 2, 0]], dtype=np.int64)  # the centring-only path
    assert ar.from_ints(residue_only).tolist() == [[-1, -((p - 1) // 2), (p - 1) // 2, 0]]


@pytest.mark.parametrize("p,limbs,expected", [row for row in PRIMES if ModArith(row[0], np, row[1]).limbs > 1])
def test_limbs_recombine_within_their_bound(p, limbs, expected):
    ar = arith(p, limbs)
    top = (p - 1) // 2
    values = [top, -top, top - 1, -(top - 1), 2 ** (ar.bits - 1), -(2 ** (ar.bits - 1)),
              2 ** (ar.bits * (ar.limbs - 1)),
              top - 2 ** (ar.bits - 1), 1, -1, 0]
    x = np.array(values, dtype=np.float64)
    parts = ar._split(x)
    assert len(parts) == ar.limbs
    assert max(float(np.abs(part).max()) for part in parts) <= ar.limb_bound
    back = [sum(int(parts[i][j]) * 2 ** (ar.bits * i) for i in range(ar.limbs)) for j in range(len(values))]
    assert back == values


@pytest.mark.parametrize("p,limbs,expected", [row for row in PRIMES if not ModArith(row[0], np, row[1]).small])
def test_mul_of_the_largest_residues_of_both_signs(p, limbs, expected):
    """mul past h^2 > LIMIT (the uint64 correction), every pair of extreme entries."""
    ar = arith(p, limbs)
    top = (p - 1) // 2
    values = [top, -top, top - 1, -(top - 1), 1, -1, 0, 2, top // 2, -(top // 2) - 1]
    x, y = zip(*itertools.product(values, repeat=2), strict=False)
    out = ar.mul(np.array(x, dtype=np.float64), np.array(y, dtype=np.float64))
    assert np.abs(out).max() <= ar.h
    assert (residues(ar, out) == exact([a * b % p for a, b in zip(x, y, strict=False)])).all()
    for scalar in (top, -top, top - 1, p - 1):  # a Python int factor, as the combination of limbs uses
        out = ar.mul(np.array(values, dtype=np.float64), scalar)
        assert (residues(ar, out) == exact([v * scalar % p for v in values])).all()


def _inners(chunk: int) -> list[int]:
    """Every chunk boundary (chunk - 1, chunk, chunk + 1, multiples) where the chunk is testable."""
    if chunk > 40000:
        return [1, 255, 256, 257, 1000]
    return sorted({1, 2, chunk - 1, chunk, chunk + 1, 2 * chunk, 2 * chunk + 1, 3 * chunk} - {0})


def _patterns(p: int, inner: int, rng) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A (rows: all +top, all -top, all top-1, alternating, random signs) and B (columns alike),
    so that every row-column pair hits the largest same-sign partial sums, odd and even."""
    top = (p - 1) // 2
    odd = top - 1 if top % 2 == 0 else top
    even = top if top % 2 == 0 else top - 1
    rows = [np.full(inner, top), np.full(inner, -top), np.full(inner, odd), np.full(inner, even),
            np.where(np.arange(inner) % 2 == 0, top, odd), rng.choice([top, -top, odd, -odd], inner)]
    a = np.array(rows, dtype=np.int64)
    cols = [np.full(inner, top), np.full(inner, -odd), np.full(inner, odd), rng.choice([top, -top, odd], inner)]
    b = np.array(cols, dtype=np.int64).T
    c = np.array([[top, -top, odd, -odd]] * 6, dtype=np.int64)
    c[::2] *= -1
    return a, b, c


@pytest.mark.parametrize("p,limbs,expected", PRIMES)
def test_submul_at_every_chunk_boundary_with_the_largest_entries(p, limbs, expected):
    """C - A B at inner dimension chunk - 1, chunk, chunk + 1 and multiples: every partial sum at
    the largest value the chunk allows, of both signs and parities, against Python integers."""
    ar = arith(p, limbs)
    rng = np.random.default_rng(p % 2**32)
    for inner in _inners(ar.chunk):
        a, b, c = _patterns(p, inner, rng)
        out = ar.from_ints(c)
        ar.submul(out, ar.from_ints(a), ar.from_ints(b))
        want = (exact(c) - exact(a) @ exact(b)) % p
        assert np.abs(out).max() <= ar.h, inner
        assert (residues(ar, out) == want).all(), f"p={p} inner={inner}"


@pytest.mark.parametrize("p,limbs", [(1048571, None), (8388593, None), (11863279, None), (67108859, 1)])
def test_delayed_submul_reaching_the_delay_stays_exact(p, limbs):
    """submul(..., pending) with the pending count starting at every value up to ``delay``: the
    entry value is the true accumulated one (|c| = top + pending top^2, odd), chunks follow until
    the count reaches the delay, and the result and the returned count's bound are checked."""
    ar = arith(p, limbs)
    top = (p - 1) // 2
    odd = top - 1 if top % 2 == 0 else top
    square = odd * odd
    for inner in sorted({1, ar.chunk - 1, ar.chunk, ar.chunk + 1, 2 * ar.chunk + 1} - {0}):
        for start in sorted({0, 1, ar.delay // 2, ar.delay - inner, ar.delay - inner + 1, ar.delay - 1, ar.delay}):
            if not 0 <= start <= ar.delay:
                continue
            value = odd + start * square  # the bound h + start h^2, met as closely as odd entries allow
            c = np.full((3, 2), float(value))
            c[1] *= -1
            truth = exact([[value] * 2, [-value] * 2, [value] * 2])
            a = np.full((3, inner), float(odd))
            a[1] *= -1
            b = np.full((inner, 2), float(-odd))
            pending = start
            for _ in range(3):
                pending = ar.submul(c, a, b, pending)
                truth = truth - exact(a.astype(np.int64)) @ exact(b.astype(np.int64))
                assert np.abs(c).max() <= ar.h + pending * ar.h * ar.h <= 2**53
                assert (residues(ar, ar.reduce(c.copy())) == truth % p).all(), (inner, start)


@pytest.mark.parametrize("p,limbs", [(1048571, None), (8388593, None), (11863279, None), (67108859, 1)])
def test_delayed_rank_one_updates_with_odd_values_of_both_signs(p, limbs):
    """The elimination's rank-one updates (reduction delayed while |x| <= h + pending h^2) run to
    delay - 1, delay, delay + 1 and past several delays, with odd products of both signs: a
    reduction one step late leaves an odd sum above 2^53, a wrong residue."""
    from verify.exact.elimination import _Pluq

    ar = arith(p, limbs)
    top = (p - 1) // 2
    odd = top - 1 if top % 2 == 0 else top
    combos = list(itertools.product([odd, odd - 1, -odd], [1, -1]))
    counts = {ar.delay - 1, ar.delay, ar.delay + 1, 2 * ar.delay + 1, 3 * ar.delay + 2}
    if ar.delay > 4096:  # 2^20: one pass through the delay each way (the loop is Python, one update a call)
        combos, counts = [(odd, 1), (odd - 1, -1)], {ar.delay + 1}
    for start, sign in combos:
        for updates in sorted(counts):
            target = ar.from_ints(np.array([[start, -start, odd], [odd - 1, start, -odd]], dtype=np.int64))
            truth = exact(target.astype(np.int64))
            left = np.array([odd, sign * odd], dtype=np.float64)
            right = np.array([-sign * odd, -odd, odd - 1], dtype=np.float64)
            engine, pending = _Pluq(ar, target, [], []), 0
            for _ in range(updates):
                pending = engine._rank_one(target, left, right, pending)
                assert np.abs(target).max() <= 2**53
            truth = truth - updates * (exact(left.astype(np.int64))[:, None] * exact(right.astype(np.int64))[None, :])
            ar.reduce(target)
            assert (residues(ar, target) == truth % p).all(), (start, sign, updates)


def test_max_prime_and_even_moduli_are_refused():
    for bad in (MAX_PRIME, MAX_PRIME + 1, 2, 4, 1):
        with pytest.raises(ValueError):
            ModArith(bad)


@pytest.mark.parametrize("p", [2**46 - 21, 2**50 - 27, 2**40 - 87])
def test_limbed_products_in_many_tiles_equal_python_integers(monkeypatch, p):
    """With a tiny tile the multi-limb products (four products, three limbs, and the four-product plan
    forced at a Karatsuba prime) run in many column blocks of b and row blocks of a, across chunks:
    C - A B still equals Python's on every entry."""
    monkeypatch.setattr(tuning, "TILE_ENTRIES", 256)
    ar = ModArith(p, limbs=2, karatsuba=False) if p == 2**40 - 87 else ModArith(p)
    assert ar.limbs > 1 and not ar.karatsuba
    rng = np.random.default_rng(p % 1000)
    inner = min(ar.chunk + 3, 70)
    a, b, c = rng.integers(0, p, (23, inner)), rng.integers(0, p, (inner, 31)), rng.integers(0, p, (23, 31))
    out = ar.from_ints(c)
    assert ar.submul(out, ar.from_ints(a), ar.from_ints(b)) == 0
    want = (c.astype(object) - a.astype(object) @ b.astype(object)) % p
    assert (ar.to_ints(out).astype(object) == want).all() and np.abs(out).max() <= ar.h


@pytest.mark.parametrize("p", [7, 1048573, 2**46 - 21])
def test_from_ints_reduces_uint64_past_two_to_the_63(p):
    """An int64 cast wrapped uint64 entries past 2^63 to v - 2^64, another residue mod p: the
    elimination then ranked another matrix (rank 2 for [[v, 1], [1, 1]], v = 1 mod p, against 1),
    and since the factorization check reduces the caller's integers itself it raised an internal error."""
    from verify.exact.elimination import rank_mod_p

    ar = ModArith(p)
    raw = [2**64 - 1, 2**63, 2**63 + 1, 2**63 - 1, p, 0]
    out = ar.from_ints(np.array([raw], dtype=np.uint64))
    assert (residues(ar, out) == exact([[v % p for v in raw]])).all()
    v = 2**63 + (1 - 2**63) % p
    assert rank_mod_p(np.array([[v, 1], [1, 1]], dtype=np.uint64), p) == 1
