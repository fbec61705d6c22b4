"""Every GPU figure of issues 32 and 40, in one call with a time budget: a thin driver over the engine.

0. Leaves: each leaf route of the block LU (``verify.exact.leaves.ROUTES``: one kernel a leaf, the host
   leaf, the array leaf) inverts the same 2,048-wide diagonal block; the fastest is the winner, written
   with the device and the date as the two lines to put in ``verify/exact/tuning.py`` (``LEAF_ROUTE``,
   ``LEAF_ROUTE_MEASURED``), and used by the stages below.
1. Speed: ``gpu_blocklu.measure`` (the engine's block LU, ``verify.exact.blocklu``, with the winning
   leaf) on an n x n random matrix over GF(1,048,573), beside cuSOLVER's float64 LU of the same matrix
   in the same run.  Targets (issue 40): >= 15 TFLOP/s and >= 0.5x cuSOLVER at n = 40,000.
2. Reach: ``verify.separation_rank(spec, device="gpu")`` (``verify sep --device gpu``) for each spec;
   the rank, its certainty and the seconds, and each degree block as it finishes (its plan and its
   seconds split into gather, products, leaves and check).  Targets: depth 4 width 3 = 679,581 certified
   exact in < 5 min; depth 6 width 2 two heads = 2,667,957 within two calls (resuming from --store);
   depth 4 width 3 three heads and depth 3 width 5: their ranks, with certainty.

Everything goes to --out (JSON, written atomically) after every stage and every finished degree block,
so a cut-off run says where the time went; a stage that fails is recorded and the next one runs.
``--cpu-smoke`` runs the GPU code path of this very script on the CPU, under
``verify.testing.fake_cupy`` (cupy's host/device rules on numpy; cuSOLVER's LU and the leaf kernel's
launch by stand-ins) at tiny sizes: a check that the script runs, not a figure
(tests/exact/test_gpu_reach.py runs it in CI).  ``--device cpu`` runs the driver with numpy.
``--store PATH`` keeps each finished degree block (``verify.api.block_store``, as ``verify sep
--store``): a spec cut off by the time limit resumes where it stopped in the next call with the same
store (put it under $OUT so that it comes back, and carry it into the next call).
Run (GPU, one call of at most 8 minutes):
  python benchmarks/gpu_reach.py --out $OUT/gpu_reach.json --store $OUT/blocks.sqlite
"""

from __future__ import annotations

import argparse
import contextlib
import json
import signal
import sys
import time
from pathlib import Path

START = time.perf_counter()  # the budget counts from here: the imports below are part of the call
sys.path.insert(0, str(Path(__file__).resolve().parent))

import gpu_blocklu  # noqa: E402  (a sibling driver: the speed stage)
import numpy as np  # noqa: E402

from verify import NetworkSpec, api, separation_rank  # noqa: E402
from verify.cli.script_args import (  # noqa: E402
    ScriptParser,
    count,
    int_list,
    memory,
    output_file,
    run_script,
    seconds,
    spec_triple,
)
from verify.errors import InputError  # noqa: E402
from verify.exact import blocklu, leaves, tuning  # noqa: E402
from verify.exact.device import resolve_device  # noqa: E402
from verify.exact.floatmod import ModArith  # noqa: E402
from verify.files import write_output  # noqa: E402
from verify.testing import fake_cupy  # noqa: E402

#: A stage (leaf routes, speed, one spec) starts only with at least this many seconds of the budget left
#: (``--min-stage-s``); a stage still running when the budget is spent is cut there (``_Budget``).
MIN_STAGE_S = 30.0


