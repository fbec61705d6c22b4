"""Issue speed target: `verify certify` for depth 3 at the smallest admissible width (28) and its
check, each under 2 minutes.  Run: python benchmarks/certificate.py
"""

import time

from verify import NetworkSpec
from verify.constructions.certificate import certify, check_certificate


def main():
    for depth, width, heads in [(2, 10, 2), (3, 28, 1), (3, 28, 2)]:
        start = time.perf_counter()
        data = certify(NetworkSpec(depth=depth, width=width, heads=heads))
        made = time.perf_counter() - start
        start = time.perf_counter()
        holds, _ = check_certificate(data)
        checked = time.perf_counter() - start
        print(f"depth {depth} width {width} heads {heads}: sep >= {data['claimed_rank']}, certify {made:.1f}s, "
              f"check {checked:.1f}s, holds {holds}  [target < 120 s each]", flush=True)


if __name__ == "__main__":
    main()
