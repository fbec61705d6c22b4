"""Certified evaluation of sympy expressions with arb ball arithmetic, and certified comparisons.

Every inequality between real expressions that involve logs or e is decided here, never with
floats (``docs/mathematics.md`` §5).  A comparison answers True or False only when the balls are
disjoint; otherwise the precision is raised, and ``None`` (undecided) comes back at the end.

The working precision is flint's process-wide ``flint.ctx.prec``; it is only ever changed inside
``with precision(bits):``, which restores it on the way out (an error included), so no call leaves
it set for the next one.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from math import comb, factorial
from typing import Any

import flint
import sympy as sp

__all__ = ["evaluate", "compare", "multichoose", "precision", "PRECISIONS"]

#: Working precisions (bits) tried in turn before a comparison is declared undecided.
PRECISIONS = (64, 256, 1024)


@contextmanager
def precision(bits: int) -> Iterator[int]:
    """arb's working precision ``bits`` inside the block; the previous one restored after it.

    >>> import flint
    >>> before = flint.ctx.prec
    >>> with precision(200):
    ...     flint.ctx.prec
    200
    >>> flint.ctx.prec == before
    True
    """
    old = flint.ctx.prec
    flint.ctx.prec = bits
    try:
        yield bits
    finally:
        flint.ctx.prec = old


def multichoose(n: sp.Expr | int, k: sp.Expr | int) -> sp.Expr:
    """The multiset coefficient ((n over k)) = binom(n + k - 1, k), as a sympy expression.

    >>> multichoose(2, 3)
    4
    """
    return sp.binomial(n + k - 1, k)


def _exact_integer(expr):
    if isinstance(expr, sp.Integer):
        return int(expr)
    return None


def evaluate(expr: sp.Expr | int | float, values: dict[Any, Any] | None = None) -> flint.arb:
    """An arb ball certainly containing the value of ``expr`` with its symbols set to ``values``.

    Supports numbers, E, pi, +, *, powers, log (any base), exp, sqrt, binomial, factorial,
    floor/ceiling (of exactly known values), Min/Max.

    >>> x = sp.Symbol("x")
    >>> evaluate(sp.log(x, 3), {x: 9}).contains(2)
    True
    """
    if values:
        expr = sp.sympify(expr).xreplace({k: sp.sympify(v) for k, v in values.items()})
    return _eval(sp.sympify(expr))


def _eval(e) -> flint.arb:
    if isinstance(e, sp.Integer):
        return flint.arb(int(e))
    if isinstance(e, sp.Rational):
        return flint.arb(flint.fmpq(int(e.p), int(e.q)))
    if isinstance(e, sp.Float):
        return flint.arb(str(e))
    if e is sp.E:
        return flint.arb.const_e()
    if e is sp.pi:
        return flint.arb.pi()
    if isinstance(e, sp.Add):
        total = flint.arb(0)
        for a in e.args:
            total += _eval(a)
        return total
    if isinstance(e, sp.Mul):
        total = flint.arb(1)
        for a in e.args:
            total *= _eval(a)
        return total
    if isinstance(e, sp.Pow):
        base, exponent = e.args
        n = _exact_integer(exponent)
        b = _eval(base)
        if n is not None:
            return b**n if n >= 0 else 1 / (b ** (-n))
        if exponent == sp.Rational(1, 2):
            return b.sqrt()
        return (b.log() * _eval(exponent)).exp()
    if isinstance(e, sp.exp):
        return _eval(e.args[0]).exp()
    if isinstance(e, sp.log):
        return _eval(e.args[0]).log()
    if isinstance(e, sp.binomial):
        n, k = (_exact_integer(a) for a in e.args)
        if n is None or k is None:
            raise ValueError(f"binomial with non-integer arguments: {e}")
        return flint.arb(comb(n, k) if 0 <= k <= n else 0)
    if isinstance(e, sp.factorial):
        n = _exact_integer(e.args[0])
        if n is None or n < 0:
            raise ValueError(f"factorial of a non-natural number: {e}")
        return flint.arb(factorial(n))
    if isinstance(e, (sp.floor, sp.ceiling)):
        inner = sp.nsimplify(e.args[0])
        value = e.func(inner)
        if isinstance(value, sp.Integer):
            return flint.arb(int(value))
        raise ValueError(f"cannot certify {e}")
    if isinstance(e, (sp.Min, sp.Max)):
        balls = [_eval(a) for a in e.args]
        out = balls[0]
        for b in balls[1:]:
            out = out.min(b) if isinstance(e, sp.Min) else out.max(b)
        return out
    raise ValueError(f"cannot evaluate {e!r} ({type(e).__name__}) in arb")


def compare(lhs: sp.Expr | int | float, rhs: sp.Expr | int | float, relation: str = "<=",
            values: dict[Any, Any] | None = None) -> bool | None:
    """Decide ``lhs <relation> rhs`` with certainty: True, False, or None (undecided).

    ``relation`` is one of ``<=``, ``<``, ``>=``, ``>``.

    >>> compare(sp.log(1000, 3), sp.Rational(63, 10), "<")
    True
    """
    if relation in (">=", ">"):
        return compare(rhs, lhs, "<=" if relation == ">=" else "<", values)
    for prec in PRECISIONS:
        with precision(prec):
            diff = evaluate(rhs, values) - evaluate(lhs, values)
        if relation == "<=":
            if diff >= 0:
                return True
            if diff < 0:
                return False
        else:
            if diff > 0:
                return True
            if diff <= 0:
                return False
    return _exact_sign(lhs, rhs, relation, values)


def _exact_sign(lhs, rhs, relation, values):
    """Last resort when the balls overlap: prove rhs - lhs == 0 symbolically (logs expanded)."""
    diff = sp.sympify(rhs) - sp.sympify(lhs)
    if values:
        diff = diff.xreplace({k: sp.sympify(v) for k, v in values.items()})
    diff = sp.simplify(sp.expand_log(sp.logcombine(diff, force=True), force=True))
    if diff == 0:
        return relation == "<="
    return None