def parse(argv=None):
    """The flags, each checked as the ``verify`` command checks its own, and --out checked writable: all before any
    work (one line and exit 2 on a refusal, by ``script_args.run_script``)."""
    parser = ScriptParser(prog="gpu_reach.py", description=__doc__,
                          formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", default="gpu_reach.json", help="the JSON written after every stage")
    parser.add_argument("--n", type=count("--n", 0, 200_000), default=40000, help="size of the speed test (0: skip)")
    parser.add_argument("--widths", type=int_list("--widths", 1, 65536), default=[2048],
                        help="block widths of the speed test")
    parser.add_argument("--leaf-width", type=count("--leaf-width", 0, 65536), default=2048,
                        help="width of the diagonal block the leaf stage inverts (0: skip the stage)")
    parser.add_argument("--specs", nargs="*", type=spec_triple("--specs"),
                        default=[(4, 3, 1), (6, 2, 2), (4, 3, 3), (3, 5, 1)], help="depth,width,heads")
    parser.add_argument("--device", default="gpu", choices=["gpu", "cpu"])
    parser.add_argument("--budget-s", type=seconds("--budget-s"), default=460,
                        help="the whole call's time: a stage running when it is spent is cut there")
    parser.add_argument("--min-stage-s", type=seconds("--min-stage-s"), default=MIN_STAGE_S,
                        help="skip a stage once less than this is left (default 30)")
    parser.add_argument("--max-memory-gib", type=memory(), default=120.0,
                        help="the host's limit for q and the slices")
    parser.add_argument("--store", help="results store keeping each finished degree block (a cut-off spec resumes)")
    parser.add_argument("--cpu-smoke", action="store_true",
                        help="the GPU code path on the CPU under the strict fake cupy, at tiny sizes (no figure)")
    args = parser.parse_args(argv)
    output_file(args.out, "--out")
    if args.store is not None and not args.store.strip():
        raise InputError("--store '' is an empty path; give a file name, e.g. --store blocks.sqlite")
    return args


def main():
    args = parse()
    with contextlib.ExitStack() as stack:
        if args.cpu_smoke:
            stack.enter_context(fake_cupy.install())  # ``import cupy`` in the device loader finds the stand-in
            tuning.GPU_MIN = 256  # so that the degree blocks of depth 3 width 3 take the block LU
            args.n, args.widths, args.specs, args.device = min(args.n, 320), [256], [(2, 2, 1), (3, 3, 1)], "gpu"
            args.leaf_width = 256
        run(args)


class BudgetSpent(Exception):
    """Raised in the running stage when --budget-s is spent (by SIGALRM)."""


class _Budget:
    """The call's deadline, counted from the script's start: ``left()`` seconds, and an alarm that cuts a stage
    still running at the deadline, so the script ends within its budget whatever a stage costs (the alarm acts
    at the stage's next Python step: one long BLAS or FLINT call, e.g. the speed stage's PLUQ, ends first)."""

    def __init__(self, total: float, start: float):
        self.end = start + total

    def left(self) -> float:
        return self.end - time.perf_counter()

    @contextlib.contextmanager
    def cut(self):
        def spent(signum, frame):
            raise BudgetSpent("--budget-s spent: the stage was cut there")
        previous = signal.signal(signal.SIGALRM, spent)
        signal.setitimer(signal.ITIMER_REAL, max(self.left(), 0.001))
        try:
            yield
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, previous)


def leaf_stage(device, width: int, repeats: int = 3) -> dict:
    """Seconds (best of ``repeats``) of each leaf route inverting one width x width diagonal block."""
    ar = ModArith(gpu_blocklu.P, device.xp)
    block = ar.from_ints(device.xp.asarray(np.random.default_rng(width).integers(0, gpu_blocklu.P, (width, width))))
    seconds = {}
    for route in leaves.ROUTES:
        if route == "kernel" and device.is_gpu and not (leaves.cuda_available() or hasattr(device.xp, "host_kernel")):
            seconds[route] = None  # numba-cuda is not installed: pip install 'seprank-verify[gpu-cuda12]'
            continue
        lu = blocklu.BlockLU(ar, width, leaf=route)
        lu.inverse(block)  # compile / warm up
        best = None
        for _ in range(repeats):
            took, inverse = gpu_blocklu.timed(device, lambda lu=lu: lu.inverse(block))
            assert inverse is not None, "a uniform random block is invertible"
            best = took if best is None else min(best, took)
        seconds[route] = round(best, 5)
        print(f"leaf route {route}: {width}-wide diagonal block inverted in {best:.4f} s", flush=True)
    return seconds


def _winner(seconds: dict, device) -> dict:
    route = min((r for r in seconds if seconds[r] is not None), key=seconds.get)
    measured = {"device": device.describe(), "date": time.strftime("%Y-%m-%d"), "seconds": seconds}
    return {"route": route, **measured,
            "tuning_lines": f"LEAF_ROUTE: str | None = {route!r}\nLEAF_ROUTE_MEASURED: dict | None = {measured!r}"}


