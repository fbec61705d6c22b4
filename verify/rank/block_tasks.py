"""Degree blocks as standalone tasks: each block of one run ranked alone, on whichever machine can hold it.

A run of the reduced route (``verify.rank.degree_blocks``) ranks degree block a from the turn outward,
each block hinted by its computed neighbour, and stops at the first full block each way (full row rank
propagates down, full column rank up).  The blocks are independent computations, so a *runner*
(``Placement.runner``; ``verify.sweeps.sep_cluster.BlockCluster`` on a Dask cluster) can rank them at
once on other machines.  Then:

* **Every block is ranked alone** (``degree_blocks.block_alone``: no neighbour's hint, as the block-level
  repeats rank), so a block's value depends on the run (field, seed, weights) and a only, never on which
  block finished first; it is kept in the store under ``alone`` as those repeats' blocks are.  A hint only
  sizes a slice, so the rank is the block's exact rank at these weights either way, as in a local run
  (the one exception, a mixed null space of more than 32 rows, is the same bounded event in both).
* **The walk decides afterwards.**  Every block the walk could visit is submitted, the largest first; a
  block becomes unneeded once a block between it and the turn is known full (then the walk stops before
  it), and is dropped if it has not started.  The result is assembled by the same walk as a local run's,
  from the turn outward to the first full block, with the same ``implied_by`` blocks and notes; blocks
  ranked beyond the stop are kept in the store but not used.
* **Memory.**  A block task holds its planned slice (``BlockPlan.bytes``), the moment table (priced as
  the memory estimate prices it, 32 bytes a term and component) and ``OVERHEAD_BYTES``: ``task_bytes``.
  The runner sends a block only to a worker that can hold it, and refuses one no worker can.
* **The store lives with the caller.**  Workers return blocks; each is stored here as it arrives, so a
  killed run resumes with the same call, reading back the blocks it finished.

Nothing here knows Dask: the runner is any object with the ``BlockRunner`` methods.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import comb
from typing import TYPE_CHECKING, Any, Callable, Iterator, Protocol

from .block_plan import RunPlan, degree_sizes, plan_block
from .blocks import Block, keep_block, stored_block, timed, walk_outward
from .degree_blocks import block_alone
from .reduced_memory import OVERHEAD_BYTES

if TYPE_CHECKING:
    from ..model.spec import NetworkSpec
    from .blocks import BlockKeeper
    from .moments import DenseMoments, SearchMoments

__all__ = ["BlockTask", "BlockRunner", "task_bytes", "plan_tasks", "rank_task", "ranks_by_tasks"]

#: Bytes the moment table holds a term and component (``verify.rank.reduced_memory``'s price).
MOMENT_BYTES = 32


@dataclass(frozen=True)
class BlockTask:
    """Degree block ``degree`` (rows x cols, proven bound ``upper``) as a task needing ``memory`` bytes."""

    degree: int
    rows: int
    cols: int
    upper: int | None
    memory: int


class BlockRunner(Protocol):
    """What ranks a run's block tasks elsewhere (``verify.sweeps.sep_cluster.BlockCluster``)."""

    def admit(self, tasks: list[BlockTask]) -> None:
        """Refuse (``InputError``) before any work a task that no worker can hold."""

    def rank_blocks(self, rank_one: Callable[..., Any], shared: tuple[Any, ...], tasks: list[BlockTask],
                    needed: Callable[[BlockTask], bool]) -> Iterator[tuple[BlockTask, Block]]:
        """``rank_one(shared, task)`` of every task, in the given order of priority, yielded as each finishes;
        a task no longer ``needed`` may be dropped before it starts."""

    def describe(self) -> str:
        """Where the blocks ran, for a note."""


def task_bytes(plan: RunPlan, a: int, rows: int, cols: int, upper: int | None, terms: int, components: int) -> int:
    """Bytes block a's task holds at most: its planned slice, the moment table of ``components`` x ``terms``
    values and the overhead (module notes).  A block the plan does not have (a q of lower degree than the
    spec's) is planned here."""
    planned = plan.blocks[a] if a < len(plan.blocks) else None
    if planned is None or (planned.rows, planned.cols) != (rows, cols):
        planned = plan_block(plan.field, plan.device, a, rows, cols, upper, plan.leaf)
    return planned.bytes + components * terms * MOMENT_BYTES + OVERHEAD_BYTES


