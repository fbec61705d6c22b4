"""Speed of the positional token routes (issue 31, point 6): each target beside its measured figure.

Targets: the depth-3, R = 2 limit (d_x = 4, V = r = 3; 3,102, certified by ``verify probe-n`` in about 100 s
before) under 20 s; each cell of ``positional_cells.py`` under 10 min.  Also timed, without a target: eq. 7.4
with H at the positions (``exact_hilbert``) at L = 3, V = 3, R = 1, N = 12 (729 sequences a side), the cost
the probe adds to a positional row whose sides it can enumerate.  Wall and CPU seconds with the load average
beside them: on a shared machine the CPU seconds are what the run would take alone (single-threaded).
Measured (shared 2-core machine, seed 0, commit after 5252e9b): the limit 3,102, 372 s wall, 169 s CPU at
load 3.8 (other helpers' work): MISSED (target 20 s; not worked on in issue 31).  H_B at the positions: 682,
6.8 s wall, 4.3 s CPU.
Run: python benchmarks/positional_limit.py
"""

import os
import time

from verify import NetworkSpec, draw_weights
from verify.model.embeddings import VocabularyEmbedding
from verify.rank.positional_bound import exact_hilbert, side_points
from verify.rank.token_gram import TOKEN_PRIME, GramModel
from verify.rank.token_route import token_limit


def timed(what, target, function):
    wall, cpu = time.perf_counter(), time.process_time()
    value = function()
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    verdict = "" if target is None else (" met" if cpu < target else f" MISSED (target {target} s)")
    print(f"{what}: {value}; {wall:.1f} s wall, {cpu:.1f} s CPU at load {os.getloadavg()[0]:.1f}{verdict}", flush=True)


def main():
    spec = NetworkSpec(depth=3, width=4, heads=1, attn_dim=4)
    weights = draw_weights(spec, 0)
    embedding = VocabularyEmbedding(4, 3, 3, 2, 0)
    timed("depth 3, d_x = 4, V = r = 3, R = 2: the limit", 20,
          lambda: token_limit(spec, weights, embedding, TOKEN_PRIME, 0).rank)
    model = GramModel(spec, weights, VocabularyEmbedding(4, 3, 3, 1, 0), TOKEN_PRIME)
    positions = [model.position_vector(j) for j in range(12)]
    timed("eq. 7.4's H_B at the positions, L = 3, V = 3, R = 1, N = 12 (729 points)", None,
          lambda: exact_hilbert(side_points(3, positions[6:]), 13, TOKEN_PRIME)[-1])


if __name__ == "__main__":
    main()
