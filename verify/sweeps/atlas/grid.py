"""The atlas's grid (section 1): exact token ranks sep(N) over depth, V = r, heads and positional rank.

Wies, Levine, Jannai, Navon, Hoshen, Shashua, "Which transformer architecture fits my data? A vocabulary
bottleneck in self-attention" (ICML 2021, arXiv:2105.03928) conjecture (section 4) that Theorem 2's lower
bound holds from N = Omega(r L / log3 r).  For each cell (depth L, V = r, heads H, positional rank R,
width d_x = r + 1, d_a = floor(d_x / H)) ``grid_row`` records

* the N-independent limit (``token.limit.token_limit``) with its certainty label;
* sep(N) for N = 2, 4, ... (the Gram route: ``count_rank`` without positions, exact at these weights mod
  p; ``sequence_rank`` with them, aimed at eq. 7.4, each rank labelled certified exact, probabilistic or a
  lower bound by ``rank.labels.row_certainty``), stopping at the first N where the rank reaches the
  limit (rank <= limit at every N);
* the first N where the rank reaches (a) the lower bound of Theorem 2's proof, ((floor((r - 1 - H)/2)
  over 3^(L-2))) (``rank.bound.lemma7_lower_bound``), and (b) the limit; beside them the first N where the
  counting cap reaches the limit, the conjectured scale c r L / log3 r for c = 1, 2, 4 and the cap there;
* every N where the rank differs from min(counting cap, limit) (the maximal-rank question), split into
  exact exceptions and sampled rows (lower bounds only).

A cell (or an N) whose priced cost passes the budget (``plan.Budget``) is a row saying so, with the
estimate; never dropped.  Seeded integer weights and embeddings, ranks mod p = 2^31 - 1: certified lower
bounds on the generic ranks.
"""

from __future__ import annotations

import math
import time
from types import SimpleNamespace
from typing import Any

from ...model.embeddings import VocabularyEmbedding
from ...model.spec import NetworkSpec, Weights, draw_weights
from ...rank.bound import conjecture_scale, lemma7_lower_bound
from ...rank.certainty import PRIME_CONDITION, format_bound
from ...rank.labels import every_sequence_possible, every_sequence_probability, offer_met, positional_label
from ...rank.token.caps import count_caps
from ...rank.token.gram import TOKEN_PRIME, GramModel
from ...rank.token.limit import LimitOutOfReach, TokenLimit, token_limit
from ...rank.token.route import count_rank, derivative_upper_bound, free_variables, sequence_rank
from ...rank.token.tokens import positional_bounds
from ...schema import csv_columns, csv_stamp
from ..headline import Step, first_reaching
from .plan import CONSTANTS, FULL, Budget, Cell, calibrate, even_ceil, grid_ceiling, step_cost
from .repeats import repeat_cell_limit, repeat_positional_row

__all__ = ["COLUMNS", "grid_row", "row_label", "row_label_parts", "first_n_cap", "skip_reason", "blockers",
           "is_exact", "split_exceptions", "grid_estimate", "first_n_reaching", "sample_shape"]

#: The columns, in order: the row schema's (``verify/schemas/n_atlas.schema.json``, docs/formats.md), where each
#: has one meaning (issue 47, item 3) and each headline its certainty (item 1).
COLUMNS = csv_columns("n_atlas")


