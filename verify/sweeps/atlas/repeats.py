"""Repeats of the atlas's probabilistic results (issue 47, item 5): the limit and each probabilistic positional row
are repeated with independent weights, embedding, positions and sample draws (``token.limit.repeat_seed``) at
distinct primes (``token.limit.repeat_prime``) until the product of the runs' bounds is at most 1e-6, or the cell's
repeat budget (``plan.Budget.repeat_evaluations``) would be passed, which the row then says.

The argument is docs/mathematics.md §7, Lemma R.  The value printed is the largest rank over the runs, a certified
lower bound; it misses the generic rank g only if every run's rank does.  A row's run that met its bound of a fixed
kind (eq. 7.4 at its own positions: Lemma P; or every sequence kept: Schwartz-Zippel over its weights) and missed g
had its own event occur, so the product counts the *prefix* of runs that met a bound of the kind of the first run:
the loop ends at the first run that does not (its rank still enters the largest), never skipping one, so no run is
chosen by what it found.  A row that met only the computed limit is not repeated: its event is the limit's, whose
probability is the limit's own product.
"""

from __future__ import annotations

from fractions import Fraction
from types import SimpleNamespace
from typing import Any

from ...model.embeddings import EMBEDDING_RANGE, VocabularyEmbedding
from ...model.spec import NetworkSpec, draw_weights
from ...rank.certainty import (
    REPEAT_TARGET,
    ProbabilityBound,
    RunBound,
    format_bound,
    independent_product,
    residue_sample_size,
)
from ...rank.token.gram import TOKEN_PRIME, GramModel
from ...rank.token.limit import TokenLimit, entry_degree, repeat_prime, repeat_seed, repeated_limit
from ...rank.token.positional_bound import eq74_probability
from ...rank.token.route import sequence_rank
from ...rank.token.tokens import positional_bounds

__all__ = ["repeat_cell_limit", "repeat_positional_row", "met_bounds", "row_run", "repeat_row",
           "ROW_EVENT"]

#: The event a repeated row's probability bounds.
ROW_EVENT = "the largest rank over the runs is below the generic rank"
#: The weight range the atlas draws from (``model.spec.DEFAULT_WEIGHT_RANGE``; as ``grid.row_label``).
WEIGHT_RANGE = 2**31


def repeat_cell_limit(limit: TokenLimit, spec: NetworkSpec, embedding: VocabularyEmbedding, seed: int,
                      limit_evaluations: int, repeats: dict[str, Any], rate: float) -> TokenLimit:
    """``repeated_limit`` from the cell's first limit, spending from ``repeats["left"]`` (the cell's repeat budget)."""
    if limit.certified_exact:
        return limit

    again = repeated_limit(spec, embedding, TOKEN_PRIME, seed, WEIGHT_RANGE, limit_evaluations, repeats["left"],
                           first=limit, rate=rate)
    repeats["left"] -= again.evaluations - limit.evaluations
    note = again.repeats_note if again.repeats_note.startswith(("budget", "run ")) else ""
    repeats["notes"].append(f"limit:{len(again.runs)} runs" + (f"; {note}" if note else ""))
    return again


def repeat_positional_row(spec: NetworkSpec, tokens: int, seed: int, cap: int, upper: int,
                          limit: TokenLimit | SimpleNamespace | None, step_budget: int,
                          first: tuple[int, bool, int, dict[str, Any]], label: str, repeats: dict[str, Any],
                          parts: tuple[float | None, str, str]) -> tuple[int, str, float | None, str, str]:
    """``grid._rank_at``'s hook: a row labelled probabilistic repeated with independent draws (``repeat_row``):
    (largest rank, label, its probability, the offer it meets, the first run's sample shape).  ``first``: the first
    run's (rank, every sequence kept, evaluations, eq. 7.4's bounds); ``parts``: the first run's (probability,
    offer, sample shape), kept where the row is not repeated; the runs and why they stopped go to
    ``repeats["notes"]``."""
    found, every, spent, bounds = first
    vocab, big_r = spec.width - 1, repeats["positional_rank"]
    certified_limit = limit is not None and getattr(limit, "certified_exact", True)
    proven = min(cap, upper, *([limit.rank] if certified_limit else []))
    met = met_bounds(spec, vocab, big_r, tokens, TOKEN_PRIME, proven, limit, found, every, bounds)
    fixed = "at_positions" if bounds["at_positions"] is not None else "every"  # fixed by V and N, before the repeats
    best, kind, bound, note = repeat_row(spec, vocab, big_r, tokens, seed, TOKEN_PRIME, proven, limit, step_budget,
                                         (found, spent, met), fixed, repeats, repeats.get("rate", 0.0))
    if kind == "single":  # its probability is the first run's own, and the row says why it was not repeated
        repeats["notes"].append(f"{tokens}:not repeated: the first run met no bound of this N's kind ({fixed})")
        return (found, label, *parts)
    if note:
        repeats["notes"].append(f"{tokens}:{note}")
    if kind == "certified":  # the offer: the first bound proven for every weight that the rank meets
        named = [("count_cap", cap), ("eq74", bounds["certified"]), ("derivative_bound", upper)]
        named += [("certified_limit", limit.rank)] if certified_limit else []
        return best, "certified", 0.0, next(name for name, value in named if value == best), parts[2]
    probability = ProbabilityBound(ROW_EVENT, bound, "").value
    offer = {"at_positions": "eq74_at_positions", "every": "every_sequence"}[kind]
    return best, f"probabilistic({format_bound(probability)})", probability, offer, parts[2]


