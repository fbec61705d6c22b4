"""Writing the registry's results: a terminal table, report.md and report.json (atomically).

Every outcome kind is counted (zeros included); each claim shows its tightest margin, how many of
its strengthened statements it refuted, and in one line how close its strongest check came to
failing (the strengthening refuted, or the margin and where one would be refuted: ``closest``), so
tight and loose verdicts can be told apart (issue 20, rule 7).  Proof gaps, parts of a domain left
out and the places a passage is printed are shown per claim.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ..claims.record import OUTCOMES
from ..files import write_output

__all__ = ["table", "markdown", "write_reports", "counts", "summary", "strength", "raised_checks", "RAISED"]

#: How ``verify.claims.record`` words the evidence of a check that raised instead of deciding.
RAISED = "check raised "


def raised_checks(record: dict[str, Any]) -> list[str]:
    """``name: evidence`` of every check of ``record`` (printed, corrected, gap) that raised: an error in
    the JUnit file, under pytest and in ``verify run``'s exit status."""
    checks = record.get("checks", []) + record.get("corrected_checks", []) + record.get("gap_checks", [])
    return [f"{c['name']}: {c['evidence']}" for c in checks if str(c.get("evidence", "")).startswith(RAISED)]


def counts(records: list[dict[str, Any]]) -> dict[str, int]:
    """Claims per outcome, every kind of ``OUTCOMES`` present (zeros included)."""
    out = {kind: 0 for kind in OUTCOMES}
    for rec in records:
        out[rec["outcome"]] = out.get(rec["outcome"], 0) + 1
    return out


def summary(records: list[dict[str, Any]]) -> str:
    """One line: the count of each outcome kind."""
    return ", ".join(f"{v} {k}" for k, v in counts(records).items())


def strength(rec: dict[str, Any]) -> tuple[str, str]:
    """(tightest margin, perturbations refuted) of a record, as short texts."""
    m = rec.get("tightest_margin")
    margin = "-" if not m else f"{(m['value'] or 0.0):.3g}"  # no "-0"
    tried = rec.get("perturbations_tried", 0)
    return margin, (f"{rec.get('perturbations_refuted', 0)}/{tried}" if tried else "-")


def _short(text: str, width: int) -> str:
    return text if len(text) <= width else text[: width - 3] + "..."


def table(records: list[dict[str, Any]], width: int = 100) -> str:
    """One line per claim: id, outcome (with a mark when unexpected or a check raised), tightest margin, perturbations
    refuted, source, evidence; then the claims that leave part of their stated domain out (rule 2)."""
    lines = [f"{'claim':<46} {'outcome':<15} {'margin':>8} {'refuted':>7} {'source':<58} evidence"]
    for rec in records:
        mark = "" if rec["as_expected"] else f" !expected {rec['expected']}"
        if raised_checks(rec):  # an error, as in the JUnit file and under pytest: the checks decided nothing
            mark += " !error: a check raised"
        margin, refuted = strength(rec)
        lines.append(f"{rec['id']:<46} {rec['outcome'] + mark:<15} {margin:>8} {refuted:>7} "
                     f"{_short(rec['source'], 58):<58} {_short(rec['evidence'], width)}")
    partial = [rec["id"] for rec in records if rec.get("left_out")]
    if partial:  # rule 2: a check that leaves part of its stated domain out says so
        lines.append(f"\nparts of the stated domain left out (report.md says what and why) in {len(partial)} claims: "
                     + ", ".join(partial))
    return "\n".join(lines)


def markdown(records: list[dict[str, Any]], header: dict[str, Any]) -> str:
    surprises = [r["id"] for r in records if not r["as_expected"]]
    out = ["# Verification report", "",
           f"verify {header['version']}, {header['claims']} claims, {header['seconds']:.1f} s, "
           f"spec set: {header['spec_set']}.", "",
           "Outcomes: " + summary(records) + ". " +
           ("Every outcome is as expected." if not surprises else f"UNEXPECTED: {', '.join(surprises)}."), "",
           "*margin*: the tightest margin of any check (log3 units for bounds against ranks); "
           "*refuted*: strengthened statements refuted / tried; *closest to failing*: the strengthening "
           "refuted, or the margin and where one would be refuted.", "",
           "| claim | source | outcome | margin | refuted | closest to failing | evidence |",
           "|---|---|---|---|---|---|---|"]
    for rec in records:
        evidence = rec["evidence"].replace("|", "\\|")
        outcome = rec["outcome"] + ("" if rec["as_expected"] else f" (expected {rec['expected']})")
        margin, refuted = strength(rec)
        close = _short((rec.get("closest") or "-").replace("|", "\\|"), 250)
        out.append(f"| {rec['id']} | {rec['source']} | {outcome} | {margin} | {refuted} | {close} | "
                   f"{_short(evidence, 400)} |")
    gaps = [r for r in records if r["outcome"] == "gap"]
    if gaps:
        out += ["", "## Proof gaps (no computed value refutes the statement; its printed proof falls short)", ""]
        out += [f"- **{r['id']}**: {r['gap']}" for r in gaps]
    partial = [r for r in records if r.get("left_out")]
    if partial:
        out += ["", "## Parts of a stated domain no check reaches", ""]
        out += [f"- **{r['id']}**: {r['left_out']}" for r in partial]
    errata = [r for r in records if r["outcome"] == "erratum"]
    if errata:
        out += ["", "## Errata", ""]
        for rec in errata:
            out += [f"### {rec['id']}", "", f"*Source:* {rec['source']}", "",
                    f"*Printed:* {rec['statement']}", "",
                    f"*Smallest counterexample:* `{json.dumps(rec['counterexample'])}`", "",
                    f"*Corrected statement (verified: its checks pass and refute a strengthening of it):* "
                    f"{rec['corrected_statement']}", ""]
    ambiguous = [r for r in records if r["outcome"] == "ambiguous"]
    if ambiguous:
        out += ["", "## Ambiguous", ""]
        for rec in ambiguous:
            out += [f"### {rec['id']}", "", f"*Printed:* {rec['statement']}", ""]
            out += [f"- reading *{name}*: {r['outcome']} ({_short(r['evidence'], 300)})"
                    for name, r in (rec.get("readings") or {}).items()] + [""]
    undecided = [r for r in records if r["outcome"] == "not-decided"]
    if undecided:
        out += ["", "## Not decided (every check passed, no strengthening refuted)", ""]
        out += [f"- **{r['id']}**: " + (r.get("bites_at") or "unknown") for r in undecided]
    return "\n".join(out) + "\n"


def write_reports(out_dir: Path, records: list[dict[str, Any]], header: dict[str, Any]) -> tuple[Path, Path]:
    md, js = out_dir / "report.md", out_dir / "report.json"
    from ..schema import stamp

    write_output(js, json.dumps(stamp({"header": header, "counts": counts(records), "claims": records}, "report"),
                                indent=1, default=str) + "\n")
    write_output(md, markdown(records, header))
    return md, js
