"""The certainty of a derived headline: a first N, a saturation, the N where the cap decides (issue 47, item 1).

A headline read off a run of ranks is a statement about several N at once (docs/mathematics.md §11): "the rank
first reaches X at N0" needs generic sep(N) < X at every N < N0 and generic sep(N0) >= X; "saturated at s from
N_s" needs generic sep(N) = s along the final run and != s just before it.  Each step is either proven (a bound
proven for every weight below X, a rank certified exact), or holds unless its row's own random event occurred
(a probabilistic label, a computed limit), or is not shown (a sampled lower bound: the generic rank may be
larger).  The headline is certified when every step is proven; otherwise it holds unless one of the steps'
events occurred; a step that is not shown leaves the headline not shown (for a first N: the true first N is
then at most N0, since a computed rank is a certified lower bound).

Its probability is M times the largest of the steps' bounds, M the number of events that can enter, fixed before
the draw (``possible``), not their sum (docs/mathematics.md §7, "A headline's union"): which steps enter (their
labels, the first N) and each repeated bound (Lemma R) are read off the draws, so a step's bound P_j bounds its
event only in the sense Pr[E_j and P_j <= b] <= b for every b; then Pr[some E_j and M max_j P_j <= b] <=
sum over the M possible j of Pr[E_j and P_j <= b / M] <= b, with no independence assumed (the rows of one run
share their weights and positions), where the sum of the P_j can be exceeded M-fold.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

__all__ = ["Step", "Headline", "first_reaching", "saturation", "all_equal", "probe_steps", "probe_headlines",
           "probability_text",
           "CERTIFIED", "PROBABILISTIC", "NOT_SHOWN"]

CERTIFIED, PROBABILISTIC, NOT_SHOWN = "certified", "probabilistic", "not shown"


@dataclass(frozen=True)
class Step:
    """One N of a run: its rank (at these weights mod p, a certified lower bound on the generic rank), ``proven``
    the smallest upper bound on the generic rank proven for every weight (None: none), and ``probability`` the
    bound on Pr[generic rank != rank]: 0 where the rank is certified exact, the row's bound where it is equal to
    the generic rank w.h.p., None where it is a lower bound only."""

    tokens: int
    rank: int
    proven: int | None = None
    probability: float | None = None


@dataclass(frozen=True)
class Headline:
    """``certainty`` certified / probabilistic / not shown; ``probability`` the union bound (0 certified, None not
    shown); ``union_over`` the N whose events it adds; ``limit_event`` whether the computed limit's own event is in
    the union."""

    certainty: str
    probability: float | None
    union_over: tuple[int | str, ...] = field(default_factory=tuple)
    limit_event: bool = False

    def as_dict(self) -> dict[str, Any]:
        return {"certainty": self.certainty, "probability": self.probability, "union_over": list(self.union_over),
                "limit_event": self.limit_event}

    def csv_cells(self, name: str) -> dict[str, Any]:
        """The three CSV columns ``<name>_certainty``, ``_probability`` (rounded up, empty iff not shown) and
        ``_union_over`` (space-separated N, and ``limit`` where the limit's event is in the union)."""
        from ..rank.certainty import format_bound

        over = [str(n) for n in self.union_over] + (["limit"] if self.limit_event else [])
        return {f"{name}_certainty": self.certainty,
                f"{name}_probability": "" if self.probability is None else format_bound(self.probability),
                f"{name}_union_over": " ".join(over)}


def _headline(events: list[tuple[int | str, float]], shown: bool, possible: int | None = None) -> Headline:
    """The headline over ``events`` [(N or "limit", bound)] of its probabilistic steps: ``possible`` (fixed before
    the draw; None: the events given are all that can enter) times the largest bound (module doc)."""
    if not shown:
        return Headline(NOT_SHOWN, None)
    events = [(where, p) for where, p in events if p > 0]
    if not events:
        return Headline(CERTIFIED, 0.0)
    if possible is not None and possible < len(events):
        raise ValueError(f"{len(events)} events entered, but only {possible} were said to be possible")
    total = (possible or len(events)) * max(Fraction(p) for _, p in events)
    bound = 1.0 if total >= 1 else (float(total) if Fraction(float(total)) >= total
                                    else math.nextafter(float(total), 1.0))  # rounded up, never down
    return Headline(PROBABILISTIC, bound, tuple(w for w, _ in events if w != "limit"),
                    any(w == "limit" for w, _ in events))


def _below(step: Step, value: int) -> tuple[bool, float | None]:
    """Whether generic sep at ``step`` < ``value`` is shown, and the bound on the event that breaks it (0: proven)."""
    if step.proven is not None and step.proven < value:
        return True, 0.0
    if step.rank < value and step.probability is not None:
        return True, step.probability
    return False, None


def first_reaching(steps: list[Step], value: int | None, value_probability: float | None = 0.0,
                   possible: int | None = None) -> tuple[int | None, Headline | None]:
    """(the first N whose rank reaches ``value``, its certainty), or (None, None).  Every earlier N must be shown
    below ``value`` (``_below``); the rank at N0 is a certified lower bound, so it reaches ``value`` for certain;
    ``value_probability``: the bound on ``value``'s own event (a computed limit that may be below the generic one;
    0 for a proven value, None where the value itself is only a lower bound: then not shown); ``possible``: how
    many events can enter, fixed before the draw (every N the run may rank with a probability, and the value's
    own; None: ``steps`` are every N the run may rank)."""
    if value is None:
        return None, None
    first = next((i for i, step in enumerate(steps) if step.rank >= value), None)
    if first is None:
        return None, None
    events: list[tuple[int | str, float]] = []
    shown = value_probability is not None
    for step in steps[:first]:
        ok, p = _below(step, value)
        shown = shown and ok
        if ok:
            events.append((step.tokens, p))
    if shown and value_probability:
        events.append(("limit", value_probability))
    if possible is None:
        possible = len(steps) + (1 if value_probability else 0)
    return steps[first].tokens, _headline(events, shown, possible)


def all_equal(steps: list[Step], possible: int | None = None) -> Headline | None:
    """The certainty that every step's rank is the generic rank (e.g. the N where the cap decides); None if none.
    ``possible``: how many steps can enter, fixed before the draw (None: ``steps``)."""
    if not steps:
        return None
    shown = all(step.probability is not None for step in steps)
    return _headline([(s.tokens, s.probability) for s in steps if s.probability is not None], shown,
                     len(steps) if possible is None else possible)


def saturation(steps: list[Step], first_tokens: int | None, possible: int | None = None) -> Headline | None:
    """The certainty of "the rank is s from N_s on" (``first_tokens`` = N_s, s its rank): every step of the final
    run equal to the generic rank, and the step before it shown different (below s, or a certified lower bound
    above it); None without a saturation.  ``possible``: the steps that may enter (None: ``steps``)."""
    if first_tokens is None:
        return None
    start = next(i for i, step in enumerate(steps) if step.tokens == first_tokens)
    run = steps[start:]
    events = [(s.tokens, s.probability) for s in run if s.probability is not None]
    shown = len(events) == len(run)
    if start:
        before, value = steps[start - 1], run[0].rank
        if before.rank < value:
            ok, p = _below(before, value)
            shown = shown and ok
            if ok:
                events.append((before.tokens, p))
        # a rank above s is a certified lower bound above s: generic sep there is not s, for certain
    return _headline(sorted(events, key=lambda e: e[0]), shown, len(steps) if possible is None else possible)


def probe_steps(data: dict[str, Any]) -> list[Step]:
    """``Step``s of a probe's rows (``probe_sweep``'s, each with its certainty): proven the smallest of its counting
    cap, eq. 7.4 with certified caps, the limit's derivative bound and a certified limit (none on continuous inputs,
    whose limit is a rank at these weights); probability 0 for a certified row, its bound for a w.h.p. one, None
    for a certified lower bound only."""
    limit = data.get("limit") or {}
    steps = []
    for row in data["ranks"]:
        proven = [row[k] for k in ("count_cap", "bound_eq74") if row.get(k) is not None]
        proven += [limit["upper_bound"]] if limit.get("upper_bound") is not None else []
        proven += [limit["rank"]] if limit.get("certified_exact") else []
        lower_only = row["certainty"] == "certified lower bound"
        steps.append(Step(row["tokens"], row["rank"], min(proven) if proven else None,
                          None if lower_only else (row["probability_bound"] or 0.0)))
    return steps


def probe_headlines(data: dict[str, Any], possible: int | None = None) -> dict[str, Any]:
    """The certainty of each headline of a probe (issue 47, item 1): ``saturation_certainty``,
    ``tokens_reaching_lower_bound_certainty``, ``tokens_reaching_lemma7_lower_bound_certainty`` and
    ``cap_decides_certainty`` (``Headline.as_dict``, or None where the headline is None or empty).  ``possible``:
    the N the probe may rank (fixed before the draw: N = 2, 4, ..., --max-tokens; None: the rows it ranked)."""
    steps = probe_steps(data)
    possible = max(possible or 0, len(steps))
    out = {}
    sat = saturation(steps, data["saturation_tokens"], possible)
    out["saturation_certainty"] = sat.as_dict() if sat else None
    for name, value in (("tokens_reaching_lower_bound", data["lower_bound"]),
                        ("tokens_reaching_lemma7_lower_bound", data["lemma7_lower_bound"])):
        first, head = first_reaching(steps, value, possible=possible)
        assert first == data[name], (name, first, data[name])  # the same first N the probe reports
        out[f"{name}_certainty"] = head.as_dict() if head else None
    decided = all_equal([s for s in steps if s.tokens in set(data["cap_decides"])], possible)
    out["cap_decides_certainty"] = decided.as_dict() if decided else None
    return out


def probability_text(bound: float | None, over_prime: bool = True, event: str = "the rank is below the generic rank"
                     ) -> str | None:
    """A probability bound as an export prints it (issue 47, item 6): rounded up to 3 significant digits (a printed
    bound stays a bound), with its event and, over GF(p), the prime condition; "0 (certified exact)" for 0; None
    for None (no equality with the generic rank is claimed).

    >>> probability_text(2.8088688844114464e-06)
    '<= 2.81e-06 that the rank is below the generic rank, unless p divides the content of every witness minor'
    """
    from ..rank.certainty import PRIME_CONDITION, format_bound

    if bound is None:
        return None
    if bound == 0:
        return "0 (certified exact)"
    return f"<= {format_bound(bound)} that {event}" + (f", {PRIME_CONDITION}" if over_prime else "")
