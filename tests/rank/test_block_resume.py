"""A reduced-route run keeps each finished degree block in the results store (verify.sweeps.block_rows):
killed between blocks, the same command resumes where it stopped, on either device, and gives the
result an uninterrupted run gives."""

import json

import numpy as np
import pytest

from verify import NetworkSpec, separation_rank
from verify.cli.main import main
from verify.exact import tuning
from verify.exact.device import Device
from verify.rank import degree_blocks
from verify.sweeps.block_rows import BLOCK_KIND, BlockRows
from verify.sweeps.store import Store
from verify.testing import fake_cupy

SPEC = NetworkSpec(depth=3, width=2, heads=2)
FIELD = "gf:1048573"


class Killed(KeyboardInterrupt):
    pass


class StandInGPU(Device):
    """The GPU's code path with numpy for its array module."""

    def __init__(self):
        super().__init__("gpu", np)

    def describe(self) -> str:
        return "gpu: stand-in (numpy)"


def counting(monkeypatch, kill_at: int | None = None) -> list:
    """block_rank counted; with ``kill_at``, the run is killed as that block (1-based) starts."""
    real, calls = degree_blocks.block_rank, []

    def wrapped(*args, **kwargs):
        calls.append(1)
        if kill_at is not None and len(calls) == kill_at:
            raise Killed()
        return real(*args, **kwargs)

    monkeypatch.setattr(degree_blocks, "block_rank", wrapped)
    return calls


def summary(result) -> tuple:
    return (result.rank, [(b.rank, b.implied_by, b.elimination) for b in result.blocks],
            result.certainty.certified_exact, result.certainty.probability_bound)


def run(path, device="cpu"):
    with Store(path) as store:
        return separation_rank(SPEC, field=FIELD, max_runs=1, device=device, resume=BlockRows(store, SPEC))


def _device(name):
    """cpu; the GPU's code path with numpy; or with the strict fake cupy (verify.testing.fake_cupy) and the
    float kernels from 8 a side, so that its slices are gathered and eliminated on that device."""
    if name == "cpu":
        return "cpu"
    return StandInGPU() if name == "stand-in gpu" else Device("gpu", fake_cupy.module())


@pytest.mark.parametrize("first_device, second_device", [("cpu", "cpu"), ("cpu", "stand-in gpu"),
                                                         ("cpu", "strict gpu"), ("strict gpu", "cpu")])
def test_killed_run_resumes_with_the_same_result(tmp_path, monkeypatch, first_device, second_device):
    seen, gather_xp = [], degree_blocks._gather_xp
    if "strict gpu" in (first_device, second_device):
        monkeypatch.setattr(tuning, "FLOAT_MIN", 8)
        monkeypatch.setattr(degree_blocks, "_gather_xp", lambda field, kernel: seen.append(kernel.device.name)
                            or gather_xp(field, kernel))
    whole = counting(monkeypatch)
    want = summary(separation_rank(SPEC, field=FIELD, max_runs=1))
    total = len(whole)
    assert total >= 3  # several blocks ranked, so there is a between
    path = tmp_path / "store.sqlite"
    counting(monkeypatch, kill_at=3)
    with pytest.raises(Killed):
        run(path, _device(first_device))
    with Store(path) as store:
        assert [r["kind"] for r in store.rows()] == [BLOCK_KIND, BLOCK_KIND]  # the two finished blocks, kept
    again = counting(monkeypatch)
    assert summary(run(path, _device(second_device))) == want
    if "strict gpu" in (first_device, second_device):
        assert "gpu" in seen  # blocks were ranked on the strict device
    assert len(again) == total - 2  # only the blocks not finished before the kill
    again.clear()
    assert summary(run(path)) == want and again == []  # a finished run: everything read back


def test_the_store_keeps_runs_apart(tmp_path, monkeypatch):
    path = tmp_path / "store.sqlite"
    run(path)
    calls = counting(monkeypatch)
    with Store(path) as store:
        separation_rank(SPEC, field=FIELD, seed=1, max_runs=1, resume=BlockRows(store, SPEC))
    assert calls  # another seed: nothing read back


def test_cli_sep_store_resumes(tmp_path, capsys, monkeypatch):
    path = str(tmp_path / "s.sqlite")
    argv = ["sep", "--depth", "3", "--width", "2", "--heads", "2", "--field", FIELD, "--max-runs", "1", "--json",
            "--store", path]
    assert main(argv) == 0
    first = json.loads(capsys.readouterr().out)
    calls = counting(monkeypatch)
    assert main(argv) == 0
    second = json.loads(capsys.readouterr().out)
    assert calls == [] and second["rank"] == first["rank"] and second["certified_exact"] == first["certified_exact"]


def test_each_stored_block_keeps_its_plan_and_its_seconds_by_phase(tmp_path):
    """Issue 40: a finished block's row holds the plan it ran by (kernel, device, slice) and its seconds
    split into gather, products, leaves and check, adding up to the row's seconds; the JSON's blocks too."""
    path = tmp_path / "store.sqlite"
    result = run(path)
    with Store(path) as store:
        rows = [r for r in store.rows() if r["kind"] == BLOCK_KIND]
    assert len(rows) >= 3
    for row in rows:
        value = row["value"] if isinstance(row["value"], dict) else json.loads(row["value"])
        phases = value["seconds"]
        assert set(phases) == {"gather", "products", "leaves", "check"} and min(phases.values()) >= 0
        assert abs(sum(phases.values()) - row["seconds"]) <= 0.01 + 0.01 * row["seconds"]
        assert value["plan"]["device"] == "cpu" and value["plan"]["rows"] == value["rows"]
        assert value["plan"]["kernel"] in ("flint", "float64-blas-pluq")
    ranked = [b for b in result.as_dict()["blocks"] if b["implied_by"] is None]
    assert all(set(b["seconds"]) == {"gather", "products", "leaves", "check"} for b in ranked)
