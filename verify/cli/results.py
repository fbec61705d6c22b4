"""``verify results``: list or export the results store (``verify.api.stored_results``)."""

from __future__ import annotations

import argparse
import sys

from .. import defaults
from ..errors import InputError, printable
from ..files import STDOUT, write_output
from .args import add_output_args, note
from .argtypes import distinct_outputs, store_files, writable_file

NAME = "results"


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    results = sub.add_parser("results", help="list or export the results store", description=(
        "List the stored results (a line each), or export them with --format csv|json [--out FILE]."))
    results.add_argument("--kind", default=None, choices=defaults.RESULT_KINDS,
                         help=f"only this kind of result ({defaults.RESULT_KINDS[-1]}: a verify sep --store run's "
                              "finished blocks)")
    results.add_argument("--format", default="table", choices=["table", "csv", "json"],
                         help="table (default), csv or json")
    results.add_argument("--out", default=None, help="write the export to FILE instead of stdout (a file is replaced "
                                                     "atomically; a symlink is written through, /dev/null or a FIFO "
                                                     "streamed to; - is stdout)")
    results.add_argument("--store", default=None, metavar="PATH", help="the store to read (default as for table)")
    add_output_args(results)


def run(args: argparse.Namespace) -> int:
    from .. import api
    from ..report import results_export

    if args.store is not None and not args.store.strip():
        raise InputError(f"--store {args.store!r} is an empty path; give the store's file path")
    if args.out and args.out != STDOUT:  # the export must not replace the store it reads
        distinct_outputs([("--out", args.out), *store_files(args.store or str(api.default_store_path()))])
    writable_file(args.out, "--out")
    path, rows = api.stored_results(args.store, args.kind)
    if args.json or args.format == "json":
        text = results_export.results_json(path, rows)
    elif args.format == "csv":
        text = results_export.results_csv(rows)
    else:
        lines = [f"{'kind':<10} {'spec':<28} {'method':<10} {'field':<24} {'seed':>4}  value"]
        for row in rows:
            spec = row["spec"]
            name = f"L={spec['depth']} d_x={spec['width']} H={spec['heads']}" + (" res" if spec["residual"] else "")
            if spec.get("tokens"):
                name += f" N={spec['tokens']}"
            value = row["value"].get("rank")
            params = ", ".join(f"{k}={v}" for k, v in row["params"].items())
            lines.append(f"{row['kind']:<10} {name:<28} {row['method']:<10} {row['field']:<24} {row['seed']:>4}  "
                         f"rank {value}" + (f" ({params})" if params else ""))
        lines.append(f"{len(rows)} results in {printable(path)}")
        text = "\n".join(lines) + "\n"
    if args.out and args.out != STDOUT:
        write_output(args.out, text)
        note(f"wrote {len(rows)} results to {printable(args.out)}")
    else:
        sys.stdout.write(text)
    return 0
