"""Sweep subcommands: ``verify table`` (the reviewers' table) and ``verify results`` (the store)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from ..errors import InputError
from ..files import STDOUT, write_output
from .checks import MAX_COUNT, MAX_DEPTH, field_text, int_range, memory_limit, plot_file, writable_file

__all__ = ["register", "add_sweep_args", "open_store", "COMMANDS"]


def add_sweep_args(p) -> None:
    g = p.add_argument_group("sweep")
    g.add_argument("--store", default=None, metavar="PATH",
                   help="SQLite results store (default $VERIFY_STORE or ~/.cache/verify/results.sqlite)")
    g.add_argument("--no-store", action="store_true", help="neither read nor write the results store")
    g.add_argument("--scheduler", default=None, metavar="ADDRESS",
                   help="run on a Dask distributed cluster, e.g. tcp://127.0.0.1:8786 (default: local processes)")
    g.add_argument("--workers", type=int_range("--workers", 1, 4096), default=None,
                   help="local worker processes (default: one per CPU; 1 runs in this process)")


def open_store(args):
    from ..sweeps.store import Store, default_store_path

    if args.no_store:
        return Store(None)
    return Store(args.store or default_store_path())


def register(sub, add_output_args) -> None:
    table = sub.add_parser("table", help="exact ranks beside every bound of both papers, per spec", description=(
        "One row per (depth, width, heads): the exact generic separation rank (reduced route), log3 of it, the "
        "regime (L against log3 d_x) and every bound of the claims registry that applies, with whether the rank "
        "obeys it; --real adds the numerical grid rank of a seeded BERT network (eqs. 1-2). Prints markdown; "
        "--csv and --plot write files. Results are kept in the store and reused."))
    table.add_argument("--depths", default="1-2", help="depths, e.g. 1-4 or 1,3 (default 1-2)")
    table.add_argument("--widths", default="2-4", help="widths, e.g. 2-6 (default 2-4)")
    table.add_argument("--heads", default="all", choices=["all", "1"],
                       help="all: every divisor of the width (default); 1: single-head only")
    table.add_argument("--real", action="store_true", help="add the numerical rank of the real BERT network")
    table.add_argument("--templates", type=int_range("--templates", 1, MAX_COUNT), default=None,
                       help="--real: templates per position (default 24)")
    table.add_argument("--real-tokens", type=int_range("--real-tokens", 2, 10**4), default=4, help="--real: sequence length N (default 4)")
    table.add_argument("--seed", type=int_range("--seed", 0), default=0, help="seed of the weights (default 0)")
    table.add_argument("--field", type=field_text, default=None, help="field of the exact ranks (default gf:2^63-25)")
    table.add_argument("--max-memory-gib", type=memory_limit, default=None,
                       help="skip specs whose largest block is estimated above this (default 16)")
    table.add_argument("--csv", default=None, metavar="FILE", help="also write the table as CSV")
    table.add_argument("--plot", default=None, metavar="FILE.png", help="draw log3 sep against depth per width")
    table.add_argument("--dry-run", action="store_true",
                       help="print the plan (tasks, estimated memory and work, what is stored) and compute nothing")
    add_sweep_args(table)
    add_output_args(table)

    results = sub.add_parser("results", help="list or export the results store", description=(
        "List the stored results (a line each), or export them with --format csv|json [--out FILE]."))
    results.add_argument("--kind", default=None, choices=["sep", "real_rank", "probe_step"],
                         help="only this kind of result")
    results.add_argument("--format", default="table", choices=["table", "csv", "json"],
                         help="table (default), csv or json")
    results.add_argument("--out", default=None, help="write the export to FILE instead of stdout (a file is replaced atomically; a symlink is written through, /dev/null or a FIFO streamed to; - is stdout)")
    results.add_argument("--store", default=None, metavar="PATH", help="the store to read (default as for table)")
    add_output_args(results)


def cmd_table(args) -> int:
    from ..exact.fields import DEFAULT_PRIME, parse_field
    from ..rank.memory import DEFAULT_MEMORY_GIB
    from ..rank.numrank import DEFAULT_TEMPLATES, check_grid
    from ..sweeps.progress import SweepProgress
    from ..sweeps.executor import SweepInterrupted, run_sweep
    from ..sweeps.table import (bound_columns, build_rows, markdown, parse_range, real_task, sep_cost, sep_task,
                        table_specs, fitting_specs, to_csv)

    field = parse_field(args.field or f"gf:{DEFAULT_PRIME}").name
    memory = DEFAULT_MEMORY_GIB if args.max_memory_gib is None else args.max_memory_gib
    templates = DEFAULT_TEMPLATES if args.templates is None else args.templates
    writable_file(args.csv, "--csv")  # before any work: a typo must not cost a finished table
    plot_file(args.plot, "--plot")  # also matplotlib, before any work
    if args.real:
        check_grid(templates, args.real_tokens)
    depths, widths = parse_range(args.depths, "depths", MAX_DEPTH), parse_range(args.widths, "widths", 1000)
    if len(depths) * len(widths) > 2000:
        raise InputError(f"--depths {args.depths} --widths {args.widths} make {len(depths) * len(widths):,} "
                         f"(depth, width) pairs, over the 2,000 a table takes; narrow the ranges")
    specs, skipped = fitting_specs(table_specs(depths, widths, args.heads), memory)
    if not specs:
        raise InputError(f"every spec was refused by the memory estimate ({skipped[0]['reason']})")
    quiet = args.json or args.quiet
    if not quiet:
        for row in skipped[:3]:
            print(f"skipped depth {row['depth']} width {row['width']} heads {row['heads']}: {row['reason']}",
                  file=sys.stderr)
        if len(skipped) > 3:
            print(f"skipped {len(skipped) - 3} more specs for the same reason at larger sizes "
                  f"(--json lists every one)", file=sys.stderr)
    tasks = [sep_task(spec, field, args.seed, memory) for spec in specs]
    if args.real:
        tasks += [real_task(spec, args.seed, templates, args.real_tokens) for spec in specs]
    cost = lambda t: sep_cost(t) if t.kind == "sep" else 1  # noqa: E731
    with open_store(args) as store:
        if args.dry_run:
            from ..rank.reduced import estimate_block_bytes
            from ..sweeps.plan import plan_text, sweep_plan

            plan = sweep_plan(tasks, store, cost, lambda t: estimate_block_bytes(t.spec) if t.kind == "sep" else None)
            plan["skipped"] = skipped
            print(json.dumps(plan) if args.json else plan_text(plan), end="\n" if args.json else "")
            return 0
        store_path = None if store.path is None else str(store.path)
        try:
            values, stats = run_sweep(tasks, store, args.scheduler, args.workers, SweepProgress("table", not quiet),
                                      cost=cost)
        except SweepInterrupted as stop:  # print the rows already computed, then the one-line error
            _print_partial(specs, stop.values, args.real, args.json)
            raise
    for item in stats.refused:  # refused by a worker's own estimate: listed like the up-front refusals
        spec = item["task"].spec
        skipped.append({"depth": spec.depth, "width": spec.width, "heads": spec.heads, "reason": item["reason"]})
    done = [i for i, spec in enumerate(specs)
            if values[i] is not None and (not args.real or values[len(specs) + i] is not None)]
    if not done:
        raise InputError(f"every spec was refused ({skipped[-1]['reason']})")
    columns = bound_columns()
    rows = build_rows([specs[i] for i in done], [values[i] for i in done],
                      [values[len(specs) + i] for i in done] if args.real else None, columns)
    if args.json:  # printed first: a file that cannot be written must not lose the table
        print(json.dumps({"rows": rows, "skipped": skipped, "field": field, "seed": args.seed,
                          "sweep": stats.as_dict(), "store": store_path,
                          "meaning": "sep_rank: exact rank at seeded integer weights over the field, a certified "
                                     "lower bound on the generic rank (equal to it with probability >= 1 - "
                                     "probability_bound; certified_exact when it meets the derivative-space "
                                     "upper_bound, probability 0), valid for N >= 2(d_x+1); over GF(p) the "
                                     "probability is about the generic rank over GF(p), equal to the one over Q "
                                     "unless p is one of finitely many bad primes; real_rank: numeric"}))
    else:
        print(markdown(rows, columns), end="")
    sys.stdout.flush()
    if args.csv:
        write_output(args.csv, to_csv(rows, columns))
    if args.plot:
        from ..sweeps.plot import plot_table
        plot_table(rows, args.plot, title=f"field {field}, seed {args.seed}")
    if not args.json:
        print(f"\n{stats.total} results: {stats.computed} computed, {stats.reused} from the store"
              f"{' (' + store_path + ')' if store_path else ''}"
              + (f", {len(stats.refused)} refused" if stats.refused else "") + f", {stats.seconds:.1f}s"
              + (f"; CSV: {args.csv}" if args.csv else "") + (f"; plot: {args.plot}" if args.plot else ""))
    return 0


def _print_partial(specs, values, real: bool, as_json: bool) -> None:
    """On Ctrl-C: the table of the specs whose results had arrived (all stored), on stdout."""
    from ..sweeps.table import bound_columns, build_rows, markdown

    done = [i for i, spec in enumerate(specs)
            if values[i] is not None and (not real or values[len(specs) + i] is not None)]
    if not done or as_json:  # --json promises one object, and only on success
        return
    columns = bound_columns()
    rows = build_rows([specs[i] for i in done], [values[i] for i in done],
                      [values[len(specs) + i] for i in done] if real else None, columns)
    print(markdown(rows, columns), end="")
    print(f"\nInterrupted: {len(done)} of {len(specs)} specs done; the rest resume from the store.", flush=True)


def cmd_results(args) -> int:
    from ..sweeps.store import Store, default_store_path, export_csv

    path = args.store or default_store_path()
    writable_file(args.out, "--out")
    if not Path(path).exists():
        raise InputError(f"no results store at {path}; run a sweep first (e.g. verify table) or pass --store PATH")
    with Store(path, read_only=True) as store:  # listing writes nothing: a read-only store is listed
        rows = store.rows(args.kind)
    if args.json or args.format == "json":
        text = json.dumps({"store": str(path), "results": rows}) + "\n"
    elif args.format == "csv":
        text = export_csv(rows)
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
        lines.append(f"{len(rows)} results in {path}")
        text = "\n".join(lines) + "\n"
    if args.out and args.out != STDOUT:
        write_output(args.out, text)
        print(f"wrote {len(rows)} results to {args.out}", file=sys.stderr)
    else:
        sys.stdout.write(text)
    return 0


COMMANDS = {"table": cmd_table, "results": cmd_results}
