"""Recomputed values per second of the recheck's two literal eq. 3 passes (issue 46 item 8, issue 49 item 6):
``arith.forward_output`` (today's: per layer and head, products broadcast over the batch) and ``batched.BatchedPass``
(every head's projections as one product over every column of the batch, one score column in the last layer), on
the same token sequences at the seeded weights, mod 2^31 - 1, in one run; and the limit route's weighted pass.

    python benchmarks/recheck.py [--sequences 20000] [--repeats 3]
    python benchmarks/recheck.py --calibrate [--max-seconds 300] [FILE ...]

``--calibrate`` rechecks the files (default: the three results/ tables) at ``--max-seconds`` and prints, per kind
of recomputation, the priced and the wall seconds of the tasks that ran and their largest wall / price: a price is
honest when the totals are close and conservative when no ratio is far above 1 (docs/recheck.md, "The budget").

Each pass is timed ``--repeats`` times, alternating, and the fastest time is kept (the machine may be shared); the
two passes' values are compared entry by entry.  Shapes: the (r, L, H) = (10, 5, 1) cell of
results/n_positional_cells.csv (d_x = 11, N = 8, R = 1), the issue's (L = 3, V = r = 3, R = 1) cell at N = 14 and
(L = 4, V = 2, R = 1) at N = 22 (docs/recheck.md has the figures).
"""

from __future__ import annotations

import re
import time
from collections import defaultdict

import numpy as np

from verify.recheck import arith
from verify.recheck.batched import BatchedPass
from verify.recheck.network import TokenNetwork

SHAPES = [  # (name, depth, vocab = r, heads, positional rank, tokens)
    ("(10, 5, 1) cell, N = 8", 5, 10, 1, 1, 8),
    ("(L3, V3, R1), N = 14", 3, 3, 1, 1, 14),
    ("(L4, V2, R1), N = 22", 4, 2, 1, 1, 22),
]


def _best(function, repeats):
    best, value = None, None
    for _ in range(repeats):
        start = time.perf_counter()
        value = function()
        took = time.perf_counter() - start
        best = took if best is None else min(best, took)
    return best, value


def main(argv=None) -> int:
    from verify.cli.script_args import ScriptParser, count  # one-line refusals, exit 2, as the verify command

    parser = ScriptParser(prog="recheck.py", description=__doc__.splitlines()[0])
    parser.add_argument("--sequences", type=count("--sequences", 1, 10**7), default=20000)
    parser.add_argument("--repeats", type=count("--repeats", 1, 100), default=3)
    parser.add_argument("--calibrate", action="store_true", help="price against wall time of a recheck")
    parser.add_argument("--max-seconds", type=count("--max-seconds", 0, 10**6), default=300)
    parser.add_argument("files", nargs="*", default=[f"results/{name}.csv" for name in
                                                      ("n_atlas", "n_positional_cells", "reach")])
    args = parser.parse_args(argv)
    if args.calibrate:
        return calibrate(args.files, args.max_seconds)
    print(f"{'shape':28} {'today (values/s)':>18} {'batched (values/s)':>20} {'ratio':>7}  equal")
    for name, depth, vocab, heads, big_r, tokens in SHAPES:
        width = vocab + 1
        net = TokenNetwork(depth, width, heads, width // heads, vocab, vocab, big_r, 0, 2**31)
        rng = np.random.default_rng(0)
        sequences = rng.integers(0, vocab, size=(args.sequences, tokens), dtype=np.int64)
        x = (np.transpose(net.columns[sequences], (0, 2, 1)) + net.positions(tokens)[None]) % net.p
        fast = BatchedPass(net.layers, net.p)
        old_s, old = _best(lambda x=x, net=net: arith.forward_output(net.layers, x, net.p, 0, 0), args.repeats)
        new_s, new = _best(lambda x=x, fast=fast: fast.output(x, 0, 0), args.repeats)
        print(f"{name:28} {len(x) / old_s:18,.0f} {len(x) / new_s:20,.0f} {old_s / new_s:7.2f}  "
              f"{bool((old == new).all())}")
    return 0


def calibrate(files, max_seconds) -> int:
    """Per kind of recomputation (its value with the numbers taken out): tasks, priced s, wall s, largest ratio."""
    import os

    from verify.recheck import recheck

    load = os.getloadavg()[0]
    rc = recheck(files, max_seconds)
    kinds = defaultdict(lambda: [0, 0.0, 0.0, 0.0])
    for finding, price, wall in rc.timings:
        kind = kinds[re.sub(r"[0-9]+", "#", finding.value)]
        kind[0] += 1
        kind[1] += price
        kind[2] += wall
        kind[3] = max(kind[3], wall / price) if price > 0.01 else kind[3]
    print(f"load average at the start {load:.2f}; {rc.counts()}; priced {rc.spent:.1f} s, wall {rc.wall_seconds:.1f} s")
    print(f"{'recomputation':50} {'tasks':>6} {'priced s':>9} {'wall s':>8} {'max wall/price (>0.01 s)':>25}")
    for name, (tasks, priced, wall, worst) in sorted(kinds.items(), key=lambda kv: -kv[1][1]):
        print(f"{name[:50]:50} {tasks:6} {priced:9.1f} {wall:8.1f} {worst:25.2f}")
    beyond = defaultdict(int)
    for finding in rc.findings:
        if finding.status == "beyond the budget":
            beyond[re.sub(r"[0-9]+", "#", finding.value)] += 1
    print(f"beyond the budget: {sum(beyond.values())} of {len(rc.findings)} values")
    for name, count in sorted(beyond.items(), key=lambda kv: -kv[1]):
        print(f"  {count:5} {name}")
    return 0


if __name__ == "__main__":
    from verify.cli.script_args import run_script

    run_script(main, "recheck.py")
