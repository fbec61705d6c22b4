"""The block LU kernel (verify.exact.blocklu), run with numpy: the same code a GPU runs with cupy.
Its rank against FLINT's on designed-rank matrices, with either leaf (the device's array leaf and
the compiled host leaf), its fallback when a diagonal block is singular, and its checks."""

import flint
import numpy as np
import pytest

from verify.exact import blocklu
from verify.exact.elimination import rank_mod_p
from verify.exact.floatmod import ModArith

P = 1048573


def flint_rank(a: np.ndarray) -> int:
    return flint.nmod_mat([[int(x) for x in row] for row in a], P).rank()


@pytest.mark.parametrize("leaf", ["array", "host", "kernel"])
@pytest.mark.parametrize("rows, cols, rank, width", [(300, 300, 300, 128), (300, 260, 200, 128),
                                                      (260, 300, 259, 256), (400, 400, 130, 1024)])
def test_rank_matches_flint(rows, cols, rank, width, leaf):
    rng = np.random.default_rng(rows + cols + rank)
    a = (rng.integers(0, P, (rows, rank)) @ rng.integers(0, 64, (rank, cols))) % P
    ar = ModArith(P, np)
    found = blocklu.rank(ar.from_ints(a.copy()), ar, width=width,
                             fallback=lambda s: rank_mod_p(s, P), leaf=leaf)
    assert found["rank"] == flint_rank(a) == rank


@pytest.mark.parametrize("leaf", ["array", "host", "kernel"])
def test_singular_leading_block_goes_to_the_fallback(leaf):
    rng = np.random.default_rng(5)
    a = rng.integers(0, P, (300, 300))
    a[:, 1] = 2 * a[:, 0] % P  # the leading 2 x 2 block (and every one above it) is singular
    ar = ModArith(P, np)
    seen = []
    found = blocklu.rank(ar.from_ints(a.copy()), ar, width=128,
                             fallback=lambda s: seen.append(s.shape) or rank_mod_p(s, P), leaf=leaf)
    assert found["rank"] == flint_rank(a) == 299
    assert seen and found["pivots"] < 299 and found["exact"]


@pytest.mark.parametrize("leaf", ["array", "host", "kernel"])
def test_singular_block_halves_before_it_stops(leaf):
    """A singular 256-wide diagonal block whose leading 128-wide half is invertible: the loop halves
    the block and takes the half; the next block's leading half is then singular (its Schur column
    200 is zero), so it stops there, and the default fallback (the engine's elimination) ranks the
    272 x 272 Schur complement."""
    rng = np.random.default_rng(8)
    a = rng.integers(0, P, (400, 400))
    a[:256, 200] = (3 * a[:256, 10] + a[:256, 11]) % P  # rows 0..255: column 200 depends on 10, 11
    ar = ModArith(P, np)
    lu = blocklu.BlockLU(ar, width=256, leaf=leaf)
    m = ar.from_ints(a.copy())
    pivots, widths = lu.factor(m)
    assert widths == [128] and pivots == 128
    assert blocklu.rank(ar.from_ints(a.copy()), ar, width=256, leaf=leaf)["rank"] == flint_rank(a) == 400


@pytest.mark.parametrize("leaf", ["array", "host", "kernel"])
def test_a_wrong_leaf_inverse_is_caught(monkeypatch, leaf):
    """The diagonal block's own check (A11 A11^-1 v = v) catches one wrong entry of a leaf's inverse."""
    rng = np.random.default_rng(9)
    a = rng.integers(0, P, (300, 300))
    ar = ModArith(P, np)
    real = blocklu.BlockLU._leaf

    def off_by_one(self, block, flags):  # a planted bug: one entry of the leaf's inverse off by one
        inv = real(self, block, flags)
        inv[0, 0] += 1
        return inv

    monkeypatch.setattr(blocklu.BlockLU, "_leaf", off_by_one)
    with pytest.raises(RuntimeError, match="diagonal block at 0 is wrong"):
        blocklu.rank(ar.from_ints(a.copy()), ar, width=128, leaf=leaf)


