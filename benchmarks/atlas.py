"""The atlas of the conjecture on N: exact token ranks sep(N) over a grid of specs (issue 19, point 5).

Wies, Levine, Jannai, Navon, Hoshen, Shashua, "Which transformer architecture fits my data? A vocabulary
bottleneck in self-attention" (ICML 2021, arXiv:2105.03928) conjecture (section 4) that Theorem 2's lower
bound holds from N = Omega(r L / log3 r).  For each cell (depth L, V = r, heads H, positional rank R,
width d_x = r + 1, d_a = floor(d_x / H)) this script records

* the N-independent limit (``token_route.token_limit``) with its certainty label;
* sep(N) for N = 2, 4, ... (the Gram route: ``count_rank`` without positions, exact at these weights mod
  p; ``sequence_rank`` with them, a sample of the sequences, exact where it meets a proven upper bound),
  stopping at the first N where the rank reaches the limit (rank <= limit at every N);
* the first N where the rank reaches (a) the lower bound of Theorem 2's proof, ((floor((r - 1 - H)/2)
  over 3^(L-2))) (``probe.lemma7_lower_bound``), and (b) the limit; beside them the first N where the
  counting cap reaches the limit, the conjectured scale c r L / log3 r for c = 1, 2, 4 and the cap there;
* every N where the rank differs from min(counting cap, limit) (the maximal-rank question), split into
  exact exceptions and sampled rows (lower bounds only).

A cell (or an N) whose priced cost passes the budget is a row saying so, with the estimate; never dropped.
Seeded integer weights and embeddings (``--seed``), ranks mod p = 2^31 - 1: certified lower bounds on the
generic ranks.

Run: python benchmarks/atlas.py            (full grid, about 20 min on 2 shared cores)
     python benchmarks/atlas.py --quick    (a few cells, seconds; what tests/sweeps/test_atlas.py runs)
Writes results/n_atlas.csv and results/n_atlas.png (the plot needs matplotlib: pip install -e '.[plot]').
"""

from __future__ import annotations

import argparse
import csv
import math
import sys
import time
from dataclasses import dataclass
from math import comb
from pathlib import Path
from types import SimpleNamespace

from verify import NetworkSpec, draw_weights
from verify.model.embeddings import VocabularyEmbedding
from verify.rank.token_caps import count_caps
from verify.rank.token_gram import TOKEN_PRIME, GramModel
from verify.rank.token_route import (LimitOutOfReach, count_rank, derivative_upper_bound, free_variables,
                                     sequence_rank, token_limit)
from verify.rank.positional_bound import row_certainty
from verify.rank.tokens import positional_bounds
from verify.sweeps.probe import conjecture_scale, lemma7_lower_bound

CONSTANTS = (1, 2, 4)
FULL = "full"


@dataclass(frozen=True)
class Budget:
    """What one cell may spend, priced before the work (so the atlas does not depend on the machine's
    load): evaluations of F for the limit and for one N and for all N together (positions), entries of
    one count matrix and of all together (no positions).  Evaluations are scaled by 2 / L from depth 3
    on (an evaluation costs about L layers); ``calibrate`` times one to turn the prices into seconds."""

    limit_evaluations: int
    step_evaluations: int
    matrix_entries: int
    loop_evaluations: int
    loop_entries: int

    def evaluations(self, what: str, depth: int) -> int:
        return int(getattr(self, what) * min(1.0, 2 / depth))


GRIDS = {
    "full": dict(depths=(1, 2, 3, 4), vocabs=(2, 3, 4, 5, 6), heads=(1, 2), positional=(0, 1, 2, FULL),
                 budget=Budget(3_000_000, 1_500_000, 2_500_000, 6_000_000, 40_000_000)),
    "quick": dict(depths=(1, 2), vocabs=(2, 3), heads=(1,), positional=(0, 1),
                  budget=Budget(200_000, 60_000, 60_000, 200_000, 1_000_000)),
}

COLUMNS = ["depth", "vocab_r", "heads", "width", "attn_dim", "pos_rank", "layer_degree", "status",
           "limit", "limit_certainty", "limit_upper_bound", "thm2_proof_bound", "first_n_thm2_bound",
           "first_n_limit", "first_n_cap_reaches_limit", "scale_rL_over_log3r"]
COLUMNS += [f"n_c{c}" for c in CONSTANTS] + [f"cap_at_n_c{c}" for c in CONSTANTS]
COLUMNS += ["max_n", "ranks", "ranks_labels", "eq74_bounds", "ranks_certainty", "caps", "maximal_rank_exceptions", "sampled_below", "estimate", "seed", "prime",
            "seconds"]