def row_label_parts(found: int, every: bool, cap: int, upper: int, bounds: dict[str, Any],
                    limit: TokenLimit | SimpleNamespace | None, spec: NetworkSpec,
                    step_budget: int | None = None) -> tuple[str, float | None, str]:
    """(the label for the CSV: "certified", "probabilistic(P)" or "lb-S" (S short of its aim), by
    ``rank.labels.positional_label``, the probe's rule; the label's probability (0 certified, None lower bound);
    the offer it meets, ``rank.labels.offer_met``).  ``step_budget``: the sample's budget, which with the proven
    bounds decides before the draw whether the every-sequence offer is on the menu (``every_sequence_possible``;
    None: only where every sequence was kept)."""
    certified_limit = limit is not None and getattr(limit, "certified_exact", True)
    limit_rank = limit.rank if limit is not None else None
    limit_probability = None if limit is None else getattr(limit, "probability_bound", 0.0)
    proven = min(cap, upper, bounds["certified"])
    aim_bound = min(proven, limit_rank) if certified_limit else proven
    possible = None if step_budget is None else every_sequence_possible(cap, aim_bound, step_budget)
    label, probability, aim = positional_label(found, proven, bounds, spec, every, 2**31, TOKEN_PRIME, limit_rank,
                                               certified_limit, limit_probability, possible)
    certified = {"count_cap": cap, "eq74": bounds["certified"], "derivative_bound": upper}
    if certified_limit:
        certified["certified_limit"] = limit_rank
    probable = {"eq74_at_positions": (bounds["at_positions"], bounds["probability"])}
    if limit_rank is not None and not certified_limit:
        probable["computed_limit"] = (limit_rank, limit_probability)
    if every:
        probable["every_sequence"] = (found, every_sequence_probability(
            found, min(proven, limit_rank) if certified_limit else proven, spec, 2**31, TOKEN_PRIME))
    offer = offer_met(label, found, probability, certified, probable)
    text = {"certified exact": "certified", "probabilistic": f"probabilistic({format_bound(probability or 0.0)})"
            }.get(label, f"lb-{aim - found}")
    return text, probability, offer


def row_label(found: int, every: bool, cap: int, upper: int, bounds: dict[str, Any],
              limit: TokenLimit | SimpleNamespace | None, spec: NetworkSpec) -> str:
    """A positional rank's label for the CSV (``row_label_parts``)."""
    return row_label_parts(found, every, cap, upper, bounds, limit, spec)[0]


def sample_shape(count: int, aim: int, budget: int, every: bool, evaluations: int) -> str:
    """"ROWSxCOLS" of the matrix ``token.route.sequence_rank`` ranked, from what it returns (its rule, in order):
    every sequence kept (count x count); k rows against all ``count`` columns where min(count, aim + 16) rows fit
    ``budget`` (each doubling evaluates only the new rows, so rows = evaluations / count); else r = (budget -
    k^2) // count rows against every column first where 1 <= r < k (issue 49, item 3: ``_rows_first``, one pass of
    r * count evaluations), returned alone ("rx count") or beside the square sample that followed ("r x count + s x
    s", s^2 the rest: the rank printed is the larger of the two certified lower bounds); else a k x k square sample
    (k^2 = evaluations).  An evaluation count that fits none of these means the sampler changed: an
    AssertionError, not a wrong record."""
    if every:
        return f"{count}x{count}"
    k = min(count, aim + 16)
    if k < count and k * count <= budget:
        rows, rest = divmod(evaluations, count)
        assert rest == 0 and 0 < rows < count, (evaluations, count)
        return f"{rows}x{count}"
    first = (budget - k * k) // count
    if 1 <= first < k:
        if evaluations == first * count:
            return f"{first}x{count}"
        side = math.isqrt(evaluations - first * count)
        assert side * side == evaluations - first * count and 0 < side < count, (evaluations, count, first)
        return f"{first}x{count}+{side}x{side}"
    side = math.isqrt(evaluations)
    assert side * side == evaluations and 0 < side < count, (evaluations, count)
    return f"{side}x{side}"


def is_exact(label: str | None) -> bool:
    """Whether a rank with this label (``row_label``; None: a count-route rank, exact at these weights mod p)
    is exact at these weights: every label but a lower bound "lb-S"."""
    return label is None or not label.startswith("lb-")


def split_exceptions(steps: list[tuple[int, int, int, str | None]],
                     limit_rank: int | None) -> tuple[list[str], list[str]]:
    """(exact exceptions, sampled rows below) among ``steps`` [(N, rank, counting cap, label)]: the N whose
    rank is below min(cap, limit), as "N:rank<min", split by ``is_exact``; nothing without a limit."""
    exceptions, sampled_below = [], []
    for tokens, found, cap, label in steps if limit_rank is not None else ():
        if found != min(cap, limit_rank):
            (exceptions if is_exact(label) else sampled_below).append(f"{tokens}:{found}<{min(cap, limit_rank)}")
    return exceptions, sampled_below