@pytest.mark.parametrize("leaf", ["host", "kernel"])
@pytest.mark.parametrize("rows, cols", [(129, 129), (129, 200), (257, 256)])
def test_one_row_left_below_a_block_gets_its_l21_and_schur_update(rows, cols, leaf):
    """Issue 43's BL06: exactly one row below a diagonal block (129 rows in 128-wide blocks) must still
    get L21 and its Schur update; skipping them leaves that row unreduced, so the factorization check
    fails or the rank comes out wrong (FLINT's rank of the same matrix is the independent route)."""
    rng = np.random.default_rng(rows * cols)
    a = rng.integers(0, P, (rows, cols))
    a[-1] = (3 * a[0] + 5 * a[1]) % P  # the last row depends on rows 0 and 1: rank rows - 1
    ar = ModArith(P, np)
    found = blocklu.rank(ar.from_ints(a.copy()), ar, width=128, fallback=lambda s: rank_mod_p(s, P), leaf=leaf)
    assert found["rank"] == flint_rank(a) == min(rows - 1, cols)


def test_one_limb_only():
    with pytest.raises(ValueError, match="one-limb"):
        blocklu.BlockLU(ModArith(2**40 - 87, np))
    with pytest.raises(ValueError, match="leaf"):
        blocklu.BlockLU(ModArith(P, np), leaf="gpu")


def test_a_wrong_product_is_caught(monkeypatch):
    rng = np.random.default_rng(6)
    a = rng.integers(0, P, (300, 300))
    ar = ModArith(P, np)
    real = blocklu.BlockLU.submul

    def off_by_one(self, c, x, y):  # a planted bug: one Schur entry off by one
        real(self, c, x, y)
        if c.shape[0] > 1 and c.shape[1] > 1:
            c[1, 1] += 1

    monkeypatch.setattr(blocklu.BlockLU, "submul", off_by_one)
    with pytest.raises(RuntimeError, match="factorization is wrong"):
        blocklu.rank(ar.from_ints(a.copy()), ar, width=128, fallback=lambda s: rank_mod_p(s, P))


def test_projection_gives_a_lower_bound_that_meets_the_rank():
    rng = np.random.default_rng(7)
    a = (rng.integers(0, P, (300, 290)) @ rng.integers(0, 64, (290, 300))) % P
    a[:, 1] = 2 * a[:, 0] % P  # block LU stops at once; the whole matrix goes to the projection
    ar = ModArith(P, np)
    found = blocklu.rank(ar.from_ints(a.copy()), ar, width=128, fallback=lambda s: rank_mod_p(s, P),
                             small=1, project=2048)
    assert found["rank"] == flint_rank(a) and not found["exact"]


