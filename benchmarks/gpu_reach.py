"""One GPU session's worth of measurements (issue 22, part 5), in one call with a time budget.

1. Speed: the block LU of ``gpu_blocklu`` (every flop in a float64 matrix product) ranks an n x n
   random matrix over GF(p) (p = 1,048,573), beside cupy's float64 LU (cuSOLVER getrf) of the same
   matrix and the engine's pivoting elimination (``verify.exact.elimination``) at a smaller size.
   TFLOP/s are (2/3) n^3 over the seconds, for every method.
2. Specs beyond the CPU: the degree blocks of the reduced route (``gpu_depth4``: moment tables
   built with FLINT on the host, blocks gathered on the device), each slice ranked by the block
   LU.  A slice whose rank meets its block's proven bound (``verify.rank.bound``, B1/B3/B4) fixes
   that block's rank exactly, whatever the prime; otherwise the block goes through
   ``gpu_depth4.block_rank`` (slice null space and complement, the engine's elimination).
   The total is a certified lower bound on the generic rank; it is certified exact when it meets
   the proven upper bound.

Everything is written to --out after every stage and every block, so a timeout loses nothing.
Run (GPU): python benchmarks/gpu_reach.py --out gpu_reach.json [--n 40000] [--budget-s 480]
Check (CPU, numpy, small): python benchmarks/gpu_reach.py --cpu --n 600 --specs 3,3,1 4,2,2
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
sys.path.insert(0, str(ROOT / "benchmarks"))

import gpu_blocklu  # noqa: E402
import gpu_depth4  # noqa: E402

#: Slices with at most this many lines get a random line order (the copy doubles their memory).
SHUFFLE_MAX = 40000
#: Schur complements up to this side go to the engine's pivoting elimination (one host round trip
#: per column on a GPU); larger ones to the random projection (a lower bound).
SMALL = 512
P = 1048573  # the engine's default prime: products of inner dimension up to 32,767 are exact in one BLAS call


class Budget:
    def __init__(self, seconds: float):
        self.end = time.perf_counter() + seconds

    def left(self) -> float:
        return self.end - time.perf_counter()


def sync(xp):
    if xp is not np:
        xp.cuda.Device().synchronize()


def speed(xp, n: int, engine_n: int, results: dict, save, budget: Budget, widths=(1024, 2048)) -> None:
    from verify.exact.elimination import rank_mod_p
    from verify.exact.floatmod import ModArith

    ar = ModArith(P, xp)
    flop = 2 / 3 * n**3
    a = xp.random.RandomState(0).randint(0, P, size=(n, n), dtype=xp.int64)  # seeded, on the device
    out = results.setdefault("speed", {"n": n, "prime": P})
    if xp is not np:  # cupy's float64 LU of the same matrix (as floats), the baseline
        from cupyx.scipy.linalg import lu_factor

        f = a.astype(xp.float64)
        lu_factor(f[:2048, :2048].copy())  # warm-up: cuSOLVER handles, kernels
        sync(xp)
        t = time.perf_counter()
        lu_factor(f, overwrite_a=True)
        sync(xp)
        out["cupy_lu_s"] = round(time.perf_counter() - t, 3)
        out["cupy_lu_tflops"] = round(flop / out["cupy_lu_s"] / 1e12, 2)
        del f
        xp.get_default_memory_pool().free_all_blocks()
        save()
    gpu_blocklu._leaf_inverse(np.eye(2), P)  # compile the leaves' Gauss-Jordan (numba) before timing
    for width in widths:
        if budget.left() < 60:
            break
        m = ar.from_ints(a.copy(), overwrite=True)
        sync(xp)
        t = time.perf_counter()
        found = gpu_blocklu.rank(m, ar, width=width, check=True, fallback=lambda s: rank_mod_p(s, P, xp=xp))
        sync(xp)
        s = time.perf_counter() - t
        out[f"block_lu_w{width}"] = {"rank": found["rank"], "pivots": found["pivots"], "seconds": round(s, 3),
                                     "tflops": round(flop / s / 1e12, 2), "checked": True}
        print(f"block LU n={n} width {width}: rank {found['rank']} in {s:.2f}s = {flop / s / 1e12:.2f} TFLOP/s",
              flush=True)
        del m
        if xp is not np:
            xp.get_default_memory_pool().free_all_blocks()
        save()
    del a
    if xp is not np:
        xp.get_default_memory_pool().free_all_blocks()
    if engine_n and budget.left() > 120:  # the engine's pivoting elimination, at a size it finishes
        sub = xp.random.RandomState(1).randint(0, P, size=(engine_n, engine_n), dtype=xp.int64)
        sync(xp)
        t = time.perf_counter()
        r = rank_mod_p(sub, P, xp=xp, overwrite=True)
        sync(xp)
        s = time.perf_counter() - t
        out["engine_pluq"] = {"n": engine_n, "rank": r, "seconds": round(s, 3),
                              "tflops": round(2 / 3 * engine_n**3 / s / 1e12, 2)}
        print(f"engine PLUQ n={engine_n}: rank {r} in {s:.2f}s", flush=True)
        save()


def shuffled_lines(block, pick: np.ndarray, rng: random.Random, chunk: int = 4096):
    """The lines ``pick`` of ``block`` in a random order, columns in a random order too (int64, device):
    block LU without pivoting then sees leading blocks of random rows and columns.  Gathered chunk by
    chunk (``Block.lines`` wants sorted indices), so no second copy of the slice is made."""
    xp = block.m.xp
    take = len(pick)
    order = np.array(rng.sample(range(take), take), dtype=np.int64)
    cols = xp.asarray(np.array(rng.sample(range(block.short), block.short), dtype=np.int64))
    out = xp.empty((take, block.short), dtype=xp.int64)
    for j in range(0, take, chunk):
        src = order[j:j + chunk]
        by = np.argsort(src)
        out[xp.asarray(j + by)] = block.lines(pick[src[by]])[:, cols]
    return out


def fast_block(block, bound: int, p: int, seed: int, log, mix: bool) -> dict | None:
    """The slice of ``block`` ranked by block LU; None unless its rank meets the block's proven bound.

    With ``mix`` the slice S is first multiplied by a seeded random square matrix C on the right
    (rank(S C) <= rank(S), with equality for C invertible): the leading columns of S C are random
    combinations of all of S's, so block LU without pivoting meets S's rank unless a leading
    minor of S C vanishes (Schwartz-Zippel over C).  Whatever happens, the count is a lower bound."""
    from verify.exact.elimination import rank_mod_p
    from verify.exact.floatmod import ModArith

    xp = block.m.xp
    start = time.perf_counter()
    pick = gpu_depth4.slice_pick(block, seed)
    ar = ModArith(p, xp)
    lines = ar.from_ints(shuffled_lines(block, pick, random.Random(f"gpu-order:{seed}:{block.a}")), overwrite=True)
    gathered = time.perf_counter() - start
    lu = gpu_blocklu.BlockLU(ar, seed=seed)
    if mix:
        lines = lu.matmul(lines, lu._random(block.short, block.short))
    found = gpu_blocklu.rank(lines, ar, check=True, fallback=lambda s: rank_mod_p(s, p, xp=xp), small=SMALL,
                             project=2048)
    del lines
    out = {"a": block.a, "rows": block.shape[0], "cols": block.shape[1], "bound": bound, "mixed": mix,
           "slice_rank": found["rank"], "slice_rank_exact": found["exact"], "schur": found["schur"], "pivots": found["pivots"], "gather_s": round(gathered, 1),
           "elimination_s": round(found["seconds"], 1), "method": "block LU"}
    out["seconds"] = round(time.perf_counter() - start, 1)
    log(json.dumps(out))
    if found["rank"] != bound:
        return None
    out["rank"] = bound
    return out


def spec_rank(xp, depth: int, width: int, heads: int, seed: int, entry: dict, save, budget: Budget,
              tables_dir: str | None = None, mix_max: int = 40000, resume: str | None = None) -> None:
    from verify.model.spec import NetworkSpec
    from verify.rank.bound import derivative_bound

    start = time.perf_counter()
    bound = derivative_bound(NetworkSpec(depth=depth, width=width, heads=heads))
    entry.update(depth=depth, width=width, heads=heads, prime=P, seed=seed, upper_bound=bound.total,
                 bound_kind=bound.kind, blocks=[], status="building q")
    save()
    saved = Path(tables_dir or ".") / f"t_{depth}_{width}_{heads}_{P}.npz"
    if tables_dir and saved.exists() and seed == 0:  # built on a CPU machine (benchmarks/gpu_reach.py --save)
        with np.load(saved) as data:
            tables = [data[k] for k in sorted(data.files, key=lambda name: int(name.split("_")[1]))]
        entry["q_from"] = saved.name
    else:
        tables = gpu_depth4.build_tables(depth, width, heads, seed, P)
    entry["q_build_s"] = round(time.perf_counter() - start, 1)
    print(f"depth {depth} width {width} heads {heads}: q built in {entry['q_build_s']}s", flush=True)
    nvars, top = width * (width + 1) // 2, (3**depth - 1) // 2
    moments = gpu_depth4.DeviceMoments(nvars, top, tables, xp)
    per_block = ([b[2] for b in bound.blocks] if bound.blocks else
                 [min(comb(a + nvars - 1, nvars - 1), len(tables) * comb(top - a + nvars - 1, nvars - 1))
                  for a in range(top + 1)])
    entry["status"] = "ranking blocks"
    earlier = {}
    if resume and Path(resume).exists():
        old = json.loads(Path(resume).read_text()).get("specs", {}).get(f"{depth},{width},{heads}", {})
        if old.get("seed") == seed and old.get("prime") == P:
            earlier = {b["a"]: b for b in old.get("blocks", []) if b.get("rank") is not None}

    def log(line):
        print(line, flush=True)

    def rank_block(a: int) -> dict:
        if a in earlier:  # ranked by an earlier run with the same seed and prime
            result = dict(earlier[a], earlier_run=True)
        else:
            block = gpu_depth4.Block(moments, a)
            result = fast_block(block, per_block[a], P, seed, log, mix=False)
            if result is None and block.short <= mix_max:
                result = fast_block(block, per_block[a], P, seed, log, mix=True)
            if result is None:  # below the block's bound: the slice's null space and the complement
                result = gpu_depth4.block_rank(block, P, seed, log)
                result["method"] = "slice + complement (engine elimination)"
        entry["blocks"].append(result)
        save()
        return result

    def out_of_time() -> bool:
        if budget.left() < 20:
            entry["status"] = "out of time"
            return True
        return False

    found = gpu_depth4.degree_blocks(moments, P, seed, log, bound.total, rank_block, out_of_time)
    ranks, total = found["ranks"], found["rank"]
    entry.update(rank=total, certified_exact=found["certified_exact"], seconds=round(time.perf_counter() - start, 1),
                 blocks_below_bound=[a for a in range(top + 1) if ranks.get(a) is not None and ranks[a] < per_block[a]],
                 undecided_blocks=found["undecided_blocks"])
    if entry["status"] != "out of time":
        entry["status"] = "done"
    print(f"depth {depth} width {width} heads {heads}: rank {total} (proven upper bound {bound.total}, certified "
          f"exact {total == bound.total}) in {entry['seconds']}s", flush=True)
    save()


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", default="gpu_reach.json")
    parser.add_argument("--n", type=int, default=40000, help="size of the speed test")
    parser.add_argument("--engine-n", type=int, default=16000, help="size of the engine PLUQ timing (0: skip)")
    parser.add_argument("--specs", nargs="*", default=["6,2,2", "4,3,2", "3,5,1"], help="depth,width,heads")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--budget-s", type=float, default=480)
    parser.add_argument("--tables", help="folder of prebuilt moment tables t_DEPTH_WIDTH_HEADS_PRIME.npz (seed 0)")
    parser.add_argument("--save", help="build the tables of --specs into this folder and stop (a CPU machine)")
    parser.add_argument("--resume", help="reuse the block ranks of this earlier --out (same seed and prime)")
    parser.add_argument("--widths", default="1024,2048", help="block widths of the speed test")
    parser.add_argument("--cpu", action="store_true", help="numpy instead of cupy (a check on small sizes)")
    args = parser.parse_args()
    budget = Budget(args.budget_s)
    if args.save:
        Path(args.save).mkdir(parents=True, exist_ok=True)
        for text in args.specs:
            depth, width, heads = (int(x) for x in text.split(","))
            tables = gpu_depth4.build_tables(depth, width, heads, args.seed, P)
            np.savez(Path(args.save) / f"t_{depth}_{width}_{heads}_{P}.npz", *tables)
        return
    if args.cpu:
        xp = np
        device = "cpu (numpy)"
    else:
        import cupy as xp

        props = xp.cuda.runtime.getDeviceProperties(0)
        device = f"{props['name'].decode()} ({xp.cuda.runtime.memGetInfo()[1] / 2**30:.0f} GiB)"
    results = {"device": device, "prime": P, "budget_s": args.budget_s}
    out = Path(args.out)

    def save():
        out.write_text(json.dumps(results, indent=1))

    print(f"device: {device}", flush=True)
    try:
        if args.n:
            speed(xp, args.n, args.engine_n, results, save, budget, [int(w) for w in args.widths.split(",")])
    except Exception as exc:  # a failed stage is recorded, the next one still runs
        results["speed_error"] = f"{type(exc).__name__}: {exc}"
        print(results["speed_error"], flush=True)
    save()
    for text in args.specs:
        depth, width, heads = (int(x) for x in text.split(","))
        if budget.left() < 30:
            results.setdefault("skipped", []).append(text)
            continue
        entry = results.setdefault("specs", {}).setdefault(text, {})
        try:
            spec_rank(xp, depth, width, heads, args.seed, entry, save, budget, args.tables, resume=args.resume)
        except Exception as exc:
            entry["error"] = f"{type(exc).__name__}: {exc}"
            print(f"{text}: {entry['error']}", flush=True)
        if xp is not np:
            xp.get_default_memory_pool().free_all_blocks()
        save()


if __name__ == "__main__":
    main()
