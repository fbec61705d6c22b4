"""benchmarks/gpu_reach.py, the one prepared device script, runs: ``--cpu-smoke`` takes its GPU code
path on the CPU under the strict fake cupy (verify.exact.fake_cupy) at tiny sizes, so the script cannot
rot between device sessions.  Run as a subprocess, as on the device: no test imports a benchmark."""

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_gpu_reach_runs_its_gpu_path_with_every_figure(tmp_path):
    out = tmp_path / "reach.json"
    done = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "gpu_reach.py"), "--cpu-smoke", "--out", str(out)],
                          capture_output=True, text=True, timeout=300, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    data = json.loads(out.read_text())
    assert data["cpu_smoke"] and data["device"].startswith("gpu: fake cupy")
    speed = data["speed"]
    assert "speed_error" not in data
    assert speed["cusolver_lu_float64"]["seconds"] > 0  # the float64 LU baseline, in the same run
    assert speed["block_lu_array_w256"]["rank"] == speed["n"] == 320  # a uniform random matrix: full rank
    assert "block_lu_over_cusolver" in speed and "TFLOP/s (target 15)" in done.stdout
    # the reach stage through verify.separation_rank(device="gpu"): 18 is the degree-block count of depth 2
    # width 2 (verify.separation_rank's example), 3,102 the README's reach row for depth 3 width 3; both certified
    specs = data["specs"]
    assert (specs["2,2,1"]["rank"], specs["2,2,1"]["certified_exact"]) == (18, True)
    assert (specs["3,3,1"]["rank"], specs["3,3,1"]["upper_bound"], specs["3,3,1"]["certified_exact"]) == (3102, 3102, True)
    assert specs["3,3,1"]["eliminations"] == ["float64-block-lu"]  # the device kernel ran
    assert all("error" not in entry for entry in specs.values())
