"""The results store, sweeps through executors (local processes and Dask), resume after a kill."""

import json
import os
import signal
import subprocess
import sys
import textwrap

import pytest

from verify import NetworkSpec
from verify.cli.main import main
from verify.sweeps.executor import run_sweep
from verify.sweeps.store import Store, Task, export_csv
from verify.sweeps.table import sep_task, table_specs

FIELD = "gf:9223372036854775783"


def _tasks():
    return [sep_task(spec, FIELD, 0, 16.0) for spec in table_specs([1, 2], [2, 3])]


def test_store_round_trip_keeps_value_and_misses_on_any_other_key(tmp_path):
    path = tmp_path / "s.sqlite"
    task = Task("sep", NetworkSpec(depth=2, width=3, heads=3), "reduced", FIELD, 0, (("max_memory_gib", 16.0),))
    with Store(path) as store:
        assert store.get(task) is None
        store.put(task, {"rank": 43, "note": "x"}, 1.5)
    with Store(path) as store:  # a new connection sees the committed row
        assert store.get(task) == {"rank": 43, "note": "x"}
        for other in (Task("sep", task.spec, "reduced", FIELD, 1, task.params),
                      Task("sep", NetworkSpec(depth=2, width=3, heads=1), "reduced", FIELD, 0, task.params),
                      Task("sep", task.spec, "reduced", "gf:101", 0, task.params),
                      Task("sep", task.spec, "coefficients", FIELD, 0, task.params)):
            assert store.get(other) is None
        rows = store.rows()
    assert len(rows) == 1 and rows[0]["spec"]["heads"] == 3 and rows[0]["value"]["rank"] == 43
    assert "value.rank" in export_csv(rows).splitlines()[0]
    assert Store(None).get(task) is None  # --no-store: nothing kept


def test_repeated_sweep_reuses_every_stored_result(tmp_path):
    with Store(tmp_path / "s.sqlite") as store:
        first, stats1 = run_sweep(_tasks(), store, workers=1)
        second, stats2 = run_sweep(_tasks(), store, workers=1)
    assert stats1.computed == len(_tasks()) and stats2.computed == 0 and stats2.reused == len(_tasks())
    assert [v["rank"] for v in first] == [v["rank"] for v in second]
    # an independent route: one layer, sep = 1 + min(d_x, H d_a) = 1 + d_x
    assert [v["rank"] for v, t in zip(first, _tasks(), strict=False) if t.spec.depth == 1] == [3, 3, 4, 4]


KILLER = textwrap.dedent("""
    import os, signal, sys
    from verify.sweeps.store import Store
    from verify.sweeps.executor import run_sweep
    from verify.sweeps.table import sep_task, table_specs
    tasks = [sep_task(s, sys.argv[2], 0, 16.0) for s in table_specs([1, 2], [2, 3])]
    def progress(done, total, reused, computed):
        if computed == 3:
            os.kill(os.getpid(), signal.SIGKILL)  # killed mid-sweep, no cleanup at all
    run_sweep(tasks, Store(sys.argv[1]), workers=1, progress=progress)
""")


def test_sweep_killed_midway_resumes_with_nothing_lost(tmp_path):
    path = tmp_path / "s.sqlite"
    done = subprocess.run([sys.executable, "-c", KILLER, str(path), FIELD], capture_output=True, text=True)
    assert done.returncode == -signal.SIGKILL
    with Store(path) as store:
        assert len(store) == 3  # the three results that arrived before the kill were committed
        values, stats = run_sweep(_tasks(), store, workers=1)
    assert (stats.reused, stats.computed) == (3, len(_tasks()) - 3)
    fresh, _ = run_sweep(_tasks(), Store(None), workers=1)
    assert [v["rank"] for v in values] == [v["rank"] for v in fresh]


def test_local_processes_and_dask_cluster_give_the_same_results(tmp_path):
    distributed = pytest.importorskip("distributed")
    local, _ = run_sweep(_tasks(), Store(None), workers=2)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                                  dashboard_address=None) as cluster:
        assert cluster.scheduler_address.startswith("tcp://127.0.0.1:")
        remote, stats = run_sweep(_tasks(), Store(tmp_path / "d.sqlite"), scheduler=cluster.scheduler_address)
    assert stats.computed == len(_tasks())
    assert [v["rank"] for v in remote] == [v["rank"] for v in local]


