"""The atlas's cells on a Dask cluster (``run_cells(scheduler=...)``, ``benchmarks/atlas.py --scheduler``): the same
rows as one local process, computed on the cluster's workers."""

import subprocess
import sys
from pathlib import Path

import pytest

from verify.sweeps.atlas.plan import Cell, bound_cells, grid_cells
from verify.sweeps.atlas.run import run_cells

ROOT = Path(__file__).resolve().parents[2]


def _without_seconds(row: dict) -> dict:
    return {k: v for k, v in row.items() if k != "seconds"}


def test_cells_on_a_local_cluster_of_two_workers_give_the_local_rows():
    distributed = pytest.importorskip("distributed")
    cells = [c for c in grid_cells("quick") if c.depth == 2][:3] + bound_cells("quick")[:2]
    local = {cell: _without_seconds(row) for cell, row in run_cells(cells, "quick")}
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                                  dashboard_address=None) as cluster:
        remote = {cell: _without_seconds(row) for cell, row in run_cells(cells, "quick",
                                                                         scheduler=cluster.scheduler_address)}
        with distributed.Client(cluster.scheduler_address) as client:
            # each worker's own count of the tasks it executed
            executed = client.run(lambda dask_worker: dask_worker.state.executed_count)
    assert remote == local
    assert len(executed) == 2 and sum(executed.values()) == len(cells)


def test_the_driver_refuses_a_bad_scheduler_address_at_once(tmp_path):
    script = [sys.executable, str(ROOT / "benchmarks" / "atlas.py"), "--out", str(tmp_path), "--cells", "1,2,1,0"]
    bad = subprocess.run(script + ["--scheduler", "tcp://127.0.0.1:99999"], capture_output=True, text=True, timeout=60)
    assert bad.returncode == 2 and len(bad.stderr.strip().splitlines()) == 1 and "scheduler" in bad.stderr
    assert bad.stdout == ""  # refused with the other arguments, before the plan is priced
    assert not any(tmp_path.iterdir())  # nothing written


def test_a_cell_is_one_task_on_the_cluster():
    assert Cell("grid", 1, 2, 1, 0).name == "1,2,1,0"  # the name the driver's --cells takes for this task