def plan_tasks(plan: RunPlan, spec: NetworkSpec) -> list[BlockTask]:
    """The block tasks of ``spec``'s planned run (``verify sep --dry-run --scheduler``), in the plan's order."""
    nvars, top = spec.width * (spec.width + 1) // 2, spec.layer_degree
    terms = comb(top + nvars - 1, nvars - 1)
    return [BlockTask(b.degree, b.rows, b.cols, b.upper,
                      task_bytes(plan, b.degree, b.rows, b.cols, b.upper, terms, spec.width)) for b in plan.blocks]


def rank_task(shared: tuple[Any, ...], task: BlockTask) -> Block:
    """What a worker runs: ``shared`` = (plan, moments, nvars, top, seed, max_memory_gib), the run's, sent once;
    block ``task.degree`` ranked alone and timed by phase."""
    plan, moments, nvars, top, seed, max_memory_gib = shared
    return timed(lambda: block_alone(plan, moments, nvars, top, task.degree, seed, max_memory_gib, task.upper))


def _walk(found: dict[int, Block], sizes: list[tuple[int, int]], turn: int) -> tuple[list[Block], list[str]]:
    """The local run's walk (``blocks.walk_outward``) over blocks already ranked: the same blocks and notes."""
    walked: dict[int, Block] = {}
    notes: list[str] = []
    walk_outward(sizes, turn, found.__getitem__, walked, notes)
    return [walked[a] for a in range(len(sizes))], notes


def ranks_by_tasks(plan: RunPlan, moments: DenseMoments | SearchMoments, nvars: int, top: int,
                   progress: Callable[[int, int], object] | None = None, seed: object = 0,
                   max_memory_gib: float | None = None, only: list[int] | None = None,
                   uppers: list[int] | None = None,
                   done: BlockKeeper | None = None) -> tuple[int, list[Block], list[str]]:
    """``degree_blocks.degree_block_ranks`` with every block a task of ``plan.runner`` (module notes): the same
    arguments and the same (rank, blocks, notes)."""
    bound_of = (lambda a: None) if uppers is None else uppers.__getitem__
    sizes = degree_sizes(nvars, top, moments.count)
    turn = max(a for a, (rows, cols) in enumerate(sizes) if rows <= cols)
    wanted = sorted(set(only)) if only is not None else list(range(top + 1))
    found = {a: block for a in wanted if (block := stored_block(done, a, True, bound_of(a))) is not None}

    def needed(a: int) -> bool:  # whether the walk may still visit block a (module notes)
        if only is not None:
            return True
        if a <= turn:
            return not any(b in found and found[b].rank == sizes[b][0] for b in range(a + 1, turn + 1))
        return not any(b in found and found[b].rank == sizes[b][1] for b in range(turn + 1, a))

    terms = comb(top + nvars - 1, nvars - 1)
    tasks = [BlockTask(a, *sizes[a], bound_of(a), task_bytes(plan, a, *sizes[a], bound_of(a), terms, moments.count))
             for a in wanted if a not in found and needed(a)]
    tasks.sort(key=lambda t: (-t.memory, abs(2 * t.degree - 2 * turn - 1)))  # the largest first, then the middle
    if tasks:
        plan.runner.admit(tasks)
        shared = (plan, moments, nvars, top, seed, max_memory_gib)  # the plan travels without its runner
        for task, block in plan.runner.rank_blocks(rank_task, shared, tasks, lambda t: needed(t.degree)):
            keep_block(done, plan, task.degree, True, block)
            found[task.degree] = block
            if progress is not None:
                progress(len(found), top + 1)
    if progress is not None:
        progress(top + 1, top + 1)
    if only is not None:
        blocks = [found[a] if a in found else Block(*sizes[a], 0, ranked=False) for a in range(top + 1)]
        return sum(b.rank for b in blocks), blocks, [f"degree blocks {wanted} only (block-level repeat)"]
    blocks, notes = _walk(found, sizes, turn)
    return sum(b.rank for b in blocks), blocks, notes
