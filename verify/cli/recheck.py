"""``verify recheck``: re-check exports with code that shares no rank code with the engine (``verify.recheck``)."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from ..errors import InputError, printable

if TYPE_CHECKING:
    import argparse

NAME = "recheck"


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    from ..recheck import DEFAULT_MAX_SECONDS

    parser = sub.add_parser("recheck", help="re-check an export independently; exit 1 on any contradiction",
                            description=(
                                "Recompute every value of an export small enough (probe-n --json, an atlas or cells "
                                "CSV, a table JSON/CSV, report.json, a certificate or a store) by a separate route: "
                                "the literal eq. 3 forward pass mod p and FLINT's nmod_mat rank, and each label's "
                                "argument from its formula. One line per value: confirmed, contradicted or beyond "
                                "the budget. Exit 1 on any contradiction, 0 otherwise."))
    parser.add_argument("files", nargs="+", metavar="FILE", help="export files (JSON, CSV or an SQLite store)")
    parser.add_argument("--max-seconds", type=float, default=DEFAULT_MAX_SECONDS,
                        help=f"priced seconds of recomputation, cheapest first (default {DEFAULT_MAX_SECONDS:g})")
    parser.add_argument("--json", action="store_true", help="print one JSON object on stdout")
    parser.add_argument("--quiet", action="store_true", help="print only the contradictions and the summary")


def run(args: argparse.Namespace) -> int:
    from ..recheck import CONFIRMED, CONTRADICTED, BadInput, recheck

    try:
        rc = recheck(args.files, args.max_seconds)
    except BadInput as exc:
        raise InputError(str(exc)) from None
    counts = rc.counts()
    if args.json:
        print(json.dumps({"files": [{"path": p, "kind": k} for p, k in rc.files], "counts": counts,
                          "not_rechecked_numerical": rc.skipped,
                          "max_seconds": rc.max_seconds, "priced_seconds": round(rc.spent, 3),
                          "wall_seconds": round(rc.wall_seconds, 3),
                          "findings": [f.as_dict() for f in rc.findings]}))
    else:
        for finding in rc.findings:
            if not args.quiet or finding.status == CONTRADICTED:
                print(printable(finding.line()))
        kinds = ", ".join(f"{p} ({k})" for p, k in rc.files)
        print(f"recheck of {kinds}: {counts[CONFIRMED]} confirmed, {counts[CONTRADICTED]} contradicted, "
              f"{counts['beyond the budget']} beyond the budget (--max-seconds {rc.max_seconds:g}; "
              f"{rc.spent:.1f} s priced, {rc.wall_seconds:.1f} s wall)"
              + (f"; {rc.skipped} numerical values (no exact route) not rechecked" if rc.skipped else ""))
    return 1 if counts[CONTRADICTED] else 0
