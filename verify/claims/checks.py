"""The kinds of check a claim can use (see ``claims.Claim``).

* ``RankBound`` — a stated bound against exact separation ranks, inside and outside its regime;
* ``InequalityChain`` — each step of a derivation over a parameter grid and a derandomised
  hypothesis search (``verify.claims.search``), decided with arb;
* ``QuotedNumber`` — a number printed in a paper recomputed from its formula;
* ``Property`` — an identity or structural fact computed by a function;
* ``Cases`` — a fact checked case by case, stopping at the first case that fails.

Every passing check also records whether it could have failed: perturbed statements (see
``verify.claims.bounds`` for bounds against ranks, ``verify.claims.perturb`` for the ones a
``Property`` or ``Cases`` supplies), and its tightest margin.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import product
from typing import Any, Callable

import flint
import sympy as sp

from ..exact.arbexpr import compare, evaluate, precision
from . import perturb
from .bounds import RankBound, _in_regime, spec_values
from .record import Check, CheckResult
from .search import integer_points
from .search import search as hypothesis_search

__all__ = ["RankBound", "InequalityChain", "QuotedNumber", "Property", "Cases", "spec_values"]


def _grid_points(grid: dict[Any, Any]) -> list[dict[Any, Any]]:
    """Every point of ``grid``, smallest coordinate sum first (then by coordinates): sorted as tuples,
    then made dicts (sorting 470,000 dicts took 16 s of one claim)."""
    names = list(grid)
    combos = sorted(product(*(grid[s] for s in names)), key=lambda c: (sum(c), c))
    return [dict(zip(names, combo, strict=False)) for combo in combos]


@dataclass
class InequalityChain(Check):
    """Each step ``steps[i] <rel_i> steps[i+1]`` (``<=``, ``<`` or ``=``) over a grid and a
    property-based search.

    ``grid`` maps symbols to value lists (every point is checked, smallest first); then hypothesis
    draws ``search`` points (derandomised, no database: the same points every run) from
    ``strategy`` (a hypothesis strategy of points, symbol -> value) or, by default, integers in
    ``search_ranges`` (symbol -> (lo, hi)); a counterexample found there is shrunk to its smallest.
    Points where ``regime`` does not certainly hold, or ``condition(point)`` is false, are
    skipped.  Equality steps are proved symbolically when sympy can, else checked numerically (the
    arb ball of the difference must contain 0).  ``seed`` is kept for compatibility (hypothesis is
    derandomised).

    Perturbed (strengthened) statements: every inequality step tightened by one unit, lhs + 1 <= rhs
    (lhs + 1 < rhs for a strict step; on a log3 scale this is the bound x3), and every equality step
    with one side +1 (its neighbour); each is refuted where a checked point contradicts it.  A step
    merely reversed no longer counts (it only shows the step is strict somewhere).  The margin is
    the smallest rhs - lhs of an inequality step over the checked points.
    """

    steps: list[Any]
    relations: list[Any]
    grid: dict[Any, Any]
    regime: object = None
    condition: Callable[..., Any] | None = None
    search: int = 200
    search_ranges: dict[Any, Any] = field(default_factory=dict)
    seed: int = 0
    name: str = "inequality chain"
    strategy: object = None
    reading: str = ""

    def _strategy(self):
        if self.strategy is not None:
            return self.strategy
        return integer_points(self.search_ranges or {s: (min(v), max(v) * 4) for s, v in self.grid.items()})

    def run(self) -> CheckResult:
        symbolic = []
        for i, rel in enumerate(self.relations):
            if rel == "=":
                diff = sp.simplify(sp.expand_log(self.steps[i] - self.steps[i + 1], force=True))
                symbolic.append(diff == 0)
            else:
                symbolic.append(False)
        gaps = [self.steps[i + 1] - self.steps[i] for i in range(len(self.relations))]
        state = {"checked": 0, "undecided": 0, "refuted": set(), "margin": None}

        def examine(point) -> int | None:
            """The first failing step at ``point`` (None if every step holds or it is out of range)."""
            if self.condition is not None and not self.condition(point):
                return None
            if not _in_regime(self.regime, point):
                return None
            state["checked"] += 1
            failed = None
            for i, rel in enumerate(self.relations):
                if rel == "=":
                    if symbolic[i]:
                        state["refuted"].add(i)  # a + 1 = b contradicts a = b identically
                        continue
                    ball = evaluate(-gaps[i], point)
                    ok = ball.contains(0)
                    if ok and not (ball + 1).contains(0):
                        state["refuted"].add(i)
                else:
                    ok = self._inequality(i, rel, gaps[i], point, state)
                if ok is None:
                    state["undecided"] += 1
                elif not ok and failed is None:
                    failed = i
            return failed

        failures = [(i, point) for point in _grid_points(self.grid) for i in [examine(point)] if i is not None]
        grid_checked = state["checked"]
        found = hypothesis_search(self._strategy(), examine, self.search) if not failures else None
        if failures or found:
            failures.sort(key=lambda f: (sum(f[1].values()), f[0]))
            step, point = failures[0] if failures else (found[1], found[0])
            where = (f"{len(failures)} of {grid_checked} grid points" if failures else
                     f"a searched point (hypothesis, shrunk to the smallest), grid of {grid_checked} points clean")
            steps_failed = sorted({f[0] for f in failures}) or [step]
            return CheckResult(self.name, "fail",
                               f"step(s) {', '.join(f'{s}->{s + 1}' for s in steps_failed)} fail at "
                               f"{where}; smallest: step {step}->{step + 1} at {_fmt(point)}",
                               {"step": f"{step}->{step + 1}", **{str(k): v for k, v in point.items()}})
        if state["undecided"]:
            return CheckResult(self.name, "undecided", f"{state['undecided']} comparisons undecided at 1024 bits")
        if state["checked"] == 0:
            return CheckResult(self.name, "not-applicable", "no grid point in the regime")
        result = CheckResult(self.name, "pass",
                             f"all {len(self.relations)} steps hold at {state['checked']} points ({grid_checked} "
                             f"on the grid, the rest from a derandomised hypothesis search of {self.search}), "
                             "certified with arb")
        for i, rel in enumerate(self.relations):
            text = (f"step {i}->{i + 1} tightened by one (lhs + 1 {rel} rhs)" if rel != "=" else
                    f"step {i}->{i + 1} with one side +1")
            result.perturbations.append({"statement": text, "refuted": i in state["refuted"],
                                         "evidence": "contradicted at a checked point" if i in state["refuted"]
                                         else "consistent with every checked point"})
        result.could_fail = bool(state["refuted"])
        if state["margin"] is not None:
            value, step, point = state["margin"]
            result.margin = {"value": value, "scale": "rhs - lhs (float)", "where": f"step {step} at {_fmt(point)}"}
        result.evidence += f"; perturbations refuted {len(state['refuted'])} of {len(self.relations)}"
        if not result.could_fail:
            result.bites_at = ("no strengthening refuted: every inequality step has rhs - lhs >= 1 at every checked "
                               "point")
        return result

    @staticmethod
    def _inequality(i, rel, gap, point, state):
        """Decide lhs <rel> rhs through rhs - lhs in arb (64 bits), escalating with ``compare``
        only when that ball straddles 0; record the margin and whether the step tightened by one
        (lhs + 1 <rel> rhs) is refuted: rhs - lhs < 1 (<= 1 for a strict step), certified."""
        with precision(64):
            ball = evaluate(gap, point)
        if ball < 0:
            return False
        holds = True if ball > 0 or (rel == "<=" and ball >= 0) else compare(sp.Integer(0), gap, rel, point)
        if not holds:
            return holds
        value = float(ball.mid())  # a float label for the report; the decisions here are certified
        if value != float("inf") and (state["margin"] is None or value < state["margin"][0]):
            state["margin"] = (max(value, 0.0), f"{i}->{i + 1}", dict(point))
        if i not in state["refuted"]:
            # the step tightened by one, lhs + 1 <rel> rhs, fails where rhs - lhs < 1 (<= 1 if strict)
            strict = rel == "<"
            if (ball <= 1) if strict else (ball < 1):
                tight = True
            elif (ball > 1) if strict else (ball >= 1):
                tight = False
            else:
                tight = compare(gap, sp.Integer(1), "<=" if strict else "<", point) is True
            if tight:
                state["refuted"].add(i)
        return holds


def _fmt(point: dict[Any, Any]) -> str:
    return ", ".join(f"{k}={v}" for k, v in point.items())


@dataclass
class QuotedNumber(Check):
    """A number printed in a paper against its recomputation.

    ``compute`` returns an exact number or an arb ball; the check passes when the recomputed
    value lies within ``tolerance`` of ``printed`` (by default one unit in the printed value's
    last digit, given as ``tolerance``).  Perturbed statements: the printed value +1, and the
    next printed value (printed + 2 tolerance); the margin is tolerance - |recomputed - printed|.
    """

    compute: Callable[..., Any]
    printed: object
    tolerance: object
    label: str = ""
    name: str = "quoted number"
    reading: str = ""

    def run(self) -> CheckResult:
        with precision(256):
            value = self.compute()
            ball = value if isinstance(value, flint.arb) else evaluate(value)
            printed, tol = sp.sympify(self.printed), sp.sympify(self.tolerance)
            lo, hi = evaluate(printed - tol), evaluate(printed + tol)
            shown = f"{self.label}: printed {self.printed}, recomputed {ball.str(6, radius=False)}"
            if lo < ball and ball < hi:
                result = CheckResult(self.name, "pass", shown + f" (within {self.tolerance})")
                for text, shift in (("printed value +1", 1), ("next printed value (+2 tolerance)", 2 * tol)):
                    plo, phi = evaluate(printed + shift - tol), evaluate(printed + shift + tol)
                    refuted = bool(ball < plo or ball > phi)
                    result.perturbations.append(perturb.record(
                        text, refuted, "recomputed value outside its window" if refuted else "within its window"))
                result.could_fail = any(q["refuted"] for q in result.perturbations)
                slack = evaluate(tol) - abs(ball - evaluate(printed))
                result.margin = {"value": float(slack.mid()), "scale": "tolerance - |recomputed - printed| (float)",
                                 "where": self.label or "the printed value"}
                return result
            if ball < lo or ball > hi:
                return CheckResult(self.name, "fail", shown + f" (outside +-{self.tolerance})",
                                   {"printed": str(self.printed), "recomputed": ball.str(10, radius=False)})
            return CheckResult(self.name, "undecided", shown)


@dataclass
class Property(Check):
    """A structural fact: ``function()`` returns (holds: bool, evidence: str, counterexample).

    ``perturb`` (optional): a declared perturbation (``scaled``, ``shifted``, ``converse``,
    ``neighbour`` of ``function``), or a dict description -> one, with ``function``'s signature and
    return value, stating a strengthened or neighbouring (false) version of the fact; it is refuted
    where it returns holds False, and counts only without defects (``verify.claims.perturb``).
    """

    function: Callable[..., Any]
    name: str = "property"
    perturb: object = None
    reading: str = ""

    def run(self) -> CheckResult:
        holds, evidence, counterexample = self.function()
        if holds is None:
            return CheckResult(self.name, "not-applicable", evidence)
        if not holds:
            return CheckResult(self.name, "fail", evidence, counterexample)

        def decide(fn):
            p_holds, p_evidence, _ = fn()
            return p_holds is False, p_evidence

        return perturb.attach(CheckResult(self.name, "pass", evidence), self.perturb, decide, self.function)


@dataclass
class Cases(Check):
    """A fact checked case by case: ``per_case(*case)`` returns (holds, line) or
    (holds, line, counterexample).  The evidence lists every line; the first failing case ends the
    check and is the counterexample (its arguments, unless ``per_case`` gives one).

    ``strategy`` (optional): a hypothesis strategy of further cases; ``search`` of them are drawn
    (derandomised, no database) after the listed cases, and a failing one is shrunk to its
    smallest.  ``perturb`` (optional): a declared perturbation of ``per_case`` (e.g.
    ``shifted(per_case, shift=1)``: an index map shifted by one), or a dict description -> one; it
    is refuted if it fails on some listed case, and counts only without defects
    (``verify.claims.perturb``).
    """

    cases: list[Any]
    per_case: Callable[..., Any]
    name: str = "cases"
    strategy: object = None
    search: int = 50
    perturb: object = None
    reading: str = ""

    def _call(self, fn, case):
        return fn(*case) if isinstance(case, tuple) else fn(case)

    def run(self) -> CheckResult:
        lines = []
        for case in self.cases:
            holds, line, *rest = self._call(self.per_case, case)
            lines.append(line)
            if not holds:
                counterexample = rest[0] if rest and rest[0] is not None else {"case": repr(case)}
                return CheckResult(self.name, "fail", "; ".join(lines), counterexample)
        if self.strategy is not None:
            def failure(case):
                holds, line, *rest = self._call(self.per_case, case)
                return None if holds else (line, rest[0] if rest and rest[0] is not None else {"case": repr(case)})

            found = hypothesis_search(self.strategy, failure, self.search)
            if found is not None:
                case, (line, counterexample) = found
                return CheckResult(self.name, "fail", "; ".join(lines) + f"; searched case (shrunk): {line}",
                                   counterexample)
            lines.append(f"{self.search} further cases from a derandomised hypothesis search hold")

        def decide(fn):
            for case in self.cases:
                p_holds, p_line, *_ = self._call(fn, case)
                if not p_holds:
                    return True, f"refuted at {case!r}: {p_line}"
            return False, f"holds on all {len(self.cases)} cases"

        return perturb.attach(CheckResult(self.name, "pass", "; ".join(lines)), self.perturb, decide, self.per_case)
