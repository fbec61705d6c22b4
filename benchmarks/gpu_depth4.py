"""Depth 4, width 3 on a GPU: a thin driver over the engine (``verify sep --depth 4 --width 3 --device gpu``).

The degree blocks of the reduced route (``verify.rank.degree_blocks``) with the device passed down:
each slice (up to 80,730 x 80,762 at depth 4, width 3) is eliminated on the GPU, by the block LU
first where its block has a proven bound (``verify.exact.kernels``), and full rank propagates from
the turn outward.  ``--store PATH`` keeps each finished block, so a killed run resumes with the same
command, on either device.  Prints the rank, its certainty and the seconds; writes them with --json.
Run: python benchmarks/gpu_depth4.py [--depth 4 --width 3 --heads 1] [--device gpu|cpu|auto] [--store S]
     [--json OUT.json]
"""

from __future__ import annotations

import argparse
import json
import time

from verify import NetworkSpec, separation_rank
from verify.cli.script_args import (  # one-line refusals, exit 2, as the verify command
    ScriptParser,
    count,
    memory,
    output_file,
    run_script,
)
from verify.files import write_output


def main():
    parser = ScriptParser(prog="gpu_depth4.py", description=__doc__,
                          formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--depth", type=count("--depth", 1, 64), default=4)
    parser.add_argument("--width", type=count("--width", 1, 10**6), default=3)
    parser.add_argument("--heads", type=count("--heads", 1, 10**6), default=1)
    parser.add_argument("--seed", type=count("--seed", 0), default=0)
    parser.add_argument("--device", default="gpu", choices=["auto", "cpu", "gpu"])
    parser.add_argument("--max-memory-gib", type=memory(), default=64.0)
    parser.add_argument("--store", help="results store keeping each finished degree block (resume)")
    parser.add_argument("--json", help="write the result here")
    args = parser.parse_args()
    output_file(args.json, "--json")
    spec = NetworkSpec(depth=args.depth, width=args.width, heads=args.heads)
    resume = store = None
    if args.store:
        from verify.sweeps.block_rows import BlockRows
        from verify.sweeps.store import Store

        store = Store(args.store)
        resume = BlockRows(store, spec)
    start = time.perf_counter()
    try:
        found = separation_rank(spec, method="reduced", seed=args.seed, device=args.device, max_runs=1,
                                max_memory_gib=args.max_memory_gib, resume=resume)
    finally:
        if store is not None:
            store.close()
    data = found.as_dict()
    out = {"depth": args.depth, "width": args.width, "heads": args.heads, "rank": data["rank"],
           "upper_bound": data.get("upper_bound"), "certified_exact": data["certified_exact"],
           "probability_bound": data["probability_bound"], "field": data["field"], "notes": data["notes"],
           "seconds": round(time.perf_counter() - start, 1)}
    print(json.dumps(out), flush=True)
    if args.json:
        write_output(args.json, json.dumps(out, indent=1))


if __name__ == "__main__":
    run_script(main, "gpu_depth4.py")
