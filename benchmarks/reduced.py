"""Issue speed and reach targets for the reduced route, and its speed-up over the coefficient route.

Prints, per spec, the rank, the seconds and the target.  The depth-5 and width-4 specs take
minutes; pass --quick to run only the specs under a minute.  Run: python benchmarks/reduced.py
"""

import resource
import time

from verify import NetworkSpec
from verify.cli.script_args import ScriptParser, run_script  # one-line refusals, exit 2, as the verify command
from verify.rank.routes import rank_once as separation_rank  # one run at the given seed

TARGETS = [  # depth, width, heads, target seconds
    (4, 2, 1, 20), (4, 2, 2, 20),
    (3, 3, 1, 60), (3, 3, 3, 60),
    (5, 2, 1, 900), (5, 2, 2, 900),
    (3, 4, 1, 1800), (3, 4, 2, 1800), (3, 4, 4, 1800),
]


def peak_gib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**20


def main():
    parser = ScriptParser(prog="reduced.py", description=__doc__)
    parser.add_argument("--quick", action="store_true", help="only the specs whose target is under a minute")
    args = parser.parse_args()
    both = NetworkSpec(depth=2, width=3, heads=3)
    start = time.perf_counter()
    reduced = separation_rank(both, "reduced")
    t_reduced = time.perf_counter() - start
    start = time.perf_counter()
    coefficients = separation_rank(both.with_tokens(8), "coefficients")
    t_coeff = time.perf_counter() - start
    print(f"depth 2 width 3 heads 3: reduced rank {reduced.rank} in {t_reduced:.3f}s, coefficient route "
          f"(N=8) rank {coefficients.rank} in {t_coeff:.2f}s, speed-up {t_coeff / t_reduced:.0f}x")
    for depth, width, heads, target in TARGETS:
        if args.quick and target > 60:
            continue
        spec = NetworkSpec(depth=depth, width=width, heads=heads)
        start = time.perf_counter()
        result = separation_rank(spec, "reduced")
        seconds = time.perf_counter() - start
        print(f"depth {depth} width {width} heads {heads} ({result.field}): rank {result.rank} in {seconds:.1f}s "
              f"[target < {target}s: {'met' if seconds < target else 'MISSED'}], peak memory {peak_gib():.2f} GiB",
              flush=True)


if __name__ == "__main__":
    run_script(main, "reduced.py")
