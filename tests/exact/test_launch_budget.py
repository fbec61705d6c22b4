"""The block LU's launch budget on a GPU, checked on the CPU: under the strict fake cupy
(verify.testing.fake_cupy counts kernel launches, host reads and bytes moved), one diagonal block of
the default leaf route costs at most ``PER_LEAF`` launches per leaf and two host reads (the leaves'
singular flags and the A11 check), whatever the width.  A route that launches per column (the array
leaf: about 15 launches a column, 1,900 a 128-wide leaf) or reads per leaf (the host leaf) fails it.

The 4,096^2 factorization of the issue with 1,024-wide blocks is slow on the CPU (the fake computes
every product: about 10 s); its twin at 768^2 with 256-wide blocks runs in the default suite."""

import numpy as np
import pytest

from verify.exact import blocklu, leaves, tuning
from verify.exact.floatmod import ModArith
from verify.testing import fake_cupy

P = 1048573
cp = fake_cupy.module()
#: Launches a diagonal block may cost per leaf it holds: the 2 x 2 recursion's products, Schur updates
#: and copies around each leaf, the leaf itself, the block's L21 and Schur update (about 44 measured
#: with the kernel leaf; the array leaf's loop alone is about 1,900).
PER_LEAF = 64
#: Host reads a diagonal block may cost: the leaves' flags, read once, and its A11 check.
READS = 2


def _per_block(n: int, width: int, leaf: str | None = None) -> list[dict]:
    """The launches and host reads of each diagonal block step of an n x n block LU (fake cupy)."""
    ar = ModArith(P, cp)
    m = ar.from_ints(cp.asarray(np.random.default_rng(n).integers(0, P, (n, n))))
    lu = blocklu.BlockLU(ar, width, leaf=leaf)
    marks = []
    real = lu.inverse

    def inverse(a):  # a diagonal block starts here: mark the counters
        marks.append((fake_cupy.STATS["launches"], fake_cupy.host_reads()))
        return real(a)
    lu.inverse = inverse
    fake_cupy.reset()
    pivots, widths = lu.factor(m, check=True)
    assert pivots == n and widths == [width] * (n // width)  # uniform random: full rank, no halving
    marks.append((fake_cupy.STATS["launches"], fake_cupy.host_reads()))  # the end of the last block's step
    # (the last step's mark includes the closing factorization check: a constant, not per block)
    return [{"launches": b[0] - a[0], "reads": b[1] - a[1]} for a, b in zip(marks, marks[1:], strict=False)][:-1] or \
        [{"launches": marks[1][0] - marks[0][0], "reads": marks[1][1] - marks[0][1]}]


def _assert_within_budget(n: int, width: int, leaf: str | None = None) -> None:
    per_leaf_count = width // tuning.LEAF
    for step in _per_block(n, width, leaf):
        assert step["launches"] <= PER_LEAF * per_leaf_count, step
        assert step["reads"] <= READS, step


def test_the_default_gpu_leaf_route_keeps_the_launch_budget():
    assert blocklu.BlockLU(ModArith(P, cp)).leaf == leaves.default_route(cp)
    _assert_within_budget(768, 256)


@pytest.mark.slow  # the size: 4,096^2 in 1,024-wide blocks, about 10 s on the CPU
def test_the_default_gpu_leaf_route_keeps_the_launch_budget_at_4096():
    _assert_within_budget(4096, 1024)


@pytest.mark.parametrize("leaf", ["array", "host"])
def test_a_route_launching_per_column_or_reading_per_leaf_breaks_the_budget(leaf):
    with pytest.raises(AssertionError):
        _assert_within_budget(768, 256, leaf)


def test_the_fake_counts_what_cupy_would_queue_and_move():
    a = cp.asarray(np.ones((4, 4)))  # a host-to-device copy: 128 bytes, no kernel
    fake_cupy.reset()
    b = a[1:3]  # a view
    assert fake_cupy.STATS["launches"] == 0
    c = a + b[0]  # one elementwise kernel
    c[0] = 2.0  # one fill
    assert fake_cupy.STATS["launches"] == 2 and fake_cupy.host_reads() == 0
    assert float(c[0, 0]) == 2.0 and c.get().shape == (4, 4)
    assert fake_cupy.host_reads() == 2 and fake_cupy.STATS["d2h_bytes"] == 8 + 128
