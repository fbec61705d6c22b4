"""Depth 4, width 3 on a GPU: the degree blocks of the reduced route gathered and eliminated on the device.

The engine's reduced route (``verify.rank.degree_blocks``) gathers every block on the host; at depth 4,
width 3 its slices are 80,730 x 80,762 (about 49 GiB), which no CPU elimination here finishes.  This
script runs the same mathematics with the blocks in GPU memory from the start:

1. The moment values c~_k[gamma] (``verify.rank.moments.DenseMoments`` tables, one per component) are
   built by the engine with FLINT (``--build``), or read from a ``.npz`` written by ``--save`` (q of
   depth 4, width 3 takes several CPU-minutes to build, so it can be built once on a CPU machine).
2. They are copied to the device; each degree block's lines are gathered there by the DenseMoments
   position formula (half tables, no search), straight into the array the elimination consumes.
3. Block a's rank is rank(S) + rank(Y^T R) (slice and complement, docs/mathematics.md section 2):
   S = short + 32 seeded random lines, eliminated by ``verify.exact.elimination`` on the device
   (``xp=cupy``; the same code the CPU tests run); Y spans its left null space (mixed down to 32 random
   combinations when wider, which can only lower the rank); the other lines R are multiplied by Y^T
   on the device in chunks.
4. Full row rank propagates to lower degrees and full column rank to higher ones, so only the blocks
   from the turn outward up to the first full one are ranked (as the engine does).

The result is a certified lower bound on the generic separation rank whatever the prime; it is the
generic rank exactly when it meets the derivative-space upper bound (``verify.rank.bound``).  With
``--cpu`` numpy runs the same code (used to check this script against the engine on small specs).
Run: python benchmarks/gpu_depth4.py [--depth 4 --width 3 --heads 1] [--tables F.npz | --save F.npz]
     [--check-depth 3 --check-width 3] [--cpu] [--json OUT.json]
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from math import comb
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

P = 8388593  # the largest prime below 2^23: one float64 limb
SLICE_EXTRA = 32
MIX = 32
LINES = 8192  # complement lines multiplied at a time


def build_tables(depth: int, width: int, heads: int, seed: int, p: int) -> list[np.ndarray]:
    """DenseMoments tables of q = F(S)^T e_p at weights drawn uniformly over GF(p) (as ``verify sep``)."""
    from verify import Field, NetworkSpec
    from verify.model.spec import draw_weights
    from verify.rank.moments import DenseMoments, moment_values
    from verify.rank.reduced import reduced_polynomials, term_exponents

    spec = NetworkSpec(depth=depth, width=width, heads=heads)
    field = Field(p)
    nvars, top = width * (width + 1) // 2, spec.layer_degree
    _, q = reduced_polynomials(spec, draw_weights(spec, seed, (p - 1) // 2), field)
    exps = [term_exponents(x, nvars) for x in q]
    if not all((e.sum(axis=1) == top).all() for e in exps):
        raise SystemExit("q is not homogeneous of degree C(L): these weights are degenerate; use another --seed")
    return DenseMoments(nvars, top, exps, moment_values(exps, [x.coeffs() for x in q], field), np.int64).tables


class DeviceMoments:
    """DenseMoments' position formula with its tables in device memory (module ``xp``)."""

    def __init__(self, nvars: int, degree: int, tables: list, xp):
        from verify.exact.compositions import compositions
        from verify.rank.moments import DenseMoments

        empty = [np.zeros((0, nvars), dtype=np.int64)] * len(tables)
        self.host = DenseMoments(nvars, degree, empty, [np.zeros(0, dtype=np.int64)] * len(tables), np.int64)
        assert all(len(t) == len(self.host.tables[0]) for t in tables), "tables of another spec"
        self.xp, self.nvars, self.degree, self.count = xp, nvars, degree, len(tables)
        # the engine's lookup, its arrays moved to the device: DenseMoments.gather is array operations
        # only (it allocates nothing when given ``out``), so it runs on cupy arrays unchanged
        host = self.host
        host.rank1, host.rank2, host.stride, host.offset = (
            xp.asarray(v) for v in (host.rank1, host.rank2, host.stride, host.offset))
        host.tables = [xp.asarray(t) for t in tables]
        self._compositions = compositions

    def keys(self, total: int):
        """Key rows of the degree-``total`` monomials (computed on the host: the key weights stay there)."""
        return self.xp.asarray(self.host.keys(self._compositions(total, self.nvars)))

    def gather(self, k: int, left, right, out) -> None:
        """out[i, j] = c~_k[left_i + right_j] (left, right: key rows whose sums have degree C)."""
        self.host.gather(k, left, right, out=out)


