"""Evaluations of F a second: today's passes (Gram route) against the batched literal pass; this machine's ceilings.

On a bound cell's shape (default (r, L, H) = (10, 5, 1) with R = 1 at its counting floor N = 8: d_x = 11,
V = 10), the passes evaluate the same grid of random token sequences (--side sequences a side) in the same
run, must agree entry for entry, and are timed; it prints evaluations a second of each, their ratios, and each
pass's multiply-adds a pair (``batched.pass_prices``) beside the issue's estimate of the literal pass with
separate projections (per layer 4 N d^2 + 2 N^2 d).  Today's pass is timed twice: the Gram route's compiled
loop, which the cells ran (from 2^17 pairs on), and its numpy passes, which the old price model timed (its
32 x 32 calibration grid was below that size; the "tens of microseconds a sequence" came from them), the
latter on a --numpy-side grid, since it is slow.

Then the ceilings, measured in the same run on every core this process may use: multiply-adds a second of a
compiled int64 and float64 loop acc[i] += c x[i] over L1-resident arrays (no reduction mod p: more than any
pass of eq. 3 in that arithmetic can do), and of BLAS's dgemm on 2,000^2 matrices (this machine's float64
peak).  The multiply-adds a second that a target of K x today's compiled loop asks at the literal pass's
count a pair are printed as a multiple of each ceiling (the int64 loop's is the one an exact pass at
p = 2^31 - 1 meets: its products reach 2^62; a kernel faster than these loops, with its operands in
registers, is not excluded).
Timings depend on the machine's load: run it twice and read the ratios, not the seconds.

Run: python benchmarks/batched_pass.py                    (the (10, 5, 1) cell, 512 x 512 sequences)
     python benchmarks/batched_pass.py --cell 5,12,2,1 --tokens 8
"""

from __future__ import annotations

import sys
import time
from concurrent.futures import ThreadPoolExecutor

TARGET = 20  # the issue's target: the batched pass at least 20 x today's


def _loop_kernels():
    """Two compiled loops, int64 and float64: 11 passes of acc[i] += c_k x[i] over a 256-entry array (2 KiB, in L1),
    ``reps`` times; the GIL released, so one runs on each core at once."""
    from numba import njit

    @njit(nogil=True)
    def axpy(acc, x, c, reps):
        for _ in range(reps):
            for k in range(11):
                ck = c + k
                for i in range(x.shape[0]):
                    acc[i] += ck * x[i]
        return acc[0]

    return axpy


def ceilings(threads: int) -> dict:
    """Multiply-adds a second (all ``threads`` cores): compiled int64 and float64 loops, and dgemm (module notes)."""
    import numpy as np

    axpy = _loop_kernels()
    found = {}
    for name, dtype, c in (("int64 loop", np.int64, 3), ("float64 loop", np.float64, 3.0)):
        arrays = [(np.zeros(256, dtype), np.arange(256).astype(dtype)) for _ in range(threads)]
        axpy(*arrays[0], c, 1)  # compile
        reps = 400_000
        with ThreadPoolExecutor(threads) as pool:
            start = time.perf_counter()
            list(pool.map(lambda pair, c=c, reps=reps: axpy(pair[0], pair[1], c, reps), arrays))
            seconds = time.perf_counter() - start
        found[name] = threads * reps * 11 * 256 / seconds
    a, b = np.random.default_rng(0).random((2, 2000, 2000))
    a @ b
    start = time.perf_counter()
    for _ in range(3):
        a @ b
    found["BLAS dgemm"] = 3 * 2000**3 / (time.perf_counter() - start)
    return found


