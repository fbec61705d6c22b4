"""The registry's subcommands: ``verify claims`` and ``verify run``."""

from __future__ import annotations

import json
import time
from pathlib import Path

from .errors import InputError
from .progress import Progress

__all__ = ["register", "COMMANDS"]


def register(sub, add_network_args, add_output_args) -> None:
    claims = sub.add_parser("claims", help="list the claims registry", description=(
        "List every claim of the registry (proofs/): id, source, expected outcome, statement."))
    add_output_args(claims)

    run = sub.add_parser("run", help="check every claim of the papers (the default job)", description=(
        "Run the claims registry: each stated bound and identity of the papers checked against exact "
        "ranks and certified arithmetic. Prints a table, writes report.md and report.json into --out, "
        "exits 0 when every claim has its expected outcome and 1 otherwise."))
    run.add_argument("--claim", action="append", default=None, metavar="ID",
                     help="run only this claim (repeatable)")
    run.add_argument("--out", default="verify-report", help="directory for report.md and report.json "
                     "(default verify-report/)")
    run.add_argument("--extended", action="store_true",
                     help="add the slow specs (depth 2 width 10, depth 5 width 2) to the bound checks")
    add_output_args(run)


def cmd_claims(args) -> int:
    from .claims import load_claims

    found = load_claims()
    if args.json:
        print(json.dumps([{"id": c.id, "source": str(c.source), "expected": c.expected,
                           "statement": c.statement} for c in found]))
        return 0
    width = max(len(c.id) for c in found)
    for c in found:
        print(f"{c.id:<{width}}  {c.expected:<14}  {c.source}")
    print(f"\n{len(found)} claims")
    return 0


def cmd_run(args) -> int:
    from . import __version__
    from . import specsets
    from .claims import load_claims, run_claim
    from .report import table, write_reports

    found = load_claims()
    if args.claim:
        known = {c.id for c in found}
        unknown = [c for c in args.claim if c not in known]
        if unknown:
            raise InputError(f"unknown claim {unknown[0]!r}; 'verify claims' lists the ids")
        found = [c for c in found if c.id in set(args.claim)]
    specsets.EXTENDED = args.extended
    show = not (args.json or args.quiet)
    progress = Progress("claims", show, unit="claim")
    start = time.perf_counter()
    records = []
    out_dir = Path(args.out)
    header = {"version": __version__, "claims": len(found), "seconds": 0.0,
              "spec_set": "extended" if args.extended else "default"}
    for i, claim in enumerate(found):
        records.append(run_claim(claim).as_dict())
        header["seconds"] = time.perf_counter() - start
        write_reports(out_dir, records, header)  # atomically, after every claim: an interrupt loses nothing
        progress(i + 1, len(found))
    surprises = [r["id"] for r in records if not r["as_expected"]]
    if args.json:
        print(json.dumps({"header": header, "claims": records, "all_as_expected": not surprises}, default=str))
    else:
        print(table(records))
        counts = {}
        for r in records:
            counts[r["outcome"]] = counts.get(r["outcome"], 0) + 1
        print(f"\n{len(records)} claims in {header['seconds']:.1f}s: " +
              ", ".join(f"{v} {k}" for k, v in sorted(counts.items())) +
              (f"; UNEXPECTED: {', '.join(surprises)}" if surprises else "; every outcome as expected") +
              f"\nreports: {out_dir / 'report.md'}, {out_dir / 'report.json'}")
    return 1 if surprises else 0


COMMANDS = {"claims": cmd_claims, "run": cmd_run}