def even_ceil(x: float) -> int:
    return max(2, 2 * math.ceil(x / 2))


def step_cost(vocab: int, tokens: int, degree: int, positional: bool, aim: int) -> int:
    """The priced size of one N: count-matrix entries without positions (rows x columns of the lattice
    route), evaluations of F with them (the first sample, k = min(V^(N/2), aim + 16) a side, squared)."""
    half, m = tokens // 2, vocab - 1
    if not positional:
        return vocab * comb(min(half - 1, degree) + m, m) * comb(min(half, degree) + m, m)
    k = min(vocab**half, aim + 16)
    return k * k


def row_label(found: int, every: bool, cap: int, upper: int, bounds: dict, limit, spec) -> str:
    """A positional rank's label for the CSV: "certified", "probabilistic(P)" or "lb-S" (S short of its aim),
    by ``positional_bound.row_certainty`` (the probe's rule)."""
    from verify.model.embeddings import EMBEDDING_RANGE
    from verify.rank.certainty import against_upper_bound, format_bound, residue_sample_size
    from verify.rank.token_route import entry_degree

    certified_limit = limit is not None and getattr(limit, "certified_exact", True)
    proven = min(cap, upper, bounds["certified"], *([limit.rank] if certified_limit else []))
    other = [(limit.rank, limit.probability_bound)] if limit is not None and not certified_limit else []
    if every:
        sample = min(residue_sample_size(2 * 2**31 + 1, TOKEN_PRIME),
                     residue_sample_size(2 * EMBEDDING_RANGE + 1, TOKEN_PRIME))
        other.append((found, against_upper_bound(found, proven, entry_degree(spec), sample)[1]))
    label, probability, aim = row_certainty(found, proven, bounds["at_positions"], bounds["probability"], other)
    return {"certified exact": "certified", "probabilistic": f"probabilistic({format_bound(probability or 0.0)})"
            }.get(label, f"lb-{aim - found}")


def calibrate(model: GramModel) -> float:
    """Seconds per evaluation of F for this cell's model (a 64 x 64 grid of random points, timed)."""
    import numpy as np

    rng = np.random.default_rng(0)
    points = rng.integers(0, model.p, size=(128, model.dim))
    start = time.perf_counter()
    model.evaluate_grid(points[:64], points[64:], np.zeros(64, dtype=np.int64))
    return max(time.perf_counter() - start, 1e-6) / 64**2


def first_n_cap(vocab: int, positional: bool, value: int) -> int:
    """The first even N whose counting cap reaches ``value`` (closed form of the caps, by search)."""
    tokens = 2
    while count_caps(vocab, tokens, positional).cap < value:
        tokens += 2
    return tokens


