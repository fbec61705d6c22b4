"""The kinds of check a claim can use (see ``claims.Claim``).

* ``RankBound`` — a stated bound against exact separation ranks, inside and outside its regime;
* ``InequalityChain`` — each step of a derivation over a parameter grid and a seeded random
  search, decided with arb;
* ``QuotedNumber`` — a number printed in a paper recomputed from its formula;
* ``Property`` — an identity or structural fact computed by a function;
* ``Cases`` — a fact checked case by case, stopping at the first case that fails.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from itertools import product
from typing import Callable

import flint
import sympy as sp

from ..exact.arbexpr import compare, evaluate
from .record import CheckResult, Check, L, d_x, H, d_a, N
from ..rank.reduced import tokens_threshold
from ..model.spec import NetworkSpec
from .specsets import default_specs, exact_rank

__all__ = ["RankBound", "InequalityChain", "QuotedNumber", "Property", "Cases", "spec_values"]


def spec_values(spec: NetworkSpec) -> dict:
    """Symbol values of a spec: L, d_x, H, d_a and N = 2(d_x+1), the smallest N the rank holds for."""
    return {L: spec.depth, d_x: spec.width, H: spec.heads, d_a: spec.attn_dim, N: tokens_threshold(spec)}


def _in_regime(regime, values) -> bool | None:
    if regime is None:
        return True
    lhs, rhs = regime.lhs, regime.rhs
    rel = {sp.StrictLessThan: "<", sp.LessThan: "<=", sp.StrictGreaterThan: ">",
           sp.GreaterThan: ">="}[type(regime)]
    return compare(lhs, rhs, rel, values)


def _spec_name(spec: NetworkSpec) -> str:
    return f"L={spec.depth} d_x={spec.width} H={spec.heads}" + (" residual" if spec.residual else "")


@dataclass
class RankBound(Check):
    """Compare ``bound`` with exact ranks: ``sep <= bound`` (upper) or ``bound <= sep`` (lower).

    ``scale`` is ``"sep"`` (the bound is on sep) or ``"log3"`` (on log3 sep).  Specs where
    ``regime`` (a sympy relation) certainly holds decide the check; the others are reported as
    information.  ``condition`` (callable on a spec) restricts the specs considered at all.
    """

    bound: object
    kind: str = "upper"
    scale: str = "sep"
    regime: object = None
    residual: bool = False
    condition: Callable | None = None
    specs: list | None = None
    name: str = "bound vs exact ranks"

    def holds_for(self, rank: int, values: dict):
        """Whether ``rank`` obeys the bound at ``values`` (True / False / None when arb cannot decide)."""
        measured = sp.Integer(rank) if self.scale == "sep" else sp.log(sp.Integer(rank), 3)
        lhs, rhs = (measured, self.bound) if self.kind == "upper" else (self.bound, measured)
        return compare(lhs, rhs, "<=", values)

    def applies_to(self, spec: NetworkSpec, values: dict) -> bool:
        """The condition holds for ``spec`` and its regime certainly holds at ``values``."""
        return (self.condition is None or bool(self.condition(spec))) and bool(_in_regime(self.regime, values))

    def run(self) -> CheckResult:
        specs = self.specs if self.specs is not None else default_specs(self.residual)
        inside, outside, failures, details = 0, 0, [], []
        for spec in specs:
            if self.condition is not None and not self.condition(spec):
                continue
            values = spec_values(spec)
            rank = exact_rank(spec)
            holds = self.holds_for(rank, values)
            in_regime = _in_regime(self.regime, values)
            details.append({"spec": _spec_name(spec), "rank": rank,
                            "bound": str(evaluate(self.bound, values).mid()), "holds": holds,
                            "in_regime": bool(in_regime)})
            if in_regime:
                inside += 1
                if holds is not True:
                    failures.append((spec, rank, values))
            else:
                outside += 1
        if failures:
            spec, rank, values = failures[0]
            return CheckResult(self.name, "fail",
                               f"{len(failures)} of {inside} in-regime specs violate the bound; "
                               f"smallest: {_spec_name(spec)} has sep {rank}",
                               {"spec": _spec_name(spec), "rank": rank,
                                "bound": str(evaluate(self.bound, values))}, details)
        if inside == 0:
            return CheckResult(self.name, "not-applicable",
                               f"no default spec in the regime ({outside} outside, reported as information)",
                               None, details)
        held_outside = sum(1 for d in details if not d["in_regime"] and d["holds"])
        if self.regime is None:
            return CheckResult(self.name, "pass", f"holds on all {inside} specs", None, details)
        return CheckResult(self.name, "pass",
                           f"holds on all {inside} in-regime specs; outside the regime it holds on "
                           f"{held_outside} of {outside} (information)", None, details)


def _grid_points(grid: dict) -> list[dict]:
    names = list(grid)
    points = [dict(zip(names, combo)) for combo in product(*(grid[s] for s in names))]
    return sorted(points, key=lambda p: (sum(p.values()), [p[s] for s in names]))


@dataclass
class InequalityChain(Check):
    """Each step ``steps[i] <rel_i> steps[i+1]`` (``<=`` or ``=``) over a grid and a random search.

    ``grid`` maps symbols to value lists; ``search`` random points are drawn (seeded) from
    ``search_ranges``.  Points where ``regime`` does not certainly hold, or ``condition(point)``
    is false, are skipped.  Equality steps are proved symbolically when sympy can, else checked
    numerically (the arb ball of the difference must contain 0).
    """

    steps: list
    relations: list
    grid: dict
    regime: object = None
    condition: Callable | None = None
    search: int = 200
    search_ranges: dict = field(default_factory=dict)
    seed: int = 0
    name: str = "inequality chain"

    def _points(self):
        points = _grid_points(self.grid)
        rng = random.Random(self.seed)
        ranges = self.search_ranges or {s: (min(v), max(v) * 4) for s, v in self.grid.items()}
        for _ in range(self.search):
            points.append({s: rng.randint(lo, hi) for s, (lo, hi) in ranges.items()})
        return points

    def run(self) -> CheckResult:
        checked, failures, undecided = 0, [], 0
        symbolic = []
        for i, rel in enumerate(self.relations):
            if rel == "=":
                diff = sp.simplify(sp.expand_log(self.steps[i] - self.steps[i + 1], force=True))
                symbolic.append(diff == 0)
            else:
                symbolic.append(False)
        for point in self._points():
            if self.condition is not None and not self.condition(point):
                continue
            if not _in_regime(self.regime, point):
                continue
            checked += 1
            for i, rel in enumerate(self.relations):
                if rel == "=":
                    if symbolic[i]:
                        continue
                    ok = evaluate(self.steps[i] - self.steps[i + 1], point).contains(0)
                else:
                    ok = compare(self.steps[i], self.steps[i + 1], rel, point)
                if ok is None:
                    undecided += 1
                elif not ok:
                    failures.append((i, point))
        if failures:
            failures.sort(key=lambda f: (sum(f[1].values()), f[0]))
            step, point = failures[0]
            steps_failed = sorted({f[0] for f in failures})
            return CheckResult(self.name, "fail",
                               f"step(s) {', '.join(f'{s}->{s + 1}' for s in steps_failed)} fail at "
                               f"{len(failures)} of {checked} points; smallest: step {step}->{step + 1} at "
                               f"{_fmt(point)}",
                               {"step": f"{step}->{step + 1}", **{str(k): v for k, v in point.items()}})
        if undecided:
            return CheckResult(self.name, "undecided", f"{undecided} comparisons undecided at 1024 bits")
        if checked == 0:
            return CheckResult(self.name, "not-applicable", "no grid point in the regime")
        return CheckResult(self.name, "pass",
                           f"all {len(self.relations)} steps hold at {checked} points (grid and "
                           f"{self.search} seeded random points), certified with arb")


def _fmt(point: dict) -> str:
    return ", ".join(f"{k}={v}" for k, v in point.items())


@dataclass
class QuotedNumber(Check):
    """A number printed in a paper against its recomputation.

    ``compute`` returns an exact number or an arb ball; the check passes when the recomputed
    value lies within ``tolerance`` of ``printed`` (by default one unit in the printed value's
    last digit, given as ``tolerance``).
    """

    compute: Callable
    printed: object
    tolerance: object
    label: str = ""
    name: str = "quoted number"

    def run(self) -> CheckResult:
        old = flint.ctx.prec
        flint.ctx.prec = 256
        try:
            value = self.compute()
            ball = value if isinstance(value, flint.arb) else evaluate(value)
            printed, tol = sp.sympify(self.printed), sp.sympify(self.tolerance)
            lo, hi = evaluate(printed - tol), evaluate(printed + tol)
            shown = f"{self.label}: printed {self.printed}, recomputed {ball.str(6, radius=False)}"
            if lo < ball and ball < hi:
                return CheckResult(self.name, "pass", shown + f" (within {self.tolerance})")
            if ball < lo or ball > hi:
                return CheckResult(self.name, "fail", shown + f" (outside +-{self.tolerance})",
                                   {"printed": str(self.printed), "recomputed": ball.str(10, radius=False)})
            return CheckResult(self.name, "undecided", shown)
        finally:
            flint.ctx.prec = old


@dataclass
class Property(Check):
    """A structural fact: ``function()`` returns (holds: bool, evidence: str, counterexample)."""

    function: Callable
    name: str = "property"

    def run(self) -> CheckResult:
        holds, evidence, counterexample = self.function()
        if holds is None:
            return CheckResult(self.name, "not-applicable", evidence)
        return CheckResult(self.name, "pass" if holds else "fail", evidence, counterexample)


@dataclass
class Cases(Check):
    """A fact checked case by case: ``per_case(*case)`` returns (holds, line) or
    (holds, line, counterexample).  The evidence lists every line; the first failing case ends the
    check and is the counterexample (its arguments, unless ``per_case`` gives one)."""

    cases: list
    per_case: Callable
    name: str = "cases"

    def run(self) -> CheckResult:
        lines = []
        for case in self.cases:
            holds, line, *rest = self.per_case(*case) if isinstance(case, tuple) else self.per_case(case)
            lines.append(line)
            if not holds:
                counterexample = rest[0] if rest and rest[0] is not None else {"case": repr(case)}
                return CheckResult(self.name, "fail", "; ".join(lines), counterexample)
        return CheckResult(self.name, "pass", "; ".join(lines))
