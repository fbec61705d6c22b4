"""Reach of the reduced route: regenerate ``results/reach.csv``, one row per spec.

Every spec runs in its own process (so each row has its own peak memory), over GF(p) with
p = 8388593 (the largest prime below 2^23: one float64 limb, the fastest exact elimination) unless
``--prime`` says otherwise.  A rank at integer weights is a certified lower bound whatever the
prime; a row is ``certified-exact`` when it meets the derivative-space upper bound (then the
prime's size does not matter), else ``probabilistic`` with the Schwartz-Zippel bound of that run.
Rows are appended as they finish, so a long run keeps what it has; ``--only d,w,h`` runs one
spec.  Specs that need a GPU (depth 4, width 3) are refused up front with their estimate when no
CUDA device (cupy) is present.  Run: python benchmarks/reach.py [--only 6,2,1] [--out FILE]
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import resource
import subprocess
import sys
import time
from math import comb
from pathlib import Path

SPECS = [  # depth, width, heads, target seconds (None: no target), needs a GPU
    (5, 2, 2, 30, False),
    (3, 4, 1, 60, False), (3, 4, 2, 60, False), (3, 4, 4, 60, False),
    (3, 5, 1, None, False),
    (2, 10, 1, None, False), (2, 11, 1, None, False), (2, 12, 1, None, False),
    (6, 2, 1, 900, False), (6, 2, 2, 3600, False),
    (4, 3, 1, None, True),
]
FIELDS = ["depth", "width", "heads", "rank", "upper_bound", "status", "probability_bound", "prime", "eliminations",
          "seconds", "target_seconds", "peak_gib", "note", "cpu_seconds"]
DEFAULT_PRIME = 8388593


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


def run_one(depth: int, width: int, heads: int, prime: int, memory_gib: float) -> dict:
    """Child process: one rank, as a dict."""
    from verify import Field, NetworkSpec, separation_rank

    spec = NetworkSpec(depth=depth, width=width, heads=heads)
    start = time.perf_counter()
    result = separation_rank(spec, "reduced", field=Field(prime), max_memory_gib=memory_gib)
    seconds = time.perf_counter() - start
    out = result.as_dict()
    exact = bool(out.get("certified_exact"))
    return {"rank": result.rank, "upper_bound": out.get("upper_bound", ""),
            "status": "certified-exact" if exact else "probabilistic",
            "probability_bound": out.get("probability_bound"), "prime": prime,
            "eliminations": "+".join(sorted({b.elimination for b in result.blocks if getattr(b, "elimination", None)})),
            "seconds": round(seconds, 1),
            "peak_gib": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**20, 2), "note": "",
            # the machine is shared: CPU seconds say what the spec costs when wall time is inflated
            "cpu_seconds": round(sum(resource.getrusage(resource.RUSAGE_SELF)[:2]), 1)}


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--only", help="one spec, depth,width,heads")
    parser.add_argument("--out", default=str(Path(__file__).resolve().parent.parent / "results" / "reach.csv"))
    parser.add_argument("--prime", type=int, default=DEFAULT_PRIME)
    parser.add_argument("--max-memory-gib", type=float, default=20.0)
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        depth, width, heads = map(int, args.child.split(","))
        print(json.dumps(run_one(depth, width, heads, args.prime, args.max_memory_gib)))
        return
    specs = SPECS
    if args.only:
        want = tuple(map(int, args.only.split(",")))
        specs = [s for s in SPECS if s[:3] == want] or [(*want, None, False)]
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    fresh = not out.exists()
    with out.open("a", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=FIELDS)
        if fresh:
            writer.writeheader()
        for depth, width, heads, target, gpu in specs:
            row = {"depth": depth, "width": width, "heads": heads, "target_seconds": target or "", "prime": args.prime}
            estimate = largest_slice_gib(depth, width)
            if gpu and not has_gpu():
                row.update(status="refused", note=f"needs a GPU: its largest slice needs about {estimate:.0f} GiB as "
                                                  f"float64 on the device and as int64 on the host (benchmarks/gpu_rank.py)")
            elif estimate > args.max_memory_gib:
                row.update(status="refused", note=f"its largest slice needs about {estimate:.1f} GiB, over "
                                                  f"--max-memory-gib {args.max_memory_gib:g}")
            else:
                cmd = [sys.executable, __file__, "--child", f"{depth},{width},{heads}", "--prime", str(args.prime),
                       "--max-memory-gib", str(max(args.max_memory_gib, 64.0))]
                start = time.perf_counter()
                done = subprocess.run(cmd, capture_output=True, text=True, env=os.environ)
                if done.returncode == 0:
                    row.update(json.loads(done.stdout.strip().splitlines()[-1]))
                else:
                    row.update(status="failed", seconds=round(time.perf_counter() - start, 1),
                               note=(done.stderr.strip().splitlines() or ["?"])[-1][:200])
            writer.writerow(row)
            handle.flush()
            print(", ".join(f"{k}={row.get(k, '')}" for k in FIELDS if row.get(k, "") != ""), flush=True)


if __name__ == "__main__":
    main()
