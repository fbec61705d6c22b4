"""The later runs' prime family (verify.rank.repeat.later_family): FLINT at 2^63 - 25 and below, or
the float (Karatsuba) elimination at 2^40 - 87 and below, whichever reaches the target for less
runs x seconds per run; 2^63 - 25 on ties, on a bound of 1, and where no deficient block is large
enough for the float elimination."""

from __future__ import annotations

import math
from fractions import Fraction

import flint
import numpy as np
import pytest
import sympy

from verify import Field, NetworkSpec
from verify.exact import tuning
from verify.exact.fields import DEFAULT_PRIME, FAST_PRIME
from verify.exact.fields import MID_PRIME as KARATSUBA_PRIME
from verify.exact.kernels import kernel_for
from verify.exact.tuning import FLOAT_MIN
from verify.rank.blocks import Block
from verify.rank.certainty import Certainty
from verify.rank.repeat import FAMILIES, later_family, repeat_until, runs_needed
from verify.rank.result import SepResult

BIG, SMALL = 4000, FLOAT_MIN // 2  # short sides of planted blocks (metadata only; no matrix is built)


FIRST = 2**45  # a first run's sample large enough that u D / FIRST < 1 up to 2^44


def _deficient(ud: float, side: int = BIG, first: int = FIRST) -> list[Block]:
    """One block below its upper bound whose first-run bound says u_a D = ``ud``."""
    return [Block(side, side, side - 10, upper_bound=side, probability_bound=ud / first)]


def test_the_primes_and_runs_needed_come_from_the_closed_form():
    assert KARATSUBA_PRIME == sympy.prevprime(2**40 - 86) == 2**40 - 87
    assert FAMILIES == (DEFAULT_PRIME, KARATSUBA_PRIME)  # 2^63 - 25 first: it wins ties
    # (2^20 / 2^40)^k <= 2^-40 first at k = 2; at 2^-41 k = 3 (hand-computed)
    assert runs_needed(2.0**20, 2**40, 2.0**-40) == 2 and runs_needed(2.0**20, 2**40, 2.0**-41) == 3
    assert runs_needed(2.0**40, 2**40, 1e-9) == math.inf and runs_needed(2.0**41, 2**40, 1e-9) == math.inf


@pytest.mark.parametrize("log_ud,runs_left,expected", [
    # 1e-9 ~ 2^-29.9; a 4000-wide block costs 2.18 s a run in the float family and 12.675 s in FLINT's
    # (tuning.SECONDS at 4000).  FLINT at 2^63: one run while u D < 2^33.1, two up to 2^48.  Karatsuba at
    # 2^40: ceil(29.9 / (40 - log_ud)) runs: 2 (4.36 s) at 2^20, 3 at 2^30, 5 (10.9 s) at 2^33 against
    # FLINT's one (12.675 s), 7 (15.3 s) at 2^35.5, 8 at 2^36 (17.4 s against FLINT's two, 25.35 s, but
    # more than 7 runs left), 10 (21.8 s) at 2^37, 12 (26.2 s, above 25.35) at 2^37.5.
    (20, math.inf, KARATSUBA_PRIME), (30, math.inf, KARATSUBA_PRIME), (33, math.inf, KARATSUBA_PRIME),
    (35.5, 7, KARATSUBA_PRIME), (36, 7, DEFAULT_PRIME), (36, math.inf, KARATSUBA_PRIME),
    (37, math.inf, KARATSUBA_PRIME), (37.5, math.inf, DEFAULT_PRIME)])
def test_both_sides_of_the_break_even(log_ud, runs_left, expected):
    assert later_family(_deficient(2.0**log_ud), FIRST, 1e-9, runs_left) == expected


def test_each_block_is_priced_at_its_own_size():
    """At u D = 2^20 the float family needs two runs and FLINT one: for a 4000-wide block two float
    runs (4.36 s) beat FLINT's (12.675 s), for a 300-wide one FLINT's run (about 0.007 s, its 500 -> 1000
    segment extended: 0.031 (300/500)^2.97) beats two float runs (about 0.028 s each)."""
    assert math.isclose(tuning.seconds("float", 4000), 2.18) and math.isclose(tuning.seconds("flint", 4000), 12.675)
    assert math.isclose(tuning.seconds("flint", 300), 0.031 * (300 / 500) ** math.log2(0.243 / 0.031))
    assert math.isclose(tuning.seconds("float", 300), 0.053 * (300 / 500) ** math.log2(0.127 / 0.053))
    assert math.isclose(tuning.seconds("flint", 1414), 0.243 * (1414 / 1000) ** math.log2(1.718 / 0.243))
    # each kernel prices a shape at its short side from its family's row
    assert math.isclose(kernel_for(Field(KARATSUBA_PRIME), 4000, 9000).seconds(4000, 9000), 2.18)
    assert math.isclose(kernel_for(Field(DEFAULT_PRIME), 9000, 4000).seconds(9000, 4000), 12.675)
    assert later_family(_deficient(2.0**20, 4000), FIRST, 1e-9) == KARATSUBA_PRIME
    assert later_family(_deficient(2.0**20, 300), FIRST, 1e-9) == DEFAULT_PRIME