class Block:
    """Degree block a: rows alpha (|alpha| = a), columns (k, beta) (|beta| = C - a); lines along the long side."""

    def __init__(self, moments: DeviceMoments, a: int):
        self.m, self.a = moments, a
        self.rows = moments.keys(a)
        self.cols = moments.keys(moments.degree - a)
        self.shape = (len(self.rows), moments.count * len(self.cols))
        self.wide = self.shape[0] <= self.shape[1]
        self.short, self.long = min(self.shape), max(self.shape)

    def lines(self, idx: np.ndarray):
        """Lines ``idx`` (sorted) of the long side as a len(idx) x short int64 device array."""
        xp, m = self.m.xp, self.m
        out = xp.empty((len(idx), self.short), dtype=xp.int64)
        per = len(self.cols)
        if self.wide:  # lines are columns (k, beta): out[j, i] = c~_k[beta_j + alpha_i]
            for k in range(m.count):  # idx is sorted: component k's lines are one run, gathered in place
                lo, hi = np.searchsorted(idx, [k * per, (k + 1) * per])
                if hi > lo:
                    m.gather(k, self.cols[xp.asarray(idx[lo:hi] - k * per)], self.rows, out[lo:hi])
        else:  # lines are rows alpha: out[j, (k, beta)] = c~_k[alpha_j + beta]
            left = self.rows[xp.asarray(idx)]
            for k in range(m.count):
                m.gather(k, left, self.cols, out[:, k * per:(k + 1) * per])
        return out


def slice_pick(block: Block, seed: int) -> np.ndarray:
    """The seeded lines (sorted) of the long side that make block ``a``'s slice: short + 32 of them."""
    rng = random.Random(f"gpu-slice:{seed}:{block.a}")
    take = min(block.long, block.short + SLICE_EXTRA)
    return np.array(sorted(rng.sample(range(block.long), take)), dtype=np.int64)


def block_rank(block: Block, p: int, seed: int, log) -> dict:
    """rank(S) + rank(Y^T R) of one block (module notes); ``rank`` None when the mixed complement saturates."""
    from verify.exact.elimination import rank_mod_p
    from verify.exact.floatmod import ModArith
    from verify.exact.nullspace import null_space

    xp = block.m.xp
    start = time.perf_counter()
    pick = slice_pick(block, seed)
    lines = block.lines(pick)
    gathered = time.perf_counter() - start
    space = null_space(lines, p, xp=xp, overwrite=True)  # right null space of S^T = left null space of S
    del lines
    eliminated = time.perf_counter() - start - gathered
    out = {"a": block.a, "rows": block.shape[0], "cols": block.shape[1], "upper": block.short,
           "slice_rank": space.rank, "nullity": space.nullity, "gather_s": round(gathered, 1),
           "elimination_s": round(eliminated, 1)}
    rest = np.setdiff1d(np.arange(block.long, dtype=np.int64), pick)
    if space.nullity == 0 or len(rest) == 0:
        out["rank"] = space.rank
    else:
        mix = None
        if space.nullity > MIX:
            mixer = random.Random(f"gpu-mix:{seed}:{block.a}")
            mix = np.array([[mixer.randrange(p) for _ in range(MIX)] for _ in range(space.nullity)], dtype=np.int64)
        y = space.rows(mix)  # t x short, host int64 in [0, p)
        del space
        ar = ModArith(p, xp)
        yt = ar.from_ints(xp.asarray(np.ascontiguousarray(y.T)))
        parts = []
        for s in range(0, len(rest), LINES):
            chunk = ar.from_ints(block.lines(rest[s:s + LINES]), overwrite=True)
            prod = xp.zeros((chunk.shape[0], yt.shape[1]), dtype=xp.float64)
            ar.submul(prod, chunk, yt)  # -(R^T Y^T): same rank as Y^T R
            host = ar.to_ints(prod)
            parts.append(host.get() if hasattr(host, "get") else host)
            del chunk, prod
        extra = rank_mod_p(np.vstack(parts), p, xp=np)
        out["complement_rank"] = extra
        out["rank"] = None if (mix is not None and extra == MIX) else out["slice_rank"] + extra
    out["seconds"] = round(time.perf_counter() - start, 1)
    log(json.dumps(out))
    return out


