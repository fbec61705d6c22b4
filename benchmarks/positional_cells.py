"""Where Theorem 2's bound has content: the smallest N at which the token rank reaches it (issue 31, point 4).

Wies, Levine, Jannai, Navon, Hoshen, Shashua, "Which transformer architecture fits my data? A vocabulary
bottleneck in self-attention" (ICML 2021, arXiv:2105.03928) conjecture (section 4) that Theorem 2's bound
((floor((r - 1 - H)/2) over 3^(L-2))) (its proof's V = r value, Lemma 7) holds from N = Omega(r L / log3 r).
Cells: V = r in {8, 10, 12}, width r + 1, d_a = floor(d_x / H), H = 1 (2 with --heads 1 2), L = 3, 4, 5,
positional rank R = 1, 2, and R = 0 for contrast.  For each cell:

* ``bound``: Theorem 2's proof bound; ``scale``: r L / log3 r;
* ``counting_floor``: the smallest even N whose counting cap (V^(N/2) with positions, binom(N/2 + V - 1,
  V - 1) without) reaches the bound, 2 ceil(log_V bound) with positions: no smaller N can reach it (the
  cap bounds sep for every weight, docs/mathematics.md §7);
* ``n_reached``: the smallest N at which the rank is shown to reach the bound: with positions a sampled
  k x k minor (k = bound sequences a side, distinct, seeded) that is nonsingular mod p, a certified lower
  bound (rank at one point <= generic rank); without positions the exact count-route rank at these weights;
  tried from the counting floor up, so n_reached = counting_floor makes the result exact;
* ``eq74_at_n``: the positional bound of eq. 7.4 (the degree bound on the token grid, certified caps) at
  that N, and ``cap_at_n`` the counting cap; ``c``: n_reached / scale.

Every N is priced before it is computed (evaluations of F, k^2 with positions; count-matrix entries
without); a cell past ``--budget`` is a row with its estimate, in seconds at the rate measured here.
Run: python benchmarks/positional_cells.py [--out results] [--budget 3000000] [--depths 3 4 5] [--heads 1]
Writes results/n_positional_cells.csv (row by row: a run cut short keeps its rows).
"""

from __future__ import annotations

import argparse
import csv
import sys
import time
from math import comb
from pathlib import Path

import numpy as np

from verify import NetworkSpec, draw_weights
from verify.model.embeddings import VocabularyEmbedding
from verify.rank.positional_bound import counting_floor, positional_bound, sampled_minor_rank
from verify.rank.token_caps import count_caps
from verify.rank.token_gram import TOKEN_PRIME, GramModel
from verify.rank.token_route import count_rank
from verify.sweeps.probe import conjecture_scale, lemma7_lower_bound

COLUMNS = ["r", "depth", "heads", "pos_rank", "bound", "scale", "counting_floor", "n_reached", "rank_at_n",
           "certainty", "eq74_at_n", "cap_at_n", "c", "status", "estimate", "seconds"]


def calibrate(model: GramModel) -> float:
    """Seconds per evaluation of F for this cell's model (a 32 x 32 grid of random points)."""
    rng = np.random.default_rng(0)
    points = rng.integers(0, model.p, size=(64, model.dim))
    start = time.perf_counter()
    model.evaluate_grid(points[:32], points[32:], np.zeros(32, dtype=np.int64))
    return max(time.perf_counter() - start, 1e-6) / 32**2


def run_cell(vocab: int, depth: int, heads: int, pos_rank: int, budget: int, seed: int = 0) -> dict:
    start = time.perf_counter()
    width = vocab + 1
    spec = NetworkSpec(depth=depth, width=width, heads=heads, attn_dim=max(1, width // heads))
    bound = lemma7_lower_bound(depth, vocab, heads)
    scale = conjecture_scale(depth, vocab)
    row = {"r": vocab, "depth": depth, "heads": heads, "pos_rank": pos_rank, "bound": bound,
           "scale": f"{scale:.2f}", "estimate": ""}
    positional = pos_rank > 0
    floor = counting_floor(vocab, bound, positional)
    row["counting_floor"] = floor
    weights, embedding = draw_weights(spec, seed), VocabularyEmbedding(width, vocab, vocab, pos_rank, seed)
    model = GramModel(spec, weights, embedding, TOKEN_PRIME)
    rate = calibrate(model)
    tokens, spent = floor, 0
    while True:
        m = vocab - 1
        degree = spec.layer_degree
        cost = (bound * bound if positional else
                vocab * comb(min(tokens // 2 - 1, degree) + m, m) * comb(min(tokens // 2, degree) + m, m))
        if spent + cost > budget:
            row.update(n_reached="", rank_at_n="", certainty="", status=f"N = {tokens} beyond the budget",
                       estimate=(f"N = {tokens} priced at {cost:,} evaluations of F (about {cost * rate:.0f} s at "
                                 f"{rate * 1e6:.1f} us each here) > budget {budget:,}" if positional else
                                 f"N = {tokens} priced at {cost:,} count-matrix entries > budget {budget:,}"))
            break
        spent += cost
        found = sampled_minor_rank(spec, weights, embedding, tokens, bound, seed) if positional else count_rank(model, tokens)[0]
        if found >= bound:
            exact = tokens == floor
            row.update(n_reached=tokens, rank_at_n=found,
                       certainty=("certified: a nonsingular sampled minor of size bound" if positional else
                                  "exact at these weights mod p") + (", at the counting floor" if exact else ""),
                       status="reached")
            break
        tokens += 2
    at = row["n_reached"] or tokens
    row["eq74_at_n"] = positional_bound(depth, vocab, pos_rank, at).value if positional else ""
    row["cap_at_n"] = count_caps(vocab, at, positional).cap
    row["c"] = f"{row['n_reached'] / scale:.2f}" if row["n_reached"] else ""
    row["seconds"] = f"{time.perf_counter() - start:.1f}"
    return row


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default="results")
    parser.add_argument("--budget", type=int, default=3_000_000, help="evaluations (or entries) per cell")
    parser.add_argument("--ranks", type=int, nargs="+", default=[8, 10, 12])
    parser.add_argument("--depths", type=int, nargs="+", default=[3, 4, 5])
    parser.add_argument("--heads", type=int, nargs="+", default=[1])
    parser.add_argument("--pos-ranks", type=int, nargs="+", default=[1, 2, 0])
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    path = out / "n_positional_cells.csv"
    with open(path, "w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=COLUMNS)
        writer.writeheader()
        for depth in args.depths:
            for vocab in args.ranks:
                for heads in args.heads:
                    for pos_rank in args.pos_ranks:
                        row = run_cell(vocab, depth, heads, pos_rank, args.budget, args.seed)
                        writer.writerow(row)
                        handle.flush()
                        print(f"r={vocab} L={depth} H={heads} R={pos_rank}: bound {row['bound']}, floor "
                              f"{row['counting_floor']}, reached at {row['n_reached'] or '-'} (scale {row['scale']}, "
                              f"c = {row['c'] or '-'}); {row['status']} {row['estimate']}; {row['seconds']} s",
                              flush=True)
    print(f"csv: {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
