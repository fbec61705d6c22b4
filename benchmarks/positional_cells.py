"""The atlas's bound cells over ranges of your choice (issue 31, point 4): where Theorem 2's bound has content.

A thin front for ``python benchmarks/atlas.py --section bound --cells bound:L,V,H,R ...`` (the engine is
``verify.sweeps.atlas.bound``; its module doc says what each column holds): it names the cells V = r in
--ranks, L in --depths, H in --heads, R in --pos-ranks, and replaces their rows in --out's
n_positional_cells.csv (atomically, after each cell), at --budget evaluations of F (or count-matrix
entries) a cell.  The whole atlas, both sections, is ``python benchmarks/atlas.py``.
Run: python benchmarks/positional_cells.py --ranks 10 --depths 5 --budget 20000000   (r = 10, L = 5)
"""

from __future__ import annotations

from atlas import main as atlas_main  # benchmarks/atlas.py, beside this script

from verify.cli.script_args import ScriptParser, count, run_script  # one-line refusals, exit 2, as the verify command


def main(argv=None) -> int:
    parser = ScriptParser(prog="positional_cells.py", description=__doc__.splitlines()[0])
    parser.add_argument("--out", default="results")
    parser.add_argument("--budget", type=count("--budget", 1), default=3_000_000,
                        help="evaluations (or entries) per cell")
    parser.add_argument("--ranks", type=count("--ranks", 2, 16), nargs="+", default=[8, 10, 12])
    parser.add_argument("--depths", type=count("--depths", 1, 6), nargs="+", default=[3, 4, 5])
    parser.add_argument("--heads", type=count("--heads", 1, 17), nargs="+", default=[1])
    parser.add_argument("--pos-ranks", type=count("--pos-ranks", 0, 16), nargs="+", default=[1, 2, 0])
    parser.add_argument("--seed", type=count("--seed", 0), default=0)
    parser.add_argument("--jobs", type=count("--jobs", 1, 256), default=1)
    args = parser.parse_args(argv)
    names = [f"bound:{d},{r},{h},{p}" for d in args.depths for r in args.ranks for h in args.heads
             for p in args.pos_ranks]
    return atlas_main(["--section", "bound", "--cells", *names, "--bound-evaluations", str(args.budget), "--out",
                       args.out, "--seed", str(args.seed), "--jobs", str(args.jobs), "--no-plot"])


if __name__ == "__main__":
    run_script(main, "positional_cells.py")
