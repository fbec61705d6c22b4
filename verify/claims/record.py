"""The claims registry: records of the papers' statements and how each is decided.

A claim is data (a file of the registry package, ``verify.claims.registry``); this module holds what a claim is made of
and how its outcome follows from its checks.  Outcomes:

* ``verified`` — every check of the printed statement passed, and at least one of them refuted a
  strengthened statement with the exact values (a lower bound x3, an upper bound /3, an index
  shifted, an implication's converse, an equality's neighbour: ``verify.claims.perturb``).
  Beating a trivial bound (sep >= 1) does not count;
* ``gap`` — every check of the printed statement passed (nothing computed refutes it), but its
  printed proof does not establish it on part of its domain: ``Claim.gap`` names the part and its
  smallest case, and ``Claim.gap_checks`` (which must pass) show the proof falling short there;
* ``not-decided`` — every check passed but none refuted a strengthening; the report names the
  smallest spec where one would be refuted, and its estimated cost;
* ``erratum`` — a check of the printed statement failed, and every check of the corrected
  statement passed with at least one of them refuting a strengthening of the corrected statement
  (an erratum whose correction could not fail is ``violated``); the record keeps the smallest
  counterexample found;
* ``violated`` — the printed statement failed and no corrected statement was verified;
* ``ambiguous`` — the claim has two or more readings (``Claim.readings`` or a check's ``reading``
  label) whose outcomes disagree; every reading's outcome is recorded;
* ``not-applicable`` — no check had anything in range to decide.

The suite passes when every claim has its ``expected`` outcome.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import sympy as sp

if TYPE_CHECKING:
    import os
    from collections.abc import Callable
    from types import ModuleType

    from .registry import Registry
    from .specsets import RankSource

__all__ = ["Source", "CheckResult", "Check", "Claim", "ClaimResult", "load_claims", "run_claim",
           "OUTCOMES", "L", "d_x", "H", "d_a", "N", "r", "r_e", "n", "k"]

OUTCOMES = ("verified", "erratum", "ambiguous", "gap", "not-decided", "violated", "not-applicable")

#: Symbols the claims' formulas are written in.
L: sp.Symbol
d_x: sp.Symbol
H: sp.Symbol
d_a: sp.Symbol
N: sp.Symbol
r: sp.Symbol
r_e: sp.Symbol
n: sp.Symbol
k: sp.Symbol
L, d_x, H, d_a, N, r, r_e, n, k = sp.symbols("L d_x H d_a N r r_e n k", positive=True, integer=True)


@dataclass(frozen=True)
class Source:
    """Where a claim is stated: document (the source file's name, an id: see docs/claims.md for the full references),
    section, label."""

    document: str
    section: str
    label: str

    def __str__(self) -> str:
        return f"{self.document} {self.section}, {self.label}"


@dataclass
class CheckResult:
    """What one check found.

    status: ``pass``, ``fail``, ``not-applicable`` (nothing in range) or ``undecided``.
    perturbations: one dict per perturbed statement tried (``statement``, ``refuted``, ``evidence``).
    could_fail: whether the check could have failed (beats the trivial bound somewhere it applies,
    or refutes a perturbation); None where the check kind cannot tell.
    margin: the tightest margin found (``value``, ``scale``, ``where``), or None.
    bites_at: for a check that could not fail, where its statement would start to bite.
    """

    name: str
    status: str
    evidence: str
    counterexample: dict[Any, Any] | None = None
    details: list[Any] = field(default_factory=list)
    perturbations: list[Any] = field(default_factory=list)
    could_fail: bool | None = None
    margin: dict[Any, Any] | None = None
    bites_at: str | None = None


class Check:
    """A way of deciding (part of) a claim.  Subclasses implement ``run`` -> CheckResult."""

    name = "check"
    #: Which reading of the claim this check belongs to ("" = every reading).
    reading = ""
    #: Which side of a two-sided statement this check decides ("" = none named).  A statement whose checks
    #: name several sides is verified only if every side has a passed check that refutes a strengthening.
    side = ""

    def run(self) -> CheckResult:  # pragma: no cover - interface
        raise NotImplementedError


@dataclass
class Claim:
    """One stated claim of a paper, its formulas, its regime and the checks that decide it."""

    id: str
    source: Source
    statement: str
    checks: list[Any]
    expected: str = "verified"
    formulas: dict[Any, Any] = field(default_factory=dict)
    domain: str = ""
    regime: object = None
    reading: str = ""
    corrected_statement: str = ""
    corrected_checks: list[Any] = field(default_factory=list)
    #: Further readings: name -> list of checks (added to ``checks`` that carry no reading label).
    readings: dict[Any, Any] = field(default_factory=dict)
    #: The passage (one display or sentence) this claim decides, as "<key>"; claims that decide the
    #: same passage printed in several documents share the key and must agree (one label per passage).
    passage: str = ""
    #: Further places the same passage is printed (another document, the revised supplement).
    also_at: tuple[Any, ...] = ()
    #: The part of the stated domain no check reaches, and why ("" when the checks cover it all).
    left_out: str = ""
    #: A proof gap: the part of the domain where the printed proof does not establish the statement,
    #: and its smallest case; ``gap_checks`` must pass (they show the proof falling short there).
    gap: str = ""
    gap_checks: list[Any] = field(default_factory=list)

    def __post_init__(self) -> None:
        if self.expected not in OUTCOMES:
            raise ValueError(f"{self.id}: expected outcome {self.expected!r} is not one of {OUTCOMES}")
        if bool(self.gap) != bool(self.gap_checks):
            raise ValueError(f"{self.id}: a proof gap needs both its description (gap=) and its gap_checks")

    @property
    def passage_key(self) -> str:
        """The passage this claim decides: ``passage`` if given, else the claim's own id."""
        return self.passage or self.id


@dataclass
class ClaimResult:
    claim: Claim
    outcome: str
    evidence: str
    checks: list[Any]
    corrected: list[Any]
    counterexample: dict[Any, Any] | None
    seconds: float
    #: reading name -> {"outcome", "evidence"}, when the claim has more than one reading.
    readings: dict[Any, Any] = field(default_factory=dict)
    #: Results of the claim's gap checks (run when its printed statement passed).
    gap_results: list[Any] = field(default_factory=list)

    @property
    def as_expected(self) -> bool:
        return self.outcome == self.claim.expected

    def _repr_markdown_(self) -> str:
        """A notebook's view: id, outcome (and the expected one when they differ), source, statement, evidence."""
        c = self.claim
        surprise = "" if self.as_expected else f" (expected **{c.expected}**)"
        return (f"**{c.id}**: {self.outcome}{surprise} \u00b7 {c.source}\n\n> {c.statement}\n\n"
                f"{self.evidence.replace('|', chr(92) + '|')}\n")

    def _repr_html_(self) -> str:
        from html import escape

        c = self.claim
        surprise = "" if self.as_expected else f" (expected <b>{escape(c.expected)}</b>)"
        return (f"<p><b>{escape(c.id)}</b>: {escape(self.outcome)}{surprise} &middot; {escape(str(c.source))}</p>"
                f"<blockquote>{escape(c.statement)}</blockquote><p><code>{escape(self.evidence)}</code></p>")

    def as_dict(self) -> dict[Any, Any]:
        c = self.claim
        return {
            "id": c.id,
            "source": str(c.source) + "".join(f"; also {place}" for place in c.also_at),
            "document": c.source.document,
            "section": c.source.section,
            "label": c.source.label,
            "statement": c.statement,
            "formulas": {k: str(v) for k, v in c.formulas.items()},
            "domain": c.domain,
            "regime": str(c.regime) if c.regime is not None else None,
            "reading": c.reading,
            "passage": c.passage_key,
            "left_out": c.left_out or None,
            "gap": c.gap or None,
            "gap_checks": [_check_dict(x) for x in self.gap_results],
            "outcome": self.outcome,
            "expected": c.expected,
            "as_expected": self.as_expected,
            "evidence": self.evidence,
            "counterexample": self.counterexample,
            "corrected_statement": c.corrected_statement or None,
            "checks": [_check_dict(x) for x in self.checks],
            "corrected_checks": [_check_dict(x) for x in self.corrected],
            "seconds": round(self.seconds, 3),
            **_strength(self),
        }


def _strength(result: "ClaimResult") -> dict[Any, Any]:
    """How strong the verdict is: did a check refute a strengthened statement (which, with what
    evidence), its tightest margin, the perturbations refuted, and where a statement that refuted
    none would have one refuted (``closest`` says it in one line for the report)."""
    passed = [r for r in result.checks if r.status == "pass"]
    tried = [p for r in result.checks for p in r.perturbations]
    margins = [r.margin for r in result.checks if r.margin is not None]
    bites = [r.bites_at for r in passed if r.bites_at]
    refuted = [p for r in passed for p in r.perturbations if p["refuted"]]
    tightest = min(margins, key=lambda m: m["value"]) if margins else None
    return {
        "could_fail": any(r.could_fail for r in passed),
        "corrected_could_fail": any(r.could_fail for r in result.corrected if r.status == "pass"),
        "tightest_margin": tightest,
        "perturbations_refuted": sum(1 for p in tried if p["refuted"]),
        "perturbations_tried": len(tried),
        "bites_at": bites[0] if bites else None,
        "closest": closest(refuted, tightest, bites[0] if bites else None),
        "readings": result.readings,
    }


def closest(refuted: list[Any], tightest: dict[Any, Any] | None, bites: str | None) -> str:
    """How close the strongest check came to failing, in one line: the strengthened statement it
    refuted (with where), else its tightest margin and where a strengthening would be refuted."""
    value = None if tightest is None else (tightest["value"] or 0.0) + 0.0  # + 0.0: never print "-0"
    margin = "" if tightest is None else f"margin {value:.3g} ({tightest['scale']}) at {tightest['where']}"
    if refuted:
        text = f"refuted: {refuted[0]['statement']} ({refuted[0]['evidence']})"
        return text + (f"; {margin}" if margin else "")
    return "no strengthening refuted" + (f"; {margin}" if margin else "") + (f"; {bites}" if bites else "")


def _check_dict(result: CheckResult) -> dict[Any, Any]:
    return {"name": result.name, "status": result.status, "evidence": result.evidence,
            "counterexample": result.counterexample, "details": result.details,
            "could_fail": result.could_fail, "margin": result.margin, "bites_at": result.bites_at,
            "perturbations": result.perturbations}


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


def _reading_groups(claim: Claim) -> dict[Any, Any]:
    """Reading name -> its checks.  Checks labelled with a ``reading`` form one reading each, with
    the unlabelled checks shared by all; unlabelled checks alone form the reading "main"; each
    entry of ``Claim.readings`` is one more reading of its own checks.  One group ("") when the
    claim has a single reading."""
    labels = sorted({c.reading for c in claim.checks if getattr(c, "reading", "")})
    common = [c for c in claim.checks if not getattr(c, "reading", "")]
    groups = {name: common + [c for c in claim.checks if getattr(c, "reading", "") == name] for name in labels}
    if not labels:
        groups = {"main": list(claim.checks)}
    groups.update({name: list(checks) for name, checks in claim.readings.items()})
    return groups if len(groups) > 1 else {"": list(claim.checks)}


def _outcome(results: list[CheckResult], run_corrected, sides=()) -> tuple[str, list[Any], dict[Any, Any] | None]:
    """The outcome of one reading from its check results (corrected checks run on demand).

    An erratum needs its corrected statement verified: its checks pass and one of them refutes a
    strengthening of the corrected statement; otherwise the printed failure is ``violated``."""
    verdict = _decide(results)
    if verdict == "fail":
        counterexample = next(r for r in results if r.status == "fail").counterexample
        corrected = run_corrected()
        fixed = bool(corrected) and _decide(corrected) == "pass" and any(
            r.could_fail for r in corrected if r.status == "pass")
        return ("erratum" if fixed else "violated"), corrected, counterexample
    if verdict == "pass":
        could_fail = any(r.could_fail for r in results if r.status == "pass")
        for side in {side for side in sides if side}:  # a two-sided statement: every side must be verified
            could_fail = could_fail and any(r.could_fail for r, s in zip(results, sides, strict=False)
                                            if s == side and r.status == "pass")
        return ("verified" if could_fail else "not-decided"), [], None
    if verdict == "undecided":
        return "violated", [], None  # nothing certified either way: treated as a surprise unless expected
    return "not-applicable", [], None


def run_claim(claim: Claim) -> ClaimResult:
    """Run a claim's checks (and, if the printed statement fails, its corrected checks).

    Each check runs once even when several readings share it; readings whose outcomes disagree
    make the claim ``ambiguous``.
    """
    start = time.perf_counter()
    groups = _reading_groups(claim)
    done: dict[int, CheckResult] = {}
    for checks in groups.values():
        for check in checks:
            if id(check) not in done:
                done[id(check)] = _run_all([check])[0]
    results = list(done.values())
    corrected_cache: list[Any] = []

    def run_corrected():
        if claim.corrected_checks and not corrected_cache:
            corrected_cache.extend(_run_all(claim.corrected_checks))
        return corrected_cache

    per_reading = {name: _outcome([done[id(c)] for c in checks], run_corrected,
                                  [getattr(c, "side", "") for c in checks])
                   for name, checks in groups.items()}
    outcomes = {o for o, _, _ in per_reading.values()}
    counterexample = next((cx for _, _, cx in per_reading.values() if cx is not None), None)
    outcome = outcomes.pop() if len(outcomes) == 1 else "ambiguous"
    gap_results = []
    if claim.gap_checks and outcome in ("verified", "not-decided"):
        # nothing computed refutes the statement; the gap checks show where its printed proof falls short
        gap_results = _run_all(claim.gap_checks)
        outcome = "gap" if _decide(gap_results) == "pass" else "violated"
    evidence = "; ".join(f"{r.name}: {r.evidence}" for r in results)
    if corrected_cache:
        evidence += " | corrected: " + "; ".join(f"{r.name}: {r.evidence}" for r in corrected_cache)
    readings = {}
    if len(groups) > 1:
        readings = {name: {"outcome": o, "evidence": "; ".join(f"{done[id(c)].name}: {done[id(c)].evidence}"
                                                               for c in groups[name])}
                    for name, (o, _, _) in per_reading.items()}
        evidence = "readings: " + ", ".join(f"{n} -> {r['outcome']}" for n, r in readings.items()) + " | " + evidence
    if gap_results:
        evidence += " | proof gap: " + "; ".join(f"{r.name}: {r.evidence}" for r in gap_results)
    return ClaimResult(claim, outcome, evidence, results, corrected_cache, counterexample,
                       time.perf_counter() - start, readings, gap_results)


def load_claims(registry: str | os.PathLike[str] | ModuleType | Registry | None = None) -> list[Claim]:
    """Every ``CLAIM`` defined by a module of the registry (one claim per file), sorted by id;
    ``registry`` as ``verify.claims.registry.find_registry`` takes it (None: the installed one)."""
    from .registry import find_registry

    found_registry = find_registry(registry)
    fix = "define CLAIM = Claim(id=<the file name>, ...) in it (docs/extending.md), or rename it with a leading _ " \
          "if it holds no claim"
    found = []
    for name, module in found_registry.claim_modules():
        path = getattr(module, "__file__", None) or name
        claim = getattr(module, "CLAIM", None)
        if claim is None:
            raise found_registry.refuse(path, "defines no CLAIM", fix)
        if not isinstance(claim, Claim):
            raise found_registry.refuse(path, f"CLAIM is a {type(claim).__name__}, not a verify.authoring.Claim", fix)
        if claim.id != name:
            raise found_registry.refuse(path, f"the claim id {claim.id!r} differs from the file name {name!r}",
                                        f"rename the file to {claim.id}.py or set id={name!r}")
        found.append(claim)
    return sorted(found, key=lambda c: c.id)


def run_claims_with(claims: list[Claim], ranks: RankSource | None = None,
                    each: Callable[[int, ClaimResult], object] | None = None) -> list[ClaimResult]:
    """Run ``claims`` with one rank source (``specsets.RankSource``; a fresh one if None) shared by
    their bound checks; ``each(i, result)`` hears every result as it comes."""
    from .specsets import using

    results = []
    with using(ranks):
        for i, claim in enumerate(claims):
            results.append(run_claim(claim))
            if each is not None:
                each(i, results[-1])
    return results
