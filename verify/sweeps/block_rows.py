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

from dataclasses import fields

from ..errors import InputError
from ..model.spec import NetworkSpec
from ..rank.blocks import Block
from .store import Store, Task

__all__ = ["BLOCK_KIND", "BlockRows"]

#: The store's kind for one finished degree block.
BLOCK_KIND = "degree_block"


class _RunRows:
    """The rows of one run (field, seed, weight range): ``get(a, alone)`` and ``put(a, alone, value, seconds)``."""

    def __init__(self, store: Store, spec: NetworkSpec, field: str, seed: int, weight_range: int):
        self.store, self.spec, self.field, self.seed, self.weight_range = store, spec, field, seed, weight_range

    def _task(self, a: int, alone: bool) -> Task:
        params = (("alone", bool(alone)), ("degree", int(a)), ("weight_range", int(self.weight_range)))
        return Task(BLOCK_KIND, self.spec, "reduced", self.field, self.seed, params=params)

    def get(self, a: int, alone: bool) -> dict | None:
        value = self.store.get(self._task(a, alone))
        if value is not None:
            problem = block_row_problem(value)
            if problem:
                raise InputError(f"the results store {self.store.path} is damaged (the row of degree block {a}: "
                                 f"{problem}); delete or move it, pass another --store PATH, or drop --store")
        return value

    def put(self, a: int, alone: bool, value: dict, seconds: float) -> None:
        self.store.put(self._task(a, alone), value, seconds)


def block_row_problem(value: dict) -> str | None:
    """A stored degree-block row that ``verify.rank.blocks.Block`` cannot hold (``Store.get`` has
    checked its counts): an unknown or a missing field."""
    names = {f.name for f in fields(Block)}
    unknown, missing = sorted(set(value) - names), sorted({"rows", "cols", "rank"} - set(value))
    if unknown:
        return f"unknown fields {unknown}"
    if missing:
        return f"missing fields {missing}"
    return None


class BlockRows:
    """``resume`` for ``verify.separation_rank``: (field name, seed, weight range) -> that run's rows."""

    def __init__(self, store: Store, spec: NetworkSpec):
        self.store, self.spec = store, spec.with_tokens(None)

    def __call__(self, field: str, seed: int, weight_range: int) -> _RunRows:
        return _RunRows(self.store, self.spec, field, seed, weight_range)
