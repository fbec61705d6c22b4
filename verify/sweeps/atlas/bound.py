"""The atlas's bound cells (section 2): where Theorem 2's bound has content, the smallest N at which the
token rank reaches it (issue 31, point 4).

Wies, Levine, Jannai, Navon, Hoshen, Shashua, "Which transformer architecture fits my data? A vocabulary
bottleneck in self-attention" (ICML 2021, arXiv:2105.03928) conjecture (section 4) that Theorem 2's bound
((floor((r - 1 - H)/2) over 3^(L-2))) (its proof's V = r value, Lemma 7) holds from N = Omega(r L / log3 r).
Cells (``plan.BOUND_CELLS``): V = r in {8, 10, 12}, width r + 1, d_a = floor(d_x / H), H = 1, 2,
L = 3, 4, 5, positional rank R = 1, 2, and R = 0 for contrast.  For each cell ``bound_row`` records:

* ``bound``: Theorem 2's proof bound; ``scale``: r L / log3 r;
* ``counting_floor``: the smallest even N whose counting cap (V^(N/2) with positions, binom(N/2 + V - 1,
  V - 1) without) reaches the bound, 2 ceil(log_V bound) with positions: no smaller N can reach it (the
  cap bounds sep for every weight, docs/mathematics.md §7);
* ``n_reached``: the smallest N at which the rank is shown to reach the bound: with positions a sampled
  k x k minor (k = bound sequences a side, distinct, seeded) that is nonsingular mod p, a certified lower
  bound (rank at one point <= generic rank); without positions bound + 16 seeded rows of the count matrix against
  every column (``token.count_rows``; a submatrix, so certified too) where the whole count matrix has more than
  ``plan.COUNT_ROWS_FROM`` entries, else (or where the rows fall short) the whole count matrix (the exact
  count-route rank at these weights); tried from the counting floor up; ``n_reached_certainty``: certified where
  n_reached = counting_floor (no smaller N can reach the bound), else "at most" (a smaller N that was not shown to
  reach it may still);
* ``rank_at_least``: a certified lower bound on the generic sep at n_reached, shown by ``rank_route`` ("sampled
  minor" with positions; "count rows" (bound + 16 rows of the count matrix against every column) or "count route"
  (the whole count matrix) without); ``rank_at_n``: the rank of the whole token matrix at these weights mod p at
  n_reached where it was computed (the whole count matrix), empty where only a minor or some rows were ranked;
* ``eq74_at_n``: the positional bound of eq. 7.4 (the degree bound on the token grid, certified caps) at
  that N, and ``cap_at_n`` the counting cap; ``c``: n_reached / scale.

Every N is priced before it is computed (``plan.bound_step_cost``); a cell past the budget is a row
with the refused N's price (``next_step_price``, its unit, and its seconds at the rate measured here).  A cell
without Theorem 2's bound (r - 1 <= H) is a row saying so.
"""

from __future__ import annotations

import time
from typing import Any

from ...model.embeddings import VocabularyEmbedding
from ...model.spec import NetworkSpec, Weights, draw_weights
from ...rank.bound import conjecture_scale, lemma7_lower_bound
from ...rank.token.caps import count_caps
from ...rank.token.count_rows import count_rows_rank
from ...rank.token.gram import TOKEN_PRIME, GramModel
from ...rank.token.positional_bound import counting_floor, positional_bound
from ...rank.token.route import count_rank, sampled_minor_rank
from ...schema import csv_columns, csv_stamp
from .plan import COUNT_ROWS_FROM, Cell, bound_step_cost, calibrate, calibrate_sequences, count_cost

__all__ = ["BOUND_COLUMNS", "bound_row", "bound_price", "bound_estimate", "cell_rate"]

#: The columns, in order: the row schema's (``verify/schemas/n_positional_cells.schema.json``, docs/formats.md).
BOUND_COLUMNS = csv_columns("n_positional_cells")


