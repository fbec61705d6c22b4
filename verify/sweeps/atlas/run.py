"""Running the atlas's cells: one cell's row (``compute_cell``), and a list of cells on one or more worker
processes (``run_cells``), each grid cell started only after the cells whose limit could skip it
(``grid.blockers``), so the rows do not depend on the number of workers or the order they finish in.
Workers are the sweeps' process pool (``executor.executor``): they die with the run, and an interrupt
ends them."""

from __future__ import annotations

from collections.abc import Iterator
from concurrent.futures import FIRST_COMPLETED, wait
from dataclasses import replace
from typing import Any

from .bound import bound_row
from .grid import blockers, grid_row, skip_reason
from .plan import BOUND_CELLS, Cell, budget_for

__all__ = ["compute_cell", "run_cells"]


def compute_cell(cell: Cell, which: str = "full", seed: int = 0, skip: str | None = None,
                 raise_budget: dict[str, int] | None = None) -> dict[str, Any]:
    """The row of ``cell`` at the budgets of grid ``which`` ("full" or "quick"); ``raise_budget``: budget
    fields to override (grid: ``plan.Budget``'s; bound cells: ``bound_evaluations``)."""
    raise_budget = dict(raise_budget or {})
    if cell.section == "bound":
        return bound_row(cell, raise_budget.get("bound_evaluations", BOUND_CELLS[which]["budget"]), seed)
    raise_budget.pop("bound_evaluations", None)
    return grid_row(cell, replace(budget_for(cell, which), **raise_budget), seed, skip)


def run_cells(cells: list[Cell], which: str = "full", seed: int = 0, jobs: int = 1,
              known: dict[Cell, dict[str, Any]] | None = None, raise_budget: dict[str, int] | None = None,
              estimate: dict[Cell, float] | None = None,
              scheduler: str | None = None) -> Iterator[tuple[Cell, dict[str, Any]]]:
    """Yield (cell, row) for each of ``cells`` as it finishes.  ``known``: rows of cells not run here (Cell ->
    row), read by the skip rule; ``estimate``: Cell -> seconds, to start the longest ready cell first (two
    workers then finish together).  ``jobs`` = 1 runs here, one cell after another, in the given order.
    ``scheduler``: a Dask scheduler's address; each cell is then a task on its workers (``executor.executor``,
    as the sweeps' --scheduler), every cell submitted as soon as the cells that could skip it are done, the
    longest first, and Dask spreads them over its workers (``jobs`` is not used)."""
    done = dict(known or {})
    if scheduler is not None:
        yield from _run_pool(cells, which, seed, len(cells), done, raise_budget, estimate, scheduler)
        return
    if jobs <= 1:
        for cell in cells:
            row = compute_cell(cell, which, seed, skip_reason(cell, done), raise_budget)
            done[cell] = row
            yield cell, row
        return
    yield from _run_pool(cells, which, seed, jobs, done, raise_budget, estimate, None)


def _run_pool(cells, which, seed, jobs, done, raise_budget, estimate, scheduler):
    """``run_cells`` on ``jobs`` local worker processes, or on the Dask cluster at ``scheduler``."""
    from ..executor import executor

    waiting = {cell: blockers(cell, cells) for cell in cells}
    cost = estimate or {}
    with executor(scheduler, workers=jobs) as pool:
        running = {}
        while waiting or running:
            ready = sorted((c for c, before in waiting.items() if all(b in done for b in before)),
                           key=lambda c: -cost.get(c, 0.0))
            for cell in ready[:max(0, jobs - len(running))]:
                del waiting[cell]
                running[pool.submit(compute_cell, cell, which, seed, skip_reason(cell, done), raise_budget)] = cell
            finished, _ = wait(list(running), return_when=FIRST_COMPLETED)
            for future in finished:
                cell = running.pop(future)
                done[cell] = future.result()
                yield cell, done[cell]
