"""Recomputed values per second of the recheck's two literal eq. 3 passes (issue 46 item 8, issue 49 item 6):
``arith.forward_output`` (today's: per layer and head, products broadcast over the batch) and ``batched.BatchedPass``
(every head's projections as one product over every column of the batch, one score column in the last layer), on
the same token sequences at the seeded weights, mod 2^31 - 1, in one run; and the limit route's weighted pass.

    python benchmarks/recheck.py [--sequences 20000] [--repeats 3]

Each pass is timed ``--repeats`` times, alternating, and the fastest time is kept (the machine may be shared); the
two passes' values are compared entry by entry.  Shapes: the (r, L, H) = (10, 5, 1) cell of
results/n_positional_cells.csv (d_x = 11, N = 8, R = 1), the issue's (L = 3, V = r = 3, R = 1) cell at N = 14 and
(L = 4, V = 2, R = 1) at N = 22 (docs/recheck.md has the figures).
"""

from __future__ import annotations

import time

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
    args = parser.parse_args(argv)
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


if __name__ == "__main__":
    from verify.cli.script_args import run_script

    run_script(main, "recheck.py")
