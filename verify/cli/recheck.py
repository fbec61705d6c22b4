"""``verify recheck``: re-check exports with code that shares no rank code with the engine (``verify.recheck``)."""

from __future__ import annotations

import argparse
import json

from ..errors import InputError, printable

NAME = "recheck"

#: The exit statuses (``verify.recheck.core``), in --help, the JSON and docs/recheck.md.
EXIT_TEXT = ("exit status: 0 every value recomputed (or proven); 1 a contradiction; 2 a file it cannot read; "
             "3 nothing contradicted, but some value only consistent (a formula checked on a value taken on "
             "trust) or beyond the budget")


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    from ..recheck import DEFAULT_MAX_SECONDS

    parser = sub.add_parser("recheck", help="re-check an export independently; exit 1 on any contradiction",
                            formatter_class=argparse.RawDescriptionHelpFormatter,
                            description=(
                                "Recompute every value of an export small enough (probe-n --json, an atlas or cells "
                                "CSV, a table JSON/CSV, report.json, a certificate or a store) by a separate route: "
                                "the literal eq. 3 forward pass mod p and FLINT's nmod_mat rank, and each label's "
                                "argument from its formula. One line per value: recomputed, consistent (a formula "
                                "checked on a stated value taken on trust, which it names), beyond the budget (with "
                                "its price) or contradicted."),
                            epilog=EXIT_TEXT)
    parser.add_argument("files", nargs="+", metavar="FILE", help="export files (JSON, CSV or an SQLite store)")
    parser.add_argument("--max-seconds", type=float, default=DEFAULT_MAX_SECONDS,
                        help=f"priced seconds of recomputation, cheapest first (default {DEFAULT_MAX_SECONDS:g})")
    parser.add_argument("--json", action="store_true", help="print one JSON object on stdout")
    parser.add_argument("--quiet", action="store_true", help="print only the contradictions and the summary")


def run(args: argparse.Namespace) -> int:
    from ..recheck import BEYOND, CONSISTENT, CONTRADICTED, RECOMPUTED, BadInput, recheck

    try:
        rc = recheck(args.files, args.max_seconds)
    except BadInput as exc:
        raise InputError(str(exc)) from None
    counts = rc.counts()
    status = rc.exit_status()
    if args.json:
        print(json.dumps({"schema": "seprank-verify/recheck", "schema_version": 2,
                          "files": [{"path": p, "kind": k} for p, k in rc.files], "counts": counts,
                          "not_rechecked_numerical": rc.skipped, "exit_status": status,
                          "exit_statuses": {"0": "every value recomputed (or proven)", "1": "a contradiction",
                                            "2": "a file it cannot read",
                                            "3": "nothing contradicted; some value only consistent or beyond the "
                                                 "budget"},
                          "max_seconds": rc.max_seconds, "priced_seconds": round(rc.spent, 3),
                          "wall_seconds": round(rc.wall_seconds, 3),
                          "findings": [f.as_dict() for f in rc.findings]}))
    else:
        for finding in rc.findings:
            if not args.quiet or finding.status == CONTRADICTED:
                print(printable(finding.line()))
        kinds = ", ".join(f"{p} ({k})" for p, k in rc.files)
        print(f"recheck of {kinds}: {counts[RECOMPUTED]} recomputed, {counts[CONSISTENT]} consistent (a value taken "
              f"on trust), {counts[BEYOND]} beyond the budget, {counts[CONTRADICTED]} contradicted (--max-seconds "
              f"{rc.max_seconds:g}; {rc.spent:.1f} s priced, {rc.wall_seconds:.1f} s wall)"
              + (f"; {rc.skipped} numerical values (no exact route) not rechecked" if rc.skipped else "")
              + f"; exit {status}")
    return status