def main(argv=None) -> int:
    from verify.cli.script_args import ScriptParser, count  # one-line refusals, exit 2, as the verify command

    parser = ScriptParser(prog="batched_pass.py", description=__doc__.splitlines()[0])
    parser.add_argument("--cell", default="5,10,1,1", help="L,V,H,R of a bound cell (default 5,10,1,1)")
    parser.add_argument("--tokens", type=count("--tokens", 2, 64), default=8,
                        help="N, even, 2 to 64 (default 8, the (10, 5, 1) cell's floor)")
    # priced before any work: two side x side int64 grids (1 GiB at 8,192) and side^2 evaluations of the compiled
    # loop (about 280 s at 8,192 on 2 cores); the numpy passes take about 40 us an evaluation (42 s at 1,024)
    parser.add_argument("--side", type=count("--side", 1, 1 << 13), default=512,
                        help="sequences a side, 1 to 8,192 (default 512)")
    parser.add_argument("--numpy-side", type=count("--numpy-side", 0, 1 << 10), default=128,
                        help="sequences a side for the numpy passes, 0 (skip) to 1,024 (default 128)")
    args = parser.parse_args(argv)
    if args.tokens % 2:
        parser.error(f"--tokens must be even, got {args.tokens}")
    import numpy as np

    from verify.rank.token.batched import batched_grid, pass_prices
    from verify.rank.token.gram import THREADS, TOKEN_PRIME, GramModel
    from verify.rank.token.route import _side_points
    from verify.sweeps.atlas.bound import _network
    from verify.sweeps.atlas.plan import parse_cell

    cell = parse_cell("bound:" + args.cell)
    spec, weights, embedding = _network(cell, 0)
    n, half = args.tokens, args.tokens // 2
    model = GramModel(spec.with_tokens(n), weights, embedding, TOKEN_PRIME)
    model.constant = model.positions_constant(n)
    model.compiled = True  # today's pass at the bound cells' sizes (it runs from 2^17 pairs on by default)
    rng = np.random.default_rng(0)
    left = rng.integers(0, cell.vocab, (args.side, half))
    right = rng.integers(0, cell.vocab, (args.side, n - half))
    za, zb = _side_points(model, list(range(half)), left), _side_points(model, list(range(half, n)), right)
    model.evaluate_grid(za[:2], zb[:2], left[:2, 0])  # load both compiled loops before timing
    batched_grid(model, n, left[:2], right[:2])
    pairs = args.side**2
    start = time.perf_counter()
    today = model.evaluate_grid(za, zb, left[:, 0])
    t_today = time.perf_counter() - start
    start = time.perf_counter()
    new = batched_grid(model, n, left, right)
    t_new = time.perf_counter() - start
    if not (today == new).all():
        print("the two passes disagree: a bug", file=sys.stderr)
        return 1
    t_numpy = None
    if args.numpy_side:
        side = min(args.numpy_side, args.side)
        model.compiled = False
        start = time.perf_counter()
        old = model.evaluate_grid(za[:side], zb[:side], left[:side, 0])
        t_numpy = (time.perf_counter() - start) / side**2
        if not (old == new[:side, :side]).all():
            print("the numpy passes disagree with the batched pass: a bug", file=sys.stderr)
            return 1
    d = spec.width
    prices = pass_prices(spec, n)
    issue = spec.depth * (4 * n * d * d + 2 * n * n * d)
    print(f"cell (r, L, H, R) = ({cell.vocab}, {cell.depth}, {cell.heads}, {cell.positional}), d_x = {d}, N = {n}, "
          f"{args.side} x {args.side} sequences, p = 2^31 - 1, {THREADS} threads; the passes agree entry for entry")
    rate_today, rate_new = pairs / t_today, pairs / t_new
    print(f"today's pass (Gram route, compiled loop a pair): {rate_today:,.0f} evaluations/s "
          f"({t_today / pairs * 1e6:.2f} us each; {prices['gram']:,} multiply-adds a pair)")
    if t_numpy is not None:
        print(f"today's numpy passes (the old price model's):    {1 / t_numpy:,.0f} evaluations/s "
              f"({t_numpy * 1e6:.2f} us each, {side} x {side} sequences)")
    print(f"batched literal pass:                            {rate_new:,.0f} evaluations/s "
          f"({t_new / pairs * 1e6:.2f} us each; {prices['literal']:,} multiply-adds a pair)")
    print(f"ratio against the compiled loop: {t_today / t_new:.1f}x" +
          (f"; against the numpy passes: {t_numpy * pairs / t_new:.1f}x" if t_numpy is not None else ""))
    floor = 4060**2 if (cell.vocab, cell.depth, cell.heads) in ((10, 5, 1), (12, 5, 2)) else pairs
    print(f"the issue's estimate, separate projections: {issue:,} multiply-adds a pass, {issue * floor:.2e} for "
          f"{floor:,} passes; the batched pass: {prices['literal'] * floor:.2e}, about {t_new / pairs * floor:.0f} s")
    found = ceilings(THREADS)
    need = TARGET * rate_today * prices["literal"]
    print(f"ceilings, multiply-adds/s on {THREADS} cores: " +
          ", ".join(f"{name} {value / 1e9:.1f} G" for name, value in found.items()))
    done = rate_new * prices["literal"]
    print(f"the batched pass does {done / 1e9:.1f} G multiply-adds/s (with its reductions mod p), "
          f"{done / found['int64 loop']:.0%} of the int64 loop's ceiling")
    print(f"{TARGET}x the compiled loop is {TARGET * rate_today:,.0f} evaluations/s: {need / 1e9:.1f} G multiply-adds/s"
          f" at {prices['literal']:,} a pair, " +
          ", ".join(f"{need / value:.2f}x the {name}'s" for name, value in found.items()) +
          "; at p = 2^31 - 1 a product reaches 2^62, so an exact pass multiplies in int64 (float64 is exact "
          "below 2^53 only)")
    return 0


if __name__ == "__main__":
    from verify.cli.script_args import run_script

    run_script(main, "batched_pass.py")
