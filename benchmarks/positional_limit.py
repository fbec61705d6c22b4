"""Speed of the positional token routes (issue 31, point 6): each target beside its measured figure.

Targets: the depth-3, R = 2 limit (d_x = 4, V = r = 3; 3,102, certified) under 20 s; each cell of
``positional_cells.py`` under 10 min (here the four slowest computed: r = 8, L = 5 and r = 12, L = 4, R = 1
and 2).  Also timed, without a target: eq. 7.4 with H at the positions (``exact_hilbert``) at L = 3, V = 3,
R = 1, N = 12 (729 sequences a side), the cost the probe adds to a positional row whose sides it can
enumerate.  Wall and CPU seconds with the load average beside them: on a shared machine the CPU seconds are
what the run would take alone.  BLAS runs one thread (OPENBLAS_NUM_THREADS=1 unless set): on a loaded
machine OpenBLAS's second thread spins and doubled the CPU seconds of the limit's ranks (36 against 18).
Measured (shared 2-core machine, seed 0, under the other helpers' load, numba cache warm):
  before issue 31's speed work (5252e9b): the limit 169 s CPU (372 s wall, load 3.8); cells (12, 4) 591 s
  (R = 1) and 290 s (R = 2) wall, (8, 5) 39-77 s; H_B 4.3 s CPU.
  now (branch i31s, one run at load 6.4-6.6): the limit 3,102 certified, 18.0 s CPU, 36.4 s wall (met; the same
  3,102 and label); cells (8, 5) 406 at N = 6, 3.2 and 3.3 s CPU (6.5 and 6.6 s wall); (12, 4) 715 at N = 6,
  17.9 and 17.8 s CPU (36.0 and 35.8 s wall) (met; the same rows as results/n_positional_cells.csv); the
  N = 14 row of issue 31 (3^7 sequences a side): 645, every sequence kept, 5.77 million evaluations (6.9
  before: the step to every sequence now copies the sampled entries), 9.4 s CPU (19.0 s wall); H_B 682,
  2.6 s CPU (5.2 s wall).
  quiet machine (load 1.0-1.6, numba cache warm), serial compiled loop, one BLAS thread: the limit 24.0 s
  wall and CPU, MISSED; with the loop run on two threads over bands of left rows (the loop releases the
  GIL): the limit 3,102 in 14.5 s wall (20.6 s CPU), met; cells (8, 5) 1.8 and 2.5 s wall, (12, 4) 11.2 and
  9.9 s wall; the N = 14 row 645 in 5.3 s wall; H_B 682 in 2.5 s.  The target is judged on wall seconds.
Where the limit's time went (cProfile, 165 s): evaluating F on 28.9 million pairs 105 s (int64 % 40 s of it),
ranks 60 s (FLINT's entry-by-entry build 19 s).  Now: 9.7 million pairs (the rows of the first
ceil((k + 16)/V) row points meet the bound; ``token.limit._limit_rank``) in a compiled loop
(``grid_loop``), about 1.3 us a pair, and the ranks by the checked float64 elimination (``kernel_for``).
Run: python benchmarks/positional_limit.py
"""

import os
import time

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # before numpy: see the notes

from verify import NetworkSpec, draw_weights
from verify.cli.script_args import ScriptParser, run_script  # one-line refusals, exit 2, as the verify command
from verify.model.embeddings import VocabularyEmbedding
from verify.rank.token.gram import TOKEN_PRIME, GramModel
from verify.rank.token.limit import token_limit
from verify.rank.token.positional_bound import exact_hilbert, side_points
from verify.rank.token.route import sequence_rank
from verify.sweeps.atlas.bound import bound_row
from verify.sweeps.atlas.plan import Cell


def timed(what, target, function):
    wall, cpu = time.perf_counter(), time.process_time()
    value = function()
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    verdict = "" if target is None else (" met" if wall < target else f" MISSED (target {target} s wall)")
    print(f"{what}: {value}; {wall:.1f} s wall, {cpu:.1f} s CPU at load {os.getloadavg()[0]:.1f}{verdict}", flush=True)


def main():
    ScriptParser(prog="positional_limit.py",
                 description=__doc__.splitlines()[0]).parse_args()  # no flags: any is refused
    spec = NetworkSpec(depth=3, width=4, heads=1, attn_dim=4)
    weights = draw_weights(spec, 0)
    embedding = VocabularyEmbedding(4, 3, 3, 2, 0)
    timed("depth 3, d_x = 4, V = r = 3, R = 2: the limit", 20,
          lambda: token_limit(spec, weights, embedding, TOKEN_PRIME, 0).rank)
    for vocab, depth, pos_rank in ((8, 5, 1), (8, 5, 2), (12, 4, 1), (12, 4, 2)):
        cell = Cell("bound", depth, vocab, 1, pos_rank)
        timed(f"bound cell r = {vocab}, L = {depth}, H = 1, R = {pos_rank}", 600,
              lambda cell=cell: "rank >= {rank_at_least} at N = {n_reached} ({status})".format(
                  **bound_row(cell, 3_000_000)))
    model = GramModel(spec, weights, VocabularyEmbedding(4, 3, 3, 1, 0), TOKEN_PRIME)
    timed("positional row L = 3, V = 3, R = 1, N = 14, aimed at 705 (the sample doubles into every sequence)",
          None, lambda: sequence_rank(model, 14, 705, 0, budget=11_000_000))
    positions = [model.position_vector(j) for j in range(12)]
    timed("eq. 7.4's H_B at the positions, L = 3, V = 3, R = 1, N = 12 (729 points)", None,
          lambda: exact_hilbert(side_points(3, positions[6:]), 13, TOKEN_PRIME)[-1])


if __name__ == "__main__":
    run_script(main, "positional_limit.py")
