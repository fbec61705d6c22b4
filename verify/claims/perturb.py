"""Perturbed statements a check supplies itself (``Property`` and ``Cases``), and their records.

A perturbed statement is the claim made false by one unit (an index map shifted by one, an
equality with one side +1, a count off by one).  A check whose statement is true *and* whose
perturbation is refuted shows it could have failed; one without any perturbation cannot show it,
and its claim is ``not-decided`` unless another check can.

``perturb`` is either a callable or a dict ``description -> callable``; each callable has the
signature of the check's own function and describes the perturbed statement, so it is refuted
where it returns ``holds`` False.
"""

from __future__ import annotations

from typing import Callable

__all__ = ["record", "as_dict", "NO_PERTURBATION", "attach"]

#: Why a check that supplies no perturbation cannot show it could fail.
NO_PERTURBATION = "no perturbed statement supplied (give the check a perturb= callable)"


def as_dict(perturb) -> dict:
    """``perturb`` as ``description -> callable`` (a bare callable is "perturbed statement")."""
    if perturb is None:
        return {}
    if callable(perturb):
        return {getattr(perturb, "__doc__", None) or "perturbed statement": perturb}
    return dict(perturb)


def record(statement: str, refuted: bool, evidence: str) -> dict:
    """One perturbation's entry in a check result."""
    return {"statement": statement.strip().splitlines()[0], "refuted": bool(refuted), "evidence": evidence}


def attach(result, perturb, decide: Callable[[Callable], tuple[bool, str]]):
    """Run every perturbation of ``perturb`` through ``decide(fn) -> (refuted, evidence)`` and
    record them on ``result`` (a passing CheckResult), with ``could_fail`` and ``bites_at``."""
    for statement, fn in as_dict(perturb).items():
        refuted, evidence = decide(fn)
        result.perturbations.append(record(statement, refuted, evidence))
    result.could_fail = any(p["refuted"] for p in result.perturbations)
    if result.perturbations:
        result.evidence += (f"; perturbations refuted {sum(p['refuted'] for p in result.perturbations)} "
                            f"of {len(result.perturbations)}")
    if not result.could_fail:
        result.bites_at = NO_PERTURBATION if not result.perturbations else "no perturbation refuted"
    return result
