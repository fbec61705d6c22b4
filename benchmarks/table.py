"""Speed targets of `verify table --depths 1-3 --widths 2-4 --heads all` (every head count): from an
empty store with every cell certified exact or at most 1e-9 (the default field ``auto``), under 3
minutes here (issue 22; 935 s before); repeated from the store, under 5 s (issue 7).

Runs the real command line twice against a fresh store in a temporary directory and prints the
wall-clock seconds of each run and the per-spec compute seconds stored with the results.
Run: python benchmarks/table.py [--depths 1-3] [--widths 2-4] [--field gf:P] [--workers K]
"""

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def run(store: Path, args) -> tuple[float, dict]:
    cmd = [sys.executable, "-m", "verify", "table", "--depths", args.depths, "--widths", args.widths,
           "--store", str(store), "--json"]
    if args.field:
        cmd += ["--field", args.field]
    if args.workers:
        cmd += ["--workers", str(args.workers)]
    start = time.perf_counter()
    done = subprocess.run(cmd, capture_output=True, text=True, check=True)
    return time.perf_counter() - start, json.loads(done.stdout)


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--depths", default="1-3")
    parser.add_argument("--widths", default="2-4")
    parser.add_argument("--field", default=None)
    parser.add_argument("--workers", type=int, default=None)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        store = Path(tmp) / "results.sqlite"
        first, data = run(store, args)
        for row in sorted(data["rows"], key=lambda r: -r["sep_rank"])[:6]:
            print(f"  depth {row['depth']} width {row['width']} heads {row['heads']}: sep {row['sep_rank']}")
        rows = data["rows"]
        exact = sum(1 for r in rows if r["certified_exact"])
        settled = sum(1 for r in rows if r["certified_exact"] or (r["probability_bound"] or 1) <= 1e-9)
        print(f"cells: {len(rows)}, certified exact {exact}, certified or <= 1e-9 {settled}, skipped "
              f"{len(data['skipped'])}")
        print(f"empty store: {first:.1f}s for {data['sweep']['total']} specs "
              f"[target < 180s with every cell certified or <= 1e-9: "
              f"{'met' if first < 180 and settled == len(rows) else 'MISSED'}]", flush=True)
        second, again = run(store, args)
        print(f"repeated:    {second:.2f}s, {again['sweep']['reused']} of {again['sweep']['total']} from the store "
              f"[target < 5s: {'met' if second < 5 else 'MISSED'}]")
        from verify.sweeps.store import Store
        with Store(store) as kept:
            for row in sorted(kept.rows(), key=lambda r: -r["seconds"])[:4]:
                spec = row["spec"]
                print(f"  stored: depth {spec['depth']} width {spec['width']} heads {spec['heads']}: "
                      f"{row['seconds']:.1f}s")


if __name__ == "__main__":
    main()
