"""How often a run at a small prime is certified exact: the premise of issue 22's integer kernels.

A rank that meets the proven upper bound (``verify.rank.bound``) is the generic separation rank
whatever the prime it was computed at, so a prime small enough for narrow exact products serves
certification: with balanced residues |x| <= h = (p - 1)/2 + 2, int8 operands with int32 sums hold
every partial sum of an inner dimension k exactly while k h^2 + h < 2^31 (p <= 251: k up to 133,144),
and float32 BLAS while k h^2 + h <= 2^24 - 2p (p = 251: k up to 1,040).  What such a prime costs is the
chance that the seeded weights land on a deficient point: P(rank < generic) <= u D / p can exceed 1
there, so only the measured rate says how many seeds certification takes.

For each spec and prime, one reduced-route run (``verify.separation_rank``, ``max_runs=1``) at each of
the seeds 0..S-1 with weights uniform over GF(p): how many runs met the proven upper bound
(certified exact), the ranks seen, and the median seconds of a run.  The engine's first prime,
1,048,573, is the reference.  The eliminations here are the CPU's float64 ones at every prime: the
narrow kernels themselves are not built (numpy has no int8 BLAS; float32 is the CPU candidate).
Bounded: about two minutes at the defaults.
Run: python benchmarks/small_primes.py [--primes 251,127,31,1048573] [--seeds 5] [--specs "3,4,1;5,2,2"]
"""

from __future__ import annotations

import argparse
import statistics
import time

import verify
from verify import NetworkSpec
from verify.cli.script_args import (  # one-line refusals, exit 2, as the verify command
    ScriptParser,
    count,
    int_list,
    run_script,
)
from verify.exact.floatmod import small_prime_windows

#: depths 1-3, widths 2-4, every head count dividing the width, and depth 4 width 2 (bounds to 4,538)
SPECS = ("1,2,1;1,2,2;1,3,1;1,3,3;1,4,1;1,4,2;1,4,4;2,2,1;2,2,2;2,3,1;2,3,3;2,4,1;2,4,2;2,4,4;"
         "3,2,1;3,2,2;3,3,1;3,3,3;4,2,1;4,2,2")


def window_text(p: int) -> str:
    """The longest exact inner dimension k at ``p`` of int8 x int8 -> int32 and of float32 products."""
    int8, single = small_prime_windows(p)
    parts = [f"int8 operands, int32 sums: k <= {int8:,}" if int8 else "int8: no (|x| > 127)",
             f"float32: k <= {single:,}" if single else "float32: no"]
    return "; ".join(parts)


def main():
    parser = ScriptParser(prog="small_primes.py", description=__doc__,
                          formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--primes", type=int_list("--primes", 3, 2**63), default=[251, 127, 31, 1048573])
    parser.add_argument("--seeds", type=count("--seeds", 1, 10**6), default=5)
    parser.add_argument("--specs", default=SPECS, help="depth,width,heads separated by ';'")
    args = parser.parse_args()
    primes = args.primes
    for p in primes:
        print(f"p = {p:,}: {window_text(p)}")
    print()
    print("| depth | width | heads | proven upper bound | " + " | ".join(f"p = {p:,}: certified / runs, ranks, s a run"
                                                             for p in primes) + " |")
    print("|---|---|---|---|" + "---|" * len(primes))
    totals = {p: [0, 0] for p in primes}
    for text in args.specs.split(";"):
        depth, width, heads = map(int, text.split(","))
        spec = NetworkSpec(depth=depth, width=width, heads=heads)
        cells, bound = [], None
        for p in primes:
            if p <= spec.layer_degree:  # the reduced route divides by factorials up to C(L)
                cells.append(f"p <= C(L) = {spec.layer_degree}")
                continue
            certified, ranks, seconds = 0, set(), []
            for seed in range(args.seeds):
                start = time.perf_counter()
                result = verify.separation_rank(spec, method="reduced", field=f"gf:{p}", seed=seed, max_runs=1)
                seconds.append(time.perf_counter() - start)
                row = result.as_dict()
                bound = row["upper_bound"]
                certified += bool(row["certified_exact"])
                ranks.add(row["rank"])
            totals[p][0] += certified
            totals[p][1] += args.seeds
            cells.append(f"{certified}/{args.seeds}, {', '.join(map(str, sorted(ranks)))}, "
                         f"{statistics.median(seconds):.2f}")
        print(f"| {depth} | {width} | {heads} | {bound} | " + " | ".join(cells) + " |", flush=True)
    print()
    for p, (certified, runs) in totals.items():
        print(f"p = {p:,}: {certified} of {runs} runs certified exact")


if __name__ == "__main__":
    start = time.perf_counter()
    run_script(main, "small_primes.py", finish=False)
    print(f"({time.perf_counter() - start:.0f} s)")
