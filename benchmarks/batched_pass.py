"""Evaluations of F a second: the Gram route's compiled grid (today's pass) against the batched literal pass.

On a bound cell's shape (default (r, L, H) = (10, 5, 1) with R = 1 at its counting floor N = 8: d_x = 11,
V = 10), both passes evaluate the same grid of random token sequences (--side sequences a side) in the same
run, must agree entry for entry, and are timed; it prints evaluations a second of each, their ratio, and each
pass's multiply-adds a pair (``batched.pass_prices``) beside the issue's estimate of the literal pass with
separate projections (per layer 4 N d^2 + 2 N^2 d).  Both use every core this process may use (threads).
Timings depend on the machine's load: run it twice and read the ratio, not the seconds.

Run: python benchmarks/batched_pass.py                    (the (10, 5, 1) cell, 512 x 512 sequences)
     python benchmarks/batched_pass.py --cell 5,12,2,1 --tokens 8
"""

from __future__ import annotations

import sys
import time


def main(argv=None) -> int:
    from verify.cli.script_args import ScriptParser, count  # one-line refusals, exit 2, as the verify command

    parser = ScriptParser(prog="batched_pass.py", description=__doc__.splitlines()[0])
    parser.add_argument("--cell", default="5,10,1,1", help="L,V,H,R of a bound cell (default 5,10,1,1)")
    parser.add_argument("--tokens", type=count("--tokens", 2, 64), default=8,
                        help="N, even, 2 to 64 (default 8, the (10, 5, 1) cell's floor)")
    parser.add_argument("--side", type=count("--side", 1, 1 << 16), default=512,
                        help="sequences a side, 1 to 65,536 (default 512)")
    args = parser.parse_args(argv)
    if args.tokens % 2:
        parser.error(f"--tokens must be even, got {args.tokens}")
    import numpy as np

    from verify.rank.token.batched import batched_grid, pass_prices
    from verify.rank.token.gram import TOKEN_PRIME, GramModel
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
    d = spec.width
    prices = pass_prices(spec, n)
    issue = spec.depth * (4 * n * d * d + 2 * n * n * d)
    print(f"cell (r, L, H, R) = ({cell.vocab}, {cell.depth}, {cell.heads}, {cell.positional}), d_x = {d}, N = {n}, "
          f"{args.side} x {args.side} sequences, p = 2^31 - 1; the two matrices agree entry for entry")
    print(f"today's pass (Gram route, compiled loop a pair): {pairs / t_today:,.0f} evaluations/s "
          f"({t_today / pairs * 1e6:.2f} us each; {prices['gram']:,} multiply-adds a pair)")
    print(f"batched literal pass:                            {pairs / t_new:,.0f} evaluations/s "
          f"({t_new / pairs * 1e6:.2f} us each; {prices['literal']:,} multiply-adds a pair)")
    print(f"ratio: {t_today / t_new:.1f}x")
    floor = 4060**2 if (cell.vocab, cell.depth, cell.heads) in ((10, 5, 1), (12, 5, 2)) else pairs
    print(f"the issue's estimate, separate projections: {issue:,} multiply-adds a pass, {issue * floor:.2e} for "
          f"{floor:,} passes; the batched pass: {prices['literal'] * floor:.2e}, about {t_new / pairs * floor:.0f} s")
    return 0


if __name__ == "__main__":
    from verify.cli.script_args import run_script

    run_script(main, "batched_pass.py")
