"""Table 1 of the main text: the minimal depth per parameter budget 12 L d_x^2."""

import flint
import sympy as sp

from verify.authoring import Claim, Property, neighbour

from ._common import MAIN, Source

PRINTED = {10**7: 5, 10**8: 6, 10**9: 7, 10**10: 8, 10**11: 9}


def _log3_width(budget: int, depth: int) -> flint.arb:
    width = (flint.arb(budget) / (12 * depth)).sqrt()
    return width.log() / flint.arb(3).log()


def minimal_depth(budget: int, rounding=None) -> int:
    """Smallest L with L >= log3 d_x (or >= rounding(log3 d_x)), d_x = sqrt(budget / 12L), certified."""
    depth = 1
    while True:
        ball = _log3_width(budget, depth)
        if rounding is not None:
            lo, hi = rounding(ball.lower()), rounding(ball.upper())
            if lo != hi:
                raise ValueError("rounding undecided")
            if depth >= lo:
                return depth
        elif flint.arb(depth) >= ball:
            return depth
        elif not flint.arb(depth) < ball:
            raise ValueError("comparison undecided")
        depth += 1


def _table(rounding=None):
    def check():
        got = {b: minimal_depth(b, rounding) for b in PRINTED}
        wrong = {b: (PRINTED[b], got[b]) for b in PRINTED if got[b] != PRINTED[b]}
        evidence = "recomputed " + ", ".join(f"1e{len(str(b)) - 1}: {got[b]}" for b in PRINTED) + \
                   " against printed " + ", ".join(str(PRINTED[b]) for b in PRINTED)
        first = min(wrong) if wrong else None
        return (not wrong, evidence,
                {"budget": first, "printed": wrong[first][0], "recomputed": wrong[first][1]} if wrong else None)
    return check


def _floor(x: flint.arb) -> int:
    return int(sp.floor(sp.Rational(x.mid().str(30, radius=False))))


def _ceil(x: flint.arb) -> int:
    return int(sp.ceiling(sp.Rational(x.mid().str(30, radius=False))))


CLAIM = Claim(
    id="levine2020_table1_min_depth",
    source=Source(MAIN, "§5", "Table 1 (minimal depth for efficient parameter distribution)"),
    statement="With a parameter budget of 12 L d_x^2 and depth not below the threshold log3 d_x, the minimal "
              "depths for budgets 1e7..1e11 are 5, 6, 7, 8, 9.",
    formulas={"budget": sp.sympify("12*L*d_x**2"), "criterion": sp.sympify("L >= log(d_x, 3)")},
    reading="d_x = sqrt(budget / (12 L)); the minimal L with L >= log3 d_x, decided with arb.",
    checks=[Property(_table(), name="minimal depth with L >= log3 d_x")],
    expected="erratum",
    corrected_statement="The printed depths are the minimal L with L >= floor(log3 d_x); under the stated "
                        "criterion L >= log3 d_x each is one larger (6, 7, 8, 9, 10).",
    corrected_checks=[Property(_table(_floor), name="minimal depth with L >= floor(log3 d_x)",
                               perturb={"the index shifted: L >= ceil(log3 d_x)":
                                        neighbour(_table, factory=True, claim=_floor, rounding=_ceil)})],
)
