"""One exact kernel per field (verify.exact.kernels): the choice, and each kernel's rank, null space
and product against FLINT or Python integers."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

from verify.exact.fields import Field
from verify.exact.kernels import FlintKernel, FloatKernel, kernel_for
from verify.exact.tuning import FLOAT_MIN

PRIMES = [1048573, 8388593, 2**46 - 21, 2**63 - 25]


@pytest.mark.parametrize("p,rows,cols,kind", [
    (8388593, FLOAT_MIN, 900, FloatKernel), (8388593, FLOAT_MIN - 1, 900, FlintKernel),
    (2**50 - 27, 400, 400, FloatKernel), (2**50 + 55, 400, 400, FlintKernel), (None, 400, 400, FlintKernel)])
def test_the_kernel_is_chosen_once_from_the_field_and_shape(p, rows, cols, kind):
    kernel = kernel_for(Field(p), rows, cols)
    assert type(kernel) is kind
    assert kernel.bytes_per_entry == (8 if kind is FloatKernel else 28)


def _low_rank(m, n, r, p, seed):
    rng = np.random.default_rng(seed)
    return ((rng.integers(0, p, (m, r)).astype(object) @ rng.integers(0, p, (r, n)).astype(object)) % p
            ).astype(np.int64)


@pytest.mark.parametrize("p", PRIMES[:3])
def test_both_kernels_give_the_same_rank_and_null_spaces(p):
    matrix = _low_rank(280, 300, 250, p, 1)
    field = Field(p)
    float_kernel, flint_kernel = FloatKernel(field), FlintKernel(field)
    assert float_kernel.rank(matrix) == flint_kernel.rank(matrix) == 250
    mix = np.random.default_rng(2).integers(0, p, (50, 7))
    for kernel in (float_kernel, flint_kernel):
        space = kernel.null_space(matrix)
        assert (space.rank, space.nullity) == (250, 50)
        for rows in (space.rows(), space.rows(mix)):
            assert not ((matrix.astype(object) @ rows.T.astype(object)) % p).any()
        assert np.linalg.matrix_rank(space.rows(mix).astype(float)) == 7


@pytest.mark.parametrize("p", PRIMES)
def test_products_are_exact_at_the_largest_residues(p):
    rng = np.random.default_rng(3)
    left = np.full((4, 2500), p - 1, dtype=np.int64)
    right = rng.integers(p - 2**20, p, (2500, 3), dtype=np.int64)
    left[1] = rng.integers(0, p, 2500)
    got = kernel_for(Field(p), 4, 2500).product(left, right)
    assert (got == (left.astype(object) @ right.astype(object)) % p).all()


def test_the_float_kernel_imports_without_flint():
    code = ("import sys; sys.modules['flint'] = None\n"
            "import numpy as np\nfrom verify.exact.kernels import FloatKernel\n"
            "from verify.exact.elimination import rank_mod_p\n"
            "print(rank_mod_p(np.arange(12).reshape(3, 4), 101))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "2"