def _network(cell: Cell, seed: int) -> tuple[NetworkSpec, Weights, VocabularyEmbedding]:
    width = cell.vocab + 1
    spec = NetworkSpec(depth=cell.depth, width=width, heads=cell.heads, attn_dim=max(1, width // cell.heads))
    embedding = VocabularyEmbedding(width, cell.vocab, cell.vocab, cell.positional_rank, seed)
    return spec, draw_weights(spec, seed), embedding


def bound_price(cell: Cell) -> int | None:
    """The priced work of ``cell`` at its counting floor (evaluations of F or count-matrix entries), the
    least it can cost; None without a bound."""
    bound = lemma7_lower_bound(cell.depth, cell.vocab, cell.heads)
    if not bound:
        return None
    floor = counting_floor(cell.vocab, bound, cell.positional_rank > 0)
    return bound_step_cost(cell.vocab, floor, (3**cell.depth - 1) // 2, cell.positional_rank > 0, bound)


def cell_rate(cell: Cell, seed: int = 0) -> float:
    """Seconds an evaluation of F of ``cell``'s network, measured here by the pass it runs at the counting floor
    (``plan.calibrate_sequences``: the sampled minors with positions; without, the count rows evaluate one sequence
    a count vector by the batched pass, and a count-matrix entry is priced as one evaluation: more entries than
    evaluations, about what the elimination adds)."""
    spec, weights, embedding = _network(cell, seed)
    bound = lemma7_lower_bound(cell.depth, cell.vocab, cell.heads)
    floor = counting_floor(cell.vocab, bound, cell.positional_rank > 0) if bound else 2
    return calibrate_sequences(GramModel(spec.with_tokens(floor), weights, embedding, TOKEN_PRIME), floor)


def bound_estimate(cell: Cell, budget: int, seed: int = 0, forecast: bool = False) -> tuple[int | None, float]:
    """(priced work at the counting floor, ``bound_price``; seconds it takes at the rate of F measured here for
    this cell's network, ``cell_rate``), or 0 seconds past ``budget`` (the cell is then a row with its estimate;
    ``forecast``: its seconds all the same, for a plan beyond the budget) or without a bound.  A count-matrix
    entry is priced as one evaluation of F (an upper estimate: the count route is cheaper per entry)."""
    work = bound_price(cell)
    if work is None or (work > budget and not forecast):
        return work, 0.0
    return work, work * cell_rate(cell, seed)


def bound_row(cell: Cell, budget: int, seed: int = 0) -> dict[str, Any]:
    """One row of the bound cells (module doc); ``budget``: evaluations of F (or entries) for the whole cell."""
    start = time.perf_counter()
    vocab, depth, heads, pos_rank = cell.vocab, cell.depth, cell.heads, cell.positional_rank
    bound = lemma7_lower_bound(depth, vocab, heads)
    scale = conjecture_scale(depth, vocab)
    row = {"r": vocab, "depth": depth, "heads": heads, "pos_rank": pos_rank, "bound": bound if bound else "",
           "scale": f"{scale:.2f}", "next_step_price": "", "next_step_unit": "", "next_step_seconds": "",
           "seed": seed, "prime": TOKEN_PRIME, **csv_stamp("n_positional_cells")}
    empty = dict.fromkeys(("counting_floor", "n_reached", "n_reached_certainty", "rank_at_least", "rank_route",
                           "rank_at_n", "eq74_at_n", "cap_at_n", "c"), "")
    if not bound:
        row.update(empty, status="no bound: Theorem 2's proof bound needs L >= 2 and (r - 1 - H)/2 >= 1",
                   seconds=f"{time.perf_counter() - start:.1f}")
        return row
    positional = pos_rank > 0
    floor = counting_floor(vocab, bound, positional)
    row["counting_floor"] = floor
    spec, weights, embedding = _network(cell, seed)
    model = GramModel(spec, weights, embedding, TOKEN_PRIME)
    rate = cell_rate(cell, seed) if positional else calibrate(model)
    tokens, spent = floor, 0
    while True:
        cost = bound_step_cost(vocab, tokens, spec.layer_degree, positional, bound)
        if spent + cost > budget:
            row.update(n_reached="", n_reached_certainty="", rank_at_least="", rank_route="", rank_at_n="",
                       status=f"N = {tokens} beyond the budget", next_step_price=cost,
                       next_step_unit="evaluations of F" if positional else "count-matrix entries",
                       next_step_seconds=f"{cost * rate:.0f}" if positional else "")
            break
        spent += cost
        whole = None  # the whole count matrix's rank, where it was computed
        if positional:
            found = sampled_minor_rank(spec, weights, embedding, tokens, bound, seed, TOKEN_PRIME)
        elif count_cost(vocab, tokens, spec.layer_degree) <= COUNT_ROWS_FROM:
            found = whole = count_rank(model, tokens)[0]
        else:
            found, taken, total, _, _ = count_rows_rank(model, tokens, bound + 16, seed)
            if taken == total:
                whole = found
            elif found < bound and spent + count_cost(vocab, tokens, spec.layer_degree) <= budget:
                spent += count_cost(vocab, tokens, spec.layer_degree)
                found = whole = count_rank(model, tokens)[0]  # the rows fell short: the whole matrix
        if found >= bound:
            # the first N is certified only at the counting floor: below it no N can reach the bound (the cap);
            # a smaller N tried above the floor was not shown to reach it, which does not show it cannot
            route = "sampled minor" if positional else "count route" if whole is not None else "count rows"
            row.update(n_reached=tokens, n_reached_certainty="certified" if tokens == floor else "at most",
                       rank_at_least=found, rank_route=route, rank_at_n="" if whole is None else whole,
                       status="reached")
            break
        tokens += 2
    at = row["n_reached"] or tokens
    row["eq74_at_n"] = positional_bound(depth, vocab, pos_rank, at).value if positional else ""
    row["cap_at_n"] = count_caps(vocab, at, positional).cap
    row["c"] = f"{row['n_reached'] / scale:.2f}" if row["n_reached"] else ""
    row["seconds"] = f"{time.perf_counter() - start:.1f}"
    return row
