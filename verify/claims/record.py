"""The claims registry: records of the papers' statements and how each is decided.

A claim is data (a file in ``proofs/``); this module holds what a claim is made of and how its
outcome follows from its checks.  Outcomes:

* ``verified`` — every check of the printed statement passed;
* ``erratum`` — a check of the printed statement failed, and every check of the corrected
  statement passed; the record keeps the smallest counterexample found;
* ``violated`` — the printed statement failed and no corrected statement was verified;
* ``not-applicable`` — no check had anything in range to decide.

The suite passes when every claim has its ``expected`` outcome.
"""

from __future__ import annotations

import importlib
import pkgutil
import time
from dataclasses import dataclass, field

import sympy as sp

__all__ = ["Source", "CheckResult", "Check", "Claim", "ClaimResult", "load_claims", "run_claim",
           "OUTCOMES", "L", "d_x", "H", "d_a", "N", "r", "r_e", "n", "k"]

OUTCOMES = ("verified", "erratum", "violated", "not-applicable")

#: Symbols the claims' formulas are written in.
L, d_x, H, d_a, N, r, r_e, n, k = sp.symbols("L d_x H d_a N r r_e n k", positive=True, integer=True)


@dataclass(frozen=True)
class Source:
    """Where a claim is stated: document file name (in ``../shared/papers/``), section, label."""

    document: str
    section: str
    label: str

    def __str__(self) -> str:
        return f"{self.document} {self.section}, {self.label}"


@dataclass
class CheckResult:
    """What one check found.

    status: ``pass``, ``fail``, ``not-applicable`` (nothing in range) or ``undecided``.
    """

    name: str
    status: str
    evidence: str
    counterexample: dict | None = None
    details: list = field(default_factory=list)


class Check:
    """A way of deciding (part of) a claim.  Subclasses implement ``run`` -> CheckResult."""

    name = "check"

    def run(self) -> CheckResult:  # pragma: no cover - interface
        raise NotImplementedError


@dataclass
class Claim:
    """One stated claim of a paper, its formulas, its regime and the checks that decide it."""

    id: str
    source: Source
    statement: str
    checks: list
    expected: str = "verified"
    formulas: dict = field(default_factory=dict)
    domain: str = ""
    regime: object = None
    reading: str = ""
    corrected_statement: str = ""
    corrected_checks: list = field(default_factory=list)

    def __post_init__(self):
        if self.expected not in OUTCOMES:
            raise ValueError(f"{self.id}: expected outcome {self.expected!r} is not one of {OUTCOMES}")


@dataclass
class ClaimResult:
    claim: Claim
    outcome: str
    evidence: str
    checks: list
    corrected: list
    counterexample: dict | None
    seconds: float

    @property
    def as_expected(self) -> bool:
        return self.outcome == self.claim.expected

    def as_dict(self) -> dict:
        c = self.claim
        return {
            "id": c.id,
            "source": str(c.source),
            "document": c.source.document,
            "section": c.source.section,
            "label": c.source.label,
            "statement": c.statement,
            "formulas": {k: str(v) for k, v in c.formulas.items()},
            "domain": c.domain,
            "regime": str(c.regime) if c.regime is not None else None,
            "reading": c.reading,
            "outcome": self.outcome,
            "expected": c.expected,
            "as_expected": self.as_expected,
            "evidence": self.evidence,
            "counterexample": self.counterexample,
            "corrected_statement": c.corrected_statement or None,
            "checks": [_check_dict(x) for x in self.checks],
            "corrected_checks": [_check_dict(x) for x in self.corrected],
            "seconds": round(self.seconds, 3),
        }


def _check_dict(result: CheckResult) -> dict:
    return {"name": result.name, "status": result.status, "evidence": result.evidence,
            "counterexample": result.counterexample, "details": result.details}


def _run_all(checks) -> list[CheckResult]:
    out = []
    for check in checks:
        try:
            out.append(check.run())
        except Exception as exc:  # a broken check is a surprise, never a silent pass
            out.append(CheckResult(getattr(check, "name", "check"), "undecided", f"check raised {exc!r}"))
    return out


def _decide(results: list[CheckResult]) -> str:
    statuses = {r.status for r in results}
    if "fail" in statuses:
        return "fail"
    if "undecided" in statuses:
        return "undecided"
    if "pass" in statuses:
        return "pass"
    return "not-applicable"


def run_claim(claim: Claim) -> ClaimResult:
    """Run a claim's checks (and, if the printed statement fails, its corrected checks)."""
    start = time.perf_counter()
    results = _run_all(claim.checks)
    verdict = _decide(results)
    corrected: list[CheckResult] = []
    counterexample = None
    if verdict == "fail":
        failing = [r for r in results if r.status == "fail"]
        counterexample = failing[0].counterexample
        corrected = _run_all(claim.corrected_checks) if claim.corrected_checks else []
        outcome = "erratum" if corrected and _decide(corrected) == "pass" else "violated"
    elif verdict == "pass":
        outcome = "verified"
    elif verdict == "undecided":
        outcome = "violated"  # nothing certified either way: treated as a surprise unless expected
    else:
        outcome = "not-applicable"
    evidence = "; ".join(f"{r.name}: {r.evidence}" for r in results)
    if corrected:
        evidence += " | corrected: " + "; ".join(f"{r.name}: {r.evidence}" for r in corrected)
    return ClaimResult(claim, outcome, evidence, results, corrected, counterexample,
                       time.perf_counter() - start)


def load_claims(package: str = "proofs") -> list[Claim]:
    """Every ``CLAIM`` defined by a module of ``package`` (one claim per file), sorted by id."""
    pkg = importlib.import_module(package)
    found = []
    for info in pkgutil.iter_modules(pkg.__path__):
        if info.name.startswith("_"):
            continue
        module = importlib.import_module(f"{package}.{info.name}")
        claim = getattr(module, "CLAIM", None)
        if claim is None:
            raise ValueError(f"{package}.{info.name} defines no CLAIM")
        if claim.id != info.name:
            raise ValueError(f"{package}.{info.name}: claim id {claim.id!r} must equal the file name")
        found.append(claim)
    return sorted(found, key=lambda c: c.id)
