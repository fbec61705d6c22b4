"""Every probability bound is rounded up, never down, checked exactly with fractions.Fraction.

A printed bound P(rank < generic) <= e is a claim: the float e must be at least the exact rational
Schwartz-Zippel value (and, to be useful, at most a couple of ulps above it).  Cases are chosen
where round-to-nearest goes *down*, so that a bound rounded to nearest (or down) is seen.
"""

from __future__ import annotations

import math
import random
from fractions import Fraction

import pytest

from verify import Field, NetworkSpec
from verify.rank.certainty import Certainty, against_upper_bound, residue_sample_size, schwartz_zippel
from verify.rank.repeat import _product, repeat_until
from verify.rank.result import SepResult


def rounded_up_tightly(value: float, exact: Fraction) -> bool:
    """value >= exact, and value is within two floats of the smallest float >= exact."""
    if exact >= 1:
        return value == 1.0
    if Fraction(value) < exact:
        return False
    below = math.nextafter(math.nextafter(value, 0.0), 0.0)
    return Fraction(below) < exact


def _down_cases(count: int, seed: int):
    """(a, b) integer pairs with a/b < 1 whose nearest float lies below a/b."""
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        a, b = rng.randrange(1, 10**6), rng.randrange(10**6, 10**19)
        if Fraction(float(Fraction(a, b))) < Fraction(a, b):
            found.append((a, b))
    return found


@pytest.mark.parametrize("rank,degree,sample", [(a, 1, b) for a, b in _down_cases(20, 1)]
                         + [(10, 4, 1000), (1, 1, 3), (7, 3, 21), (5, 5, 24), (2441, 16, 1048573)])
def test_schwartz_zippel_rounds_up(rank, degree, sample):
    exact = Fraction(rank * degree, sample)
    assert rounded_up_tightly(schwartz_zippel(rank, degree, sample), min(exact, Fraction(1)))


def test_schwartz_zippel_with_a_fractional_sample_and_its_cap():
    sample = residue_sample_size(2**31 + 1, 1048573)  # weights read mod p: count / ceil(count / p)
    assert sample == Fraction(2**31 + 1, -(-(2**31 + 1) // 1048573))
    assert rounded_up_tightly(schwartz_zippel(3, 5, sample), Fraction(15) / sample)
    assert schwartz_zippel(5, 5, 24) == 1.0 and schwartz_zippel(5, 5, 25) == 1.0


@pytest.mark.parametrize("case", range(40))
def test_against_upper_bound_rounds_the_sum_with_the_mixing_term_up(case):
    rng = random.Random(case)
    upper, degree = rng.randrange(2, 10**5), rng.randrange(1, 60)
    sample = rng.choice([rng.randrange(10**6, 2**63), Fraction(rng.randrange(10**9, 2**40), rng.randrange(1, 50))])
    mixing = rng.choice([None, rng.randrange(10**6, 2**63)])
    exact_flag, bound = against_upper_bound(upper - 1, upper, degree, sample, mixing)
    exact = Fraction(upper * degree) / Fraction(sample) + (Fraction(upper, mixing) if mixing else 0)
    assert not exact_flag and rounded_up_tightly(bound, min(exact, Fraction(1)))


def test_against_upper_bound_at_and_above_the_bound():
    assert against_upper_bound(18, 18, 16, 3) == (True, 0.0)
    with pytest.raises(AssertionError):
        against_upper_bound(19, 18, 16, 2**40)
    assert against_upper_bound(1, 18, 16, 100) == (False, 1.0)


def _product_down_cases(count: int, seed: int):
    """Lists of float bounds whose exact product's nearest float is below it."""
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        bounds = [rng.random() * 10 ** -rng.randrange(0, 12) for _ in range(rng.randrange(2, 6))]
        exact = math.prod(Fraction(b) for b in bounds)
        if 0 < exact < 1 and Fraction(float(exact)) < exact:
            found.append(bounds)
    return found


@pytest.mark.parametrize("bounds", _product_down_cases(30, 2) + [[0.5, 0.25], [1.0, 0.3], [2.0**-600, 2.0**-600]])
def test_the_combined_bound_of_independent_runs_is_rounded_up(bounds):
    exact = math.prod(Fraction(b) for b in bounds)
    assert rounded_up_tightly(_product(bounds), min(exact, Fraction(1)))


def test_repeat_stops_only_when_the_exact_product_meets_the_target():
    """Two runs whose exact product is just above the target while its nearest float equals the
    target: a product rounded to nearest would stop and claim the target; rounded up, it does not."""
    spec = NetworkSpec(depth=1, width=2)
    bounds = next(b for b in _product_down_cases(200, 3) if len(b) == 2 and b[0] > 1e-3 and b[1] > 1e-3)
    target = float(math.prod(Fraction(b) for b in bounds))  # the nearest float, below the exact product

    def run(seed, field):
        i = seed
        return SepResult(5, "reduced", field.name, spec, seed, None, Certainty(True, bounds[i], "planted"))

    repeated = repeat_until(run, Field(101), 0, target, max_runs=2)
    assert Fraction(repeated.probability_bound) >= math.prod(Fraction(b) for b in bounds)
    assert repeated.probability_bound > target and "<= target" not in repeated.stopped
    assert len(repeated.runs) == 2


def test_repeat_reports_the_largest_rank_and_stops_on_the_product():
    """Ranks 5, 7, 6 with bounds 1e-5 each and target 1e-9: the product meets the target after two
    runs (no single run does), and the reported rank is the largest, 7, with its combined bound."""
    spec = NetworkSpec(depth=1, width=2)
    ranks = [5, 7, 6]

    def run(seed, field):
        return SepResult(ranks[seed], "reduced", field.name, spec, seed, None, Certainty(True, 1e-5, "planted"))

    repeated = repeat_until(run, Field(101), 0, 1e-9, max_runs=3)
    assert len(repeated.runs) == 2 and repeated.rank == 7
    assert Fraction(repeated.probability_bound) >= Fraction(1e-5) ** 2
    ranks[:] = [7, 5, 6]
    assert repeat_until(run, Field(101), 0, 1e-30, max_runs=3).rank == 7
