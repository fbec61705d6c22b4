"""A strict step of an inequality chain that is tight (lhs = rhs) somewhere must not pass.

Tightness is met three ways: an exact zero gap in arb (integers), a gap that is zero but whose arb
ball straddles 0 at every precision (logs and roots: only the symbolic last resort decides), and a
tight point that only the hypothesis search reaches (not on the grid).
"""

from __future__ import annotations

import pytest
import sympy as sp

from verify.claims.checks import InequalityChain
from verify.exact.arbexpr import compare

n = sp.Symbol("n", positive=True, integer=True)


@pytest.mark.parametrize("steps,relations", [
    ([n, n], ["<"]),                                             # zero gap everywhere
    ([n, n + 1, n + 1], ["<", "<"]),                             # the second step is tight
    ([2 * n, n**2], ["<"]),                                      # tight at n = 2 only
    ([sp.log(8 * n**0, 2), sp.Integer(3)], ["<"]),               # log2(8) = 3: arb straddles 0
    ([sp.sqrt(n) ** 2, n], ["<"]),                               # sqrt(n)^2 = n
    ([sp.log(3**n, 3), n], ["<"]),                               # log_3(3^n) = n
    ([n, sp.log(9**n, 3) - n], ["<"]),                           # n vs 2n - n, through logs
])
def test_a_tight_strict_step_on_the_grid_is_not_a_pass(steps, relations):
    result = InequalityChain(steps, relations, grid={n: [1, 2, 3, 4]}, search=0).run()
    assert result.status in ("fail", "undecided"), result.evidence


def test_a_tight_strict_step_found_only_by_the_search_fails():
    # n^2 < 100 n holds on the grid 1..5 and is tight at n = 100 (false beyond): the search finds it
    result = InequalityChain([n**2, 100 * n], ["<"], grid={n: [1, 2, 3, 4, 5]}, search=300,
                             search_ranges={n: (1, 10**4)}).run()
    assert result.status == "fail"
    assert result.counterexample["n"] >= 100


def test_the_same_steps_with_non_strict_relations_pass():
    assert InequalityChain([n, n + 1, n + 1], ["<", "<="], grid={n: [1, 2, 3]}, search=0).run().status == "pass"
    assert InequalityChain([sp.log(3**n, 3), n], ["<="], grid={n: [1, 2, 3]}, search=0).run().status == "pass"
    assert InequalityChain([2 * n, n**2 + 2], ["<"], grid={n: [1, 2, 3]}, search=0).run().status == "pass"


@pytest.mark.parametrize("lhs,rhs", [(sp.Integer(3), sp.Integer(3)), (sp.log(8, 2), sp.Integer(3)),
                                     (sp.sqrt(2) ** 2, sp.Integer(2)), (sp.log(27, 3), sp.log(9, 3) + 1)])
def test_compare_decides_an_equality_as_not_strictly_less(lhs, rhs):
    assert compare(lhs, rhs, "<") is not True
    assert compare(lhs, rhs, ">") is not True
    assert compare(lhs, rhs, "<=") is True and compare(lhs, rhs, ">=") is True


@pytest.mark.parametrize("steps,relations,refuted", [
    ([n, n + 1], ["<="], False),                     # lhs + 1 <= rhs holds: gap exactly 1
    ([n, n + 1], ["<"], True),                       # lhs + 1 < rhs fails: a strict gap of 1 is tight
    ([2 * n, 2 * n + sp.Rational(1, 2)], ["<="], True),  # gap 1/2 < 1
    ([n, 3 * n], ["<="], False),                     # gap 2n >= 2
])
def test_the_step_tightened_by_one_is_refuted_exactly_where_the_gap_is_below_one(steps, relations, refuted):
    result = InequalityChain(steps, relations, grid={n: [1, 2, 3, 4]}, search=0).run()
    assert result.status == "pass"
    assert result.could_fail is refuted