def first_n_reaching(steps: list[tuple[int, int, int, str | None]],
                     value: int | None) -> int | None:
    """The first N of ``steps`` [(N, rank, ...)] whose rank reaches ``value`` (rank >= value; a rank equal to it
    reaches it), or None (also without a value)."""
    return next((step[0] for step in steps if value is not None and step[1] >= value), None)


def first_n_cap(vocab: int, positional: bool, value: int) -> int:
    """The first even N whose counting cap reaches ``value`` (closed form of the caps, by search)."""
    tokens = 2
    while count_caps(vocab, tokens, positional).cap < value:
        tokens += 2
    return tokens


def _covers(other: Cell, cell: Cell) -> bool:
    """Whether ``other``'s limit out of reach prices ``cell``'s out of reach: a grid cell of the same L and H
    with V and R no larger (every such cell comes before ``cell`` in the grid's order)."""
    return (other != cell and other.section == cell.section == "grid" and (other.depth, other.heads) ==
            (cell.depth, cell.heads) and other.vocab <= cell.vocab and other.positional_rank <= cell.positional_rank)


def blockers(cell: Cell, cells: list[Cell]) -> list[Cell]:
    """The cells of ``cells`` whose limit out of reach would skip ``cell`` (``skip_reason``).  A run computes
    ``cell`` only after these, so the atlas does not depend on the order the cells finish in."""
    return [other for other in cells if _covers(other, cell)]


def skip_reason(cell: Cell, finished: dict[Cell, dict[str, Any]]) -> str | None:
    """Why the limit of ``cell`` is not attempted, or None: a finished cell (``finished``: Cell -> row) of
    the same L and H with V and R no larger had its limit beyond reach, and the proven upper bound, and in
    every reached cell the limit, grow with V and R, so this limit is priced out of reach too."""
    for other in sorted(finished, key=lambda c: (c.vocab, c.positional_rank)):  # the first in the grid's order
        if _covers(other, cell) and finished[other].get("limit_certainty") == "beyond reach":
            return (f"not attempted: the limit of L={other.depth} V={other.vocab} H={other.heads} "
                    f"R={other.positional_rank} was beyond reach (priced by it)")
    return None