def test_ties_prefer_flint(monkeypatch):
    # two float runs at 1.0 s cost exactly one FLINT run at 2.0 s
    monkeypatch.setattr(tuning, "SECONDS", {"float": ((500, 1.0), (8000, 1.0)), "flint": ((500, 2.0), (8000, 2.0))})
    assert later_family(_deficient(2.0**20), FIRST, 1e-9) == DEFAULT_PRIME
    monkeypatch.setattr(tuning, "SECONDS", {"float": ((500, 0.99), (8000, 0.99)), "flint": ((500, 2.0), (8000, 2.0))})
    assert later_family(_deficient(2.0**20), FIRST, 1e-9) == KARATSUBA_PRIME


def test_a_bound_of_one_or_a_prime_below_u_d_keeps_flint():
    capped = [Block(BIG, BIG, BIG - 1, upper_bound=BIG, probability_bound=1.0)]
    assert later_family(capped, FIRST, 1e-9) == DEFAULT_PRIME
    assert later_family(_deficient(2.0**41), FIRST, 1e-9) == DEFAULT_PRIME  # u D > 2^40: infinite runs
    assert later_family([], FIRST, 1e-9) == DEFAULT_PRIME


def test_small_blocks_go_to_flint_whatever_the_prime_so_the_2_40_family_gains_nothing():
    # u D = 2^20: two runs at 2^40 against one at 2^63, and both are FLINT's below FLOAT_MIN
    assert later_family(_deficient(2.0**20, SMALL), FIRST, 1e-9) == DEFAULT_PRIME
    assert later_family(_deficient(2.0**20, SMALL) + _deficient(2.0**10), FIRST, 1e-9) == KARATSUBA_PRIME
    # a block the first run (below 2^50) ranked with FLINT: its ranked shape is small, whatever rows x cols say
    flint_ranked = [Block(BIG, BIG, BIG - 10, upper_bound=BIG, probability_bound=2.0**20 / FIRST, elimination="flint")]
    assert later_family(flint_ranked, FIRST, 1e-9) == DEFAULT_PRIME
    assert later_family([Block(BIG, BIG, BIG - 10, upper_bound=BIG, probability_bound=2.0**20 / FIRST,
                               elimination="float64-blas-pluq")], FIRST, 1e-9) == KARATSUBA_PRIME
    # equal runs (one each at u D = 442) and equal cost: a tie, FLINT
    assert later_family(_deficient(442, SMALL), FIRST, 1e-9) == DEFAULT_PRIME


@pytest.mark.parametrize("order", [1, -1])
def test_the_family_is_priced_at_the_most_deficient_block_whatever_the_order(order):
    """Runs are counted from worst = max_a u_a D over the deficient blocks: one block at u D = 2^38 and one
    at 2^20 (both 4000 wide).  By hand, target 1e-9 ~ 2^-29.9: at 2^38 the 2^40 family needs
    ceil(29.9 / 2) = 15 runs of 2 x 2.18 s = 65.4 s, FLINT at 2^63 ceil(29.9 / 25) = 2 runs of 2 x 12.675 s
    = 50.7 s: FLINT.  Priced at the least deficient block (2^20) the float family would win (2 x 4.36 s
    against 25.35 s), so a choice by min (or by the first block) is caught in one order or the other."""
    assert runs_needed(2.0**38, KARATSUBA_PRIME, 1e-9) == 15 and runs_needed(2.0**38, DEFAULT_PRIME, 1e-9) == 2
    blocks = (_deficient(2.0**38) + _deficient(2.0**20))[::order]
    assert later_family(blocks, FIRST, 1e-9) == DEFAULT_PRIME
    assert later_family(_deficient(2.0**20) * 2, FIRST, 1e-9) == KARATSUBA_PRIME


