"""Findings, their kinds, what each rests on, the budget, and the order in which recomputations run.

Every value of a file gets one ``Finding`` of one of four kinds (docs/mathematics.md §11, issue 46 item 1):

- ``recomputed``: the value itself recomputed at the same weights and prime (a rank, a determinant, H at the
  positions) or a closed form evaluated from the file's own parameters, or a label / probability / limit /
  first N whose argument rests only on values that were themselves recomputed or are proven;
- ``consistent``: a formula checked given a stated value that was not recomputed; the line names the value it
  took on trust (a value beyond the budget, or one this recheck has no route to);
- ``beyond the budget``: the recomputation is priced above what is left of ``--max-seconds`` (its price given);
- ``contradicted``: recomputed and different, or its argument fails.

A finding that rests on others names them (``needs``); after the priced recomputations have run, ``resolve``
walks the findings in the order they were made (a finding is made after everything it rests on), and a
``recomputed`` finding whose every need is not itself ``recomputed`` becomes ``consistent``, naming them.
Closed forms run at once; recomputations are priced first (``network`` prices evaluations and ranks) and run
cheapest first until the budget is spent, so the same file and budget give the same lines on every machine.

The exit status (``exit_status``): 0 only when every line is ``recomputed``; 1 on any contradiction; 2 is a
file that cannot be read (``BadInput``); 3 when nothing was contradicted but some line stayed ``consistent``
or ``beyond the budget``.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

__all__ = ["Finding", "Recheck", "BadInput", "RECOMPUTED", "CONSISTENT", "CONTRADICTED", "BEYOND", "CONFIRMED",
           "KINDS", "EXIT_RECOMPUTED", "EXIT_CONTRADICTED", "EXIT_BAD_INPUT", "EXIT_INCOMPLETE"]

RECOMPUTED, CONSISTENT, BEYOND, CONTRADICTED = "recomputed", "consistent", "beyond the budget", "contradicted"
#: The old name of ``RECOMPUTED`` (a check that holds): it is "recomputed" only when everything it rests on is.
CONFIRMED = RECOMPUTED
KINDS = (RECOMPUTED, CONSISTENT, BEYOND, CONTRADICTED)
EXIT_RECOMPUTED, EXIT_CONTRADICTED, EXIT_BAD_INPUT, EXIT_INCOMPLETE = 0, 1, 2, 3


class BadInput(ValueError):
    """A file the recheck cannot read: the message says what is wrong and what to pass instead."""


@dataclass(eq=False)
class Finding:
    """One value of the file and what the recheck found about it."""

    where: str      # the file's row or key, e.g. "row 12 (L=3, V=3, H=1, R=1)"
    value: str      # the value's name and printed value, e.g. "rank at N = 12 = 554"
    status: str
    detail: str
    proven: bool = True  # a contradiction found by a proof (False: two independent random recomputations)
    needs: tuple = ()    # the findings this one rests on (made before it)
    trust: str = ""      # a stated value it takes on trust without a finding of its own ("" if none)

    def line(self) -> str:
        return f"{self.status}: {self.where}: {self.value}: {self.detail}"

    def as_dict(self) -> dict:
        return {"where": self.where, "value": self.value, "status": self.status, "detail": self.detail,
                "proven": self.proven, "rests_on": [f"{n.where}: {n.value}" for n in self.needs],
                "trusted": self.trust or None}


@dataclass
class _Task:
    finding: Finding
    price: float
    run: object  # () -> (status, detail[, proven])
    key: object = None  # tasks of one key share one computation (its price is spent once)
    settle: object = None  # () -> the price the run settles at, at most ``price`` (None: ``price``)


@dataclass
class Recheck:
    """Collects the findings of one or more files within one budget of ``max_seconds`` (priced seconds)."""

    max_seconds: float
    findings: list = field(default_factory=list)
    tasks: list = field(default_factory=list)
    spent: float = 0.0
    files: list = field(default_factory=list)
    wall_seconds: float = 0.0
    skipped: int = 0  # values of no exact route (numerical ranks of a real network): not rechecked, never exit 0
    timings: list = field(default_factory=list)  # (finding, price spent, wall seconds) of each task run

    def add(self, where: str, value: str, status: str, detail: str, proven: bool = True, needs=(),
            trust: str = "") -> Finding:
        """A finding; ``needs`` the findings it rests on, ``trust`` a stated value taken on trust (either makes a
        ``recomputed`` status at most ``consistent``: ``resolve``)."""
        if status == RECOMPUTED and trust:
            status = CONSISTENT
        finding = Finding(where, value, status, detail, proven, tuple(n for n in needs if n is not None), trust)
        if status == CONSISTENT and trust:
            finding.detail = f"{detail}; takes on trust {trust}"
        self.findings.append(finding)
        return finding

    def check(self, where: str, value: str, holds: bool, detail: str, wrong: str | None = None, needs=(),
              trust: str = "") -> Finding:
        """A closed-form check: ``recomputed`` with ``detail`` when it holds (``consistent`` when it rests on a value
        not recomputed), else contradicted with ``wrong``."""
        if holds:
            return self.add(where, value, RECOMPUTED, detail, needs=needs, trust=trust)
        return self.add(where, value, CONTRADICTED, wrong or detail, needs=needs)

    def later(self, where: str, value: str, price: float, run, needs=(), key=None, settle=None) -> Finding:
        """A recomputation priced at ``price`` seconds; ``run()`` returns (status, detail[, proven]).  Tasks given
        one ``key`` share one computation (``run`` caches it by that key): its price is spent by the first of them
        to run, and the others run free once it has.  ``price`` is an upper bound where the work depends on what the
        run finds; ``settle()``, called after the run, gives the price of the work it did (a function of the file,
        never of the clock), which is what is spent: the lines stay the same on every machine."""
        finding = self.add(where, value, BEYOND, f"needs about {price:.3g} s", needs=needs)
        self.tasks.append(_Task(finding, price, run, key, settle))
        return finding

    def run(self) -> None:
        """Run the priced recomputations, cheapest first, while the budget lasts; then ``resolve``."""
        order = {id(f): i for i, f in enumerate(self.findings)}
        paid = set()
        for task in sorted(self.tasks, key=lambda t: (t.price, order[id(t.finding)])):
            finding = task.finding
            price = 0.0 if task.key is not None and task.key in paid else task.price
            if not self.spent + price <= self.max_seconds:
                finding.detail = (f"its recomputation is priced at {task.price:.3g} s, beyond what is left of "
                                  f"--max-seconds {self.max_seconds:g}")
                continue
            if task.key is not None:
                paid.add(task.key)
            self.spent += price
            start = time.perf_counter()
            outcome = task.run()
            if price and task.settle is not None:
                settled = min(price, task.settle())
                self.spent -= price - settled
                price = settled
            self.timings.append((finding, price, time.perf_counter() - start))
            finding.status, finding.detail = outcome[0], outcome[1]
            if len(outcome) > 2:
                finding.proven = outcome[2]
        self.tasks = []
        self.resolve()

    def resolve(self) -> None:
        """A ``recomputed`` finding resting on one that is not becomes ``consistent`` and names what it trusted
        (in the order made: what a finding rests on is resolved before it)."""
        for finding in self.findings:
            if finding.status != RECOMPUTED:
                continue
            weak = [n for n in finding.needs if n.status != RECOMPUTED]
            if weak:
                finding.status = CONSISTENT
                named = "; ".join(f"{n.value} ({n.status})" for n in weak[:3]) + (
                    f" and {len(weak) - 3} more" if len(weak) > 3 else "")
                finding.detail = f"{finding.detail}; takes on trust {named}"

    def counts(self) -> dict:
        out = dict.fromkeys(KINDS, 0)
        for finding in self.findings:
            out[finding.status] += 1
        return out

    def exit_status(self) -> int:
        """0 every line recomputed, 1 a contradiction, 3 nothing contradicted but something consistent or beyond
        the budget, or a value of no exact route (2: a file that cannot be read, ``BadInput``, before any line)."""
        counts = self.counts()
        if counts[CONTRADICTED]:
            return EXIT_CONTRADICTED
        if counts[CONSISTENT] or counts[BEYOND] or self.skipped:
            return EXIT_INCOMPLETE
        return EXIT_RECOMPUTED


def timed(function):
    """``function()`` and its wall seconds."""
    start = time.perf_counter()
    value = function()
    return value, time.perf_counter() - start
