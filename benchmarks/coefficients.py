"""Issue speed target: the coefficient route for L=2, d_x=3, H=3, N=6 (about 137 thousand
monomials) in under 20 s, polynomial construction included.  Run: python benchmarks/coefficients.py
"""

import time

from verify import DEFAULT_PRIME, Field, NetworkSpec, draw_weights
from verify.cli.script_args import ScriptParser, run_script  # one-line refusals, exit 2, as the verify command
from verify.model.polynomial import output_polynomial
from verify.rank.routes import rank_once as separation_rank  # one run at the given seed


def main():
    ScriptParser(prog="coefficients.py", description=__doc__.splitlines()[0]).parse_args()  # no flags: any is refused
    spec = NetworkSpec(depth=2, width=3, heads=3, tokens=6)
    field = Field(DEFAULT_PRIME)
    start = time.perf_counter()
    poly = output_polynomial(spec, draw_weights(spec, 0), field)
    built = time.perf_counter() - start
    start = time.perf_counter()
    result = separation_rank(spec, "coefficients", field=field)
    total = time.perf_counter() - start
    print(f"L=2 d_x=3 H=3 N=6: {len(poly):,} monomials, polynomial built in {built:.2f}s; "
          f"coefficient route (polynomial + rank) {total:.2f}s, rank {result.rank}  [target < 20 s]")


if __name__ == "__main__":
    run_script(main, "coefficients.py")