def run_cell(depth: int, vocab: int, heads: int, positional, budget: Budget, seed: int = 0,
             skip: str | None = None) -> dict:
    """One row of the atlas (module doc); ``skip``: why the cell is not attempted (a row saying so)."""
    start = time.perf_counter()
    width = vocab + 1
    spec = NetworkSpec(depth=depth, width=width, heads=heads, attn_dim=max(1, width // heads))
    big_r = width if positional == FULL else positional
    embedding = VocabularyEmbedding(width, vocab, vocab, big_r, seed)
    weights = draw_weights(spec, seed)
    degree, p, with_pos = spec.layer_degree, TOKEN_PRIME, big_r > 0
    upper = derivative_upper_bound(degree, free_variables(spec, vocab, big_r), vocab)
    scale = conjecture_scale(depth, vocab)
    bound = lemma7_lower_bound(depth, vocab, heads)
    row = {"depth": depth, "vocab_r": vocab, "heads": heads, "width": width, "attn_dim": spec.attn_dim,
           "pos_rank": f"{big_r} (full)" if positional == FULL else big_r, "layer_degree": degree,
           "limit_upper_bound": upper, "thm2_proof_bound": "n/a (needs L >= 2, r - 1 > H)" if bound is None else bound,
           "scale_rL_over_log3r": f"{scale:.2f}", "seed": seed, "prime": p}
    for c in CONSTANTS:
        n_c = even_ceil(c * scale)
        row[f"n_c{c}"], row[f"cap_at_n_c{c}"] = n_c, count_caps(vocab, n_c, with_pos).cap
    notes, limit = [], None
    model = GramModel(spec, weights, embedding, p)
    rate = calibrate(model)
    limit_evaluations = budget.evaluations("limit_evaluations", depth)
    try:
        if skip:
            raise LimitOutOfReach(skip, 0, 0)
        limit = token_limit(spec, weights, embedding, p, seed, max_evaluations=limit_evaluations)
        row["limit"] = limit.rank
        row["limit_certainty"] = ("certified exact" if limit.certified_exact else
                                  f"= generic w.p. >= 1 - {limit.probability_bound:.2g}")
        row["first_n_cap_reaches_limit"] = first_n_cap(vocab, with_pos, limit.rank)
    except LimitOutOfReach as exc:
        row["limit"] = "" if skip else f">= {exc.at_least}"
        row["limit_certainty"] = "not attempted" if skip else "beyond reach"
        row["first_n_cap_reaches_limit"] = ""
        notes.append(f"limit {skip}; proven upper bound {upper}" if skip else
                     f"limit beyond reach: at least {exc.at_least} (proven upper bound {upper}), the next "
                     f"doubling needs {exc.needed:,} evaluations of F (about {exc.needed * rate:.0f} s at "
                     f"{rate * 1e6:.1f} us each here) > budget {limit_evaluations:,}")
    spent = 0
    ranks, caps, exceptions, sampled_below, steps, labels, eq74 = [], [], [], [], [], [], []
    first_bound = first_limit = None
    max_n = max(2 * degree + 6, 24)
    tokens = 2
    status = "reached the limit" if limit is not None else "limit beyond reach"
    while True:
        cap = count_caps(vocab, tokens, with_pos).cap
        aim = min(cap, upper, limit.rank if limit else upper)
        cost = step_cost(vocab, tokens, degree, with_pos, aim)
        step_budget = budget.evaluations("step_evaluations", depth)
        if with_pos and cost > step_budget:
            status = f"N = {tokens} beyond reach"
            notes.append(f"N = {tokens} priced at {cost:,} evaluations of F (about {cost * rate:.0f} s here) > "
                         f"budget {step_budget:,}")
            break
        if not with_pos and cost > budget.matrix_entries:
            status = f"N = {tokens} beyond reach"
            notes.append(f"N = {tokens} priced at {cost:,} matrix entries > budget {budget.matrix_entries:,}")
            break
        if with_pos:  # aims at eq. 7.4 (caps, and H at these positions where a side is small), to the step budget
            bounds = positional_bounds(model, tokens)
            target = min(cap, upper, bounds["certified"], bounds["at_positions"] or upper)
            found, every, _ = sequence_rank(model, tokens, target, seed, limit.rank if limit else None,
                                            budget=step_budget)
            label = row_label(found, every, cap, upper, bounds, limit, spec)
            exact = label != "lower bound"
            labels.append(f"{tokens}:{label}")
            eq74.append(f"{tokens}:{bounds['certified']}/{bounds['at_positions'] or '-'}")
        else:
            found, exact = count_rank(model, tokens)[0], True
        ranks.append(f"{tokens}:{found}")
        caps.append(f"{tokens}:{cap}")
        if bound is not None and first_bound is None and found >= bound:
            first_bound = tokens
        steps.append((tokens, found, cap, exact))
        if limit is None and exact and found == upper:
            # sep(N) <= the limit at these weights <= the proven derivative bound: this rank certifies the limit
            limit = SimpleNamespace(rank=found)
            row["limit"], row["limit_certainty"] = found, f"certified exact (sep({tokens}) meets the proven bound)"
            row["first_n_cap_reaches_limit"] = first_n_cap(vocab, with_pos, found)
            notes.append(f"the limit computation was out of reach, but sep({tokens}) = {found} meets the proven "
                         "upper bound and so certifies the limit")
            status = "reached the limit"
        if limit is not None and found == limit.rank:
            first_limit = tokens
            break
        if tokens >= max_n:
            status = f"stopped at N = {max_n} below the limit" if limit is not None else status
            break
        spent += cost
        loop_budget = budget.evaluations("loop_evaluations", depth) if with_pos else budget.loop_entries
        if spent > loop_budget:
            status = f"stopped after N = {tokens}: the cell's budget of {loop_budget:,} " + (
                "evaluations" if with_pos else "matrix entries") + " is spent"
            notes.append(status)
            break
        tokens += 2
    for tokens_at, found, cap, exact in steps if limit is not None else ():
        if found != min(cap, limit.rank):
            (exceptions if exact else sampled_below).append(f"{tokens_at}:{found}<{min(cap, limit.rank)}")
    row["ranks_certainty"] = (
        "each rank exact at these weights mod p (a certified lower bound on the generic rank)" if not with_pos else
        "ranks_labels: certified exact (meets a bound proven for every weight: eq. 7.4's caps, the counting cap, "
        "the derivative bound), probabilistic (meets eq. 7.4 with H at these positions, the computed limit, or "
        "every sequence kept: generic unless an event of the stated probability occurred), lower bound (N:lb-S: "
        "S below the bound it aimed at); eq74_bounds N:caps/at-positions")
    row["ranks_labels"], row["eq74_bounds"] = " ".join(labels), " ".join(eq74)
    row.update(status=status, first_n_thm2_bound=first_bound if first_bound is not None else "",
               first_n_limit=first_limit if first_limit is not None else "", max_n=tokens, ranks=" ".join(ranks),
               caps=" ".join(caps), maximal_rank_exceptions=" ".join(exceptions),
               sampled_below=" ".join(sampled_below), estimate="; ".join(notes),
               seconds=f"{time.perf_counter() - start:.2f}")
    return row


def cells(grid: dict):
    for depth in grid["depths"]:
        for vocab in grid["vocabs"]:
            for heads in grid["heads"]:
                for positional in grid["positional"]:
                    yield depth, vocab, heads, positional


def plot(rows: list[dict], path: Path) -> str | None:
    """Rank against N, one panel per depth (one head), with the counting caps (thin) and the conjectured
    scale r L / log3 r (vertical); None when drawn, else why not."""
    try:
        import matplotlib
    except ImportError:
        return "matplotlib is not installed; install it with pip install -e '.[plot]' in the checkout"
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from matplotlib.ticker import FuncFormatter, MaxNLocator

    depths = sorted({r["depth"] for r in rows})
    columns = min(2, len(depths))
    lines = math.ceil(len(depths) / columns)
    fig, grid = plt.subplots(lines, columns, figsize=(5.2 * columns + 2.6, 3.9 * lines), squeeze=False)
    axes = [list(grid.ravel())]
    styles = {"0": "-", "1": "--", "2": "-."}
    for ax, depth in zip(axes[0], depths):
        mine = [r for r in rows if r["depth"] == depth and r["heads"] == min(x["heads"] for x in rows)]
        for r in mine:
            points = [tuple(map(int, item.split(":"))) for item in r["ranks"].split()]
            if not points:
                continue
            color = f"C{r['vocab_r'] - 2}"
            pos = str(r["pos_rank"]).split()[0]
            ax.plot(*zip(*points), styles.get(pos, ":"), color=color, marker=".", ms=3, lw=1,
                    label=f"V = r = {r['vocab_r']}, R = {r['pos_rank']}")
            if pos in ("0", "1"):  # caps: multisets (R = 0), sequences (R >= 1), drawn once per V
                xs = list(range(2, max(p[0] for p in points) + 1, 2))
                ax.plot(xs, [count_caps(r["vocab_r"], n, pos != "0").cap for n in xs], color=color, lw=0.6,
                        alpha=0.35)
            if pos == "0":
                ax.axvline(float(r["scale_rL_over_log3r"]), color=color, lw=0.8, ls=(0, (1, 3)))
        ax.set_yscale("log")
        ax.yaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:,.0f}"))
        ax.yaxis.set_minor_formatter(FuncFormatter(lambda v, _: ""))
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        ax.set_title(f"depth L = {depth}", fontsize=10)
        ax.set_xlabel("sequence length N")
        ax.set_ylabel("exact token rank sep(N) mod p", fontsize=8)
    handles, labels = axes[0][len(depths) - 1].get_legend_handles_labels()
    fig.legend(handles, labels, fontsize=7, loc="center right")
    fig.suptitle("Token rank against N (one head, d_x = r + 1); faint: counting caps (multisets R = 0, sequences "
                 "R >= 1); dotted verticals: r L / log3 r", fontsize=9)
    fig.tight_layout(rect=(0, 0, 0.8, 0.95))
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return None


def rerun_cells(args) -> int:
    """Reruns the named cells (full grid's budget, raised where asked) and replaces their rows in the CSV,
    written to a temporary file and renamed (an interrupted rerun leaves the old CSV whole)."""
    import dataclasses
    import os

    budget = GRIDS["full"]["budget"]
    raised = {k: v for k, v in (("limit_evaluations", args.limit_evaluations),
                                ("step_evaluations", args.step_evaluations),
                                ("loop_evaluations", args.step_evaluations and 4 * args.step_evaluations)) if v}
    budget = dataclasses.replace(budget, **raised)
    path = Path(args.out) / "n_atlas.csv"
    with open(path) as handle:
        rows = list(csv.DictReader(handle))
    for cell in args.cells:
        depth, vocab, heads, pos = cell.split(",")
        positional = FULL if pos == FULL else int(pos)
        row = run_cell(int(depth), int(vocab), int(heads), positional, budget, args.seed)
        key = (depth, vocab, heads, str(row["pos_rank"]))
        rows = [r if (r["depth"], r["vocab_r"], r["heads"], r["pos_rank"]) != key else
                {k: row.get(k, "") for k in COLUMNS} for r in rows]
        print(f"L={depth} r=V={vocab} H={heads} R={row['pos_rank']}: {row['status']}; limit {row['limit']} "
              f"({row['limit_certainty']}); ranks {row['ranks']}; labels {row['ranks_labels']}; {row['seconds']} s",
              flush=True)
        temporary = path.with_suffix(".csv.tmp")
        with open(temporary, "w", newline="") as handle:
            writer = csv.DictWriter(handle, fieldnames=COLUMNS, restval="", extrasaction="ignore")
            writer.writeheader()
            writer.writerows(rows)
        os.replace(temporary, path)
    return 0


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a few small cells with small budgets (seconds)")
    parser.add_argument("--out", default="results", help="folder for n_atlas.csv and n_atlas.png")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--no-plot", action="store_true")
    parser.add_argument("--replot", action="store_true", help="only redraw n_atlas.png from the n_atlas.csv in --out")
    parser.add_argument("--cells", nargs="+", metavar="L,V,H,R", default=None,
                        help="rerun only these cells (R: 0, 1, 2 or full) and replace their rows in --out's n_atlas.csv")
    parser.add_argument("--limit-evaluations", type=int, default=None, help="with --cells: the limit's budget")
    parser.add_argument("--step-evaluations", type=int, default=None, help="with --cells: one N's budget")
    args = parser.parse_args(argv)
    if args.cells:
        return rerun_cells(args)
    if args.replot:
        with open(Path(args.out) / "n_atlas.csv") as handle:
            rows = [{**r, "depth": int(r["depth"]), "vocab_r": int(r["vocab_r"]), "heads": int(r["heads"])}
                    for r in csv.DictReader(handle)]
        why = plot(rows, Path(args.out) / "n_atlas.png")
        print(f"plot not drawn: {why}" if why else f"plot: {Path(args.out) / 'n_atlas.png'}")
        return 0 if why is None else 1
    grid = GRIDS["quick" if args.quick else "full"]
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    rows, start, out_of_reach = [], time.perf_counter(), []
    handle = open(out / "n_atlas.csv", "w", newline="")  # written row by row: a run cut short keeps its rows
    writer = csv.DictWriter(handle, fieldnames=COLUMNS)
    writer.writeheader()
    for depth, vocab, heads, positional in cells(grid):
        big_r = vocab + 1 if positional == FULL else positional
        # a limit out of reach prices every cell with more tokens and positions out of reach too (its
        # proven upper bound, and in every reached cell the limit, grow with V and R): not attempted
        skip = next((f"not attempted: the limit of L={d} V={v} H={h} R={r} was beyond reach (priced by it)"
                     for d, v, h, r in out_of_reach if d == depth and h == heads and v <= vocab and r <= big_r), None)
        row = run_cell(depth, vocab, heads, positional, grid["budget"], args.seed, skip)
        rows.append(row)
        writer.writerow(row)
        handle.flush()
        if row["limit_certainty"] == "beyond reach":
            out_of_reach.append((depth, vocab, heads, big_r))
        print(f"L={depth} r=V={vocab} H={heads} R={row['pos_rank']}: {row['status']}; limit {row['limit']} "
              f"({row['limit_certainty']}); first N: bound {row['first_n_thm2_bound'] or '-'}, limit "
              f"{row['first_n_limit'] or '-'} (cap reaches it at {row['first_n_cap_reaches_limit'] or '-'}); "
              f"{row['seconds']} s", flush=True)
        if row["maximal_rank_exceptions"]:
            print(f"    rank != min(cap, limit): {row['maximal_rank_exceptions']}", flush=True)
    handle.close()
    exceptions = [r for r in rows if r["maximal_rank_exceptions"]]
    print(f"\n{len(rows)} cells in {time.perf_counter() - start:.0f} s; {len(exceptions)} with an exact rank "
          f"!= min(counting cap, limit):")
    for r in exceptions:
        print(f"  L={r['depth']} r=V={r['vocab_r']} H={r['heads']} R={r['pos_rank']}: {r['maximal_rank_exceptions']}")
    if not args.no_plot:
        why = plot(rows, out / "n_atlas.png")
        print(f"plot not drawn: {why}" if why else f"plot: {out / 'n_atlas.png'}")
    print(f"csv: {out / 'n_atlas.csv'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
