"""Every GPU figure of issue 32, in one call with a time budget: a thin driver over the engine.

1. Speed: ``gpu_blocklu.measure`` (the engine's block LU kernel, ``verify.exact.blocklu``) on an
   n x n random matrix over GF(1,048,573), beside cuSOLVER's float64 LU of the same matrix in the
   same run (target: >= 15 TFLOP/s at n = 40,000).
2. Reach: ``verify.separation_rank(spec, device="gpu")`` (``verify sep --device gpu``) for each
   spec; the rank, its certainty (certified exact when it meets the proven upper bound) and the
   seconds.  Targets: depth 4 width 3 = 679,581 certified exact in < 5 min; depth 6 width 2 two
   heads = 2,667,957 in < 20 min; depth 4 width 3 three heads and depth 3 width 5: their ranks.

Everything goes to --out (JSON) after every stage, so a timeout loses nothing; a stage that fails
is recorded and the next one runs.  ``--cpu-smoke`` runs the GPU code path of this very script on
the CPU, under ``verify.exact.fake_cupy`` (cupy's host/device rules on numpy; cuSOLVER's LU by a
stand-in) at tiny sizes: a check that the script runs, not a figure (tests/exact/test_gpu_reach.py
runs it in CI).  ``--device cpu`` runs the driver with numpy (the compiled leaf, the float PLUQ).
``--store PATH`` keeps each finished degree block (``verify.api.block_store``, as ``verify sep
--store``): a spec cut off by the time limit resumes where it stopped in the next call with the same
store (put it under $OUT so that it comes back, and carry it into the next call).
Run (GPU, <= 8 minutes): python benchmarks/gpu_reach.py --out gpu_reach.json [--store $OUT/blocks.sqlite]
"""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import gpu_blocklu  # noqa: E402  (a sibling driver: the speed stage)

from verify import NetworkSpec, api, separation_rank  # noqa: E402
from verify.exact import fake_cupy, kernels  # noqa: E402
from verify.exact.device import resolve_device  # noqa: E402


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", default="gpu_reach.json")
    parser.add_argument("--n", type=int, default=40000, help="size of the speed test (0: skip)")
    parser.add_argument("--widths", default="2048", help="block widths of the speed test")
    parser.add_argument("--specs", nargs="*", default=["4,3,1", "6,2,2", "4,3,3", "3,5,1"], help="depth,width,heads")
    parser.add_argument("--device", default="gpu", choices=["gpu", "cpu"])
    parser.add_argument("--budget-s", type=float, default=460, help="skip a stage once less than 30 s is left")
    parser.add_argument("--max-memory-gib", type=float, default=120.0, help="the host's limit for q and the slices")
    parser.add_argument("--store", help="results store keeping each finished degree block (a cut-off spec resumes)")
    parser.add_argument("--cpu-smoke", action="store_true",
                        help="the GPU code path on the CPU under the strict fake cupy, at tiny sizes (no figure)")
    args = parser.parse_args()
    with contextlib.ExitStack() as stack:
        if args.cpu_smoke:
            stack.enter_context(fake_cupy.install())  # ``import cupy`` in the device loader finds the stand-in
            kernels.GPU_MIN = 256  # so that the degree blocks of depth 3 width 3 take the block LU
            args.n, args.widths, args.specs, args.device = min(args.n, 320), "256", ["2,2,1", "3,3,1"], "gpu"
        run(args)


def run(args):
    end = time.perf_counter() + args.budget_s
    device = resolve_device(args.device)
    results = {"device": device.describe(), "budget_s": args.budget_s, "cpu_smoke": args.cpu_smoke}
    out = Path(args.out)

    def save():
        tmp = out.with_suffix(".tmp")
        tmp.write_text(json.dumps(results, indent=1))
        tmp.replace(out)

    print(f"device: {results['device']}", flush=True)
    if args.n:
        try:
            results["speed"] = gpu_blocklu.measure(device, args.n, [int(w) for w in args.widths.split(",")],
                                                   ["array"] if device.is_gpu else ["compiled"],
                                                   baseline=not device.is_gpu)
        except Exception as exc:  # a failed stage is recorded, the next one still runs
            results["speed_error"] = f"{type(exc).__name__}: {exc}"
            print(results["speed_error"], flush=True)
        device.free()
        save()
    for text in args.specs:
        if end - time.perf_counter() < 30:
            results.setdefault("skipped", []).append(text)
            continue
        depth, width, heads = (int(x) for x in text.split(","))
        start = time.perf_counter()
        entry = results.setdefault("specs", {}).setdefault(text, {})
        spec = NetworkSpec(depth=depth, width=width, heads=heads)
        try:
            with (api.block_store(args.store, spec) if args.store else contextlib.nullcontext()) as resume:
                found = separation_rank(spec, method="reduced", device=args.device,
                                        max_memory_gib=args.max_memory_gib, max_runs=1, resume=resume)
            data = found.as_dict()
            entry.update(rank=data["rank"], certified_exact=data["certified_exact"],
                         probability_bound=data["probability_bound"], upper_bound=data.get("upper_bound"),
                         field=data["field"], notes=data["notes"],
                         eliminations=sorted({b.elimination for b in found.blocks if b.elimination}))
        except Exception as exc:
            entry["error"] = f"{type(exc).__name__}: {exc}"
        entry["seconds"] = round(time.perf_counter() - start, 1)
        print(f"depth {depth} width {width} heads {heads}: {entry}", flush=True)
        device.free()
        save()


if __name__ == "__main__":
    main()
