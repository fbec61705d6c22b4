"""The atlas of the conjecture on N: which cells it computes, what each may spend, and what each costs.

Two sections (``docs/conjecture_n.md``, "The atlas"):

* the **grid** (``grid``): depth L, V = r, heads H, positional rank R (0, 1, 2 or full), the rank
  against N up to the limit;
* the **bound cells** (``bound``): where Theorem 2's proof bound has content, V = r = 8, 10, 12,
  L = 3, 4, 5, H = 1, 2, R = 1, 2 and 0 (issue 31, point 4): the smallest N at which the rank reaches it.

A cell is named ``L,V,H,R`` in the grid and ``bound:L,V,H,R`` among the bound cells (R: 0, 1, 2 or
``full``).  Work is priced before it is done, in evaluations of F or count-matrix entries, so what a
run reaches does not depend on the machine's load; ``estimate_seconds`` turns a cell into seconds from
the committed per-cell seconds (the ``seconds`` column of the last run), so a regeneration can be
priced before it starts.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, replace
from math import comb
from typing import TYPE_CHECKING, Any

from ...errors import InputError

if TYPE_CHECKING:
    from ...rank.token.gram import GramModel

__all__ = ["Budget", "GRIDS", "BOUND_CELLS", "CONSTANTS", "FULL", "Cell", "grid_cells", "bound_cells",
           "parse_cell", "step_cost", "bound_step_cost", "count_cost", "COUNT_ROWS_FROM", "even_ceil",
           "calibrate", "calibrate_sequences", "estimate_seconds", "budget_for", "grid_ceiling",
           "MAX_CELL_DEPTH", "MAX_CELL_VOCAB"]

#: The constants c of the conjectured scale c r L / log3 r the grid records the counting cap at.
CONSTANTS = (1, 2, 4)
#: Positional rank R = d_x (every position vector free).
FULL = "full"
#: The largest depth and vocabulary a named cell may have: the atlas's own reach (L <= 5, V <= 12) and a
#: margin; beyond them building the network alone outlasts any budget.
MAX_CELL_DEPTH, MAX_CELL_VOCAB = 6, 16


@dataclass(frozen=True)
class Budget:
    """What one grid cell may spend, priced before the work: evaluations of F for the limit and for one N
    and for all N together (positions), entries of one count matrix and of all together (no positions).
    Evaluations are scaled by 2 / L from depth 3 on (an evaluation costs about L layers); ``calibrate``
    times one to turn the prices into seconds."""

    limit_evaluations: int
    step_evaluations: int
    matrix_entries: int
    loop_evaluations: int
    loop_entries: int
    #: Evaluations of F the cell may spend repeating probabilistic results (the limit, then each probabilistic row)
    #: with independent draws until the product of their bounds is at most 1e-6 (``grid_repeats``, issue 47 item 5).
    repeat_evaluations: int = 0

    def evaluations(self, what: str, depth: int) -> int:
        return int(getattr(self, what) * min(1.0, 2 / depth))


#: The raised budgets of the cells issue 31 names (L = 3, V = 3, R = 1 and 2, both head counts), scaled by 2/3 at
#: L = 3: the R = 2 limit (3,102) takes about 40 million evaluations; at R = 1 (issue 39, item 8) N = 16 is ranked
#: whole (6,561^2 = 43 million evaluations: 696) and N = 18 by rows against all 19,683 columns (721 rows, 14.2
#: million: 705, the certified limit), about 64 million over the row.
#: The repeat budget of the raised cells (scaled by 2/3 at L = 3: 24 million): N = 12 and 14 of (3, 3, R = 1) repeat
#: to 1e-6 (4 runs each, about 21 million evaluations); N = 16 (one run ranks all 6,561^2 = 43 million) does not fit,
#: and its row says so.
REPEAT_RAISED = 36_000_000
RAISED: dict[tuple[int, int, int, int], dict[str, int]] = {(3, 3, heads, big_r): dict(limit_evaluations=60_000_000,
                                      step_evaluations=66_000_000 if big_r == 1 else 75_000_000,
                                      loop_evaluations=99_000_000 if big_r == 1 else 300_000_000,
                                      repeat_evaluations=REPEAT_RAISED)
          for heads in (1, 2) for big_r in (1, 2)}
#: (L = 4, V = 2, R = 1), both head counts (issue 49, item 3), scaled by 2/4 at L = 4: each N to 32 ranked by its
#: aim + 16 = 604 rows against every column (604 x 2^16 = 39.6 million at N = 32; about 80 million over N <= 32),
#: so no N <= 22 prints a square sample's rank below the whole matrix's (312 at N = 22).
RAISED.update({(4, 2, heads, 1): dict(step_evaluations=80_000_000, loop_evaluations=170_000_000)
               for heads in (1, 2)})

GRIDS: dict[str, dict[str, Any]] = {
    "full": dict(depths=(1, 2, 3, 4), vocabs=(2, 3, 4, 5, 6), heads=(1, 2), positional=(0, 1, 2, FULL),
                 budget=Budget(3_000_000, 1_500_000, 2_500_000, 6_000_000, 40_000_000, 24_000_000), raised=RAISED),
    "quick": dict(depths=(1, 2), vocabs=(2, 3), heads=(1,), positional=(0, 1),
                  budget=Budget(200_000, 60_000, 60_000, 200_000, 1_000_000, 400_000), raised={}),
}

#: The bound cells (section 2): V = r, depths, heads, positional ranks (0: the contrast without positions),
#: and one cell's budget in evaluations of F (with positions) or count-matrix entries (without).
BOUND_CELLS: dict[str, dict[str, Any]] = {
    # 21 million (issue 49): the bound-4,060 cells at their floors, 4,060^2 = 16.5 million evaluations with positions
    # and 4,076 x 5,005 = 20.4 million count-matrix entries at (10, 5, 1) without; (12, 5, 1) stays a row (990 million)
    "full": dict(depths=(3, 4, 5), vocabs=(8, 10, 12), heads=(1, 2), positional=(1, 2, 0), budget=21_000_000),
    "quick": dict(depths=(4,), vocabs=(6,), heads=(1, 2), positional=(1, 0), budget=200_000),
}


@dataclass(frozen=True)
class Cell:
    """One row of the atlas: ``section`` "grid" or "bound", depth, V = r, heads, positional (0, 1, 2 or FULL)."""

    section: str
    depth: int
    vocab: int
    heads: int
    positional: int | str

    @property
    def name(self) -> str:
        core = f"{self.depth},{self.vocab},{self.heads},{self.positional}"
        return core if self.section == "grid" else f"bound:{core}"

    @property
    def positional_rank(self) -> int:
        """R as a number: d_x = V + 1 for FULL."""
        return self.vocab + 1 if self.positional == FULL else int(self.positional)

    @property
    def key(self) -> tuple[str, ...]:
        """The CSV columns that name this row (``csv_rows.row_key`` of its row): R as a number, and in the grid
        whether it is full (every position vector free)."""
        if self.section == "grid":
            full = "true" if self.positional == FULL else "false"
            return ("grid", str(self.depth), str(self.vocab), str(self.heads), str(self.positional_rank), full)
        return ("bound", str(self.depth), str(self.vocab), str(self.heads), str(self.positional))


def grid_cells(which: str = "full") -> list[Cell]:
    grid = GRIDS[which]
    return [Cell("grid", d, v, h, r) for d in grid["depths"] for v in grid["vocabs"] for h in grid["heads"]
            for r in grid["positional"]]


def bound_cells(which: str = "full") -> list[Cell]:
    grid = BOUND_CELLS[which]
    return [Cell("bound", d, v, h, r) for d in grid["depths"] for v in grid["vocabs"] for h in grid["heads"]
            for r in grid["positional"]]


def parse_cell(text: str) -> Cell:
    """``L,V,H,R`` (a grid cell) or ``bound:L,V,H,R``; a malformed name is an InputError naming the form."""
    section, _, core = text.rpartition(":")
    section = section or "grid"
    parts = core.split(",")
    form = "give L,V,H,R (R: 0, 1, 2 or full), e.g. 3,3,1,1, or bound:L,V,H,R, e.g. bound:4,8,1,2"
    if section not in ("grid", "bound") or len(parts) != 4:
        raise InputError(f"cell {text!r} is not a cell name; {form}")
    try:
        depth, vocab, heads = (int(x) for x in parts[:3])
        positional = FULL if parts[3] == FULL else int(parts[3])
    except ValueError:
        raise InputError(f"cell {text!r} is not a cell name; {form}") from None
    if not (1 <= depth <= MAX_CELL_DEPTH and 2 <= vocab <= MAX_CELL_VOCAB and 1 <= heads <= vocab + 1):
        raise InputError(f"cell {text!r}: need 1 <= L <= {MAX_CELL_DEPTH}, 2 <= V <= {MAX_CELL_VOCAB} and "
                         f"1 <= H <= V + 1 (d_x = V + 1); {form}")
    if positional not in (0, 1, 2) + ((FULL,) if section == "grid" else ()):
        raise InputError(f"cell {text!r}: " + ("grid cells take R = 0, 1, 2 or full" if section == "grid" else
                                               "bound cells take R = 0, 1 or 2") + f"; {form}")
    return Cell(section, depth, vocab, heads, positional)


def grid_ceiling(cell: Cell, which: str = "full") -> int:
    """The most evaluations of F a grid cell can spend under its budget (``atlas.grid.grid_row`` stops at
    it): the limit's budget, the loop's, and the last N's step past it (a count-matrix entry priced as one
    evaluation without positions, an upper estimate as in ``atlas_bound.bound_estimate``)."""
    budget = budget_for(cell, which)
    if cell.positional_rank:
        steps = budget.evaluations("loop_evaluations", cell.depth) + budget.evaluations("step_evaluations", cell.depth)
    else:
        steps = budget.loop_entries + budget.matrix_entries
    return budget.evaluations("limit_evaluations", cell.depth) + steps + budget.evaluations("repeat_evaluations",
                                                                                              cell.depth)


def budget_for(cell: Cell, which: str = "full") -> Budget:
    """The grid budget of ``cell``, raised where ``RAISED`` names it."""
    grid = GRIDS[which]
    raised = grid["raised"].get((cell.depth, cell.vocab, cell.heads, cell.positional_rank), {})
    return replace(grid["budget"], **raised)


def even_ceil(x: float) -> int:
    return max(2, 2 * math.ceil(x / 2))


def step_cost(vocab: int, tokens: int, degree: int, positional: bool, aim: int, budget: int | None = None) -> int:
    """The priced size of one N of the grid: count-matrix entries without positions (rows x columns of the
    lattice route, rows V binom(min(N/2 - 1, C) + V - 1, V - 1), columns binom(min(N/2, C) + V - 1, V - 1)),
    evaluations of F with them: the first sample, k = min(V^(N/2), aim + 16) rows against all V^(N/2) columns
    where that fits ``budget`` (the step's, as ``token.route.sequence_rank`` samples), else k x k and beside it
    the r = (budget - k^2) // V^(N/2) rows against every column taken first (where 1 <= r < k)."""
    half, m = tokens // 2, vocab - 1
    if not positional:
        return vocab * comb(min(half - 1, degree) + m, m) * comb(min(half, degree) + m, m)
    count = vocab**half
    k = min(count, aim + 16)
    if budget is not None and k * count <= budget:
        return k * count
    rows = 0 if budget is None else (budget - k * k) // count  # ``token.route._rows_first``: rows first
    return k * k + (rows * count if 1 <= rows < k else 0)


#: Count matrices with more entries than this are ranked by bound + 16 of their rows against every column first
#: (``atlas.bound``; 100 and 71.5 million at the L = 5 cells (10, 5, 1) and (12, 5, 2)); smaller ones whole, so their
#: rows keep ``rank_at_n``, the whole matrix's rank, as before issue 49.
COUNT_ROWS_FROM = 20_000_000


def count_cost(vocab: int, tokens: int, degree: int) -> int:
    """The entries of the whole count matrix at N = ``tokens`` (``step_cost`` without positions)."""
    return step_cost(vocab, tokens, degree, False, 0)


def bound_step_cost(vocab: int, tokens: int, degree: int, positional: bool, bound: int) -> int:
    """The priced size of one N of a bound cell: bound^2 evaluations of F (the sampled bound x bound minor)
    with positions; without, the entries of the whole count matrix up to ``COUNT_ROWS_FROM``, beyond it those of
    bound + 16 rows against every column (``token.count_rows``; the whole matrix, ranked when the rows fall
    short, is priced then, ``count_cost``)."""
    if positional:
        return bound * bound
    half, m, whole = tokens // 2, vocab - 1, count_cost(vocab, tokens, degree)
    return whole if whole <= COUNT_ROWS_FROM else min(whole, (bound + 16) * comb(min(half, degree) + m, m))


def calibrate_sequences(model: GramModel, tokens: int, side: int = 384) -> float:
    """Seconds per evaluation of F by the pass the token samplers run at N = ``tokens`` (``token.route.sequence_grid``:
    the batched literal pass or the Gram route's compiled grid, whichever is cheaper there), timed on a ``side``
    x ``side`` grid of random sequences after one small warm-up grid (which loads the compiled code).  The
    bound cells' price model (issue 49): the old ``calibrate`` timed 32 x 32 points, below the size from which
    the compiled grid runs, so it priced the numpy passes (26.7 us an evaluation at (10, 5, 1) against 5.8 us
    measured over the whole cell)."""
    import numpy as np

    from ...rank.token.route import sequence_grid

    model.compiled = True  # the samplers' grids are above ``gram.COMPILED_MIN_PAIRS``
    model.constant = model.positions_constant(tokens)
    rng = np.random.default_rng(0)
    half, vocab = tokens // 2, model.embedding.vocab
    left, right = rng.integers(0, vocab, (side, half)), rng.integers(0, vocab, (side, tokens - half))
    sequence_grid(model, tokens, left[:2], right[:2])
    start = time.perf_counter()
    sequence_grid(model, tokens, left, right)
    return max(time.perf_counter() - start, 1e-6) / side**2


def calibrate(model: GramModel, side: int = 32) -> float:
    """Seconds per evaluation of F for this cell's model (a ``side`` x ``side`` grid of random points; the grid
    cells' rate, priced by the numpy passes they run below ``gram.COMPILED_MIN_PAIRS``)."""
    import numpy as np

    rng = np.random.default_rng(0)
    points = rng.integers(0, model.p, size=(2 * side, model.dim))
    start = time.perf_counter()
    model.evaluate_grid(points[:side], points[side:], np.zeros(side, dtype=np.int64))
    return max(time.perf_counter() - start, 1e-6) / side**2


def estimate_seconds(cells: list[Cell],
                     committed: dict[tuple[str, ...], dict[str, Any]]) -> tuple[dict[Cell, float], list[Cell]]:
    """({cell: seconds} from ``committed`` (row key -> the committed row), [cells with no committed row])."""
    known, unknown = {}, []
    for cell in cells:
        row = committed.get(cell.key)
        try:
            known[cell] = float(row["seconds"])
        except (TypeError, KeyError, ValueError):
            unknown.append(cell)
    return known, unknown
