"""Issue 14 speed target: `verify certify` and its check at depth 3, width 30, 2 heads (a 560 x 560 grid)
each under 30 s; also width 28 with 1 head (455 x 455) and the depth-2 case.  Both evaluate the grid
batched (verify.constructions.grid_eval) at the default certificate prime.  Run: python benchmarks/certificate.py
"""

import time

from verify import NetworkSpec
from verify.cli.script_args import ScriptParser, run_script  # one-line refusals, exit 2, as the verify command
from verify.constructions.certificate import certify, check_certificate


def main():
    ScriptParser(prog="certificate.py", description=__doc__.splitlines()[0]).parse_args()  # no flags: any is refused
    for depth, width, heads in [(2, 10, 2), (3, 28, 1), (3, 30, 2)]:
        start = time.perf_counter()
        data = certify(NetworkSpec(depth=depth, width=width, heads=heads))
        made = time.perf_counter() - start
        start = time.perf_counter()
        holds, _ = check_certificate(data)
        checked = time.perf_counter() - start
        print(f"depth {depth} width {width} heads {heads}: sep >= {data['claimed_rank']}, certify {made:.1f}s, "
              f"check {checked:.1f}s, holds {holds} (prime {data['prime']})  [target < 30 s each]", flush=True)


if __name__ == "__main__":
    run_script(main, "certificate.py")
