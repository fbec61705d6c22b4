"""Rank of a sparse matrix by splitting it into the connected components of its pattern.

A matrix whose rows and columns split into groups with no nonzero entry between different
groups is block diagonal after permutation, and its rank is the sum of the blocks' ranks.  The
groups are the connected components of the bipartite graph with an edge (row, column) for each
nonzero entry (``docs/mathematics.md`` §2: "find the blocks from the nonzero pattern").
"""

from __future__ import annotations

import random
import time
from dataclasses import asdict, dataclass, field, fields
from typing import TYPE_CHECKING, Any, Protocol

import networkx as nx
import numpy as np

from ..exact.fields import Field
from ..exact.kernels import kernel_for
from ..exact.phases import record, split
from .memory import guard

if TYPE_CHECKING:
    from collections.abc import Callable

    from .block_plan import RunPlan


__all__ = ["BlockKeeper", "Block", "walk_outward", "BlockRank", "components", "rank_dense", "rank_by_blocks",
           "rank_array", "stored_block", "keep_block", "timed"]


class BlockKeeper(Protocol):
    """Where a run keeps its finished degree blocks (what ``separation_rank``'s ``resume`` returns for a
    run; ``verify.sweeps.block_rows`` keeps them as rows of the results store)."""

    def get(self, a: int, alone: bool) -> dict[str, Any] | None: ...

    def put(self, a: int, alone: bool, value: dict[str, Any], seconds: float) -> None: ...

    def damaged(self, a: int, problem: str) -> None: ...


def rank_array(field: Field, array: np.ndarray, overwrite: bool = False) -> tuple[int, str]:
    """Exact rank over ``field`` of a 2-D integer numpy array on the CPU, and which kernel gave it
    (``verify.exact.kernels``).  ``overwrite``: the kernel may consume an int64 array's memory.  (The
    degree blocks rank through their run's plan, ``verify.rank.block_plan``.)"""
    kernel = kernel_for(field, *array.shape)
    return kernel.rank(array, overwrite=overwrite), kernel.name


def _flint_rank(field: Field, matrix) -> int:
    """Rank of a matrix already in FLINT (a sparse fill, a compressed product), by the registry's FLINT kernel."""
    return kernel_for(field, matrix.nrows(), matrix.ncols(), kernel="flint").rank(matrix)


@dataclass
class Block:
    """One diagonal block: its shape, its rank, and whether its columns were compressed."""

    rows: int
    cols: int
    rank: int
    compressed_to: int | None = None
    #: Set when the rank follows from another degree block's (``degree_blocks``), not computed.
    implied_by: int | None = None
    #: Proven upper bound on the block's generic rank (``verify.rank.bound``), where one is known.
    upper_bound: int | None = None
    #: Which elimination gave the rank: a kernel's name (``verify.exact.kernels``), or the field's own
    #: (``None`` when implied by another block or not recorded).
    elimination: str | None = None
    #: Schwartz-Zippel bound on this run's rank of the block being below its generic rank
    #: (``verify.rank.certainty.block_bound``); 0 when it meets ``upper_bound``, None if not known.
    probability_bound: float | None = None
    #: False for a block a later run of the block-level repeats left out (``verify.rank.repeat``).
    ranked: bool = True
    #: Seconds of its ranking by phase (gather, products, leaves, check: ``verify.exact.phases``), where timed.
    seconds: dict[Any, Any] | None = None


@dataclass
class BlockRank:
    """Sum of block ranks, with the blocks; ``compressed`` is true if any block was compressed."""

    rank: int
    blocks: list[Any] = field(default_factory=list)

    @property
    def compressed(self) -> bool:
        return any(b.compressed_to is not None for b in self.blocks)


def components(rows: np.ndarray, cols: np.ndarray) -> list[tuple[np.ndarray, np.ndarray]]:
    """Connected components of the bipartite graph with edges (rows[k], cols[k]).

    Returns a list of (row indices, column indices), one pair per component, each sorted.

    Notes
    -----
    networkx ``connected_components`` on a graph with one node per distinct row and column and
    one edge per nonzero entry: O(nodes + edges).
    """
    graph = nx.Graph()
    graph.add_edges_from(zip(rows.tolist(), (-1 - cols).tolist(), strict=False))
    found = []
    for comp in nx.connected_components(graph):
        idx = np.fromiter(comp, dtype=np.int64, count=len(comp))
        found.append((np.sort(idx[idx >= 0]), np.sort(-1 - idx[idx < 0])))
    found.sort(key=lambda rc: (len(rc[0]) * len(rc[1]), int(rc[0][0])))
    return found


def rank_dense(field: Field, matrix: list[list[int]] | np.ndarray, rows: int, cols: int,
               compress_ratio: float | None = None, rng: random.Random | None = None) -> Block:
    """Exact rank of a dense integer matrix over ``field``.

    With ``compress_ratio`` set and cols > compress_ratio * rows, the matrix is multiplied on
    the right by a random cols x rows matrix first: rank(M G) <= rank(M), with equality unless
    a nonzero polynomial of degree <= rows in G's entries vanishes (Schwartz-Zippel).
    """
    if rows == 0 or cols == 0:
        return Block(rows, cols, 0)
    squeeze = compress_ratio is not None and cols > compress_ratio * rows
    if isinstance(matrix, np.ndarray) and not squeeze:
        rank, how = rank_array(field, matrix)
        return Block(rows, cols, rank, elimination=how)
    if isinstance(matrix, np.ndarray):
        mat = field.from_rows(matrix)
    else:
        mat = field.matrix(rows, cols, [v for row in matrix for v in row])
    if compress_ratio is not None and cols > compress_ratio * rows:
        rng = rng or random.Random(0)
        mat = mat * field.random_matrix(cols, rows, rng)
        return Block(rows, cols, _flint_rank(field, mat), compressed_to=rows, elimination=field.elimination)
    return Block(rows, cols, _flint_rank(field, mat), elimination=field.elimination)


