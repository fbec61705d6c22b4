"""Reach of the reduced route: regenerate ``results/reach.csv``, one row per spec.

Every spec runs in its own process (so each row has its own peak memory) through the repeat loop of
``verify sep`` (``verify.rank.sep.repeated_ranks``): a first run over GF(1048573) with the float64 BLAS
elimination (one limb, the fastest exact elimination); a rank that meets the derivative-space upper
bound is ``certified-exact`` there, whatever the prime.  Otherwise runs over GF(2^63 - 25) and the
primes below it (FLINT) follow until the bound on missing the generic rank is at most 1e-9
(``probabilistic``, with the primes and runs that gave it).  ``--prime P`` runs every run in GF(P)
and the primes below instead.  A row is written as soon as its spec finishes (the CSV is rewritten
atomically, older rows of other specs kept), so a long run keeps what it has; ``--only d,w,h`` runs
one spec.  Depth 4, width 3 needs a GPU: without one, its row is read from
``results/gpu_depth4_width3.json`` (written by ``benchmarks/gpu_depth4.py`` on a GPU) when present.
``--targets`` runs only the specs with a speed target (issue 22: depth 3 width 4 with 1, 2 and 4
heads and depth 5 width 2 with two heads, each <= 60 s; a few minutes in all when idle) and prints
each target beside the measured seconds.  ``--estimate d,w,h`` ranks nothing: it prints the seconds
the one-limb elimination would take for the degree blocks the proven bounds say are ranked (from the
turn outward to the first block whose bound is its full shape; each a slice of min(short, bound + 32)
lines, assuming every bound is met), at a rate measured on the spot.
Run: python benchmarks/reach.py [--only 6,2,1] [--targets] [--estimate 6,2,2] [--out FILE] [--prime P]
"""

from __future__ import annotations

import argparse
import csv
import io
import json
import os
import resource
import subprocess
import sys
import time
from math import comb
from pathlib import Path

from verify.cli.script_args import (  # one-line refusals, exit 2, as the verify command
    ScriptParser,
    count,
    memory,
    output_file,
    run_script,
    spec_triple,
)

ROOT = Path(__file__).resolve().parent.parent
SPECS = [  # depth, width, heads, target seconds (None: no target), needs a GPU, reason not to run (or None)
    (5, 2, 2, 60, False, None),
    (3, 4, 1, 60, False, None), (3, 4, 2, 60, False, None), (3, 4, 4, 60, False, None),
    (3, 5, 1, None, False, None),
    (2, 10, 1, None, False, None), (2, 11, 1, None, False, None),
    (2, 12, 1, None, False, None),
    (6, 2, 1, 900, False, None),
    (6, 2, 2, 3600, True, None),
    (4, 3, 1, None, True, None),
]
FIELDS = ["depth", "width", "heads", "rank", "upper_bound", "status", "probability_bound", "primes", "runs",
          "eliminations", "seconds", "first_run_seconds", "target_seconds", "peak_gib", "estimate_gib", "cpu_seconds",
          "device", "note", "schema", "schema_version"]  # the row schema verify/schemas/reach.schema.json
GPU_RESULT = ROOT / "results" / "gpu_depth4_width3.json"
#: Depth 6, width 2, two heads: ``benchmarks/gpu_reach.py`` (H200, then its last blocks with --cpu --resume).
GPU_REACH = ROOT / "results" / "gpu_reach.json"


def largest_slice_gib(depth: int, width: int) -> float:
    """GiB of the largest degree-block slice, short x (short + 32) entries of 8 bytes: the float
    elimination runs in the slice's own memory (plus product tiles of 128 MiB), so this is what it
    holds at once for a homogeneous network (the engine's own guard prices whole blocks)."""
    n, c = width * (width + 1) // 2, (3**depth - 1) // 2
    short = max(min(comb(a + n - 1, n - 1), width * comb(c - a + n - 1, n - 1)) for a in range(c + 1))
    return short * (short + 32) * 8 / 2**30


