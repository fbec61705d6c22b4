"""The kernel leaf route (verify.exact.leaves): its CPU twin against FLINT's inverse, and the numba.cuda
kernel itself, run by numba-cuda's simulator (NUMBA_ENABLE_CUDASIM=1, in a subprocess, since the variable
is read when numba.cuda is first imported), against the twin and FLINT on the same stacks of leaves."""

import importlib.util
import json
import os
import subprocess
import sys

import numpy as np
import pytest

from verify.exact import leaves
from verify.exact.floatmod import ModArith

P, BELOW = 1048573, 2**26 - 5  # BELOW: the largest prime below LEAF_PRIME = 2^26, where the sums are largest


def _cases(p: int, w: int, seed: int):
    """Random, largest-representative (every entry +-h or +-(h - 1), the largest sums the exactness
    argument allows), off-diagonal pivots (a row swap at every step) and singular leaves, as |x| <= h."""
    rng = np.random.default_rng(seed)
    h = (p - 1) // 2 + 2
    largest = rng.choice([h, -h, h - 1, 1 - h], (w, w))
    shuffled = np.zeros((w, w), dtype=np.int64)
    shuffled[rng.permutation(w), np.arange(w)] = rng.integers(1, p, w)
    singular = rng.integers(0, p, (w, w))
    singular[:, -1] = (2 * singular[:, 0]) % p
    return [rng.integers(0, p, (w, w)), largest, shuffled, singular]


@pytest.mark.parametrize("p", [3, 5, 7, 251, P, 8388593, BELOW])
@pytest.mark.parametrize("w", [1, 2, 3, 17, 128])
def test_the_kernel_twin_matches_flint(p, w):
    for a in _cases(p, w, p % 1013 + w):
        want = leaves.host_inverse(a % p, p)
        got = leaves.twin_leaf_inverse(a.astype(np.float64), p)
        assert (got is None) == (want is None)
        if want is not None:
            assert np.abs(got).max() <= (p - 1) // 2 + 2  # reduced
            assert ((got.astype(np.int64) - want) % p == 0).all()


def test_the_kernel_route_takes_a_stack_of_leaves_in_one_call():
    p = P
    stack = np.stack([c.astype(np.float64) for c in _cases(p, 9, 2)])
    out, ok = leaves.kernel_leaf_inverse(ModArith(p, np), stack)
    assert list(ok) == [1, 1, 1, 0]  # the fourth leaf is singular
    for b in range(3):
        assert ((out[b].astype(np.int64) - leaves.host_inverse(stack[b].astype(np.int64) % p, p)) % p == 0).all()


def test_the_kernel_route_refuses_what_its_bounds_do_not_cover():
    with pytest.raises(ValueError, match="2\\^26"):
        leaves.kernel_leaf_inverse(ModArith(2**26 + 15, np), np.eye(2)[None])
    with pytest.raises(ValueError, match="1024"):
        leaves.kernel_leaf_inverse(ModArith(P, np), np.zeros((1, 1025, 1025)))


SIMULATED = """
import json, sys
import numpy as np
from verify.exact import leaves
out = []
for p, w, seed in json.loads(sys.argv[1]):
    h = (p - 1) // 2 + 2
    rng = np.random.default_rng(seed)
    stack = rng.integers(0, p, (3, w, w)).astype(np.float64)
    stack[1] = rng.choice([h, -h, h - 1, 1 - h], (w, w))
    stack[2, :, -1] = 2 * stack[2, :, 0]  # singular
    m, inv, ok = np.empty((3, w, 2 * w)), np.empty((3, w, w)), np.empty(3, dtype=np.int32)
    leaves.cuda_kernel()[3, max(2, 2 * w)](stack, m, inv, ok, p, 1.0 / p)
    twin, twin_ok = leaves.kernel_leaf_inverse(leaves.ModArith(p, np), stack)
    flint = [leaves.host_inverse(np.rint(s).astype(np.int64) % p, p) for s in stack]
    out.append({"ok": ok.tolist(), "twin_ok": twin_ok.tolist(), "flint_ok": [f is not None for f in flint],
                "same_as_twin": bool((inv[ok == 1] == twin[ok == 1]).all()),
                "flint": all(((inv[b].astype(np.int64) - flint[b]) % p == 0).all() for b in range(3) if ok[b])})
print(json.dumps(out))
"""


# a subprocess importing numba.cuda (about 2 s): in the default suite, so CI runs the kernel itself (issue 40)
@pytest.mark.skipif(importlib.util.find_spec("numba_cuda") is None, reason="numba-cuda is not installed")
def test_the_cuda_kernel_in_the_simulator_matches_its_twin_and_flint():
    cases = [(7, 3, 1), (BELOW, 4, 3)]
    done = subprocess.run([sys.executable, "-c", SIMULATED, json.dumps(cases)], capture_output=True, text=True,
                          timeout=120, env={**os.environ, "NUMBA_ENABLE_CUDASIM": "1"})
    assert done.returncode == 0, done.stderr[-2000:]
    for found in json.loads(done.stdout):
        assert found["ok"] == found["twin_ok"] and found["ok"] == [int(f) for f in found["flint_ok"]]
        assert found["same_as_twin"] and found["flint"]