def rank_by_blocks(field: Field, rows: np.ndarray, cols: np.ndarray, values: list[Any],
                   progress: Callable[[int, int], object] | None = None,
                   max_memory_gib: float | None = None) -> BlockRank:
    """Rank over ``field`` of the sparse matrix with entries values[k] at (rows[k], cols[k]).

    Values are integers (reduced mod p or not); entries with value zero must be left out, so
    that the pattern is the true nonzero pattern.  Each block is filled into a zero FLINT
    matrix from its nonzeros and ranked there; ``max_memory_gib`` guards the largest block.
    """
    result = BlockRank(0)
    if len(values) == 0:
        return result
    comps = components(rows, cols)
    if max_memory_gib is not None:
        largest = max(len(r) * len(c) for r, c in comps)
        guard(largest * 8 * (1 if field.modulus else 4), max_memory_gib,
              f"the largest block of the coefficient matrix ({largest:,} entries)", "use fewer --tokens")
    row_comp = np.empty(int(rows.max()) + 1, dtype=np.int64)
    for c, (r_idx, _) in enumerate(comps):
        row_comp[r_idx] = c
    entry_comp = row_comp[rows]
    order = np.argsort(entry_comp, kind="stable")
    bounds = np.searchsorted(entry_comp[order], np.arange(len(comps) + 1))
    for c, (r_idx, c_idx) in enumerate(comps):
        sel = order[bounds[c]:bounds[c + 1]]
        mat = field.zeros(len(r_idx), len(c_idx))
        local_rows = np.searchsorted(r_idx, rows[sel]).tolist()
        local_cols = np.searchsorted(c_idx, cols[sel]).tolist()
        for i, j, k in zip(local_rows, local_cols, sel.tolist(), strict=False):
            mat[i, j] = values[k]
        block = Block(len(r_idx), len(c_idx), _flint_rank(field, mat), elimination=field.elimination)
        result.blocks.append(block)
        result.rank += block.rank
        if progress is not None:
            progress(c + 1, len(comps))
    return result


#: What a stored block's row holds of ``Block`` (the rest: its plan, read by people and ``verify results``).
BLOCK_FIELDS = {f.name for f in fields(Block)}


def stored_block(done: BlockKeeper | None, a: int, alone: bool, bound: int | None) -> Block | None:
    """Block a as ``done`` kept it (``alone``: ranked without a neighbour's hint), or None; a stored rank above
    the block's proven bound is refused as a damaged row (no engine gives it)."""
    stored = None if done is None else done.get(a, alone)
    if stored is None:
        return None
    block = Block(**{k: v for k, v in stored.items() if k in BLOCK_FIELDS})
    if bound is not None and block.rank > bound:
        done.damaged(a, f"rank {block.rank} above the block's proven bound {bound}")
    return block


def keep_block(done: BlockKeeper | None, plan: RunPlan, a: int, alone: bool, block: Block) -> None:
    """Store finished block a in ``done`` (if any) with its plan, its seconds the sum of its phases."""
    if done is None:
        return
    value = asdict(block)
    if a < len(plan.blocks):
        value["plan"] = plan.blocks[a].as_dict()
    done.put(a, alone, value, sum((block.seconds or {}).values()))


def timed(compute: Callable[[], Block]) -> Block:
    """``compute()``'s block with its seconds split by phase (``verify.exact.phases``)."""
    start = time.perf_counter()
    with record() as seconds:
        block = compute()
    block.seconds = split(seconds, time.perf_counter() - start)
    return block


def walk_outward(sizes: list[tuple[int, int]], turn: int, rank_of: Any, found: dict[int, Block],
                 notes: list[str]) -> None:
    """The degree blocks' walk (module doc of ``degree_blocks``), into ``found`` and ``notes``: from the turn
    outward, each block's rank ``rank_of(a)`` (which may read ``found``) until one is full, its row rank
    propagating to lower degrees (wide blocks, going down) or its column rank to higher ones (tall blocks, going
    up); the blocks beyond it are implied by it.  Shared by the local run and the cluster's (``block_tasks``)."""
    top = len(sizes) - 1
    for a in range(turn, -1, -1):  # wide blocks, outward: full row rank propagates down
        found[a] = rank_of(a)
        if found[a].rank == sizes[a][0]:
            for below in range(a):
                found[below] = Block(*sizes[below], sizes[below][0], implied_by=a)
            if a:
                notes.append(f"degree blocks 0..{a - 1} have full row rank, because block {a} has full row rank "
                             f"and full row rank propagates to lower degrees")
            break
    for a in range(turn + 1, top + 1):  # tall blocks, outward: full column rank propagates up
        found[a] = rank_of(a)
        if found[a].rank == sizes[a][1]:
            for above in range(a + 1, top + 1):
                found[above] = Block(*sizes[above], sizes[above][1], implied_by=a)
            if a < top:
                notes.append(f"degree blocks {a + 1}..{top} have full column rank, because block {a} has full "
                             f"column rank and full column rank propagates to higher degrees")
            break
