"""``verify run``: check every claim of the papers (``verify.api.run_registry``)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from ..errors import printable
from ..files import is_stdout, write_output
from .args import add_output_args, add_registry_arg, add_sweep_args, store_path
from .argtypes import distinct_outputs, store_files, writable_dir, writable_file

if TYPE_CHECKING:
    import argparse

NAME = "run"


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    run = sub.add_parser("run", help="check every claim of the papers (the default job)", description=(
        "Run the claims registry: each stated bound and identity of the papers checked against exact "
        "ranks and certified arithmetic. Prints a table, writes report.md and report.json into --out, "
        "exits 0 when every claim has its expected outcome and no check raised, 1 otherwise "
        "(a check that raised is an error, as in the JUnit file)."))
    run.add_argument("--claim", action="append", default=None, metavar="ID",
                     help="run only this claim (repeatable)")
    run.add_argument("--out", default="verify-report", help="directory for report.md and report.json "
                     "(default verify-report/; with --claim they go to its partial/ folder)")
    run.add_argument("--dry-run", action="store_true",
                     help="print the plan (exact ranks to compute or reuse, claims to check) and compute nothing")
    run.add_argument("--extended", action="store_true",
                     help="add the slow spec depth 5 width 2 (about 3 minutes) to the bound checks")
    run.add_argument("--junit", default=None, metavar="FILE",
                     help="also write JUnit XML (one testcase per claim, classname <registry>.<paper>; an unexpected "
                          "outcome is a failure, a check that raised an error) for CI test reports; - writes it on "
                          "stdout and the claims table on stderr")
    add_registry_arg(run)
    add_sweep_args(run)
    add_output_args(run)


def report_folder(args: argparse.Namespace) -> Path:
    """Where ``run_registry`` writes the reports: --out, or its partial/ folder with --claim."""
    return Path(args.out) / "partial" if args.claim else Path(args.out)


def run(args: argparse.Namespace) -> int:
    from .. import api
    from ..report import formats
    from ..report.plan_text import plan_text

    store = store_path(args)
    if not args.dry_run:  # before any work: a typo must not cost a finished run
        folder = report_folder(args)
        distinct_outputs([("--out", args.out), ("--junit", args.junit), ("--json", "-" if args.json else None),
                          *[(f"--out ({name})", folder / name) for name in ("report.md", "report.json", "report.html")],
                          *store_files(store)])
        writable_file(args.junit, "--junit")
        writable_dir(args.out, "--out")
    done = api.run_registry(args.claim, args.out, args.extended, args.dry_run, store, args.scheduler,
                            args.workers, not (args.json or args.quiet), args.registry)
    if args.dry_run:
        if args.json:
            print(json.dumps(done))
        else:
            print(plan_text(done) + f"Then {len(done['claims'])} claims would be checked, reports written "
                                        f"to {printable(done['out'])}.")
        return 0
    records, header, surprises, errors = done["claims"], done["header"], done["unexpected"], done["errors"]
    if args.junit:  # written before printing: CI reads it even when stdout is closed
        write_output(args.junit, formats.junit_xml(records, header))
    if args.json:
        print(json.dumps({"header": header, "claims": records, "all_as_expected": not surprises, "errors": errors},
                         default=str))
    else:  # with --junit on stdout, stdout holds only the XML and the table goes to stderr
        shown = sys.stderr if is_stdout(args.junit) else sys.stdout
        text, summary = formats.claims_table(records)
        print(text, file=shown)
        print(f"\n{len(records)} claims in {header['seconds']:.1f}s: " + summary +
              (f"; UNEXPECTED: {', '.join(surprises)}" if surprises else "; every outcome as expected") +
              (f"; ERROR (a check raised, so it decided nothing): {', '.join(errors)}" if errors else "") +
              f"\nreports: {printable(Path(done['out']) / 'report.md')}, "
              f"{printable(Path(done['out']) / 'report.json')}, "
              f"{printable(Path(done['out']) / 'report.html')}"
              + (f"; JUnit: {printable(args.junit)}" if args.junit else ""), file=shown)
    return 1 if surprises or errors else 0  # as pytest --verify-claims and the JUnit file: errors count
