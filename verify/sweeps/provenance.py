"""Provenance fields every export carries, so a file is citable on its own (issue 33).

The fields: ``certainty`` (the label of ``verify.rank.certainty.Certainty``: ``certified`` for a
value proven equal to the generic rank, ``certified lower bound; equal to generic w.h.p.`` for a
certified lower bound that equals the generic rank except with ``probability_bound``, and
``certified lower bound`` where no equality is claimed, ``probabilistic`` otherwise), ``probability_bound``, ``seed``,
``primes`` (the moduli the value was computed over), ``version`` (of this toolkit) and, where a registry decided
something, ``registry``.  A field that does not apply is present and null (a numeric rank has no prime).
"""

from __future__ import annotations

from typing import Any

from ..rank.certainty import Certainty
from ..version import __version__

__all__ = ["certainty_label", "value_provenance", "store_row_provenance", "PROVENANCE", "row_certainty_fields",
           "weakest_certainty"]

#: The provenance fields, in the order the CSV exports write them.
PROVENANCE = ("certainty", "probability_bound", "seed", "primes", "version")


def certainty_label(certified_lower_bound: bool | None, probability_bound: float | None) -> str | None:
    """``Certainty.label`` for these two fields (None when neither is known: a numeric value)."""
    if certified_lower_bound is None and probability_bound is None:
        return None
    if certified_lower_bound and probability_bound is None:  # no equality with the generic rank is claimed
        return "certified lower bound"
    return Certainty(bool(certified_lower_bound), probability_bound, "").label


def _modulus(field: str | None) -> int | None:
    if field and field.startswith("gf:"):
        try:
            return int(field[3:])
        except ValueError:
            return None
    return None


def value_provenance(value: dict[Any, Any], field: str | None = None, seed: int | None = None,
                     version: str | None = None) -> dict[Any, Any]:
    """The provenance of one computed value (a ``sep`` result, a probe step, a numeric rank):
    what it holds itself, completed from the task's ``field``, ``seed`` and ``version``.

    A rank of a token grid or of a reduced route at seeded integer weights, reduced mod p, is a
    certified lower bound on the generic rank (reduction and specialisation only lower a rank); a
    numeric rank (``real_rank``) certifies nothing and has no certainty label.
    """
    primes = value.get("primes")
    if primes is None:
        modulus = value.get("modulus") or _modulus(field)
        primes = [modulus] if modulus else None
    lower = value.get("certified_lower_bound")
    if lower is None and primes:  # an exact rank mod p at seeded weights
        lower = True
    bound = value.get("probability_bound")
    return {"certainty": certainty_label(lower, bound), "probability_bound": bound,
            "seed": value.get("seed", seed), "primes": primes,
            "version": value.get("version") or version or __version__}


def store_row_provenance(row: dict[Any, Any]) -> dict[Any, Any]:
    """``value_provenance`` of a results-store row (its value, field, seed and version)."""
    return value_provenance(row.get("value") or {}, row.get("field"), row.get("seed"), row.get("version"))


def row_certainty_fields(row: dict[Any, Any], limit: dict[Any, Any] | None, limit_rank: int | None) -> tuple[str,
                         float | None]:
    """(certainty, probability_bound) of one probe row, from what it meets (issue 39): its positional label where it
    has one ("certified exact" -> certified, "probabilistic" -> equal to generic w.h.p. with its probability, "lower
    bound" -> a certified lower bound only); otherwise (no positions, or continuous inputs) certified where the rank
    meets its counting cap or a certified limit (both proven upper bounds on the generic rank), w.h.p. with the
    limit's probability where it meets a computed limit, else a certified lower bound with no equality claimed."""
    from ..rank.certainty import WHP_LABEL

    label = row.get("label")
    if label == "certified exact":
        return "certified", 0.0
    if label == "probabilistic":
        return WHP_LABEL, row["probability"]
    if label == "lower bound":
        return "certified lower bound", None
    if row.get("count_cap") is not None and row["rank"] == row["count_cap"]:
        return "certified", 0.0
    if limit is not None and limit_rank is not None and row["rank"] == limit_rank:
        return ("certified", 0.0) if limit.get("certified_exact") else (WHP_LABEL, limit.get("probability_bound"))
    return "certified lower bound", None


def weakest_certainty(items: list[tuple[str, float | None]]) -> tuple[str, float | None]:
    """The certainty of a multi-value export: its weakest value's (issue 39): a certified lower bound (no equality
    claimed) if any value is one, else equal to generic w.h.p. with the largest probability if any value is, else
    certified.  The probability is per value (each equals its generic value except with at most it), not joint."""
    from ..rank.certainty import WHP_LABEL

    if not items or any(label == "certified lower bound" for label, _ in items):
        return "certified lower bound", None
    chances = [p for label, p in items if label == WHP_LABEL]
    return (WHP_LABEL, max(chances)) if chances else ("certified", 0.0)
