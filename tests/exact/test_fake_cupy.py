"""The strict stand-in for cupy (verify.testing.fake_cupy) and the device kernels run under it.

Its rules are cupy's own (module notes); these tests pin each rule, then run the block LU, its array
leaf and the PLUQ through it: the leaf never reads back to the host, ``take`` with a 0-d device index
gives the row cupy gives, and ``rank_mod_p`` fed a host matrix on the device ranks as FLINT does."""

import flint
import numpy as np
import pytest

from verify.exact import blocklu, kernels, leaves
from verify.exact.device import Device
from verify.exact.elimination import rank_mod_p
from verify.exact.fields import Field
from verify.exact.floatmod import ModArith
from verify.testing import fake_cupy

P = 1048573
cp = fake_cupy.module()
GPU = Device("gpu", cp)


def test_implicit_conversion_to_the_host_is_refused_as_cupy_refuses_it():
    a = cp.asarray(np.arange(6).reshape(2, 3))
    with pytest.raises(TypeError, match="Implicit conversion to a NumPy array is not allowed"):
        np.asarray(a)
    with pytest.raises(TypeError, match="Implicit conversion"):
        np.ascontiguousarray(a)
    with pytest.raises(TypeError, match="Unsupported type"):
        cp.add(a, np.ones((2, 3)))  # a host operand in a device kernel
    with pytest.raises(TypeError, match="Unsupported type"):
        a + np.ones((2, 3))
    with pytest.raises(TypeError):
        cp.ascontiguousarray(np.ones(3))  # cupy's takes a device array only
    with pytest.raises(ValueError, match="object"):
        cp.asarray(np.array([2**70], dtype=object))  # cupy has no object dtype
    assert isinstance(a.get(), np.ndarray) and cp.asnumpy(a).tolist() == [[0, 1, 2], [3, 4, 5]]


def test_device_scalars_stay_on_the_device_and_reads_are_counted():
    a = cp.asarray(np.arange(6).reshape(2, 3))
    total = a.sum()
    assert isinstance(total, fake_cupy.FakeArray) and total.shape == ()  # a 0-d device array, as cupy's
    fake_cupy.reset()
    assert int(total) == 15 and bool(a[1, 1]) and float(a[0, 2]) == 2.0  # allowed: a synchronising copy
    assert fake_cupy.STATS["syncs"] == 3
    with fake_cupy.no_sync(), pytest.raises(fake_cupy.HostRoundTrip):
        bool(a[0, 0])
    with pytest.raises(TypeError):
        [1, 2, 3][cp.argmax(a[0])]  # no __index__: a device scalar cannot index a Python list
    with pytest.raises(TypeError):
        list(a.sum())  # a 0-d array is not iterable


def test_an_arrays_metadata_is_read_on_the_host_without_a_kernel():
    """shape, dtype, ndim, size, nbytes, strides and itemsize are host metadata in cupy (and ``T`` a view): read
    without a sync or a launch, each equal to numpy's for the same array."""
    host = np.arange(24, dtype=np.int32).reshape(2, 3, 4)[:, ::2]  # strided: strides differ from a fresh array's
    a = cp.asarray(np.ascontiguousarray(host))
    fake_cupy.reset()
    assert (a.shape, a.ndim, a.size, a.dtype, a.itemsize, a.nbytes) == ((2, 2, 4), 3, 16, np.dtype(np.int32), 4, 64)
    assert a.strides == (32, 16, 4)
    transposed = a.T
    assert isinstance(transposed, fake_cupy.FakeArray) and transposed.shape == (4, 2, 2)
    assert fake_cupy.STATS["syncs"] == fake_cupy.STATS["gets"] == fake_cupy.STATS["launches"] == 0
    assert transposed.get().tolist() == host.T.tolist()