def has_gpu() -> bool:
    try:
        import cupy

        return cupy.cuda.runtime.getDeviceCount() > 0
    except Exception:
        return False


def run_one(depth: int, width: int, heads: int, prime: int | None, memory_gib: float) -> dict:
    """Child process: one spec through the repeat loop, as a CSV row."""
    from verify import Field, NetworkSpec
    from verify.rank.reduced_memory import estimate_block_bytes
    from verify.rank.sep import repeated_ranks

    spec = NetworkSpec(depth=depth, width=width, heads=heads)
    start = time.perf_counter()
    repeated = repeated_ranks(spec, "reduced", field=Field(prime) if prime else None, seed=0,
                              max_memory_gib=memory_gib)
    seconds = time.perf_counter() - start
    out = repeated.as_dict()
    best = repeated.best.as_dict()
    status = ("certified-exact" if repeated.certified_exact else
              "probabilistic" if (repeated.probability_bound or 1) <= repeated.target else
              "probabilistic (target missed)")
    return {"rank": repeated.rank, "upper_bound": best.get("upper_bound", ""), "status": status,
            "probability_bound": out["probability_bound"], "primes": " ".join(map(str, out["primes"])),
            "runs": out["runs"], "eliminations": out["elimination"], "seconds": round(seconds, 1),
            "first_run_seconds": round(repeated.runs[0].seconds, 1),
            "peak_gib": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**20, 2),
            # what the engine's guard priced for the largest run (verify.rank.reduced_memory)
            "estimate_gib": round(max(estimate_block_bytes(spec, Field(r.prime)) for r in repeated.runs) / 2**30, 2),
            # the machine may be shared: CPU seconds say what the spec costs when wall time is inflated
            "cpu_seconds": round(sum(resource.getrusage(resource.RUSAGE_SELF)[:2]), 1), "device": "cpu",
            "note": repeated.stopped}


#: Multiply-adds a second of the one-limb elimination on large slices of the idle 2-core machine:
#: depth 6 width 2 one head ranks two full blocks of short side 23,005 (8.11e12 by the count of
#: ``elimination_estimate``) in 231.6 s all told (results/reach.csv), so at least this rate.  (A
#: 4000^2 rank, 1.4 s, gives 1.5e10: small matrices use BLAS less well.)
IDLE_RATE = 8.11e12 / 231.6


def elimination_rate(size: int = 2000) -> float:
    """Multiply-adds a second of the one-limb float64 elimination, from one random size x size rank
    over GF(1048573) (an LU of n x n is n^3 / 3 of them); a shared machine gives a lower rate."""
    import numpy as np

    from verify.exact.elimination import rank_mod_p
    from verify.exact.fields import FAST_PRIME

    matrix = np.random.default_rng(0).integers(0, FAST_PRIME, (size, size))
    start = time.perf_counter()
    rank_mod_p(matrix, FAST_PRIME, overwrite=True)
    return size**3 / 3 / (time.perf_counter() - start)


def elimination_estimate(depth: int, width: int, heads: int) -> tuple[float, list]:
    """(multiply-adds, ranked blocks as (a, short, take, bound)) of the slices the engine eliminates
    when every proven block bound is met (``verify.rank.degree_blocks``): from the turn downward to the
    first block whose bound is its row count, upward to the first whose bound is its column count; a
    slice of take x short at rank u costs about take*short*u - (take + short)*u^2/2 + u^3/3."""
    from verify import NetworkSpec
    from verify.rank.bound import derivative_bound

    blocks = derivative_bound(NetworkSpec(depth=depth, width=width, heads=heads)).blocks
    turn = max(a for a, (rows, cols, _) in enumerate(blocks) if rows <= cols)
    ranked = []
    for a in range(turn, -1, -1):
        ranked.append(a)
        if blocks[a][2] == blocks[a][0]:
            break
    for a in range(turn + 1, len(blocks)):
        ranked.append(a)
        if blocks[a][2] == blocks[a][1]:
            break
    work, shown = 0.0, []
    for a in ranked:
        rows, cols, u = blocks[a]
        short, long = min(rows, cols), max(rows, cols)
        take = min(long, u + 32) if u + 64 <= short else min(long, short + 32)
        work += take * short * u - (take + short) * u * u / 2 + u**3 / 3
        shown.append((a, short, take, u))
    return work, shown


