"""``--dry-run``: the plan of a sweep (tasks, estimated cost and memory of each, what is already
stored) without computing anything; its text for a terminal is ``verify.report.plan_text``."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from ..model.spec import NetworkSpec
from .store import Store, Task

if TYPE_CHECKING:
    from collections.abc import Callable

    from ..exact.fields import Field

__all__ = ["sweep_plan", "probe_plan", "add_limit_row"]


def _spec_name(task: Task) -> str:
    spec = task.spec
    name = f"depth {spec.depth}, width {spec.width}, heads {spec.heads}" + (", residual" if spec.residual else "")
    params = dict(task.params)
    if "tokens" in params:
        name += f", N = {params['tokens']}"
    return name


def _gib(n_bytes: float | None) -> float | None:
    """Bytes as GiB for JSON: None where there is no estimate or it is beyond a float (JSON has no inf)."""
    if n_bytes is None or not math.isfinite(n_bytes):
        return None
    return round(n_bytes / 2**30, 9)


def sweep_plan(tasks: list[Task], store: Store, cost: Callable[[Task], float] | None = None,
               memory: Callable[[Task], float | None] | None = None,
               limit_gib: float | None = None) -> dict[Any, Any]:
    """What a sweep would do: per task its kind, spec, share of the estimated work, estimated
    memory (GiB, where an estimate exists) and whether the store already holds it.

    ``cost`` (task -> relative cost) and ``memory`` (task -> bytes or None) are the sweep's own
    closed-form estimates; ``limit_gib`` (the memory limit) marks each task over it ``over_limit``:
    the sweep would refuse it.
    """
    rows, seen = [], set()
    for task in tasks:
        if task.key() in seen:
            continue
        seen.add(task.key())
        stored = store.get(task) is not None
        rows.append({"kind": task.kind, "spec": task.spec.as_dict(), "method": task.method, "field": task.field,
                     "seed": task.seed, "params": dict(task.params), "name": _spec_name(task),
                     "cost": min(float(cost(task)), 1e300) if cost is not None else 1.0,
                     "memory_gib": _gib(None if memory is None else memory(task)),
                     "stored": stored})
        rows[-1]["over_limit"] = bool(limit_gib is not None and not stored and memory is not None
                                      and (rows[-1]["memory_gib"] is None and memory(task) is not None
                                           or (rows[-1]["memory_gib"] or 0) > limit_gib))
    todo = sum(r["cost"] for r in rows if not r["stored"])
    for row in rows:
        row["share_of_work"] = 0.0 if row["stored"] or not todo else round(row["cost"] / todo, 6)
    return {"dry_run": True, "tasks": rows, "to_compute": sum(not r["stored"] for r in rows),
            "stored": sum(r["stored"] for r in rows), "store": None if store.path is None else str(store.path)}


def probe_plan(spec: NetworkSpec, max_memory_gib: float, vocab: int | None = None, rank: int | None = None,
               positional_rank: int = 0, continuous: bool = False, weight_range: int = 2**31) -> dict[Any, Any]:
    """Closed-form estimates for ``--dry-run``: ``{"cost": task -> number, "memory": task -> bytes}``
    for the probe's steps (memory as the cost: both grow with the count vectors or monomials)."""
    from ..rank.memory import log2_multichoose
    from ..rank.token.caps import gram_log2_bytes

    def memory(task) -> float | None:
        n = dict(task.params)["tokens"]
        if continuous:  # at least binom(C + (N-1) d - 1, C) monomials at 500 bytes (rank.routes.coefficient_size)
            log2 = log2_multichoose(spec.depth * math.log2(3) - 1, (n - 1) * spec.width - 1) + math.log2(500)
            return 2.0**log2 if log2 < 1000 else math.inf
        if vocab is None:
            return None
        # the estimate the step itself is refused by (the Gram route's guard in rank.token.tokens.token_rank)
        log2 = gram_log2_bytes(vocab, n, spec.layer_degree, positional_rank > 0)
        return 2.0**log2 if log2 < 1000 else math.inf

    return {"cost": lambda task: memory(task) or 1.0, "memory": memory}


def add_limit_row(plan: dict[str, Any], spec: NetworkSpec, field: Field, seed: int, limit_gib: float) -> None:
    """Put the probe's ``--continuous`` limit in ``plan`` as its first task: the N-independent rank by the reduced
    route, computed before any step and priced as its own refusal prices it (``reduced.estimate_block_bytes``:
    the largest slice, q and the fixed part, ``reduced_memory.memory_parts``); over the limit, the run
    refuses at once.  Work shares are recomputed over every task still to compute, the limit's cost being its
    memory without the fixed part (the steps' cost is their memory too: ``probe_plan``)."""
    from ..rank.reduced_memory import OVERHEAD_BYTES, estimate_block_bytes

    memory = estimate_block_bytes(spec, field)
    gib = _gib(memory)
    plan["tasks"].insert(0, {
        "kind": "limit", "spec": spec.as_dict(), "method": "reduced", "field": field.name, "seed": seed, "params": {},
        "name": f"depth {spec.depth}, width {spec.width}, heads {spec.heads}, any N (reduced)",
        "cost": min(max(memory - OVERHEAD_BYTES, 1.0), 1e300), "memory_gib": gib, "stored": False,
        "over_limit": gib is None or gib > limit_gib})
    plan["to_compute"] += 1
    todo = sum(r["cost"] for r in plan["tasks"] if not r["stored"])
    for row in plan["tasks"]:
        row["share_of_work"] = 0.0 if row["stored"] or not todo else round(row["cost"] / todo, 6)
