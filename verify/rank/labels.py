"""The certainty labels of token ranks with positional embeddings: "certified exact", "probabilistic" (with the
probability of its event) or "lower bound" (with how far short), by one rule the probe and the atlas share.
The bounds a label weighs are proven elsewhere (eq. 7.4: ``token.positional_bound``; the counting caps:
``token.caps``; the limit: ``token.limit``); what a certainty means: ``certainty``."""

from __future__ import annotations

import math
from typing import Any

from ..model.embeddings import EMBEDDING_RANGE
from ..model.spec import DEFAULT_WEIGHT_RANGE, NetworkSpec
from .certainty import against_upper_bound, format_bound, residue_sample_size
from .token.limit import entry_degree

__all__ = ["row_certainty", "positional_label", "label_row", "offer_met", "every_sequence_probability",
           "every_sequence_possible", "SAMPLE_SLACK"]

#: ``token.route.sequence_rank``'s first sample has min(V^(N/2), aim + this) sequences a side.
SAMPLE_SLACK = 16


def every_sequence_possible(count: int, aim_bound: int, budget: int) -> bool:
    """Whether ``token.route.sequence_rank`` can keep every sequence at an N with ``count`` = V^(N/2) sequences a
    side, decided before the draw (docs/mathematics.md §7, "A label's union": the menu is fixed before the draw).

    The sampler keeps every sequence only if its first sample already is the whole matrix (count <= aim + 16, and
    its aim is at most ``aim_bound``: the smallest of the counting cap, the derivative bound and eq. 7.4's caps,
    all fixed by the spec and N), or if a doubling reaches count rows within ``budget``: rows against every column
    then cost count^2 evaluations in all, and a square sample evaluates the whole count x count matrix afresh.
    So where this is False no draw keeps every sequence; where it is True some may.

    >>> every_sequence_possible(1024, 143, 1_500_000), every_sequence_possible(15625, 285, 1_500_000)
    (True, False)
    >>> every_sequence_possible(64, 52, 0)  # the first sample is the whole 64 x 64 matrix
    True
    """
    return count <= aim_bound + SAMPLE_SLACK or count * count <= budget


def row_certainty(rank: int, proven: int, at_positions: int | None = None,
                  at_positions_probability: float | None = None,
                  other: list[tuple[int, float]] = ()) -> tuple[str, float | None, int]:
    """(label, probability, aim) of a row's rank: "certified exact" where it meets ``proven`` (the smallest
    bound proven for every weight: the caps of eq. 7.4, the counting cap, the derivative bound), "probabilistic"
    where it meets ``at_positions`` or a bound of ``other`` [(value, probability that the generic rank exceeds
    the row's rank when it meets it); value None: on the menu, met by no rank], with the union of every such offer's
    probability, met or not (which offers
    a rank meets is read off the same draw, so the smallest met would be a choice made from it; the menu itself is
    fixed by the spec and N before the draw: docs/mathematics.md §7, "A label's union"); otherwise "lower bound".
    ``aim``: the smallest bound on offer, so ``aim - rank`` says how far short a lower bound stopped."""
    offers = [(proven, 0.0)] + ([(at_positions, at_positions_probability)] if at_positions is not None else [])
    offers += list(other)
    aim = min(value for value, _ in offers if value is not None)  # None: on the menu, not met (every sequence)
    # the proven bound and eq. 7.4 at the positions (a computed limit of ``other`` may itself be low; an offer valued
    # None, on the menu but met by no rank, bounds nothing)
    if rank > min(value for value, _ in offers[:2] if value is not None):
        raise AssertionError(f"rank {rank} above a proven bound {offers[:2]}: the engine is wrong")
    if rank == proven:
        return "certified exact", 0.0, aim
    if any(value == rank for value, _ in offers[1:]):  # the sum of upper bounds, rounded up, never down
        probabilities = [prob for _, prob in offers[1:]]
        union = math.fsum(probabilities)
        if len(probabilities) > 1:  # each term is already rounded up; the float sum may round down
            union = math.nextafter(union, 2.0)
        return "probabilistic", min(1.0, union), aim
    return "lower bound", None, aim


def positional_label(rank: int, proven: int, bounds: dict[Any, Any], spec: NetworkSpec, every: bool, weight_range: int,
                     modulus: int,
                     limit_rank: int | None = None, limit_certified: bool = True,
                     limit_probability: float | None = None,
                     every_possible: bool | None = None) -> tuple[str, float | None, int]:
    """(label, probability, aim) of a positional token row, the rule the probe and the atlas share
    (``row_certainty``): ``proven`` is the smallest bound proven for every weight (counting cap, eq. 7.4's caps,
    the derivative bound); a certified limit joins it, a computed one is offered with its probability;
    where every sequence was kept (``every``) the rank is the generic one unless a minor vanished at the
    weights (drawn from [-weight_range, weight_range]) or the embedding (Schwartz-Zippel, mod ``modulus``);
    ``bounds``: ``bounds_at``'s ``at_positions`` and ``probability``.

    ``every_possible`` (``every_sequence_possible``, fixed before the draw; None: as ``every``): the every-sequence
    offer is on the row's menu wherever the sampler can keep every sequence at this N, kept this time or not, so
    its probability enters the union of every probabilistic label there (docs/mathematics.md §7, Lemma C: a menu
    read off the draw is no bound once a term of the union, the repeated limit's, is itself read off the draws)."""
    if limit_rank is not None and limit_certified:
        proven = min(proven, limit_rank)
    other = [(limit_rank, limit_probability)] if limit_rank is not None and not limit_certified else []
    if every or every_possible:  # offered where possible; met (its value the rank) only where every one was kept
        other.append((rank if every else None, every_sequence_probability(rank, proven, spec, weight_range, modulus)))
    return row_certainty(rank, proven, bounds["at_positions"], bounds["probability"], other)


