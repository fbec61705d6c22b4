"""The block LU kernel (``verify.exact.blocklu``) against the engine's float elimination, one device.

Prints, for each size n, the seconds and TFLOP/s ((2/3) n^3 over the seconds) of

* the engine's float64 PLUQ (``verify.exact.elimination.rank_mod_p``: today's float elimination,
  the baseline, in the same run);
* the block LU with its factorization check, each leaf route (``--leaves``);
* on a GPU (``--device gpu``), cupy's float64 LU (cuSOLVER getrf) of the same matrix as floats.

All on an n x n uniform random matrix over GF(p), p = 1,048,573; both ranks must be n.  Writes JSON
with ``--json``.  The CPU target of issue 32: the block LU within 1.5x of the PLUQ at 4000^2 and 8000^2.
Run: python benchmarks/gpu_blocklu.py [--sizes 4000,8000] [--device cpu|gpu] [--json OUT.json]
"""

from __future__ import annotations

import argparse
import json
import time

import numpy as np

from verify.cli.script_args import (  # one-line refusals, exit 2, as the verify command
    ScriptParser,
    int_list,
    output_file,
    run_script,
)
from verify.exact import blocklu
from verify.exact.device import resolve_device
from verify.exact.elimination import rank_mod_p
from verify.exact.floatmod import ModArith
from verify.exact.leaves import default_route
from verify.files import write_output

P = 1048573


def timed(device, fn):
    device.synchronize()
    start = time.perf_counter()
    value = fn()
    device.synchronize()
    return time.perf_counter() - start, value


def measure(device, n: int, widths: list[int], leaves: list[str], baseline: bool = True) -> dict:
    xp = device.xp
    ar = ModArith(P, xp)
    flop = 2 / 3 * n**3
    a = xp.asarray(np.random.default_rng(n).integers(0, P, size=(n, n), dtype=np.int64))
    out = {"n": n, "prime": P, "device": device.describe()}

    def record(name, seconds, rank):
        out[name] = {"seconds": round(seconds, 3), "tflops": round(flop / seconds / 1e12, 3), "rank": rank}
        print(f"n = {n:,} {name}: rank {rank} in {seconds:.2f} s = {flop / seconds / 1e12:.3f} TFLOP/s", flush=True)

    if baseline:
        s, r = timed(device, lambda: rank_mod_p(a, P, xp=xp))
        record("float_pluq", s, r)
    if xp is not np:  # cuSOLVER's float64 LU of the same matrix, as floats
        from cupyx.scipy.linalg import lu_factor

        f = a.astype(xp.float64)
        lu_factor(f[:1024, :1024].copy())  # warm-up
        s, _ = timed(device, lambda: lu_factor(f, overwrite_a=True))
        record("cusolver_lu_float64", s, None)
        del f
        device.free()
    blocklu.leaf_inverse(np.eye(2), P)  # compile the host leaf before timing
    for leaf in leaves:
        for width in widths:
            m = ar.from_ints(a.copy(), overwrite=True)
            s, found = timed(device, lambda m=m, width=width, leaf=leaf: blocklu.rank(m, ar, width=width, leaf=leaf))
            record(f"block_lu_{leaf}_w{width}", s, found["rank"])
            del m
            device.free()
    best = min(v["seconds"] for k, v in out.items() if k.startswith("block_lu"))
    if baseline:
        out["block_lu_over_pluq"] = round(best / out["float_pluq"]["seconds"], 2)
        print(f"n = {n:,}: best block LU / float PLUQ = {out['block_lu_over_pluq']}", flush=True)
    if "cusolver_lu_float64" in out:  # the GPU target: >= 15 TFLOP/s at 40,000^2, cuSOLVER beside it
        out["block_lu_over_cusolver"] = round(best / out["cusolver_lu_float64"]["seconds"], 2)
        out["speed_vs_cusolver"] = round(out["cusolver_lu_float64"]["seconds"] / best, 3)  # target >= 0.5
        print(f"n = {n:,}: best block LU {flop / best / 1e12:.3f} TFLOP/s (target 15); block LU / cuSOLVER "
              f"float64 LU = {out['block_lu_over_cusolver']} in seconds, {out['speed_vs_cusolver']}x cuSOLVER's "
              f"speed (target 0.5)", flush=True)
    return out


def main():
    parser = ScriptParser(prog="gpu_blocklu.py", description=__doc__,
                          formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", type=int_list("--sizes", 1, 200_000), default=[4000])
    parser.add_argument("--widths", type=int_list("--widths", 1, 65536), default=[1024])
    parser.add_argument("--leaves", default=None, help="kernel,host,array (default: the device's own)")
    parser.add_argument("--device", default="cpu", choices=["cpu", "gpu"])
    parser.add_argument("--no-baseline", action="store_true", help="skip the float PLUQ (e.g. at 40,000^2 on a GPU)")
    parser.add_argument("--json")
    args = parser.parse_args()
    output_file(args.json, "--json")
    device = resolve_device(args.device)
    leaves = args.leaves.split(",") if args.leaves else [default_route(device.xp)]
    results = [measure(device, n, args.widths, leaves, not args.no_baseline) for n in args.sizes]
    if args.json:
        write_output(args.json, json.dumps(results, indent=1))


if __name__ == "__main__":
    run_script(main, "gpu_blocklu.py")
