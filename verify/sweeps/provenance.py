"""Provenance fields every export carries, so a file is citable on its own (issue 33).

The fields: ``certainty`` (the label of ``verify.rank.certainty.Certainty``: ``certified`` for a
value proven equal to the generic rank, ``certified lower bound; equal to generic w.h.p.`` for a
certified lower bound that equals the generic rank except with ``probability_bound``, and
``certified lower bound`` where no equality is claimed, ``probabilistic`` otherwise), ``probability_bound``, ``seed``, ``primes`` (the moduli the value
was computed over), ``version`` (of this toolkit) and, where a registry decided something,
``registry``.  A field that does not apply is present and null (a numeric rank has no prime).
"""

from __future__ import annotations

from ..rank.certainty import Certainty
from ..version import __version__

__all__ = ["certainty_label", "value_provenance", "store_row_provenance", "PROVENANCE"]

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


def value_provenance(value: dict, field: str | None = None, seed: int | None = None,
                     version: str | None = None) -> dict:
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


def store_row_provenance(row: dict) -> dict:
    """``value_provenance`` of a results-store row (its value, field, seed and version)."""
    return value_provenance(row.get("value") or {}, row.get("field"), row.get("seed"), row.get("version"))
