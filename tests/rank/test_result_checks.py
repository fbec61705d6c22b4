"""The factorization-check summary of a result (verify.rank.result): every block whose kernel verified
its factorization is counted, the block LU's as well as the float PLUQ's, by asking the kernel registry,
and the bound printed is the weakest of the checks used."""

from __future__ import annotations

import flint
import numpy as np

from verify import Field, NetworkSpec
from verify.exact.kernels import kernel_for
from verify.rank.blocks import Block
from verify.rank.certainty import Certainty
from verify.rank.result import SepResult


def _result(p, blocks):
    return SepResult(sum(b.rank for b in blocks), "reduced", Field(p).name, NetworkSpec(depth=1, width=2), 0, None,
                     Certainty(True, None, "planted"), blocks)


def _ranked(p, kernel, rank=250, side=300):
    """A side x side matrix of rank ``rank`` over GF(p), ranked by the named kernel; its FLINT rank beside."""
    rng = np.random.default_rng(side + rank)
    left, right = rng.integers(0, p, (side, rank)), rng.integers(0, p, (rank, side))
    matrix = flint.nmod_mat(left.tolist(), p) * flint.nmod_mat(right.tolist(), p)
    array = np.array([[int(matrix[i, j]) for j in range(side)] for i in range(side)], dtype=np.int64)
    chosen = kernel_for(Field(p), side, side, kernel=kernel)
    return Block(side, side, chosen.rank(array), elimination=chosen.name), matrix.rank()


def test_block_lu_blocks_count_as_checked():
    p = 1048573
    (lu, lu_flint), (pluq, pluq_flint), (flint_block, _) = (_ranked(p, k) for k in ("block-lu", "pluq", "flint"))
    assert lu.rank == lu_flint == 250 and pluq.rank == pluq_flint == 250  # the kernels against FLINT
    assert ((lu.elimination, pluq.elimination, flint_block.elimination)
            == ("float64-block-lu", "float64-blas-pluq", "flint"))
    out = _result(p, [lu, pluq, flint_block, Block(3, 3, 3)]).as_dict()["factorization_check"]
    assert out["blocks_checked"] == 2 and out["false_pass_per_block_at_most"] == "2^-64"
    assert "freivalds P A Q = L U" in out["method"] and "block LU" in out["method"]
    only_lu = _result(p, [lu]).as_dict()["factorization_check"]
    assert only_lu["blocks_checked"] == 1 and only_lu["method"].startswith("block LU")


def test_a_small_prime_prints_the_block_lus_weaker_bound_and_flint_alone_prints_none():
    lu, flint_rank = _ranked(251, "block-lu", rank=40, side=60)
    assert lu.rank == flint_rank == 40
    out = _result(251, [lu, Block(60, 60, 40, elimination="float64-blas-pluq")]).as_dict()["factorization_check"]
    assert out["blocks_checked"] == 2 and out["false_pass_per_block_at_most"] == "251^-4"  # 251^-4 > 2^-64
    assert _result(251, [Block(60, 60, 40, elimination="flint")]).as_dict()["factorization_check"] is None
    assert _result(None, [Block(60, 60, 40, elimination="float64-blas-pluq")]).as_dict()["factorization_check"] is None
