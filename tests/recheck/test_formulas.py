"""The closed forms the recheck recomputes, against numbers stated in the papers, the docs and issue 39
(each an independent source), and against brute force where one is cheap."""

from __future__ import annotations

import itertools
from fractions import Fraction

import numpy as np
import pytest

from verify.recheck import formulas


def test_block_bounds_are_the_docs_table():
    # docs/mathematics.md §6, "Against exact ranks": (B3)/(B4) equal the certified exact ranks there
    table = {(2, 2, 2): 17, (2, 3, 3): 43, (2, 4, 2): 107, (2, 4, 4): 85, (2, 5, 5): 146, (2, 6, 2): 379,
             (2, 6, 3): 340, (2, 6, 6): 231, (3, 2, 2): 215, (3, 3, 3): 2441, (4, 2, 2): 4263, (5, 2, 2): 102746,
             (3, 4, 2): 31095, (3, 4, 4): 16335, (3, 4, 1): 31456}
    for (depth, width, heads), rank in table.items():
        assert formulas.block_bound(depth, width, heads, width // heads, False)[0] == rank, (depth, width, heads)
    # (B1) where no kernel helps: depth 2, width 2, one head: 18 (README quick start)
    assert formulas.block_bound(2, 2, 1, 2, False) == (18, "B1")


def test_derivative_bound_and_counting_caps_are_the_docs_values():
    # docs/mathematics.md §7: 13 and 84 for V = r = 3, d_x = 4 at depths 2 and 3; 705 with R = 1 at depth 3
    assert formulas.derivative_bound(2, 4, 3, 0) == 13
    assert formulas.derivative_bound(3, 4, 3, 0) == 84
    assert formulas.derivative_bound(3, 4, 3, 1) == 705
    assert formulas.count_cap(3, 24, False) == 91 and formulas.count_cap(3, 12, True) == 729


def test_eq74_with_the_caps_is_the_docs_example():
    # docs/mathematics.md §7: L = 2, V = 5, N = 6: 61 + 5 * 9 = 106 for every R >= 2; 157 at V = 6
    assert formulas.eq74_caps(2, 5, 2, 6) == 106
    assert formulas.eq74_caps(2, 6, 2, 6) == 157


def test_union_probability_is_issue_39s_table():
    # issue 39 item 1's table (union over every j, |S| = 2^21 + 1), and its exact value at L3 V3 R1 N12
    p = 2**31 - 1
    assert formulas.union_probability(3, 3, 1, 12, p) == Fraction(7541, 233017)
    for args, printed, unit in [((3, 2, 1, 12), 0.00336, 1e-5), ((3, 2, 1, 14), 0.00472, 1e-5),
                                ((4, 2, 1, 16), 0.134, 1e-3), ((4, 2, 1, 18), 0.232, 1e-3)]:
        # the issue prints 3 digits: within one unit of the last
        assert abs(float(formulas.union_probability(*args, p)) - printed) < unit


def test_round_up_never_rounds_down():
    assert formulas.round_up(Fraction(783, 233017)) == 0.00337       # 0.0033602...
    assert formulas.round_up(Fraction(1, 3), 1) == 0.4
    assert formulas.round_up(Fraction(2)) == 1.0


def _brute_hilbert(points, degree, p):
    """dim of the degree-<= j functions by brute force: rank of every monomial's values (numpy-free ranks via
    FLINT on the same matrix, but built from itertools.product exponents, not combinations)."""
    import flint

    m = len(points[0])
    exps = [e for e in itertools.product(range(degree + 1), repeat=m) if sum(e) <= degree]
    rows = [[int(np.prod([pow(c, k, p) for c, k in zip(z, e, strict=False)], dtype=object)) % p for e in exps]
            for z in points]
    return flint.nmod_mat(rows, p).rank()


def test_hilbert_at_positions_against_brute_force_and_four_points_in_a_plane():
    # four points of a plane in general position: 1, 3, 4, 4
    assert formulas.hilbert_at_positions([(0, 0), (1, 1), (1, 3), (2, 4)], 3, 2**31 - 1) == [1, 3, 4, 4]
    points = formulas.side_points(3, [[5], [-7], [11]])
    dims = formulas.hilbert_at_positions(points, 4, 2**31 - 1)
    assert dims == [_brute_hilbert(points, j, 2**31 - 1) for j in range(5)]


@pytest.mark.parametrize("r, depth, heads, bound", [(8, 3, 1, 10), (10, 3, 1, 20), (12, 3, 1, 35), (8, 4, 1, 55),
                                                    (12, 5, 1, 31465), (10, 5, 2, 406), (3, 3, 1, 0)])
def test_theorem2_proof_bound_is_the_docs_table(r, depth, heads, bound):
    # docs/conjecture_n.md, "The first data where Theorem 2's bound has content"
    assert formulas.thm2_proof_bound(r, depth, heads) == bound


def test_limit_probability_is_the_union_over_every_doubling():
    # docs/mathematics.md §7: an entry has degree 2(3^L - 1) + 6C + 2 (42 at L = 2) in the random values, drawn
    # from 2^21 + 1 integers (the embedding's range is the smaller set), plus min(k, upper) / p for the random
    # mixing; the doubling stops at a k read off the same draws, so every k in 8, 16, 26 (= upper + 1) enters
    p = 2**31 - 1
    terms = [(k, Fraction(k * 42, 2**21 + 1) + Fraction(k, p)) for k in (8, 16, 25)]
    assert formulas.limit_probability(25, 2, 2**31, p) == sum(t for _, t in terms)
