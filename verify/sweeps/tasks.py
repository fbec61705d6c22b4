"""The kinds of sweep task, registered: each names what one task computes (in a worker) and the
JSON value the store keeps for it.  ``verify results --kind`` lists ``TASK_KINDS``; the executor
dispatches through it.  Adding a kind: one function and one ``register_task_kind`` call here."""

from __future__ import annotations

from typing import Callable

from .store import Task

__all__ = ["TASK_KINDS", "register_task_kind", "compute_value"]

#: Task kind -> function (Task) -> JSON-serialisable value, in registration order.
TASK_KINDS: dict[str, Callable[[Task], dict]] = {}


def register_task_kind(kind: str):
    def add(compute: Callable[[Task], dict]):
        TASK_KINDS[kind] = compute
        return compute
    return add


@register_task_kind("sep")
def _sep(task: Task) -> dict:
    """One run of the task's route through the engine's repeat loop (``max_runs=1``: the table's
    rank is one run at the task's seed, in the task's field, weights in [-2^31, 2^31])."""
    from ..exact.fields import parse_field
    from ..model.spec import DEFAULT_WEIGHT_RANGE
    from ..rank.sep import repeated_ranks

    found = repeated_ranks(task.spec, task.method, field=parse_field(task.field), seed=task.seed,
                           weight_range=DEFAULT_WEIGHT_RANGE, max_runs=1, **dict(task.limits)).best
    return {"rank": found.rank, "certified_lower_bound": found.certainty.certified_lower_bound,
            "probability_bound": found.certainty.probability_bound,
            "certified_exact": found.certainty.certified_exact,
            "upper_bound": (found.extra or {}).get("upper_bound"),
            "valid_from_tokens": (found.extra or {}).get("valid_from_tokens"),
            "blocks": len(found.blocks)}


@register_task_kind("real_rank")
def _real_rank(task: Task) -> dict:
    from ..rank.numrank import real_grid_rank

    params = dict(task.params)
    return real_grid_rank(task.spec, task.seed, templates=params["templates"], tokens=params["tokens"],
                          real=task.method == "bert").as_dict()


@register_task_kind("probe_step")
def _probe_step(task: Task) -> dict:
    from ..exact.fields import parse_field
    from .probe import probe_step

    return probe_step(task.spec, parse_field(task.field), task.seed, **dict(task.params), **dict(task.limits))


def compute_value(task: Task) -> dict:
    """The value of one task, by its kind."""
    if task.kind not in TASK_KINDS:
        raise ValueError(f"unknown task kind {task.kind!r}")
    return TASK_KINDS[task.kind](task)
