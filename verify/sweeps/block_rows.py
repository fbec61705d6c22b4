"""Finished degree blocks of a reduced-route run as rows of the results store, so a killed run resumes.

``verify sep --store PATH`` (``verify.separation_rank(..., resume=BlockRows(store, spec))``): each
degree block, once ranked, is one row of kind ``degree_block``, committed before the next block starts
(``Store.put``: one transaction a row).  A run stopped by Ctrl-C, a signal or a lost machine starts
again with the same command and reads back the blocks it finished; the key is the spec, the field,
the run's seed and weight range, the degree a and whether the block was ranked alone (the block-level
repeats), so a stored block is only ever reused by a run that would compute it the same way.  The
device is not in the key: a rank is exact on either, so a run started on a GPU may finish on the CPU.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import fields
from typing import Any

from ..errors import InputError
from ..model.spec import NetworkSpec
from .store import Store, Task

__all__ = ["BLOCK_KIND", "BlockRows"]

#: The store's kind for one finished degree block.
BLOCK_KIND = "degree_block"


def block_row_problem(value: dict[Any, Any]) -> str | None:
    """A stored degree-block row that ``verify.rank.blocks.Block`` cannot hold (``Store.get`` has
    checked its counts): an unknown or a missing field.  ``plan``, the block's plan as it ran (kernel,
    device, leaf route, bytes, estimated seconds: ``verify.rank.block_plan``), is kept beside the block's
    fields as a record of where it ran; resuming reads the block's fields only."""
    from ..rank.blocks import Block  # here: the store's users need not import the rank engine

    names = {f.name for f in fields(Block)} | {"plan"}
    unknown, missing = sorted(set(value) - names), sorted({"rows", "cols", "rank"} - set(value))
    if unknown:
        return f"unknown fields {unknown}"
    if missing:
        return f"missing fields {missing}"
    return None


class _RunRows:
    """The rows of one run (field, seed, weight range): ``get(a, alone)`` and ``put(a, alone, value, seconds)``."""

    rows: BlockRows
    spec: NetworkSpec
    field: str
    seed: int
    weight_range: int

    def __init__(self, rows: BlockRows, field: str, seed: int, weight_range: int) -> None:
        self.rows, self.spec, self.field, self.seed, self.weight_range = rows, rows.spec, field, seed, weight_range

    def _task(self, a: int, alone: bool) -> Task:
        params = (("alone", bool(alone)), ("degree", int(a)), ("weight_range", int(self.weight_range)))
        return Task(BLOCK_KIND, self.spec, "reduced", self.field, self.seed, params=params)

    def get(self, a: int, alone: bool) -> dict[Any, Any] | None:
        store = self.rows.store
        value = store.get(self._task(a, alone))
        if value is not None:
            problem = block_row_problem(value)
            if problem:
                self.damaged(a, problem)
        return value

    def damaged(self, a: int, problem: str) -> None:
        """Refuse a stored row the engine could not have written (e.g. a rank above the block's proven bound)."""
        raise InputError(f"the results store {self.rows.store.path} is damaged (the row of degree block {a}: "
                         f"{problem}); delete or move it, pass another --store PATH, or drop --store")

    def put(self, a: int, alone: bool, value: dict[Any, Any], seconds: float) -> None:
        self.rows.store.put(self._task(a, alone), value, seconds)
        self.rows.kept += 1


class BlockRows:
    """``resume`` for ``verify.separation_rank``: (field name, seed, weight range) -> that run's rows.

    ``store``: an open ``Store``, or a callable that opens one, called when the first block is looked up,
    so a run refused before its first block (the memory estimate, ``--device gpu``) creates no file.
    ``kept``: how many blocks this object stored (what an interrupted ``verify sep --store`` reports)."""

    spec: NetworkSpec
    kept: int

    def __init__(self, store: Store | Callable[[], Store], spec: NetworkSpec) -> None:
        self._store, self.spec, self.kept = store, spec.with_tokens(None), 0

    @property
    def store(self) -> Store:
        if not isinstance(self._store, Store):
            self._store = self._store()
        return self._store

    @property
    def opened(self) -> bool:
        return isinstance(self._store, Store)

    def close(self) -> None:
        if self.opened:
            self._store.close()

    def __call__(self, field: str, seed: int, weight_range: int) -> _RunRows:
        return _RunRows(self, field, seed, weight_range)