def grid_estimate(cell: Cell, which: str = "full", seed: int = 0) -> tuple[int, float]:
    """(the most evaluations of F the cell can spend, ``grid_ceiling``; their seconds at the rate measured
    here for this cell's network, the model ``grid_row`` builds): a cell with no committed seconds priced
    from above before the run."""
    width = cell.vocab + 1
    spec = NetworkSpec(depth=cell.depth, width=width, heads=cell.heads, attn_dim=max(1, width // cell.heads))
    embedding = VocabularyEmbedding(width, cell.vocab, cell.vocab, cell.positional_rank, seed)
    work = grid_ceiling(cell, which)
    return work, work * calibrate(GramModel(spec, draw_weights(spec, seed), embedding, TOKEN_PRIME))


def _row_head(cell: Cell, spec: NetworkSpec, seed: int, upper: int, bound: int | None,
              scale: float) -> dict[str, Any]:
    """The columns of a grid row fixed before anything is ranked: the cell, the bounds, the scales and caps."""
    vocab, with_pos = cell.vocab, cell.positional_rank > 0
    row = {"depth": cell.depth, "vocab_r": vocab, "heads": cell.heads, "width": spec.width, "attn_dim": spec.attn_dim,
           "pos_rank": cell.positional_rank, "pos_full": "true" if cell.positional == FULL else "false",
           "layer_degree": spec.layer_degree, "limit_upper_bound": upper,
           "thm2_proof_bound": "" if bound is None else bound,
           "thm2_proof_bound_status": "not defined" if bound is None else "has content" if bound else "no content",
           "scale_rL_over_log3r": f"{scale:.2f}", "seed": seed, "prime": TOKEN_PRIME, "next_step_price": "",
           "next_step_unit": "", "next_step_seconds": "", **csv_stamp("n_atlas")}
    for c in CONSTANTS:
        n_c = even_ceil(c * scale)
        row[f"n_c{c}"], row[f"cap_at_n_c{c}"] = n_c, count_caps(vocab, n_c, with_pos).cap
    return row


def _cell_limit(row: dict[str, Any], notes: list[str], cell: Cell, spec: NetworkSpec, weights: Weights,
                embedding: VocabularyEmbedding, seed: int, limit_evaluations: int, skip: str | None, upper: int,
                rate: float, repeats: dict[str, Any]) -> TokenLimit | None:
    """The cell's N-independent limit (``token.limit.token_limit``) into ``row``, or None where it is out of
    reach or not attempted (``skip``), said in ``notes``."""
    try:
        if skip:
            raise LimitOutOfReach(skip, 0, 0)
        limit = token_limit(spec, weights, embedding, TOKEN_PRIME, seed, max_evaluations=limit_evaluations)
        limit = repeat_cell_limit(limit, spec, embedding, seed, limit_evaluations, repeats, rate)
        row["limit"] = limit.rank
        row["limit_certainty"] = "certified exact" if limit.certified_exact else "probabilistic"
        row["limit_probability"] = format_bound(0.0 if limit.certified_exact else limit.probability_bound)
        row["first_n_cap_reaches_limit"] = first_n_cap(cell.vocab, cell.positional_rank > 0, limit.rank)
        return limit
    except LimitOutOfReach as exc:
        row["limit"], row["limit_at_least"], row["limit_probability"] = "", "" if skip else exc.at_least, ""
        row["limit_certainty"] = "not attempted" if skip else "beyond reach"
        row["first_n_cap_reaches_limit"] = ""
        notes.append(f"limit {skip}; proven upper bound {upper}" if skip else
                     f"limit beyond reach: at least {exc.at_least} (proven upper bound {upper}), the next "
                     f"doubling needs {exc.needed:,} evaluations of F (about {exc.needed * rate:.0f} s at "
                     f"{rate * 1e6:.1f} us each here) > budget {limit_evaluations:,}")
        return None


def _priced_out(row: dict[str, Any], tokens: int, cost: int, with_pos: bool, step_budget: int, budget: Budget,
                rate: float) -> str | None:
    """The status of a step priced past its budget (its price into ``row``), or None where it is within it."""
    if (cost > step_budget) if with_pos else (cost > budget.matrix_entries):
        row.update(next_step_price=cost, next_step_unit="evaluations of F" if with_pos else "count-matrix entries",
                   next_step_seconds=f"{cost * rate:.0f}" if with_pos else "")
        return f"N = {tokens} beyond reach"
    return None


def _rank_at(model: GramModel, spec: NetworkSpec, with_pos: bool, tokens: int, cap: int, upper: int, limit,
             seed: int, step_budget: int, record: dict[str, Any], repeats: dict[str, Any] | None = None
             ) -> tuple[int, str | None, int, Step]:
    """sep(N) at one N, its label (None: the count route, exact at these weights mod p), the work it took
    (evaluations of F, or count-matrix entries) and its ``headline.Step``; with positions the sample aims at eq.
    7.4 (caps, and H at these positions where a side is small), rows against every column first, to the step
    budget.  ``record``: lists of the row's per-N cells (labels, eq74, sampled, offer), appended to; ``repeats``: a
    probabilistic row repeated with independent draws (``repeats.repeat_positional_row``, Lemma R)."""
    certified_limit = limit.rank if limit is not None and getattr(limit, "certified_exact", True) else None
    proven = min(cap, upper, *([certified_limit] if certified_limit is not None else []))
    if not with_pos:
        found, rows, cols, _ = count_rank(model, tokens)
        record["sampled"].append(f"{tokens}:{rows}x{cols}")
        record["offer"].append(f"{tokens}:count_route")
        return found, None, rows * cols, Step(tokens, found, proven, 0.0 if found == proven else None)
    bounds = positional_bounds(model, tokens)
    target = min(cap, upper, bounds["certified"], bounds["at_positions"] or upper)
    likely = limit.rank if limit else None
    found, every, spent = sequence_rank(model, tokens, target, seed, likely, budget=step_budget)
    label, probability, offer = row_label_parts(found, every, cap, upper, bounds, limit, spec, step_budget)
    shape = sample_shape(model.embedding.vocab ** (tokens // 2), target if likely is None else min(target, likely),
                         step_budget, every, spent)
    if label.startswith("probabilistic") and repeats is not None:
        found, label, probability, offer, shape = repeat_positional_row(
            spec, tokens, seed, cap, upper, limit, step_budget, (found, every, spent, bounds), label, repeats,
            (probability, offer, shape))
    record["labels"].append(f"{tokens}:{label}")
    record["eq74"].append(f"{tokens}:{bounds['certified']}/{bounds['at_positions'] or '-'}")
    record["sampled"].append(f"{tokens}:{shape}")
    record["offer"].append(f"{tokens}:{offer}")
    return found, label, spent, Step(tokens, found, min(proven, bounds["certified"]), probability)


#: What ``ranks_certainty`` says of a cell's ranks, without and with positions.
RANKS_CERTAINTY = (
    "each rank exact at these weights mod p (a certified lower bound on the generic rank)",
    "ranks_labels: certified exact (meets a bound proven for every weight: eq. 7.4's caps, the counting cap, "
    "the derivative bound), probabilistic (meets eq. 7.4 with H at these positions, the computed limit, or "
    "every sequence kept: generic unless an event of the stated probability occurred, " + PRIME_CONDITION + "; "
    "eq. 7.4's: docs/mathematics.md Lemma P, the union over every j), lower bound (N:lb-S: S below the bound it "
    "aimed at); eq74_bounds N:caps/at-positions; ranks_sampled N:rows x columns ranked; ranks_offer N:the offer met")


def _headlines(row: dict[str, Any], steps: list[Step], bound: int | None, limit, first_limit: int | None,
               possible: int = 0) -> None:
    """The first N columns and their certainty (``headline.first_reaching``, docs/mathematics.md §11); ``possible``:
    the N the loop may rank with a probability, fixed before the draw (every N to max_n with positions, none
    without), and the computed limit's own event besides (docs/mathematics.md §7, "A headline's union")."""
    def cells(name, head):
        return head.csv_cells(name) if head else dict.fromkeys((f"{name}_certainty", f"{name}_probability",
                                                                 f"{name}_union_over"), "")
    if bound:
        first, head = first_reaching(steps, bound, possible=possible)
        row["first_n_thm2_bound_status"] = "reached" if first is not None else "not reached"
    else:
        first, head = None, None
        row["first_n_thm2_bound_status"] = "no bound with content"
    row["first_n_thm2_bound"] = "" if first is None else first
    row.update(cells("first_n_thm2_bound", head))
    if limit is None:
        first, head, status = None, None, "no limit"
    else:
        certain = getattr(limit, "certified_exact", True)
        first, head = first_reaching(steps, limit.rank, 0.0 if certain else limit.probability_bound,
                                     possible + (0 if certain else 1))
        assert first == first_limit, (first, first_limit)  # the loop stops at the first N at the limit
        status = "reached" if first is not None else "not reached"
    row["first_n_limit"], row["first_n_limit_status"] = "" if first is None else first, status
    row.update(cells("first_n_limit", head))


def grid_row(cell: Cell, budget: Budget, seed: int = 0, skip: str | None = None) -> dict[str, Any]:
    """One row of the grid (module doc); ``skip``: why the cell's limit is not attempted (``skip_reason``)."""
    start = time.perf_counter()
    depth, vocab, heads, big_r = cell.depth, cell.vocab, cell.heads, cell.positional_rank
    width = vocab + 1
    spec = NetworkSpec(depth=depth, width=width, heads=heads, attn_dim=max(1, width // heads))
    embedding = VocabularyEmbedding(width, vocab, vocab, big_r, seed)
    weights = draw_weights(spec, seed)
    degree, with_pos = spec.layer_degree, big_r > 0
    upper = derivative_upper_bound(degree, free_variables(spec, vocab, big_r), vocab)
    bound = lemma7_lower_bound(depth, vocab, heads)
    row = _row_head(cell, spec, seed, upper, bound, conjecture_scale(depth, vocab))
    notes = []
    model = GramModel(spec, weights, embedding, TOKEN_PRIME)
    rate = calibrate(model, 64)
    # the cell's repeat budget, spent by the limit's repeats and then by each probabilistic row's (``repeats``)
    repeats = {"left": budget.evaluations("repeat_evaluations", depth), "notes": [], "rate": rate,
               "positional_rank": big_r}
    limit = _cell_limit(row, notes, cell, spec, weights, embedding, seed,
                        budget.evaluations("limit_evaluations", depth), skip, upper, rate, repeats)
    spent = 0
    ranks, caps, steps, heads_steps = [], [], [], []
    record = {"labels": [], "eq74": [], "sampled": [], "offer": []}
    first_limit = None
    max_n = max(2 * degree + 6, 24)
    tokens = 2
    status = "reached the limit" if limit is not None else "limit beyond reach"
    while True:
        cap = count_caps(vocab, tokens, with_pos).cap
        step_budget = budget.evaluations("step_evaluations", depth)
        cost = step_cost(vocab, tokens, degree, with_pos, min(cap, upper, limit.rank if limit else upper), step_budget)
        priced_out = _priced_out(row, tokens, cost, with_pos, step_budget, budget, rate)
        if priced_out:
            status = priced_out
            break
        found, label, work, step = _rank_at(model, spec, with_pos, tokens, cap, upper, limit, seed, step_budget,
                                            record, repeats)
        ranks.append(f"{tokens}:{found}")
        caps.append(f"{tokens}:{cap}")
        steps.append((tokens, found, cap, label))
        heads_steps.append(step)
        if limit is None and is_exact(label) and found == upper:
            # sep(N) <= the limit at these weights <= the proven derivative bound: this rank certifies the limit
            limit = SimpleNamespace(rank=found, certified_exact=True, probability_bound=0.0)
            row.update(limit=found, limit_certainty="certified exact", limit_probability="0",
                       first_n_cap_reaches_limit=first_n_cap(vocab, with_pos, found))
            notes.append(f"the limit computation was out of reach, but sep({tokens}) = {found} meets the proven "
                         "upper bound and so certifies the limit")
            status = "reached the limit"
        if limit is not None and found == limit.rank:
            first_limit = tokens
            break
        if tokens >= max_n:
            status = f"stopped at N = {max_n} below the limit" if limit is not None else status
            break
        spent += work  # what the step took (the sample's doublings included), not its first price
        loop_budget = budget.evaluations("loop_evaluations", depth) if with_pos else budget.loop_entries
        if spent > loop_budget:
            status = f"stopped after N = {tokens}: the cell's budget of {loop_budget:,} " + (
                "evaluations" if with_pos else "matrix entries") + " is spent"
            break
        tokens += 2
    exceptions, sampled_below = split_exceptions(steps, limit.rank if limit is not None else None)
    row["ranks_certainty"] = RANKS_CERTAINTY[with_pos]
    row["ranks_labels"], row["eq74_bounds"] = " ".join(record["labels"]), " ".join(record["eq74"])
    row["ranks_sampled"], row["ranks_offer"] = " ".join(record["sampled"]), " ".join(record["offer"])
    _headlines(row, heads_steps, bound, limit, first_limit, max_n // 2 if with_pos else 0)
    row.update(status=status, max_n=tokens, ranks=" ".join(ranks), caps=" ".join(caps),
               maximal_rank_exceptions=" ".join(exceptions), sampled_below=" ".join(sampled_below),
               notes="; ".join(notes), repeats=" | ".join(repeats["notes"]),
               seconds=f"{time.perf_counter() - start:.2f}")
    return row