SPEC = NetworkSpec(depth=1, width=2)
UD = 300 * 1024  # planted: block 0's upper bound 300 times degree 1024


def _matrix(seed: int, p: int) -> np.ndarray:
    """A 300 x 300 matrix of rank at most 290 over GF(p) (a product through 290), from ``seed``."""
    rng = np.random.default_rng(seed)
    left = [[int(x) for x in row] for row in rng.integers(0, 2**31, (300, 290))]
    right = [[int(x) for x in row] for row in rng.integers(0, 2**31, (290, 300))]
    product = flint.nmod_mat(left, p) * flint.nmod_mat(right, p)
    return np.array([[int(product[i, j]) for j in range(300)] for i in range(300)], dtype=np.int64)


def _blocks(seed: int, p: int, degrees) -> list[Block]:
    matrix = _matrix(seed, p)
    kernel = kernel_for(Field(p), 300, 300)
    rank = kernel.rank(matrix.copy()) if 0 in degrees else 0
    e = float(Fraction(UD, p)) * (1 + 2**-50)  # rounded up
    return [Block(300, 300, rank, upper_bound=300, probability_bound=e, elimination=kernel.name),
            Block(8, 8, 8, upper_bound=8, probability_bound=0.0, ranked=1 in degrees)]


def test_a_deficient_block_is_re_ranked_at_the_2_40_family_and_pinned_against_flint(monkeypatch):
    # 300-wide blocks: priced so that the float family wins at this size (measured, FLINT does)
    monkeypatch.setattr(tuning, "SECONDS", {"float": ((250, 0.01), (8000, 1.0)), "flint": ((250, 1.0), (8000, 100.0))})
    calls = []

    def once(seed, field):
        calls.append((seed, field.modulus, None))
        blocks = _blocks(seed, field.modulus, (0, 1))
        return SepResult(sum(b.rank for b in blocks), "reduced", field.name, SPEC, seed, None,
                         Certainty(True, blocks[0].probability_bound, "planted"), blocks)

    def only(seed, field, degrees):
        calls.append((seed, field.modulus, tuple(degrees)))
        blocks = _blocks(seed, field.modulus, degrees)
        return SepResult(sum(b.rank for b in blocks), "reduced", field.name, SPEC, seed, None,
                         Certainty(True, None, "planted"), blocks)

    out = repeat_until(once, Field(FAST_PRIME), 7, 1e-9, 5, primes=iter([FAST_PRIME, DEFAULT_PRIME]),
                       rank_blocks=only, choose_family=True)
    second = sympy.prevprime(2**40 - 87)
    # u D = 2^18.2: the float family needs 2 runs (0.02 s at the prices above), FLINT 1 (1.0 s)
    assert calls == [(7, FAST_PRIME, None), (8, 2**40 - 87, (0,)), (9, second, (0,))]
    for seed, p, _ in calls:
        assert kernel_for(Field(p), 300, 300).name != "flint"
        flint_rank = flint.nmod_mat([[int(x) for x in row] for row in _matrix(seed, p)], p).rank()
        assert flint_rank == 290 and _blocks(seed, p, (0,))[0].rank == flint_rank
    assert out.rank == 290 + 8 and not out.certified_exact
    # M = 2 degree blocks times block 0's product (docs/mathematics.md §2, block-level repeats)
    exact = 2 * Fraction(UD, FAST_PRIME) * Fraction(UD, 2**40 - 87) * Fraction(UD, second)
    assert exact <= Fraction(out.probability_bound) <= exact * (1 + Fraction(1, 2**45))
    assert [r.prime for r in out.runs] == [FAST_PRIME, 2**40 - 87, second]
    # without the choice the given primes go on: FLINT at 2^63 - 25
    calls.clear()
    repeat_until(once, Field(FAST_PRIME), 7, 1e-9, 5, primes=iter([FAST_PRIME, DEFAULT_PRIME]), rank_blocks=only)
    assert [c[1] for c in calls] == [FAST_PRIME, DEFAULT_PRIME]
    # with one run left after the first (max_runs 2) the float family's two runs cannot reach 1e-9: FLINT
    calls.clear()
    repeat_until(once, Field(FAST_PRIME), 7, 1e-9, 2, primes=iter([FAST_PRIME, DEFAULT_PRIME]),
                 rank_blocks=only, choose_family=True)
    assert [c[1] for c in calls] == [FAST_PRIME, DEFAULT_PRIME]