def every_sequence_probability(rank: int, proven: int, spec: NetworkSpec, weight_range: int, modulus: int) -> float:
    """Pr[a rank of the whole token grid (every sequence kept) is below the generic rank] (Schwartz-Zippel over the
    weights, drawn from [-weight_range, weight_range], and the embedding, mod ``modulus``; the minor's size the
    proven bound), the offer ``positional_label`` makes where every sequence was kept."""
    sample = min(residue_sample_size(2 * weight_range + 1, modulus),
                 residue_sample_size(2 * EMBEDDING_RANGE + 1, modulus))
    return against_upper_bound(rank, proven, entry_degree(spec), sample)[1]


def offer_met(label: str, rank: int, probability: float | None, certified: dict[str, Any],
              probable: dict[str, Any]) -> str:
    """The offer a label meets (issue 46, item 2: what each label rests on), by name: for "certified exact" the
    first of ``certified`` {name: a bound proven for every weight} the rank equals (count_cap, eq74,
    derivative_bound, certified_limit), for "probabilistic" the first of ``probable`` {name: (value, probability)}
    (eq74_at_positions, computed_limit, every_sequence) the rank equals (the label's probability is the union over
    every offer, ``row_certainty``); "none" for a lower bound."""
    if label == "certified exact":
        return next(name for name, value in certified.items() if value == rank)
    if label == "probabilistic":  # the first offer met; the label's probability is the union of all of them
        return next(name for name, (value, _) in probable.items() if value == rank)
    return "none"


def label_row(row: dict[str, Any], found: dict[str, Any], spec: NetworkSpec, limit: dict[str, Any] | None,
              weight_range: int = DEFAULT_WEIGHT_RANGE) -> None:
    """Adds a positional row's label (``row_certainty``): "certified exact" where the rank meets
    a bound proven for every weight (eq. 7.4's caps, the counting cap, the derivative bound, a certified limit),
    "probabilistic" with its probability where it meets eq. 7.4 with H at these positions, the computed limit,
    or every sequence was kept (Schwartz-Zippel over the weights), else "lower bound" with how far short."""
    from .token.route import MAX_SAMPLE_EVALUATIONS

    bounds = found["bounds"]
    proven = min(row["count_cap"], bounds["certified"], *([limit["upper_bound"]] if limit else []))
    # the probe samples with sequence_rank's default budget; the menu is fixed before the draw (Lemma C)
    possible = every_sequence_possible(row["count_cap"], proven, MAX_SAMPLE_EVALUATIONS)
    label, probability, aim = positional_label(row["rank"], proven, bounds, spec, not found.get("sampled"),
                                               weight_range, found["modulus"], limit["rank"] if limit else None,
                                               bool(limit and limit["certified_exact"]),
                                               limit["probability_bound"] if limit else None, possible)
    certified = {"count_cap": row["count_cap"], "eq74": bounds["certified"],
                 **({"derivative_bound": limit["upper_bound"]} if limit else {}),
                 **({"certified_limit": limit["rank"]} if limit and limit["certified_exact"] else {})}
    probable = {"eq74_at_positions": (bounds["at_positions"], bounds["probability"])}
    if limit and not limit["certified_exact"]:
        probable["computed_limit"] = (limit["rank"], limit["probability_bound"])
    if not found.get("sampled"):
        every_proven = min(proven, limit["rank"]) if limit and limit["certified_exact"] else proven
        probable["every_sequence"] = (row["rank"], every_sequence_probability(row["rank"], every_proven, spec,
                                                                              weight_range, found["modulus"]))
    row["offer"] = offer_met(label, row["rank"], probability, certified, probable)  # what the label rests on
    if limit and limit["certified_exact"]:
        proven = min(proven, limit["rank"])  # the label text names the smallest proven bound
    row.update(label=label, probability=probability, bound_eq74=bounds["certified"],
               bound_eq74_at_positions=bounds["at_positions"], aim=aim, short_by=aim - row["rank"])
    row["label_text"] = {  # the probability rounded up (format_bound): a printed bound stays a bound
        "certified exact": f"certified exact ({bounds['certified'] if row['rank'] == bounds['certified'] else proven})",
        "probabilistic": f"probabilistic: generic unless an event of probability <= {format_bound(probability or 0.0)} "
                         f"occurred or p divides the content of every witness minor",
    }.get(label, f"lower bound: {aim - row['rank']} below the bound {aim} it aimed at")