def met_bounds(spec: NetworkSpec, vocab: int, big_r: int, tokens: int, prime: int, proven: int,
               limit: TokenLimit | SimpleNamespace | None, found: int, every: bool,
               bounds: dict[str, Any]) -> dict[str, Fraction]:
    """The kinds of bound a run's rank ``found`` met, each with the exact bound on its event {kind: Fraction}.

    Kinds: "certified" (``proven`` or eq. 7.4's caps, bounds proven for every weight: 0), "at_positions" (eq. 7.4
    with H at the run's positions: Lemma P), "every" (every sequence kept: sep at the run's weights, Schwartz-Zippel
    over them and the embedding, as ``rank.labels.positional_label``), "limit" (the computed limit, not certified:
    the limit's own bound).  ``proven``: the smallest bound proven for every weight (counting cap, derivative bound,
    a certified limit)."""
    met = {}
    proven = min(proven, bounds["certified"])
    if found == proven:
        met["certified"] = Fraction(0)
    position_sample = residue_sample_size(2 * EMBEDDING_RANGE + 1, prime)
    if bounds["at_positions"] is not None and found == bounds["at_positions"]:
        met["at_positions"] = eq74_probability(spec.depth, vocab, big_r, tokens, position_sample).bound
    if every:
        sample = min(residue_sample_size(2 * WEIGHT_RANGE + 1, prime), position_sample)
        met["every"] = min(Fraction(1), Fraction(proven * entry_degree(spec)) / sample)
    if limit is not None and not getattr(limit, "certified_exact", True) and found == limit.rank:
        met["limit"] = limit.exact_bound if limit.exact_bound is not None else Fraction(1)
    return met


def row_run(spec: NetworkSpec, vocab: int, big_r: int, tokens: int, seed: int, prime: int, proven: int,
            limit: TokenLimit | SimpleNamespace | None, step_budget: int) -> tuple[int, int, dict[str, Fraction]]:
    """One run of a positional row at its own draws (seed, prime), aimed as ``grid._rank_at`` aims:
    (rank, evaluations, ``met_bounds``)."""
    embedding = VocabularyEmbedding(vocab + 1, vocab, vocab, big_r, seed)
    model = GramModel(spec, draw_weights(spec, seed, WEIGHT_RANGE), embedding, prime)
    bounds = positional_bounds(model, tokens)
    target = min(proven, bounds["certified"], bounds["at_positions"] or proven)
    found, every, spent = sequence_rank(model, tokens, target, seed, None if limit is None else limit.rank,
                                        budget=step_budget)
    return found, spent, met_bounds(spec, vocab, big_r, tokens, prime, proven, limit, found, every, bounds)


def repeat_row(spec: NetworkSpec, vocab: int, big_r: int, tokens: int, seed: int, prime: int, proven: int,
               limit: TokenLimit | SimpleNamespace | None, step_budget: int,
               first: tuple[int, int, dict[str, Fraction]], kind: str, repeats: dict[str, Any], rate: float,
               target: Fraction = REPEAT_TARGET) -> tuple[int, str, Fraction | None, str]:
    """Repeat a positional row whose first run ``first`` (rank, evaluations, ``met_bounds``) met a probabilistic
    bound: (largest rank, kind, product bound or None, note).  ``kind`` is fixed before the repeats by the row's
    parameters ("at_positions" where H is computed at this N, else "every"; docs/mathematics.md §7, Lemma R): runs
    count while they meet a bound of that kind (the prefix); a first run that met none keeps its own label (kind
    "single"); a run meeting a certified bound makes the row certified exact (kind "certified", bound 0)."""
    found, spent, met = first
    if "certified" in met:
        return found, "certified", Fraction(0), ""
    if kind not in met:
        return found, "single", None, ""
    records, best, best_run, note = [RunBound(seed, prime, met[kind])], found, 0, ""
    product = independent_product(ROW_EVENT, records, "")
    while product.bound > target:
        run = len(records)
        if spent > repeats["left"]:
            note = (f"budget: one run costs {spent:,} evaluations of F (~{spent * rate:.0f} s here), the cell's repeat "
                    f"budget has {max(0, repeats['left']):,} left")
            break
        run_seed, run_prime = repeat_seed(seed, run), repeat_prime(prime, run)
        rank, cost, run_met = row_run(spec, vocab, big_r, tokens, run_seed, run_prime, proven, limit, step_budget)
        repeats["left"] -= cost
        if rank > best:
            best, best_run = rank, run
        if "certified" in run_met:
            return best, "certified", Fraction(0), f"run {run} met a proven bound; rank from run {best_run}"
        if kind not in run_met:
            note = f"run {run} (rank {rank}) met no bound of its kind; the product stops at the runs before it"
            break
        records.append(RunBound(run_seed, run_prime, run_met[kind]))
        product = independent_product(ROW_EVENT, records, "")
    origin = f"; rank from run {best_run}" if best_run else ""
    return best, kind, product.bound, f"{len(records)} runs{origin}" + (f"; {note}" if note else "")