def gpu_row(depth: int = 4, width: int = 3, heads: int = 1) -> dict:
    """A GPU spec's row from the JSON its script wrote (``gpu_depth4.py`` for depth 4 width 3,
    ``gpu_reach.py`` for depth 6 width 2 two heads), or a refusal."""
    if (depth, width, heads) == (6, 2, 2) and GPU_REACH.exists():
        found = json.loads(GPU_REACH.read_text())["depth 6, width 2, heads 2"]
        runs = found["seconds_by_run"]
        gpu_seconds = sum(v for k, v in runs.items() if "H200" in k)
        return {"rank": found["rank"], "upper_bound": found["upper_bound"],
                "status": "certified-exact" if found["certified_exact"] else "lower bound",
                "probability_bound": 0.0 if found["certified_exact"] else "", "primes": found["prime"],
                "runs": 1, "eliminations": "block-lu (cupy) + float64-blas-pluq",
                "seconds": round(sum(runs.values()), 1),
                "first_run_seconds": round(gpu_seconds, 1), "device": "NVIDIA H200 + CPU (benchmarks/gpu_reach.py)",
                "note": f"read from {GPU_REACH.relative_to(ROOT)}: {len(found['blocks'])} degree blocks each at its "
                        f"proven bound; " + ", ".join(f"{k} {v} s" for k, v in runs.items())}
    if (depth, width, heads) != (4, 3, 1) or not GPU_RESULT.exists():
        return {"status": "refused", "note": "needs a GPU: run benchmarks/gpu_depth4.py or gpu_reach.py there (its "
                                             f"largest slice is about {largest_slice_gib(depth, width):.0f} GiB of "
                                             "float64)"}
    found = json.loads(GPU_RESULT.read_text())["4,3,1"]
    return {"rank": found["rank"], "upper_bound": found["upper_bound"],
            "status": "certified-exact" if found["certified_exact"] else "lower bound",
            "probability_bound": 0.0 if found["certified_exact"] else "", "primes": found["prime"], "runs": 1,
            "eliminations": "float64-blas-pluq (cupy)", "seconds": found["seconds"],
            "first_run_seconds": found["seconds"], "device": "NVIDIA H100 (benchmarks/gpu_depth4.py)",
            "note": f"read from {GPU_RESULT.relative_to(ROOT)}"}


def write_rows(path: Path, rows: dict) -> None:
    from verify.files import write_atomic

    text = io.StringIO()
    writer = csv.DictWriter(text, fieldnames=FIELDS, extrasaction="ignore")
    writer.writeheader()
    from verify.schema import csv_stamp

    for key in sorted(rows):  # every row in the current format, older rows kept with it (docs/formats.md)
        writer.writerow({**rows[key], **csv_stamp("reach")})
    write_atomic(path, text.getvalue())


