"""The tuned cut-offs (verify.exact.tuning) and the kernels' prices: the cut-offs are the measured
values the module documents, each kernel prices a shape from its own row, and the kernel registry
says which eliminations checked their factorizations."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest

from verify.constructions import grid_eval
from verify.exact import elimination, factorcheck, floatmod, karatsuba, kernels, tuning
from verify.rank.token import gram as token_gram
from verify.exact.fields import DEFAULT_PRIME, MID_PRIME, Field
from verify.exact.kernels import BlockLUKernel, FlintKernel, FloatKernel, factorization_check, kernel_again, kernel_for


def test_the_cut_offs_live_in_one_module():
    # the modules that use them read them from tuning (one definition, its provenance there)
    assert kernels.FLOAT_MIN is tuning.FLOAT_MIN and kernels.FLINT_BYTES is tuning.FLINT_BYTES
    assert floatmod.MIN_CHUNK is tuning.MIN_CHUNK and floatmod.TILE_ENTRIES is tuning.TILE_ENTRIES
    assert floatmod.BAND_ENTRIES is tuning.BAND_ENTRIES and karatsuba.KARATSUBA_TILE is tuning.KARATSUBA_TILE
    assert elimination.BASE is tuning.BASE and elimination.TRSM_BASE is tuning.TRSM_BASE
    for name in ("PLAIN_MIN_CHUNK", "BAND", "READ_BAND", "DEVICE_READ_BAND", "DIGIT_READ_BAND"):
        assert getattr(factorcheck, name) is getattr(tuning, name)
    assert token_gram.CHUNK is tuning.TOKEN_BATCH and grid_eval.BLOCK_POINTS is tuning.GRID_BLOCK_POINTS
    from verify.exact import blocklu, device
    assert device.GPU_MIN is tuning.GPU_MIN and blocklu.LEAF is tuning.LEAF and blocklu.SMALL is tuning.SMALL
    assert blocklu.WIDTH is tuning.BLOCK_WIDTH and blocklu.BAND_ENTRIES is tuning.BLOCK_BAND_ENTRIES


def test_the_float_elimination_starts_at_the_measured_short_side():
    # 256 is the measured cut-off (tuning's notes): 255 still goes to FLINT, 256 to the float PLUQ
    assert isinstance(kernel_for(Field(8388593), 255, 900), FlintKernel)
    assert isinstance(kernel_for(Field(8388593), 900, 256), FloatKernel)


def test_each_kernel_prices_a_shape_from_its_own_measured_row():
    # the table's rows as measured (benchmarks/elimination.py, 2026-11-27): FLINT costs more than the
    # float elimination from 1000 on, less at 500
    float_row, flint_row = dict(tuning.SECONDS["float"]), dict(tuning.SECONDS["flint"])
    assert float_row[4000] == 2.18 and flint_row[4000] == 12.675 and flint_row[500] < float_row[500]
    assert math.isclose(FloatKernel(Field(MID_PRIME)).seconds(4000, 6000), 2.18)
    assert math.isclose(BlockLUKernel(Field(1048573)).seconds(8000, 4000), 2.18)
    assert math.isclose(FlintKernel(Field(DEFAULT_PRIME)).seconds(4000, 4000), 12.675)
    # between rows: log-log interpolation, by hand at the geometric midpoint of 2000 and 4000
    assert math.isclose(FlintKernel(Field(DEFAULT_PRIME)).seconds(2828, 9000), math.sqrt(1.718 * 12.675), rel_tol=1e-3)


def test_a_later_run_keeps_the_first_runs_kernel_where_the_shape_decided_it():
    # both primes below 2^50: the recorded kernel holds again (the ranked shape is what chose it)
    assert isinstance(kernel_again(Field(MID_PRIME), 4000, 4000, "flint", 1048573), FlintKernel)
    assert isinstance(kernel_again(Field(MID_PRIME), 100, 100, "float64-blas-pluq", 1048573), FloatKernel)
    assert isinstance(kernel_again(Field(MID_PRIME), 100, 100, "float64-block-lu", 1048573), FloatKernel)
    # no record, or a first prime past the float range: by shape
    assert isinstance(kernel_again(Field(MID_PRIME), 4000, 4000, "flint", DEFAULT_PRIME), FloatKernel)
    assert isinstance(kernel_again(Field(MID_PRIME), 100, 4000), FlintKernel)
    assert isinstance(kernel_again(Field(DEFAULT_PRIME), 4000, 4000, "float64-blas-pluq", 1048573), FlintKernel)


@pytest.mark.parametrize("name,p,checked,bound", [
    ("float64-blas-pluq", 1048573, True, Fraction(1, 2**64)),
    ("float64-block-lu", 1048573, True, Fraction(1, 2**64)),  # 1048573^-4 < 2^-64: the PLUQ's bound leads
    ("float64-block-lu", 251, True, Fraction(1, 251**4)),  # four vectors over GF(251)
    ("flint", 1048573, False, None), (None, 7, False, None), ("float64-blas-pluq", None, False, None)])
def test_the_registry_says_which_eliminations_checked_their_factorization(name, p, checked, bound):
    found = factorization_check(name, p)
    assert (found is not None) == checked
    if checked:
        assert found[1] == bound
