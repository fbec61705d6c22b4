"""The float64 elimination over GF(p) on a GPU (cupy) against the same code on the CPU (numpy).

1. Timings: random n x n matrices (default n = 8000 and 16000) with entries in [0, p), p = 8388593
   (one limb), ranked on the GPU and, up to --cpu-max, on the CPU; a rank-deficient product
   (rank n - 100) checks that the GPU finds the same rank as the CPU.
2. The memory estimate of depth 4, width 3 (blocks about 80,000 wide); its rank is computed by
   ``benchmarks/gpu_depth4.py``, which gathers the blocks on the device.

It imports ``verify.exact.elimination`` and ``verify.exact.floatmod`` directly (numpy, cupy), never python-flint.
Run: python benchmarks/gpu_rank.py [--sizes 8000,16000] [--cpu-max 8000]
"""

from __future__ import annotations

import argparse
import time
from math import comb
from pathlib import Path

import numpy as np

from verify.cli.script_args import (  # one-line refusals, exit 2, as the verify command
    ScriptParser,
    count,
    int_list,
    run_script,
)

ROOT = Path(__file__).resolve().parent.parent
P = 8388593


def exact_modules():
    """verify.exact.elimination and .floatmod: importing them loads no python-flint (``verify``'s public
    names load lazily), so this script runs where only numpy and cupy are installed."""
    from verify.exact import elimination, floatmod
    return elimination, floatmod


def timed(fn, sync=None):
    start = time.perf_counter()
    value = fn()
    if sync:
        sync()
    return time.perf_counter() - start, value


def depth4_estimate(width: int = 3, depth: int = 4, heads_components: int = 3) -> dict:
    """Largest degree-block slice of depth 4, width 3 and the memory the GPU path holds at once."""
    n, c = width * (width + 1) // 2, (3**depth - 1) // 2
    sizes = [(comb(a + n - 1, n - 1), heads_components * comb(c - a + n - 1, n - 1)) for a in range(c + 1)]
    short = max(min(r, k) for r, k in sizes)
    long = max(max(r, k) for r, k in sizes if min(r, k) == short)
    device = short * (short + 32) * 8 + 4 * 2**24 * 8  # float64 slice + product tiles
    host = short * (short + 32) * 8  # the int64 slice, gathered in place (copied to the device in bands)
    return {"short": short, "long": long, "device_gib": device / 2**30, "host_gib": host / 2**30}


def main():
    parser = ScriptParser(prog="gpu_rank.py", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", type=int_list("--sizes", 1, 200_000), default=[8000, 16000])
    parser.add_argument("--cpu-max", type=count("--cpu-max", 0, 200_000), default=8000,
                        help="largest n also timed on the CPU")
    args = parser.parse_args()
    elimination, floatmod = exact_modules()
    import cupy

    props = cupy.cuda.runtime.getDeviceProperties(0)
    free, total = cupy.cuda.runtime.memGetInfo()
    print(f"GPU {props['name'].decode()}: {total / 2**30:.1f} GiB, {free / 2**30:.1f} GiB free", flush=True)
    sync = cupy.cuda.Device().synchronize
    elimination.rank_mod_p(np.eye(300, dtype=np.int64), P, xp=cupy)  # compile the kernels once
    rng = np.random.default_rng(0)
    for n in map(int, args.sizes.split(",")):
        full = rng.integers(0, P, (n, n))
        t_gpu, r_gpu = timed(lambda full=full: elimination.rank_mod_p(full, P, xp=cupy), sync)
        line = f"{n}^2 random: GPU {t_gpu:.1f}s rank {r_gpu}"
        if n <= args.cpu_max:
            t_cpu, r_cpu = timed(lambda full=full: elimination.rank_mod_p(full, P, xp=np))
            line += f"; CPU {t_cpu:.1f}s rank {r_cpu}; speed-up {t_cpu / t_gpu:.1f}x"
        print(line, flush=True)
        del full
        ar = floatmod.ModArith(P, cupy)
        left = ar.from_ints(rng.integers(0, P, (n, n - 100)))
        right = ar.from_ints(rng.integers(0, P, (n - 100, n)))
        product = cupy.zeros((n, n))
        ar.submul(product, left, right)  # -(left @ right) mod p: rank n - 100 unless a minor vanishes
        deficient = cupy.asnumpy(ar.to_ints(product))
        del left, right, product
        t_gpu, r_gpu = timed(lambda deficient=deficient: elimination.rank_mod_p(deficient, P, xp=cupy), sync)
        line = f"{n}^2 rank-{n - 100} product: GPU {t_gpu:.1f}s rank {r_gpu}"
        if n <= args.cpu_max:
            r_cpu = elimination.rank_mod_p(deficient, P, xp=np)
            line += f"; CPU rank {r_cpu} ({'agree' if r_cpu == r_gpu else 'DISAGREE'})"
        print(line, flush=True)
        del deficient
        cupy.get_default_memory_pool().free_all_blocks()
    estimate = depth4_estimate()
    free, _ = cupy.cuda.runtime.memGetInfo()
    print(f"depth 4 width 3: largest slice {estimate['short']:,} x {estimate['short'] + 32:,} "
          f"(block {estimate['short']:,} x {estimate['long']:,}); the GPU holds about {estimate['device_gib']:.1f} GiB "
          f"({'fits' if estimate['device_gib'] < free / 2**30 else 'does NOT fit'} in {free / 2**30:.1f} GiB free); "
          f"its rank: benchmarks/gpu_depth4.py", flush=True)


if __name__ == "__main__":
    run_script(main, "gpu_rank.py")