class _Keeper:
    """``resume`` for ``separation_rank`` that also writes each finished degree block into the JSON at once
    (wrapping the store's keeper where --store is given, else keeping nothing)."""

    def __init__(self, inner, entry: dict, save):
        self.inner, self.entry, self.save = inner, entry, save

    def __call__(self, field: str, seed: int, weight_range: int):
        rows = None if self.inner is None else self.inner(field, seed, weight_range)
        keeper = self

        class Rows:
            def get(self, a, alone):
                found = None if rows is None else rows.get(a, alone)
                if found is not None:
                    keeper._block(field, a, found, None, resumed=True)
                return found

            def put(self, a, alone, value, seconds):
                if rows is not None:
                    rows.put(a, alone, value, seconds)
                keeper._block(field, a, value, seconds)
        return Rows()

    def _block(self, field, a, value, seconds, resumed=False):
        self.entry.setdefault("blocks", []).append({
            "field": field, "degree": a, "rank": value.get("rank"), "rows": value.get("rows"),
            "cols": value.get("cols"),
            "elimination": value.get("elimination"), "plan": value.get("plan"), "phases": value.get("seconds"),
            "seconds": None if seconds is None else round(seconds, 3), "resumed": resumed})
        self.save()


# over 80 lines: the driver's stages in order (leaves, speed, each spec), each recorded and saved as it ends
def run(args):
    budget = _Budget(args.budget_s, START)
    device = resolve_device(args.device)  # no GPU: one line, exit 2, before any stage
    results = {"device": device.describe(), "budget_s": args.budget_s, "cpu_smoke": args.cpu_smoke}

    def save():  # atomic: a cut-off call leaves the last whole JSON
        write_output(args.out, json.dumps(results, indent=1))

    def stage(name: str) -> bool:
        if budget.left() >= args.min_stage_s:
            return True
        results.setdefault("skipped", []).append(name)
        return False

    print(f"device: {results['device']}", flush=True)
    leaf = leaves.default_route(device.xp)
    if args.leaf_width and stage("leaf routes"):
        try:
            with budget.cut():
                results["leaf_routes"] = leaf_stage(device, args.leaf_width)
            results["leaf_winner"] = _winner(results["leaf_routes"], device)
            leaf = results["leaf_winner"]["route"]
            tuning.LEAF_ROUTE = leaf  # this process's later stages use the measured winner
            print(f"leaf winner: {leaf}; for verify/exact/tuning.py:\n{results['leaf_winner']['tuning_lines']}",
                  flush=True)
        except Exception as exc:  # a failed stage is recorded, the next one still runs
            results["leaf_error"] = f"{type(exc).__name__}: {exc}"
            print(results["leaf_error"], flush=True)
        device.free()
        save()
    if args.n and stage("speed"):
        try:
            with budget.cut():
                results["speed"] = gpu_blocklu.measure(device, args.n, args.widths, [leaf], baseline=not device.is_gpu)
        except Exception as exc:
            results["speed_error"] = f"{type(exc).__name__}: {exc}"
            print(results["speed_error"], flush=True)
        device.free()
        save()
    for depth, width, heads in args.specs:
        text = f"{depth},{width},{heads}"
        if not stage(text):
            continue
        start = time.perf_counter()
        entry = results.setdefault("specs", {}).setdefault(text, {})
        spec = NetworkSpec(depth=depth, width=width, heads=heads)
        try:
            with budget.cut():
                entry["plan"] = api.plan_separation_rank(spec, device=args.device,
                                                         max_memory_gib=args.max_memory_gib).as_dict()
                save()
                with (api.block_store(args.store, spec) if args.store else contextlib.nullcontext()) as stored:
                    found = separation_rank(spec, method="reduced", device=args.device,
                                            max_memory_gib=args.max_memory_gib, max_runs=1,
                                            resume=_Keeper(stored, entry, save))
            data = found.as_dict()
            entry.update(rank=data["rank"], certified_exact=data["certified_exact"],
                         probability_bound=data["probability_bound"], upper_bound=data.get("upper_bound"),
                         field=data["field"], notes=data["notes"],
                         eliminations=sorted({b.elimination for b in found.blocks if b.elimination}))
        except Exception as exc:
            entry["error"] = f"{type(exc).__name__}: {exc}"
        entry["seconds"] = round(time.perf_counter() - start, 1)
        print(f"depth {depth} width {width} heads {heads}: rank {entry.get('rank')} certified "
              f"{entry.get('certified_exact')} in {entry['seconds']} s {entry.get('error', '')}", flush=True)
        device.free()
        save()
    save()  # the stages skipped for want of time are listed too


if __name__ == "__main__":
    run_script(main, "gpu_reach.py")
