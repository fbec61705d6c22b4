"""The benchmark scripts refuse bad flags as the ``verify`` command does (issue 50, item 4): one line
``NAME: error: ...`` on stderr, exit status 2, no traceback, nothing written, before any work.  Run as a
user runs them, in a subprocess (no test imports a benchmark script)."""

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"
#: atlas.py has its own tests (tests/cli/test_trial_cases.py); rooms.py passes its arguments to verify
SCRIPTS = sorted(p.name for p in BENCHMARKS.glob("*.py") if p.name not in ("atlas.py",))


def _run(script, *argv, cwd, timeout=120):
    return subprocess.run([sys.executable, str(BENCHMARKS / script), *map(str, argv)], cwd=cwd, capture_output=True,
                          text=True, timeout=timeout)


def _one_line(done, prog, fragment):
    assert done.returncode == 2, (done.returncode, done.stderr[-600:])
    err = done.stderr
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1, err
    assert err.startswith(f"{prog}: error: ") and fragment in err, err


@pytest.mark.parametrize("script", SCRIPTS)
def test_every_script_refuses_an_unknown_flag_in_one_line(script, tmp_path):
    done = _run(script, "--no-such-flag", cwd=tmp_path)
    _one_line(done, "verify" if script == "rooms.py" else script, "--no-such-flag")
    assert list(tmp_path.iterdir()) == []


GPU_REACH = [
    (["--device", "cpu", "--specs", "x"], "--specs 'x' is not three integers depth,width,heads"),
    (["--device", "cpu", "--specs", "0,0,0"], "need 1 <= depth <= 64"),
    (["--device", "cpu", "--specs", "2,4,3"], "heads dividing the width"),
    (["--device", "cpu", "--n", "-5"], "--n must be an integer from 0 to 200,000, got '-5'"),
    (["--device", "cpu", "--budget-s", "-1"], "--budget-s must be a number of seconds above 0"),
    (["--device", "cpu", "--budget-s", "nan"], "--budget-s must be a number of seconds above 0"),
    (["--device", "cpu", "--max-memory-gib", "nan"], "nan would disable the limit"),
    (["--device", "cpu", "--max-memory-gib", "inf"], "infinity would disable the limit"),
    (["--device", "cpu", "--widths", "2,x"], "--widths must be an integer from 1 to 65,536, got 'x'"),
    (["--device", "cpu", "--leaf-width", "-1"], "--leaf-width must be an integer from 0"),
    (["--device", "cpu", "--out", "{tmp}/file/x.json"], "cannot write"),
    (["--device", "cpu", "--out", "{tmp}"], "is a folder"),
    (["--device", "tpu"], "invalid choice: 'tpu'"),
]


@pytest.mark.parametrize("argv, fragment", GPU_REACH, ids=[" ".join(a[2:] or a)[:40] for a, _ in GPU_REACH])
def test_gpu_reach_refuses_bad_flags_before_any_stage(argv, fragment, tmp_path):
    (tmp_path / "file").write_text("not a folder")
    done = _run("gpu_reach.py", *[a.replace("{tmp}", str(tmp_path)) for a in argv], cwd=tmp_path)
    _one_line(done, "gpu_reach.py", fragment)
    assert "device:" not in done.stdout  # no stage began
    assert sorted(p.name for p in tmp_path.iterdir()) == ["file"]


def test_gpu_reach_without_a_gpu_is_one_line_not_a_traceback(tmp_path):
    from verify.exact.device import gpu_device

    if not isinstance(gpu_device(), str):
        pytest.skip("a GPU is present: the default --device gpu runs")
    done = _run("gpu_reach.py", "--out", tmp_path / "g.json", cwd=tmp_path)  # its default is --device gpu
    _one_line(done, "gpu_reach.py", "--device gpu needs cupy and a CUDA device")
    assert list(tmp_path.iterdir()) == []


def test_gpu_reach_in_a_read_only_folder_is_refused_before_any_stage(tmp_path):
    folder = tmp_path / "ro"
    folder.mkdir()
    if os.geteuid() == 0:
        if subprocess.run(["chattr", "+i", str(folder)], capture_output=True).returncode != 0:
            pytest.skip("running as root without chattr +i")
    else:
        folder.chmod(0o555)
    try:
        done = _run("gpu_reach.py", "--device", "cpu", "--out", folder / "g.json", cwd=tmp_path)
    finally:
        subprocess.run(["chattr", "-i", str(folder)], capture_output=True)
        folder.chmod(0o755)
    _one_line(done, "gpu_reach.py", f"--out {folder / 'g.json'}: cannot write in {folder}")
    assert list(folder.iterdir()) == []