def _balanced(a: np.ndarray, p: int) -> np.ndarray:
    return (a % p - p * (a % p > p // 2)).astype(np.float64)


#: the primes next to 2^26 = LEAF_PRIME, on each side of the compiled leaf's range, and one where
#: its steps would pass 2^53 (h (p - 1) > 2^54): FLINT's route must take it
BELOW, ABOVE, INEXACT = 2**26 - 5, 2**26 + 15, 2**28 - 57


def test_leaf_prime_keeps_every_step_exact():
    """LEAF_PRIME against the leaf's exactness argument: for every p below it, with h = (p - 1)/2 + 2,
    a scaled row (h (p - 1)) and an elimination step (h + h^2) stay within LIMIT = 2^53 - 2p."""
    p = blocklu.LEAF_PRIME - 1
    h = (p - 1) // 2 + 2
    assert max(h * (p - 1), h + h * h) <= 2**53 - 2 * p


@pytest.mark.parametrize("p", [7, 251, P, 8388593, BELOW, ABOVE, INEXACT])
@pytest.mark.parametrize("w", [1, 2, 17, 128])
def test_leaf_inverse_matches_flint(p, w):
    """The compiled Gauss-Jordan leaf (and FLINT at and above LEAF_PRIME) against FLINT's inverse,
    on random leaves and on leaves of the largest residues, +-(p - 1)/2 and +-(p - 3)/2, whose
    elimination steps reach the largest sums its exactness argument allows."""
    rng = np.random.default_rng(p % 1009 + w)
    half = (p - 1) // 2
    for a in (rng.integers(0, p, (w, w)), rng.choice([half, -half, half - 1, 1 - half], (w, w))):
        want = blocklu.host_inverse(a % p, p)
        got = blocklu.leaf_inverse(_balanced(a, p), p)
        if want is None:  # p = 7 draws singular leaves
            assert got is None
            continue
        assert got is not None and got.dtype == np.float64
        assert np.abs(got).max() <= half + 2  # reduced
        assert ((got.astype(np.int64) - want) % p == 0).all()


@pytest.mark.parametrize("p", [P, BELOW, ABOVE])
def test_singular_leaf_has_no_inverse(p):
    rng = np.random.default_rng(3)
    a = rng.integers(0, p, (40, 40))
    a[:, 7] = (5 * a[:, 3] + a[:, 11]) % p  # rank 39
    assert blocklu.leaf_inverse(_balanced(a, p), p) is None
    a[0, 0], a[:, 0] = 0, 0  # a zero first column: the pivot search must pass every row
    assert blocklu.leaf_inverse(_balanced(a, p), p) is None


def test_leaf_pivot_search_swaps_rows():
    """A leaf whose pivots all sit off the diagonal (a permutation times a diagonal) needs a row
    swap at every step; its inverse is the transpose pattern with inverted entries."""
    p = P
    perm = np.random.default_rng(4).permutation(64)
    a = np.zeros((64, 64), dtype=np.int64)
    a[perm, np.arange(64)] = np.arange(2, 66)
    got = blocklu.leaf_inverse(_balanced(a, p), p)
    want = np.zeros((64, 64), dtype=np.int64)
    want[np.arange(64), perm] = [pow(int(x), -1, p) for x in range(2, 66)]
    assert ((got.astype(np.int64) - want) % p == 0).all()


@pytest.mark.parametrize("p", [3, 5, 7, P, BELOW, ABOVE])
@pytest.mark.parametrize("w", [1, 2, 3, 17])
def test_leaf_takes_every_representative_up_to_h(p, w):
    """The leaf's contract is |x| <= h = (p - 1)/2 + 2 (``floatmod``'s reduced form), not the
    balanced residue: each entry here is a random representative in [-h, h], +-h wherever one is.
    At p = 3, h = 3 = p, so +-3 is a zero residue held as a nonzero float."""
    rng = np.random.default_rng(p % 1009 + 31 * w)
    h = (p - 1) // 2 + 2
    for _ in range(6):
        a = rng.integers(0, p, (w, w))
        cands = np.stack([a - 2 * p, a - p, a, a + p], -1)
        ok = np.abs(cands) <= h
        ok = np.where((np.abs(cands) == h).any(-1, keepdims=True) & (rng.random(a.shape) < 0.7)[..., None],
                      np.abs(cands) == h, ok)
        rep = np.take_along_axis(cands, np.argmax(ok * rng.random(ok.shape), -1)[..., None], -1)[..., 0]
        assert (np.abs(rep) <= h).all() and ((rep - a) % p == 0).all()
        want = blocklu.host_inverse(a, p)
        got = blocklu.leaf_inverse(rep.astype(np.float64), p)
        assert (got is None) == (want is None)
        if want is not None:
            assert np.abs(got).max() <= h and ((got.astype(np.int64) - want) % p == 0).all()


def test_leaf_at_p3_reads_3_as_zero():
    assert blocklu.leaf_inverse(np.array([[3.0, 0.0], [0.0, 1.0]]), 3) is None
    got = blocklu.leaf_inverse(np.array([[3.0, 1.0], [1.0, 0.0]]), 3)
    assert got is not None and ((got.astype(np.int64) - [[0, 1], [1, 0]]) % 3 == 0).all()


@pytest.mark.parametrize("p", [3, 5, 7, 251, P, 8388593, BELOW])
@pytest.mark.parametrize("w", [1, 2, 3, 17, 128])
def test_array_leaf_matches_flint(p, w):
    """The device's leaf (array operations, fraction-free) against FLINT's inverse, on random leaves,
    leaves of the largest residues (the largest sums its bounds allow), leaves with zero pivots
    (a row from below must be added), and singular ones (the flag must say so)."""
    rng = np.random.default_rng(p % 1013 + 7 * w)
    half = (p - 1) // 2
    ar = ModArith(p, np)
    perm = rng.permutation(w)
    shuffled = np.zeros((w, w), dtype=np.int64)
    shuffled[perm, np.arange(w)] = rng.integers(1, p, w)
    singular = rng.integers(0, p, (w, w))
    singular[:, -1] = (2 * singular[:, 0]) % p
    for a in (rng.integers(0, p, (w, w)), rng.choice([half, -half, half - 1, 1 - half], (w, w)), shuffled, singular):
        want = blocklu.host_inverse(a % p, p)
        got, ok = blocklu.array_leaf_inverse(ar, _balanced(a, p))
        assert bool(ok) == (want is not None)
        if want is not None:
            assert got.dtype == np.float64 and np.abs(got).max() <= ar.h  # reduced
            assert ((got.astype(np.int64) - want) % p == 0).all()


def test_array_leaf_refuses_primes_past_its_bounds():
    with pytest.raises(ValueError, match="2\\^26"):
        blocklu.array_leaf_inverse(ModArith(ABOVE, np), np.eye(2))
