"""The kinds of sweep task, registered: each names what one task computes (in a worker) and the
JSON value the store keeps for it.  ``verify results --kind`` lists ``TASK_KINDS``; the executor
dispatches through it.  Adding a kind: one function and one ``register_task_kind`` call here."""

from __future__ import annotations

from typing import Any, Callable

from .store import Task

__all__ = ["TASK_KINDS", "register_task_kind", "compute_value"]

#: Task kind -> function (Task) -> JSON-serialisable value, in registration order.
TASK_KINDS: dict[str, Callable[[Task], dict[Any, Any]]] = {}


def register_task_kind(kind: str) -> Callable[[Callable[[Task], dict[Any, Any]]], Callable[[Task], dict[Any, Any]]]:
    """A decorator adding its function to ``TASK_KINDS`` under ``kind``."""

    def add(compute: Callable[[Task], dict[Any, Any]]) -> Callable[[Task], dict[Any, Any]]:
        TASK_KINDS[kind] = compute
        return compute
    return add


@register_task_kind("sep")
def _sep(task: Task) -> dict[Any, Any]:
    """The table's rank of one spec.  Field ``auto``: ``verify sep``'s repeat loop (a fast prime first,
    then 2^63 - 25 and below or 2^40 - 87 and below by expected cost, block-level, weights uniform over each field)
    until certified exact or the bound is at most 1e-9; otherwise one run in the task's field, weights in
    [-2^31, 2^31]."""
    from ..exact.fields import parse_field
    from ..model.spec import DEFAULT_WEIGHT_RANGE
    from ..rank.block_plan import Placement
    from ..rank.sep import device_for, repeated_ranks
    from ..version import __version__

    limits = dict(task.limits)
    placement = Placement(device_for(task.spec, task.method, limits.pop("device", "cpu"),
                                     None if task.field == "auto" else parse_field(task.field)))
    if task.field == "auto":
        repeated = repeated_ranks(task.spec, task.method, field=None, seed=task.seed, placement=placement, **limits)
        found, bound = repeated.best, repeated.probability_bound
        primes = sorted({r.prime for r in repeated.runs if r.prime is not None}, reverse=True)
        runs, exact = len(repeated.runs), repeated.certified_exact
    else:
        found = repeated_ranks(task.spec, task.method, field=parse_field(task.field), seed=task.seed,
                               weight_range=DEFAULT_WEIGHT_RANGE, max_runs=1, placement=placement, **limits).best
        bound, exact, runs = found.certainty.probability_bound, found.certainty.certified_exact, 1
        primes = [] if parse_field(task.field).modulus is None else [parse_field(task.field).modulus]
    return {"rank": found.rank, "certified_lower_bound": found.certainty.certified_lower_bound,
            "probability_bound": bound, "certified_exact": exact,
            "upper_bound": (found.extra or {}).get("upper_bound"),
            "valid_from_tokens": (found.extra or {}).get("valid_from_tokens"),
            "blocks": len(found.blocks), "seed": task.seed, "primes": primes, "runs": runs, "version": __version__}


@register_task_kind("real_rank")
def _real_rank(task: Task) -> dict[Any, Any]:
    from ..rank.numrank import real_grid_rank

    params = dict(task.params)
    return real_grid_rank(task.spec, task.seed, templates=params["templates"], tokens=params["tokens"],
                          real=task.method == "bert").as_dict()


@register_task_kind("probe_step")
def _probe_step(task: Task) -> dict[Any, Any]:
    from ..exact.fields import parse_field
    from .probe import probe_step

    return probe_step(task.spec, parse_field(task.field), task.seed, **dict(task.params), **dict(task.limits))


def compute_value(task: Task) -> dict[Any, Any]:
    """The value of one task, by its kind."""
    if task.kind not in TASK_KINDS:
        raise ValueError(f"unknown task kind {task.kind!r}")
    return TASK_KINDS[task.kind](task)
