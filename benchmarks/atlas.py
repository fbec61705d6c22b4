"""Regenerates the atlas of the conjecture on N (docs/conjecture_n.md, "The atlas"): one command, both sections.

* the grid (``verify.sweeps.atlas.grid``): depth L = 1-4, V = r = 2-6, H = 1, 2, R = 0, 1, 2, full, the exact
  token rank against N up to its limit -> results/n_atlas.csv;
* the bound cells (``verify.sweeps.atlas.bound``): V = r = 8, 10, 12, L = 3, 4, 5, H = 1, 2, R = 1, 2 and 0,
  the smallest N at which the rank reaches Theorem 2's proof bound, beside r L / log3 r
  -> results/n_positional_cells.csv;
* the figure -> results/n_atlas.png (needs matplotlib: pip install -e '.[plot]').

Every cell is priced before the run starts (its seconds in the committed tables; a bound cell without a
committed row by its evaluations of F at the counting floor and the rate measured here), and every N is
priced again before it is computed (a cell past its budget is a row with its estimate).  Progress is
printed cell by cell, and the total time at the end.  Files are written atomically: a full run writes
each table to <table>.partial as its rows arrive and renames it over the table at the end (an interrupted
run leaves the committed tables whole, and its rows in the .partial files); --cells replaces the named rows
in the tables, rewriting each table atomically after each cell.  The engine is verify.sweeps.atlas; this
script parses, prints and writes.

It behaves like a command: every argument is checked before any work (a cell is L,V,H,R with
1 <= L <= 6, 2 <= V <= 16, 1 <= H <= V + 1 and R 0, 1, 2 or full; bound cells R 0, 1 or 2), --out must be a
folder it can write, and every cell is priced before the run: a cell with committed seconds by them, any
other by the most its budget lets it spend (grid) or its work at the counting floor (bound cells), at the
rate of F measured here.  A plan priced above --max-minutes (default 15) on its --jobs workers is refused
unless --force.
Nothing is written unless --out names the folder: the committed tables are the repository's results/, so
``--out results`` from the checkout regenerates them in place (--price without --out reads them there).
Errors are one line on stderr and exit status 2.

Run: python benchmarks/atlas.py --price          (the plan, each cell's estimate and the total; computes nothing)
     python benchmarks/atlas.py --jobs 2 --out results  (the whole atlas on two worker processes, in place)
     python benchmarks/atlas.py --quick --out DIR  (a few small cells, seconds; what tests/sweeps/test_atlas.py runs)
     python benchmarks/atlas.py --cells 3,3,1,1 bound:4,12,2,1 --out results  (rerun named rows in place)
     python benchmarks/atlas.py --scheduler tcp://HOST:8786 --jobs 8 --out DIR  (the cells on a Dask cluster)
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

from verify.cli.script_args import ScriptParser, count  # one-line refusals, exit 2, as the verify command
from verify.errors import InputError
from verify.files import probe_folder, write_output
from verify.sweeps.atlas.plan import (
    BOUND_CELLS,
    GRIDS,
    bound_cells,
    budget_for,
    estimate_seconds,
    grid_cells,
    parse_cell,
)
from verify.validate import scheduler_address

# the rest of the engine (numba kernels: seconds to load) is imported once the arguments are checked (_engine)

#: The repository's committed tables (read by --price without --out; written only with --out naming them).
RESULTS = Path(__file__).resolve().parents[1] / "results"


def _minutes(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = float("nan")
    if not 0 < value < 10**6:
        raise argparse.ArgumentTypeError(f"--max-minutes must be a number above 0, got {text[:40]!r}")
    return value


def check_out(path: str) -> Path:
    """--out: a folder this script can write (made if missing), refused before any work."""
    if not path.strip():
        raise InputError(f"--out {path!r} is an empty path; give a folder, e.g. --out results")
    out = Path(path)
    if out.exists() and not out.is_dir():
        raise InputError(f"--out {path} is an existing file, not a folder; give a folder for the tables")
    probe_folder(out, f"--out {path}")
    return out


def _engine():
    """The engine beyond the plan, loaded after the arguments are checked, so a refusal is immediate."""
    global SECTIONS, bound_estimate, csv_text, grid_estimate, merge_rows, read_rows, row_key, run_cells
    from verify.sweeps.atlas.bound import bound_estimate
    from verify.sweeps.atlas.csv_rows import SECTIONS, csv_text, merge_rows, read_rows, row_key
    from verify.sweeps.atlas.grid import grid_estimate
    from verify.sweeps.atlas.run import run_cells


def committed(out: Path) -> dict:
    """section -> rows of its table in ``out`` (empty where there is none)."""
    found = {}
    for section, (name, _) in SECTIONS.items():
        path = out / name
        found[section] = read_rows(path.read_text()) if path.is_file() else []
    return found


def summary(cell, row) -> str:
    if cell.section == "grid":
        limit = row["limit"] if row["limit"] != "" else (f">= {row['limit_at_least']}"
                                                         if row.get("limit_at_least", "") != "" else "-")
        first = row["first_n_limit"]
        if first != "":  # the headline with the certainty of what it rests on (issue 47, item 1)
            first = f"{first} ({row['first_n_limit_certainty']}" + (
                f", p <= {row['first_n_limit_probability']})" if row["first_n_limit_certainty"] == "probabilistic"
                else ")")
        return (f"{row['status']}; limit {limit} ({row['limit_certainty']}); first N: bound "
                f"{row['first_n_thm2_bound'] or '-'}, limit {first or '-'}")
    price = (f" (priced at {row['next_step_price']:,} {row['next_step_unit']})" if row.get("next_step_price") != ""
             else "")
    return (f"bound {row['bound'] or '-'}, floor {row['counting_floor'] or '-'}, reached at {row['n_reached'] or '-'} "
            f"(r L / log3 r = {row['scale']}, c = {row['c'] or '-'}); {row['status']}{price}")


def price(cells, tables, which: str, seed: int, bound_budget: int | None) -> dict:
    """Prints each cell's estimate and the total; returns Cell -> seconds (for the workers' order and the
    --max-minutes check): the committed seconds, else the priced work at the rate measured here (grid: the
    most its budget lets it spend; bound cells: its work at the counting floor)."""
    rows = {row_key(s, r): r for s, section_rows in tables.items() for r in section_rows}
    known, unknown = estimate_seconds(cells, rows)
    budget = BOUND_CELLS[which]["budget"] if bound_budget is None else bound_budget
    for cell in unknown:
        if cell.section == "grid":
            work, seconds = grid_estimate(cell, which, seed)
            known[cell] = seconds
            print(f"  {cell.name}: no committed seconds; at most {work:,} evaluations of F under its budget, "
                  f"about {seconds:.0f} s at the rate measured here", flush=True)
            continue
        work, seconds = bound_estimate(cell, budget, seed, forecast=True)
        known[cell] = 0.0 if work is None or work > budget else seconds
        print(f"  {cell.name}: no committed seconds; " + (
            "no bound" if work is None else f"{work:,} evaluations of F (or entries) at its counting floor, " + (
                f"about {seconds:.0f} s at the rate measured here, past the budget {budget:,}: a row with its "
                f"estimate (--cells {cell.name} --bound-evaluations {work} runs it)" if work > budget else
                f"about {seconds:.0f} s at the rate measured here")), flush=True)
    for cell in (c for c in cells if c.section == "grid" and budget_for(c, which) != GRIDS[which]["budget"]):
        print(f"  {cell.name}: budget raised (verify.sweeps.atlas.plan.RAISED); its committed seconds may predate that")
    total = sum(known.values())
    print(f"priced: {len(cells)} cells, {total:.0f} s in all ({total / 60:.1f} min one after another)")
    for cell, seconds in sorted(known.items(), key=lambda kv: -kv[1])[:8]:
        print(f"  {cell.name}: {seconds:.0f} s ({100 * seconds / max(total, 1e-9):.0f}%)")
    return known


def write_table(out: Path, section: str, rows: list[dict], suffix: str = "") -> None:
    write_output(out / (SECTIONS[section][0] + suffix), csv_text(section, rows))


def main(argv=None) -> int:
    try:
        return _main(argv)
    except InputError as exc:
        print(f"atlas: error: {exc}", file=sys.stderr)
        return 2


def _main(argv) -> int:
    parser = ScriptParser(prog="atlas.py", description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a few small cells with small budgets (seconds)")
    parser.add_argument("--out", default=None, help="folder of the tables and the figure; required for a run "
                        "(--out results from the checkout: the committed ones); --price without it reads "
                        "the repository's results/")
    parser.add_argument("--seed", type=count("--seed"), default=0)
    parser.add_argument("--jobs", type=count("--jobs", 1, 256), default=1,
                        help="worker processes (default 1; 2 on a 2-core machine)")
    parser.add_argument("--scheduler", default=None, metavar="ADDRESS",
                        help="run the cells on the Dask cluster at tcp://HOST:PORT (each cell a task, as the "
                             "sweeps' --scheduler); --jobs then says how many workers the plan is priced for")
    parser.add_argument("--section", choices=("all", "grid", "bound"), default="all")
    parser.add_argument("--cells", nargs="+", metavar="NAME", default=None,
                        help="rerun only these cells and replace their rows: L,V,H,R (grid; R 0, 1, 2 or full) or "
                             "bound:L,V,H,R (bound cells)")
    parser.add_argument("--price", action="store_true", help="print the plan and its estimate; compute nothing")
    parser.add_argument("--max-minutes", type=_minutes, default=15.0,
                        help="refuse a plan priced above this many minutes (default 15) unless --force")
    parser.add_argument("--force", action="store_true", help="run a plan priced above --max-minutes")
    parser.add_argument("--no-plot", action="store_true")
    parser.add_argument("--replot", action="store_true", help="only redraw n_atlas.png from the tables in --out")
    parser.add_argument("--limit-evaluations", type=count("--limit-evaluations"), default=None,
                        help="with --cells: the limit's budget")
    parser.add_argument("--step-evaluations", type=count("--step-evaluations"), default=None,
                        help="with --cells: one N's budget")
    parser.add_argument("--bound-evaluations", type=count("--bound-evaluations"), default=None,
                        help="with --cells: a bound cell's budget")
    args = parser.parse_args(argv)
    which = "quick" if args.quick else "full"
    cells = [parse_cell(name) for name in args.cells] if args.cells else grid_cells(which) + bound_cells(which)
    cells = [c for c in cells if args.section in ("all", c.section)]
    if args.out is None and not args.price:
        raise InputError(f"give --out DIR for the tables and the figure (nothing is written by default; "
                         f"--out {RESULTS} regenerates the committed ones)")
    out = RESULTS if args.out is None else Path(args.out)
    if not args.price:
        check_out(args.out)  # before any work: a finished run must not be lost to an unwritable folder
    scheduler = scheduler_address(args.scheduler) if args.scheduler is not None else None
    _engine()
    try:
        tables = committed(out) if (args.cells or args.price or args.replot or not args.quick) else {}
    except OSError as exc:
        raise InputError(f"cannot read the tables in {out}: {exc.strerror or exc}") from None
    if args.replot:
        return draw(out, tables["grid"], tables["bound"])
    where = f"the Dask cluster at {scheduler}" if scheduler else f"{args.jobs} worker(s)"
    print(f"atlas: {len(cells)} cells ({which}), seed {args.seed}, {where}, out {out}", flush=True)
    estimate = price(cells, tables, which, args.seed, args.bound_evaluations)
    if args.price:
        return 0
    wall = sum(estimate.values()) / min(args.jobs, max(len(cells), 1))  # the workers share the cells
    if wall > 60 * args.max_minutes and not args.force:
        raise InputError(f"the plan is priced at {wall / 60:.1f} min on {args.jobs} worker(s), above --max-minutes "
                         f"{args.max_minutes:g}; pass --force to run it, or name fewer --cells")
    raised = {k: v for k, v in (("limit_evaluations", args.limit_evaluations),
                                ("step_evaluations", args.step_evaluations),
                                ("loop_evaluations", args.step_evaluations and 4 * args.step_evaluations),
                                ("bound_evaluations", args.bound_evaluations)) if v is not None}
    order = {"grid": grid_cells(which), "bound": bound_cells(which)}
    new = {"grid": {}, "bound": {}}
    known = {}
    if args.cells:  # the skip rule reads the committed rows of the cells not rerun
        by_key = {row_key(s, r): r for s, rows in tables.items() for r in rows}
        known = {c: by_key[c.key] for c in order["grid"] if c.key in by_key and c not in cells}
    start = time.perf_counter()
    try:
        for done, (cell, row) in enumerate(run_cells(cells, which, args.seed, args.jobs, known, raised, estimate,
                                                            scheduler), 1):
            new[cell.section][cell] = row
            section = cell.section
            if args.cells:
                tables[section] = merge_rows(section, tables[section], {cell: row}, order[section])
                write_table(out, section, tables[section])
            else:
                write_table(out, section, merge_rows(section, [], new[section], order[section]), ".partial")
            print(f"[{done}/{len(cells)}, {time.perf_counter() - start:.0f} s] {cell.name}: {summary(cell, row)}; "
                  f"{row['seconds']} s", flush=True)
    except KeyboardInterrupt:
        print(f"atlas: interrupted after {time.perf_counter() - start:.0f} s; the tables in {out} are unchanged"
              + ("" if args.cells else "; the rows computed so far are in the .partial files"), file=sys.stderr)
        return 130
    if not args.cells:
        for section in new:
            if new[section]:
                os.replace(out / (SECTIONS[section][0] + ".partial"), out / SECTIONS[section][0])
                tables[section] = merge_rows(section, [], new[section], order[section])
    print(f"\n{len(cells)} cells in {time.perf_counter() - start:.0f} s", flush=True)
    for row in (r for r in new["grid"].values() if r["maximal_rank_exceptions"]):
        print(f"  rank != min(cap, limit) at L={row['depth']} V={row['vocab_r']} H={row['heads']} "
              f"R={row['pos_rank']}: {row['maximal_rank_exceptions']}")
    for section in SECTIONS:
        print(f"csv: {out / SECTIONS[section][0]}")
    return 0 if args.no_plot else draw(out, tables.get("grid", []), tables.get("bound", []))


def draw(out: Path, grid_rows: list[dict], bound_rows: list[dict]) -> int:
    try:
        from verify.report.atlas_plot import plot_atlas

        plot_atlas(grid_rows, bound_rows, str(out / "n_atlas.png"))
    except InputError as exc:
        print(f"plot not drawn: {exc}")
        return 0
    print(f"plot: {out / 'n_atlas.png'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
