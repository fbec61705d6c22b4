"""Writing the registry's results: a terminal table, report.md and report.json (atomically)."""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

from ..files import write_atomic

__all__ = ["table", "markdown", "write_reports"]


def _short(text: str, width: int) -> str:
    return text if len(text) <= width else text[: width - 3] + "..."


def table(records: list[dict], width: int = 100) -> str:
    """One line per claim: id, outcome (with a mark when unexpected), source, evidence."""
    lines = [f"{'claim':<46} {'outcome':<15} {'source':<58} evidence"]
    for rec in records:
        mark = "" if rec["as_expected"] else f" !expected {rec['expected']}"
        lines.append(f"{rec['id']:<46} {rec['outcome'] + mark:<15} {_short(rec['source'], 58):<58} "
                     f"{_short(rec['evidence'], width)}")
    return "\n".join(lines)


def markdown(records: list[dict], header: dict) -> str:
    counts = {}
    for rec in records:
        counts[rec["outcome"]] = counts.get(rec["outcome"], 0) + 1
    surprises = [r["id"] for r in records if not r["as_expected"]]
    out = ["# Verification report", "",
           f"verify {header['version']}, {header['claims']} claims, {header['seconds']:.1f} s, "
           f"spec set: {header['spec_set']}.", "",
           "Outcomes: " + ", ".join(f"{k} {v}" for k, v in sorted(counts.items())) + ". " +
           ("Every outcome is as expected." if not surprises else f"UNEXPECTED: {', '.join(surprises)}."), "",
           "| claim | source | outcome | evidence |", "|---|---|---|---|"]
    for rec in records:
        evidence = rec["evidence"].replace("|", "\\|")
        outcome = rec["outcome"] + ("" if rec["as_expected"] else f" (expected {rec['expected']})")
        out.append(f"| {rec['id']} | {rec['source']} | {outcome} | {_short(evidence, 400)} |")
    errata = [r for r in records if r["outcome"] == "erratum"]
    if errata:
        out += ["", "## Errata", ""]
        for rec in errata:
            out += [f"### {rec['id']}", "", f"*Source:* {rec['source']}", "",
                    f"*Printed:* {rec['statement']}", "",
                    f"*Smallest counterexample:* `{json.dumps(rec['counterexample'])}`", "",
                    f"*Corrected statement (verified):* {rec['corrected_statement']}", ""]
    return "\n".join(out) + "\n"


def write_reports(out_dir: Path, records: list[dict], header: dict) -> tuple[Path, Path]:
    md, js = out_dir / "report.md", out_dir / "report.json"
    write_atomic(js, json.dumps({"header": header, "claims": records}, indent=1, default=str) + "\n")
    write_atomic(md, markdown(records, header))
    return md, js