def main():
    parser = ScriptParser(prog="reach.py", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--only", type=spec_triple("--only"), help="one spec, depth,width,heads")
    parser.add_argument("--out", default=str(ROOT / "results" / "reach.csv"))
    parser.add_argument("--prime", type=count("--prime", 3, 2**63), default=None,
                        help="every run in GF(P) and below (default: escalate)")
    parser.add_argument("--max-memory-gib", type=memory(), default=20.0)
    parser.add_argument("--refresh-estimates", action="store_true",
                        help="only recompute estimate_gib of every CPU row from the engine's current estimate")
    parser.add_argument("--targets", action="store_true", help="only the specs with a speed target")
    parser.add_argument("--estimate", type=spec_triple("--estimate"),
                        help="depth,width,heads: print the predicted elimination seconds, rank nothing")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.estimate:
        sys.path.insert(0, str(ROOT))
        depth, width, heads = args.estimate
        work, shown = elimination_estimate(depth, width, heads)
        rate = elimination_rate()
        print(f"depth {depth} width {width} heads {heads}: {len(shown)} degree blocks ranked, largest short side "
              f"{max(s for _, s, _, _ in shown):,}; {work:.3g} multiply-adds at {rate:.3g}/s measured now "
              f"(one limb, 2000^2) = about {work / rate:,.0f} s of elimination for one run meeting every bound "
              f"(gathering and building q not counted); at the idle rate {IDLE_RATE:.3g}/s of depth 6 "
              f"width 2 one head: about "
              f"{work / IDLE_RATE:,.0f} s", flush=True)
        return
    if args.child:
        depth, width, heads = map(int, args.child.split(","))
        print(json.dumps(run_one(depth, width, heads, args.prime, args.max_memory_gib)))
        return
    specs = [s for s in SPECS if s[3] is not None and s[3] <= 60] if args.targets else SPECS
    if args.only:
        want = args.only
        specs = [s for s in SPECS if s[:3] == want] or [(*want, None, False, None)]
    output_file(args.out, "--out")  # before any spec is ranked
    out = Path(args.out)
    rows = {}
    if out.exists():
        with out.open(newline="") as handle:
            for row in csv.DictReader(handle):
                rows[(int(row["depth"]), int(row["width"]), int(row["heads"]))] = row
    sys.path.insert(0, str(ROOT))
    if args.refresh_estimates:  # closed form: no rank is recomputed
        from verify import Field, NetworkSpec
        from verify.rank.reduced_memory import estimate_block_bytes

        for (depth, width, heads), row in rows.items():
            if row.get("device") == "cpu" and row.get("primes"):
                spec = NetworkSpec(depth=depth, width=width, heads=heads)
                row["estimate_gib"] = round(max(estimate_block_bytes(spec, Field(int(p)))
                                                for p in str(row["primes"]).split()) / 2**30, 2)
        write_rows(out, rows)
        return
    for depth, width, heads, target, gpu, skip in specs:
        row = {"depth": depth, "width": width, "heads": heads, "target_seconds": target or ""}
        estimate = largest_slice_gib(depth, width)
        if skip:
            row.update(status="not run", note=skip)
        elif gpu and not has_gpu():
            row.update(gpu_row(depth, width, heads))
        elif estimate > args.max_memory_gib:
            row.update(status="refused", note=f"its largest slice needs about {estimate:.1f} GiB, over "
                                              f"--max-memory-gib {args.max_memory_gib:g}")
        else:
            cmd = [sys.executable, __file__, "--child", f"{depth},{width},{heads}",
                   "--max-memory-gib", str(max(args.max_memory_gib, 64.0))] + (
                   ["--prime", str(args.prime)] if args.prime else [])
            start = time.perf_counter()
            done = subprocess.run(cmd, capture_output=True, text=True, env=os.environ)
            if done.returncode == 0:
                row.update(json.loads(done.stdout.strip().splitlines()[-1]))
            else:
                row.update(status="failed", seconds=round(time.perf_counter() - start, 1),
                           note=(done.stderr.strip().splitlines() or ["?"])[-1][:200])
        rows[(depth, width, heads)] = row
        write_rows(out, rows)
        print(", ".join(f"{k}={row.get(k, '')}" for k in FIELDS if row.get(k, "") != ""), flush=True)
        if target and row.get("seconds", "") != "":
            settled = row.get("status") == "certified-exact" or row.get("status") == "probabilistic"
            print(f"  depth {depth} width {width} heads {heads}: {row['seconds']}s wall "
                  f"({row.get('cpu_seconds', '?')}s CPU) [target <= {target}s to <= 1e-9: "
                  f"{'met' if settled and float(row['seconds']) <= target else 'MISSED'}]", flush=True)


if __name__ == "__main__":
    run_script(main, "reach.py")
