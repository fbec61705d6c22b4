"""``verify table``: exact ranks beside every bound of both papers (``verify.api.reviewers_table``)."""

from __future__ import annotations

import json
import sys
from typing import TYPE_CHECKING, Any

from .. import defaults
from ..errors import printable
from ..files import is_stdout, write_output
from .args import add_device_arg, add_output_args, add_registry_arg, add_sweep_args, note, registry_note, store_path
from .argtypes import (
    MAX_COUNT,
    distinct_outputs,
    field_text,
    int_range,
    memory_limit,
    plot_file,
    store_files,
    writable_file,
)

if TYPE_CHECKING:
    import argparse

NAME = "table"
D = defaults.TABLE


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    table = sub.add_parser("table", help="exact ranks beside every bound of both papers, per spec", description=(
        "One row per (depth, width, heads): the exact generic separation rank (reduced route), log3 of it, the "
        "regime (L against log3 d_x) and every bound of the claims registry that applies, with whether the rank "
        "obeys it; --real adds the numerical grid rank of a seeded BERT network (eqs. 1-2). Prints markdown; "
        "--csv and --plot write files. Results are kept in the store and reused."))
    table.add_argument("--depths", default=D.depths, help=f"depths, e.g. 1-4 or 1,3 (default {D.depths})")
    table.add_argument("--widths", default=D.widths, help=f"widths, e.g. 2-6 (default {D.widths})")
    table.add_argument("--heads", default=D.heads, choices=["all", "1"],
                       help="all: every divisor of the width (default); 1: single-head only")
    table.add_argument("--real", action="store_true", help="add the numerical rank of the real BERT network")
    table.add_argument("--templates", type=int_range("--templates", 1, MAX_COUNT), default=D.templates,
                       help=f"--real: templates per position (default {D.templates})")
    table.add_argument("--real-tokens", type=int_range("--real-tokens", 2, 10**4), default=D.real_tokens,
                       help=f"--real: sequence length N (default {D.real_tokens})")
    table.add_argument("--seed", type=int_range("--seed", 0), default=D.seed, help="seed of the weights (default 0)")
    table.add_argument("--field", type=field_text, default=D.field,
                       help="field of the exact ranks: auto (default: each cell through verify sep's runs, a fast "
                            "prime first, then 2^63-25 and below or 2^40-87 and below, whichever reaches the target "
                            "sooner, until certified exact or the bound is at most "
                            "1e-9), or gf:P / qq for one run there")
    table.add_argument("--max-memory-gib", type=memory_limit, default=D.max_memory_gib,
                       help=f"skip specs whose largest block is estimated above this (default {D.max_memory_gib:g})")
    table.add_argument("--csv", default=None, metavar="FILE", help="also write the table as CSV (- : on stdout, the "
        "markdown table then on stderr)")
    table.add_argument("--plot", default=None, metavar="FILE.png", help="draw log3 sep against depth per width")
    table.add_argument("--dry-run", action="store_true",
                       help="print the plan (tasks, estimated memory and work, what is stored) and compute nothing")
    add_device_arg(table, D.device, "each cell's eliminations")
    add_registry_arg(table)
    add_sweep_args(table)
    add_output_args(table)


def _print_skipped(skipped: list[Any]) -> None:
    for row in skipped[:3]:
        note(f"skipped depth {row['depth']} width {row['width']} heads {row['heads']}: {row['reason']}")
    if len(skipped) > 3:
        note(f"skipped {len(skipped) - 3} more specs for the same reason at larger sizes "
             f"(--json lists every one)")


def run(args: argparse.Namespace) -> int:
    from .. import api
    from ..report import formats
    from ..report.plan_text import plan_text

    store = store_path(args)
    if not args.dry_run:
        distinct_outputs([("--csv", args.csv), ("--plot", args.plot), ("--json", "-" if args.json else None),
                          *store_files(store)])
    writable_file(args.csv, "--csv")  # before any work: a typo must not cost a finished table
    plot_file(args.plot, "--plot")  # also matplotlib, before any work
    # a file written on stdout has stdout to itself: the markdown table and the summary go to stderr
    shown = sys.stderr if is_stdout(args.csv) or is_stdout(args.plot) else sys.stdout
    quiet = args.json or args.quiet
    if not quiet:
        registry_note(args.registry)
    try:
        data = api.reviewers_table(args.depths, args.widths, args.heads, args.field, args.seed, args.max_memory_gib,
                                   args.workers, store, args.scheduler, args.real, args.templates,
                                   args.real_tokens, not quiet, None if quiet else _print_skipped, args.dry_run,
                                   args.registry, args.device)
    except api.SweepInterrupted as stop:  # print the rows already computed, then the one-line error
        if getattr(stop, "rows", None) and not args.json:  # --json promises one object, and only on success
            print(formats.table_markdown(stop.rows, args.registry), end="", file=shown)
            print(f"\nInterrupted: {len(stop.rows)} of {stop.total} specs done; the rest resume from the store.",
                  flush=True, file=shown)
        raise
    if args.dry_run:
        print(json.dumps(data) if args.json else plan_text(data), end="\n" if args.json else "")
        return 0
    rows, stats = data["rows"], data["sweep"]
    if args.json:  # printed first: a file that cannot be written must not lose the table
        print(json.dumps(data))
    else:
        print(formats.table_markdown(rows, args.registry), end="", file=shown)
    shown.flush()
    if args.csv:
        write_output(args.csv, formats.table_csv(rows, args.registry))
    if args.plot:
        formats.plot_table(rows, args.plot, title=f"field {data['field']}, seed {args.seed}")
    if not args.json:
        store = data["store"]
        print(f"\n{stats['total']} results: {stats['computed']} computed, {stats['reused']} from the store"
              f"{' (' + printable(store) + ')' if store else ''}"
              + (f", {stats['refused']} refused" if stats["refused"] else "") + f", {stats['seconds']:.1f}s"
              + (f"; CSV: {printable(args.csv)}" if args.csv else "")
              + (f"; plot: {printable(args.plot)}" if args.plot else ""), file=shown)
    return 0
