"""Measure from which N the coefficient-route rank reaches the N-independent reduced value.

For each spec: the reduced rank, and the coefficient-route rank for N = 2, 4, ..., 2(d_x+1)
(balanced partition, query in A), as far as the coefficient route stays under
MAX_MONOMIALS monomials.  Prints a markdown table; the README quotes it.
Run: python benchmarks/threshold.py
"""

import time

from verify import NetworkSpec
from verify.cli.script_args import ScriptParser, run_script  # one-line refusals, exit 2, as the verify command
from verify.model.polynomial import expected_monomial_count
from verify.rank.reduced import tokens_threshold
from verify.rank.routes import rank_once as separation_rank  # one run at the given seed

SPECS = [(1, 2, 1), (1, 3, 1), (1, 4, 2), (2, 2, 1), (2, 2, 2), (2, 3, 1), (2, 3, 3), (3, 2, 1)]
#: coefficient-route sizes above this many monomials are skipped (depth 3 stops at N = 4)
MAX_MONOMIALS = 2_000_000


def main():
    ScriptParser(prog="threshold.py", description=__doc__.splitlines()[0]).parse_args()  # no flags: any is refused
    print("| depth | width | heads | residual | reduced | coefficient rank at N = 2, 4, ... | first N reaching it | "
          "2(d_x+1) |")
    print("|---|---|---|---|---|---|---|---|")
    for depth, width, heads in SPECS:
        for residual in (False, True):
            spec = NetworkSpec(depth=depth, width=width, heads=heads, residual=residual)
            limit = separation_rank(spec, "reduced").rank
            ranks = []
            for tokens in range(2, tokens_threshold(spec) + 1, 2):
                if expected_monomial_count(spec.with_tokens(tokens)) > MAX_MONOMIALS:
                    break
                ranks.append((tokens, separation_rank(spec.with_tokens(tokens), "coefficients").rank))
            first = next((n for n, r in ranks if r == limit), None)
            print(f"| {depth} | {width} | {heads} | {residual} | {limit} | "
                  f"{', '.join(str(r) for _, r in ranks)} | {first} | {tokens_threshold(spec)} |", flush=True)


if __name__ == "__main__":
    start = time.perf_counter()
    run_script(main, "threshold.py", finish=False)
    print(f"\n{time.perf_counter() - start:.1f}s")
