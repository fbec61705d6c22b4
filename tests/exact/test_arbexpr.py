"""arb precision is scoped (issue 23, point 5): ``precision`` restores flint's working precision on
the way out, and no arb helper leaves it changed."""

import flint
import pytest
import sympy as sp

from verify.exact.arbexpr import PRECISIONS, compare, evaluate, multichoose, precision


def test_precision_is_restored_after_the_block_after_an_error_and_when_nested():
    before = flint.ctx.prec
    with precision(120) as bits:
        assert flint.ctx.prec == bits == 120
        with precision(300):
            assert flint.ctx.prec == 300
        assert flint.ctx.prec == 120
    assert flint.ctx.prec == before
    with pytest.raises(ZeroDivisionError):
        with precision(500):
            1 / 0  # noqa: B018 (evaluated only to raise inside pytest.raises)
    assert flint.ctx.prec == before


def test_the_precision_is_in_force_inside_the_block():
    # log(3) at 300 bits has a radius near 2^-300, at the default 53 bits near 2^-53
    with precision(300):
        fine = flint.arb(3).log()
    assert fine.rad() < flint.arb(2) ** -290 and flint.arb(3).log().rad() > flint.arb(2) ** -60


@pytest.mark.parametrize("call", [
    lambda: evaluate(sp.log(1000, 3) - sp.Rational(63, 10)),
    lambda: compare(sp.log(1000, 3), sp.Rational(63, 10), "<"),  # decided at the first precision
    lambda: compare(sp.log(8, 2), 3, "<="),  # equal: every precision overlaps, then the exact sign
    lambda: compare(sp.log(8, 2), 3, ">"),
    lambda: multichoose(5, 3),
], ids=["evaluate", "compare-decided", "compare-exact-sign", "compare-reversed", "multichoose"])
def test_no_arb_helper_leaves_the_precision_changed(call):
    for start in (53, 80, PRECISIONS[-1] + 7):
        with precision(start):
            call()
            assert flint.ctx.prec == start
