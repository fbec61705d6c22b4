"""Findings, the budget, and the order in which recomputations run.

Every value of a file gets one ``Finding``: ``confirmed`` (recomputed and equal, or its argument recomputed
and valid), ``contradicted`` (recomputed and different, or its argument fails), or ``beyond the budget``
(its recomputation is priced above what is left of ``--max-seconds``; never "confirmed").  Closed forms
run at once; recomputations are priced first (``network`` prices evaluations and ranks) and run cheapest
first until the budget is spent, so the same file and budget give the same lines on every machine.
"""

from __future__ import annotations

import time
from dataclasses import asdict, dataclass, field

__all__ = ["Finding", "Recheck", "BadInput", "CONFIRMED", "CONTRADICTED", "BEYOND"]

CONFIRMED, CONTRADICTED, BEYOND = "confirmed", "contradicted", "beyond the budget"


class BadInput(ValueError):
    """A file the recheck cannot read: the message says what is wrong and what to pass instead."""


@dataclass
class Finding:
    """One value of the file and what the recheck found about it."""

    where: str      # the file's row or key, e.g. "row 12 (L=3, V=3, H=1, R=1)"
    value: str      # the value's name and printed value, e.g. "rank at N = 12 = 554"
    status: str
    detail: str
    proven: bool = True  # a contradiction found by a proof (False: two independent random recomputations)

    def line(self) -> str:
        return f"{self.status}: {self.where}: {self.value}: {self.detail}"

    def as_dict(self) -> dict:
        return asdict(self)


@dataclass
class _Task:
    index: int
    price: float
    run: object  # () -> (status, detail[, proven])


@dataclass
class Recheck:
    """Collects the findings of one or more files within one budget of ``max_seconds`` (priced seconds)."""

    max_seconds: float
    findings: list = field(default_factory=list)
    tasks: list = field(default_factory=list)
    spent: float = 0.0
    files: list = field(default_factory=list)
    wall_seconds: float = 0.0
    skipped: int = 0  # values with no exact route (numerical ranks): not rechecked, counted in the summary

    def add(self, where: str, value: str, status: str, detail: str, proven: bool = True) -> Finding:
        finding = Finding(where, value, status, detail, proven)
        self.findings.append(finding)
        return finding

    def check(self, where: str, value: str, holds: bool, detail: str, wrong: str | None = None) -> bool:
        """A closed-form check: confirmed with ``detail`` when it holds, else contradicted with ``wrong``."""
        self.add(where, value, CONFIRMED if holds else CONTRADICTED, detail if holds else (wrong or detail))
        return holds

    def later(self, where: str, value: str, price: float, run) -> None:
        """A recomputation priced at ``price`` seconds; ``run()`` returns (status, detail[, proven])."""
        finding = self.add(where, value, BEYOND, "")
        self.tasks.append(_Task(len(self.findings) - 1, price, run))
        finding.detail = f"needs about {price:.3g} s"

    def run(self) -> None:
        """Run the priced recomputations, cheapest first, while the budget lasts."""
        for task in sorted(self.tasks, key=lambda t: (t.price, t.index)):
            finding = self.findings[task.index]
            if self.spent + task.price > self.max_seconds:
                finding.detail = (f"its recomputation is priced at {task.price:.3g} s, beyond what is left of "
                                  f"--max-seconds {self.max_seconds:g}")
                continue
            self.spent += task.price
            outcome = task.run()
            finding.status, finding.detail = outcome[0], outcome[1]
            if len(outcome) > 2:
                finding.proven = outcome[2]
        self.tasks = []

    def counts(self) -> dict:
        out = {CONFIRMED: 0, CONTRADICTED: 0, BEYOND: 0}
        for finding in self.findings:
            out[finding.status] += 1
        return out


def timed(function):
    """``function()`` and its wall seconds."""
    start = time.perf_counter()
    value = function()
    return value, time.perf_counter() - start