def degree_blocks(moments: DeviceMoments, p: int, seed: int, log, upper: int | None = None, rank_block=None,
                  stop=None) -> dict:
    """Ranks of the degree blocks from the turn outward until full rank propagates (as the engine does);
    ``upper``: the engine's proven upper bound (``verify.rank.bound.derivative_bound``), else the
    block-size count.  ``rank_block(a)`` ranks block a (default ``block_rank``); ``stop()`` True ends
    the loop (the blocks not reached stay undecided)."""
    n, top, count = moments.nvars, moments.degree, moments.count
    sizes = [(comb(a + n - 1, n - 1), count * comb(top - a + n - 1, n - 1)) for a in range(top + 1)]
    turn = max(a for a, (r, c) in enumerate(sizes) if r <= c)
    if rank_block is None:
        def rank_block(a):
            return block_rank(Block(moments, a), p, seed, log)
    ranks: dict[int, int | None] = {}
    computed = []
    for order, full_side in ((range(turn, -1, -1), 0), (range(turn + 1, top + 1), 1)):
        for a in order:
            if stop is not None and stop():
                break
            result = rank_block(a)
            computed.append(result)
            ranks[a] = result["rank"]
            if moments.xp is not np:
                moments.xp.get_default_memory_pool().free_all_blocks()
            if result["rank"] == sizes[a][full_side]:
                for b in (range(a) if full_side == 0 else range(a + 1, top + 1)):
                    ranks[b] = sizes[b][full_side]
                break
    upper = sum(min(r, c) for r, c in sizes) if upper is None else upper
    known = all(ranks.get(a) is not None for a in range(top + 1))
    total = sum(ranks[a] for a in range(top + 1)) if known else None
    return {"rank": total, "upper_bound": upper, "certified_exact": total == upper, "blocks": computed,
            "undecided_blocks": [a for a in range(top + 1) if ranks.get(a) is None], "ranks": ranks}


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--depth", type=int, default=4)
    parser.add_argument("--width", type=int, default=3)
    parser.add_argument("--heads", type=int, default=1)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--tables", help="read the moment tables from this .npz instead of building q")
    parser.add_argument("--save", help="build the tables, write them to this .npz and stop")
    parser.add_argument("--check-depth", type=int, help="first rank this depth (same width) as a check")
    parser.add_argument("--check-width", type=int)
    parser.add_argument("--cpu", action="store_true", help="numpy instead of cupy")
    parser.add_argument("--json", help="write the results here")
    args = parser.parse_args()
    if args.save:
        tables = build_tables(args.depth, args.width, args.heads, args.seed, P)
        np.savez(args.save, *tables)
        print(f"saved {len(tables)} tables of {len(tables[0]):,} entries to {args.save}")
        return
    if args.cpu:
        xp = np
    else:
        import cupy as xp

        props = xp.cuda.runtime.getDeviceProperties(0)
        print(f"GPU {props['name'].decode()}: {xp.cuda.runtime.memGetInfo()[1] / 2**30:.1f} GiB", flush=True)
    results = {}

    def log(line):
        print(line, flush=True)

    def run(depth, width, heads, tables):
        start = time.perf_counter()
        nvars, top = width * (width + 1) // 2, (3**depth - 1) // 2
        moments = DeviceMoments(nvars, top, tables, xp)
        from verify.model.spec import NetworkSpec
        from verify.rank.bound import derivative_bound

        upper = derivative_bound(NetworkSpec(depth=depth, width=width, heads=heads)).total  # the engine's bound
        found = degree_blocks(moments, P, args.seed, log, upper)
        found.update(depth=depth, width=width, heads=heads, prime=P, seed=args.seed,
                     device="cpu (numpy)" if xp is np else "gpu (cupy)", seconds=round(time.perf_counter() - start, 1))
        print(f"depth {depth} width {width} heads {heads}: rank {found['rank']} (upper bound {found['upper_bound']}, "
              f"certified exact {found['certified_exact']}) in {found['seconds']}s", flush=True)
        results[f"{depth},{width},{heads}"] = found
        del moments
        if xp is not np:
            xp.get_default_memory_pool().free_all_blocks()

    if args.check_depth:
        width = args.check_width or args.width
        t = time.perf_counter()
        tables = build_tables(args.check_depth, width, 1, args.seed, P)
        print(f"check spec: q built in {time.perf_counter() - t:.1f}s", flush=True)
        run(args.check_depth, width, 1, tables)
    if args.tables:
        with np.load(args.tables) as data:
            tables = [data[k] for k in sorted(data.files, key=lambda name: int(name.split("_")[1]))]
    else:
        t = time.perf_counter()
        tables = build_tables(args.depth, args.width, args.heads, args.seed, P)
        print(f"q built in {time.perf_counter() - t:.1f}s", flush=True)
    run(args.depth, args.width, args.heads, tables)
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=1))


if __name__ == "__main__":
    main()
