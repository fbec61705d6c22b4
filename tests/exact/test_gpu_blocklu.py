"""The GPU script's block LU (benchmarks/gpu_blocklu.py), run with numpy: its rank against FLINT's
on designed-rank matrices, its fallback when a diagonal block is singular, and its check."""

import sys
from pathlib import Path

import flint
import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

import gpu_blocklu  # noqa: E402
from verify.exact.elimination import rank_mod_p  # noqa: E402
from verify.exact.floatmod import ModArith  # noqa: E402

P = 1048573


def flint_rank(a: np.ndarray) -> int:
    return flint.nmod_mat([[int(x) for x in row] for row in a], P).rank()


@pytest.mark.parametrize("rows, cols, rank, width", [(300, 300, 300, 128), (300, 260, 200, 128),
                                                      (260, 300, 259, 256), (400, 400, 130, 1024)])
def test_rank_matches_flint(rows, cols, rank, width):
    rng = np.random.default_rng(rows + cols + rank)
    a = (rng.integers(0, P, (rows, rank)) @ rng.integers(0, 64, (rank, cols))) % P
    ar = ModArith(P, np)
    found = gpu_blocklu.rank(ar.from_ints(a.copy()), ar, width=width,
                             fallback=lambda s: rank_mod_p(s, P))
    assert found["rank"] == flint_rank(a) == rank


def test_singular_leading_block_goes_to_the_fallback():
    rng = np.random.default_rng(5)
    a = rng.integers(0, P, (300, 300))
    a[:, 1] = 2 * a[:, 0] % P  # the leading 2 x 2 block (and every one above it) is singular
    ar = ModArith(P, np)
    seen = []
    found = gpu_blocklu.rank(ar.from_ints(a.copy()), ar, width=128,
                             fallback=lambda s: seen.append(s.shape) or rank_mod_p(s, P))
    assert found["rank"] == flint_rank(a) == 299
    assert seen and found["pivots"] < 299 and found["exact"]


def test_a_wrong_product_is_caught(monkeypatch):
    rng = np.random.default_rng(6)
    a = rng.integers(0, P, (300, 300))
    ar = ModArith(P, np)
    real = gpu_blocklu.BlockLU.submul

    def off_by_one(self, c, x, y):  # a planted bug: one Schur entry off by one
        real(self, c, x, y)
        if c.shape[0] > 1 and c.shape[1] > 1:
            c[1, 1] += 1

    monkeypatch.setattr(gpu_blocklu.BlockLU, "submul", off_by_one)
    with pytest.raises(RuntimeError, match="factorization is wrong"):
        gpu_blocklu.rank(ar.from_ints(a.copy()), ar, width=128, fallback=lambda s: rank_mod_p(s, P))


def test_projection_gives_a_lower_bound_that_meets_the_rank():
    rng = np.random.default_rng(7)
    a = (rng.integers(0, P, (300, 290)) @ rng.integers(0, 64, (290, 300))) % P
    a[:, 1] = 2 * a[:, 0] % P  # block LU stops at once; the whole matrix goes to the projection
    ar = ModArith(P, np)
    found = gpu_blocklu.rank(ar.from_ints(a.copy()), ar, width=128, fallback=lambda s: rank_mod_p(s, P),
                             small=1, project=2048)
    assert found["rank"] == flint_rank(a) and not found["exact"]