def test_table_json_rows_have_the_promised_fields_and_a_rerun_computes_nothing(tmp_path, capsys):
    store = str(tmp_path / "t.sqlite")
    args = ["table", "--depths", "1", "--widths", "4", "--json", "--store", store, "--workers", "1"]
    assert main(args) == 0
    first = json.loads(capsys.readouterr().out)
    assert [(r["depth"], r["width"], r["heads"]) for r in first["rows"]] == [(1, 4, 1), (1, 4, 2), (1, 4, 4)]
    for row in first["rows"]:
        assert {"depth", "width", "heads", "sep_rank", "log3_sep", "bounds"} <= set(row)
        assert row["sep_rank"] == 5 and row["regime"] == "L < log3 d_x"
    # Theorem 1's upper bound (main text eq. 6) at L=1, d_x=4, H=2 is log3(6), by hand
    h2 = first["rows"][1]
    upper = [b for b in h2["bounds"] if b["claim"] == "levine2020_theorem1_upper"]
    assert len(upper) == 1 and abs(upper[0]["log3_value"] - 1.6309297535714575) < 1e-12 and upper[0]["holds"]
    assert main(args) == 0
    second = json.loads(capsys.readouterr().out)
    assert second["sweep"]["computed"] == 0 and second["sweep"]["reused"] == 3
    assert main(["results", "--store", store, "--format", "csv"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 4 and "value.rank" in lines[0]


def test_table_markdown_csv_and_plot_are_written(tmp_path, capsys):
    csv_path, png = tmp_path / "t.csv", tmp_path / "t.png"
    assert main(["table", "--depths", "1-2", "--widths", "2", "--no-store", "--workers", "1", "--quiet",
                 "--csv", str(csv_path), "--plot", str(png)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("| depth | width | heads | sep |") and "| 2 | 2 | 1 | 18 |" in out
    assert csv_path.read_text().splitlines()[0].startswith("depth,width,heads,sep")
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.parametrize("argv, words", [
    (["table", "--depths", "0-2"], "--depths"),
    (["table", "--widths", "1-2"], "--widths"),
    (["table", "--depths", "x"], "neither a number nor a range"),
    (["table", "--real", "--real-tokens", "3"], "even"),
    (["table", "--plot", "t.jpg"], ".png"),
    (["table", "--workers", "0", "--no-store", "--depths", "1", "--widths", "2"], "--workers"),
    (["table", "--scheduler", "tcp://127.0.0.1:1", "--no-store", "--depths", "1", "--widths", "2"], "Dask scheduler"),
    (["results", "--store", "/nonexistent/dir/s.sqlite"], "no results store"),
    (["table", "--depths", "4", "--widths", "3", "--no-store"], "memory estimate"),
])
def test_bad_sweep_input_is_one_line_exit_2(argv, words):
    done = subprocess.run([sys.executable, "-m", "verify", *argv], capture_output=True, text=True, timeout=120,
                          env={**os.environ, "VERIFY_STORE": os.environ["VERIFY_STORE"]})
    assert done.returncode == 2, done.stderr
    assert len(done.stderr.strip().splitlines()) == 1 and words in done.stderr and "Traceback" not in done.stderr


def test_probe_through_two_workers_matches_one_by_one(tmp_path, capsys):
    base = ["probe-n", "--depth", "1", "--width", "2", "--vocab", "3", "--rank", "2", "--max-tokens", "12",
            "--patience", "2", "--json", "--no-store"]
    assert main(base + ["--workers", "1"]) == 0
    serial = json.loads(capsys.readouterr().out)
    assert main(base + ["--workers", "2"]) == 0
    parallel = json.loads(capsys.readouterr().out)
    assert serial["ranks"] == parallel["ranks"] and serial["stopped"] == parallel["stopped"]


def test_an_interrupted_pool_has_wound_down_its_manager_thread_before_the_exit_hooks_run():
    """Python 3.11's exit hook writes to the pool manager's wake-up pipe without a lock; a manager
    thread still closing that pipe made a Ctrl-C during `verify table` print an EBADF traceback (CI).
    After the interrupt leaves ``executor``, the thread must be gone and its pipe closed."""
    import time

    from verify.sweeps.executor import executor

    seen = {}
    with pytest.raises(KeyboardInterrupt):
        with executor(workers=2) as pool:
            pool.submit(time.sleep, 30)
            seen["manager"] = pool._executor_manager_thread
            seen["wakeup"] = pool._executor_manager_thread_wakeup
            raise KeyboardInterrupt
    assert not seen["manager"].is_alive()
    assert seen["wakeup"]._closed
