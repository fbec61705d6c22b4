"""benchmarks/gpu_reach.py, the one prepared device script, runs: ``--cpu-smoke`` takes its GPU code
path on the CPU under the strict fake cupy (verify.testing.fake_cupy) at tiny sizes, so the script cannot
rot between device sessions.  Run as a subprocess, as on the device: no test imports a benchmark."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _smoke(tmp_path, *extra):
    out = tmp_path / "reach.json"
    done = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "gpu_reach.py"), "--cpu-smoke", "--out", str(out),
                           *extra], capture_output=True, text=True, timeout=300, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    return done, json.loads(out.read_text())


def test_gpu_reach_runs_its_gpu_path_with_every_figure(tmp_path):
    done, data = _smoke(tmp_path)
    assert data["cpu_smoke"] and data["device"].startswith("gpu: fake cupy")
    speed = data["speed"]
    assert "speed_error" not in data
    assert speed["cusolver_lu_float64"]["seconds"] > 0  # the float64 LU baseline, in the same run
    winner = data["leaf_winner"]["route"]  # every leaf route was timed, the fastest used for the speed stage
    assert set(data["leaf_routes"]) == {"kernel", "host", "array"} and winner in data["leaf_routes"]
    assert "LEAF_ROUTE: str | None = " in data["leaf_winner"]["tuning_lines"] and data["leaf_winner"]["date"]
    assert speed[f"block_lu_{winner}_w256"]["rank"] == speed["n"] == 320  # a uniform random matrix: full rank
    assert "block_lu_over_cusolver" in speed and "TFLOP/s (target 15)" in done.stdout
    # the reach stage through verify.separation_rank(device="gpu"): 18 is the degree-block count of depth 2
    # width 2 (verify.separation_rank's example), 3,102 the README's reach row for depth 3 width 3; both certified
    specs = data["specs"]
    assert (specs["2,2,1"]["rank"], specs["2,2,1"]["certified_exact"]) == (18, True)
    assert ((specs["3,3,1"]["rank"], specs["3,3,1"]["upper_bound"], specs["3,3,1"]["certified_exact"])
            == (3102, 3102, True))
    assert specs["3,3,1"]["eliminations"] == ["float64-block-lu"]  # the device kernel ran
    assert all("error" not in entry for entry in specs.values())
    # each finished degree block went to the JSON as it finished, with its plan and its seconds by phase
    blocks = specs["3,3,1"]["blocks"]
    assert blocks and all(set(b["phases"]) == {"gather", "products", "leaves", "check"} for b in blocks)
    assert specs["3,3,1"]["plan"]["device"] == "gpu" and any(b["plan"]["kernel"] == "float64-block-lu" for b in blocks)


@pytest.mark.slow  # two more runs of the script (about 12 s); the store's resuming is tests/rank/test_block_resume.py's
def test_gpu_reach_keeps_its_blocks_in_a_store_and_a_second_call_reads_them(tmp_path):
    from verify.sweeps.block_rows import BLOCK_KIND
    from verify.sweeps.store import Store

    store = tmp_path / "blocks.sqlite"
    _, first = _smoke(tmp_path, "--store", str(store), "--n", "0")
    with Store(store) as kept:
        rows = [r for r in kept.rows() if r["kind"] == BLOCK_KIND]
    assert len(rows) >= 4  # the ranked blocks of both specs
    _, second = _smoke(tmp_path, "--store", str(store), "--n", "0")
    for spec in ("2,2,1", "3,3,1"):
        assert {k: v for k, v in second["specs"][spec].items() if k not in ("seconds", "blocks")} == \
            {k: v for k, v in first["specs"][spec].items() if k not in ("seconds", "blocks")}
        # the second call computed nothing: every block it reports was read back from the store
        assert all(b["resumed"] for b in second["specs"][spec]["blocks"])
        degrees = [[b["degree"] for b in call["specs"][spec]["blocks"]] for call in (first, second)]
        assert degrees[0] == degrees[1]