def test_gpu_reach_keeps_its_budget_cutting_the_running_stage(tmp_path):
    # the budget counts from the script's start, imports included: measured first on this machine (its load
    # varies), then a budget of that start-up and 3 s more; depth 6 width 2 by the reduced route takes minutes
    # here (depth 5 width 2 now takes under a second, too quick to be cut), so its stage is cut at the budget's end
    # and the next spec skipped
    start = time.perf_counter()
    warm = _run("gpu_reach.py", "--device", "cpu", "--leaf-width", "0", "--n", "0", "--specs", "--out",
                tmp_path / "w.json", cwd=tmp_path)
    startup = time.perf_counter() - start
    assert warm.returncode == 0, warm.stderr[-600:]
    budget = round(startup + 3, 1)
    start = time.perf_counter()
    done = _run("gpu_reach.py", "--device", "cpu", "--leaf-width", "0", "--n", "0", "--specs", "6,2,1", "3,3,1",
                "--budget-s", budget, "--min-stage-s", "1", "--max-memory-gib", "6", "--out", tmp_path / "g.json",
                cwd=tmp_path)
    wall = time.perf_counter() - start
    assert done.returncode == 0, done.stderr[-600:]
    data = json.loads((tmp_path / "g.json").read_text())
    entry = data["specs"]["6,2,1"]
    assert entry["error"].startswith("BudgetSpent") and data["skipped"] == ["3,3,1"], data
    # the stage (timed inside the script) ends by the budget's end, give or take one FLINT or BLAS call
    assert entry["seconds"] <= budget + 3 and wall < budget + 30, (entry["seconds"], wall, budget)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["g.json", "w.json"]  # atomic writes: no temporary left


@pytest.mark.parametrize("script, argv, fragment", [
    ("table.py", ["--depths", "0-3"], "--depths must be integers from 1 to 64, got '0-3'"),
    ("table.py", ["--widths", "-3"], "--widths must be integers from 1 to 1,000"),
    ("reach.py", ["--only", "4,3"], "--only '4,3' is not three integers"),
    ("reach.py", ["--max-memory-gib", "0"], "--max-memory-gib must be a finite number above 0"),
    ("reach.py", ["--out", "{tmp}/file/r.csv"], "cannot write"),
    ("gpu_depth4.py", ["--depth", "0"], "--depth must be an integer from 1 to 64"),
    ("gpu_depth4.py", ["--json", "{tmp}/file/x.json"], "cannot write"),
    ("gpu_blocklu.py", ["--sizes", "4000,"], "is not a comma list of integers"),
    ("small_primes.py", ["--seeds", "0"], "--seeds must be an integer from 1"),
    ("positional_cells.py", ["--ranks", "99"], "--ranks must be an integer from 2 to 16"),
    ("elimination.py", ["--repeat", "0"], "--repeat must be an integer from 1"),
    ("batched_pass.py", ["--numpy-side", "-1"], "--numpy-side must be an integer from 0 to 1,024"),
    ("batched_pass.py", ["--side", "65536"], "--side must be an integer from 1 to 8,192"),
])
def test_each_script_checks_its_flags_values(script, argv, fragment, tmp_path):
    (tmp_path / "file").write_text("not a folder")
    done = _run(script, *[a.replace("{tmp}", str(tmp_path)) for a in argv], cwd=tmp_path)
    if script == "elimination.py" and "install it with" in done.stderr:
        fragment = "install it with pip install -e '.[bench]'"  # no scipy here: refused first, in one line
    _one_line(done, script, fragment)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["file"]


def test_batched_pass_prints_the_passes_and_the_ceilings_on_a_small_cell(tmp_path):
    # the three passes must agree entry for entry (exit 1 otherwise); then the ceilings and the target's multiple
    done = _run("batched_pass.py", "--cell", "3,3,1,1", "--tokens", "4", "--side", "16", "--numpy-side", "4",
                cwd=tmp_path)
    assert done.returncode == 0, done.stderr[-600:]
    out = done.stdout
    assert "the passes agree entry for entry" in out and "today's numpy passes" in out, out
    assert "ceilings, multiply-adds/s on" in out and "int64 loop" in out and "BLAS dgemm" in out, out
    assert "20x the compiled loop is" in out and "x the int64 loop's" in out, out
    # the target's line is read back against the rates and counts printed above it
    import re

    today = float(re.search(r"compiled loop a pair\): ([\d,]+) evaluations/s", out).group(1).replace(",", ""))
    literal = int(re.search(r"batched literal pass: +[\d,]+ evaluations/s \([\d.]+ us each; ([\d,]+) multiply-adds",
                            out).group(1).replace(",", ""))
    target = re.search(r"20x the compiled loop is ([\d,]+) evaluations/s: ([\d.]+) G multiply-adds/s at ([\d,]+) a "
                       r"pair", out)
    rate, need = float(target.group(1).replace(",", "")), float(target.group(2))
    count = int(target.group(3).replace(",", ""))
    # eq. 3's literal pass at (L, d, N, H) = (3, 4, 4, 1): layer 1 d N^2 = 64, layer 2 2 d^2 N + 2 d N^2 = 256,
    # layer 3 d^2 + 2 d N + N = 52
    assert count == literal == 372
    # today's rate is printed rounded to a unit, so 20 x it to within 10
    assert abs(rate - 20 * today) <= 11 and abs(need - rate * count / 1e9) <= 0.051, out