def test_take_with_a_0d_device_index_gives_one_row():
    m = cp.asarray(np.arange(12).reshape(4, 3))
    r = 1 + cp.argmax(cp.asarray([0, 5, 2]))  # 2, a 0-d device array
    row = cp.take(m, r, axis=0)
    assert row.shape == (3,) and row.get().tolist() == [6, 7, 8]
    m[0] = np.array([9, 9, 9])  # host values are copied to the device
    assert m[cp.asarray([0])].get().tolist() == [[9, 9, 9]]


def _deficient(rank, seed=0, dependent=1):
    """A 300 x 320 matrix of rank <= ``rank`` whose column ``dependent`` is twice column 0 (None: none)."""
    rng = np.random.default_rng(seed)
    a = (rng.integers(0, P, (300, rank)) @ rng.integers(0, 64, (rank, 320))) % P
    if dependent is not None:
        a[:, dependent] = 2 * a[:, 0] % P  # a singular diagonal block there: halving, then the fallback
    return a, flint.nmod_mat([[int(x) for x in row] for row in a], P).rank()


def test_the_array_leaf_never_reads_back_to_the_host():
    ar = ModArith(P, cp)
    block = ar.from_ints(cp.asarray(np.random.default_rng(3).integers(0, P, (128, 128))))
    with fake_cupy.no_sync():
        inverse, ok = leaves.array_leaf_inverse(ar, block)
    assert bool(ok)
    want = leaves.host_inverse(ar.to_ints(block).get() % P, P)
    assert ((ar.to_ints(inverse).get() - want) % P == 0).all()


@pytest.mark.parametrize("leaf", ["array", "kernel"])
def test_a_diagonal_block_is_read_back_once(leaf):
    ar = ModArith(P, cp)
    lu = blocklu.BlockLU(ar, 512, leaf=leaf)
    block = ar.from_ints(cp.asarray(np.random.default_rng(4).integers(0, P, (512, 512))))
    fake_cupy.reset()
    assert lu.inverse(block) is not None and (fake_cupy.STATS["syncs"], fake_cupy.STATS["gets"]) == (1, 0)


@pytest.mark.parametrize("leaf", ["array", "kernel"])  # the host leaf under the fake: test_launch_budget
@pytest.mark.parametrize("rank, dependent, pivots", [(300, None, 300), (300, 1, 0), (300, 200, 128),
                                                     (211, None, 128), (211, 150, 128)])
def test_block_lu_under_the_strict_module_ranks_as_flint(rank, dependent, pivots, leaf):
    """Blocks of 256 (leaves of 128): a singular 256-block is halved, its first 128 columns eliminated
    (a Schur update), and the next block that is singular down to a leaf ends the elimination; the
    fallback ranks the Schur complement.  ``pivots``: where that happens, by this rule, for a matrix
    whose leading minors are nonzero up to the rank except those holding column ``dependent``."""
    a, want = _deficient(rank, rank, dependent)
    ar = ModArith(P, cp)
    found = blocklu.rank(ar.from_ints(cp.asarray(a)), ar, width=256, leaf=leaf)
    assert (found["rank"], found["pivots"]) == (want, pivots)


@pytest.mark.parametrize("kernel", [None, "block-lu", "pluq"])
@pytest.mark.parametrize("on_device", [False, True])
def test_the_kernels_on_the_strict_device_take_host_or_device_matrices(kernel, on_device):
    a, want = _deficient(211, 5)
    k = kernels.kernel_for(Field(P), *a.shape, device=GPU, kernel=kernel)
    assert k.rank(cp.asarray(a) if on_device else a.copy()) == want
    assert rank_mod_p(cp.asarray(a) if on_device else a.copy(), P, xp=cp) == want
    space = kernels.kernel_for(Field(P), 320, 300, device=GPU).null_space(cp.asarray(a.T.copy()) if on_device
                                                                            else a.T.copy())
    rows = space.rows(None)
    assert isinstance(rows, np.ndarray) and space.nullity == 300 - want  # back on the host
    assert not ((a.T.astype(object) @ rows.T.astype(object)) % P).any()  # A^T y = 0
