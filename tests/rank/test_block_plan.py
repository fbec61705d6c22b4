"""The block plan (verify.rank.block_plan): each degree block's kernel, device, leaf route, slice, bytes
and seconds decided once; the run, the memory estimate and the store read it; ``verify sep --dry-run``
prints it without computing."""

import ast
import json
from pathlib import Path

import pytest

import verify
from verify import NetworkSpec, separation_rank
from verify.api import plan_separation_rank
from verify.cli.main import main
from verify.exact import tuning
from verify.exact.device import Device
from verify.exact.fields import Field
from verify.exact.kernels import kernel_for
from verify.rank.block_plan import plan_run
from verify.rank.reduced_memory import estimate_block_bytes
from verify.testing import fake_cupy

SPEC = NetworkSpec(depth=3, width=3)


def test_the_plan_has_the_runs_blocks_and_their_kernels():
    """The plan's shapes against the run's blocks (an independent route: the run builds them from q), and
    each ranked block's elimination against its planned kernel."""
    plan = plan_separation_rank(SPEC, device="cpu")
    run = separation_rank(SPEC, max_runs=1, device="cpu")
    assert [(b.rows, b.cols) for b in plan.blocks] == [(b.rows, b.cols) for b in run.blocks]
    for planned, block in zip(plan.blocks, run.blocks, strict=False):
        assert planned.kernel.name == kernel_for(plan.field, planned.slice_rows, planned.slice_cols).name
        if block.implied_by is None and block.rows and block.cols:
            assert block.elimination == planned.kernel.name
    assert plan.field == Field(1048573) and plan.bytes == max(b.slice_rows * b.slice_cols * 8 if b.kernel.name !=
                                                               "flint" else b.slice_rows * b.slice_cols * 28
                                                               for b in plan.blocks)


def test_the_memory_estimate_prices_the_planned_slice():
    field = Field(1048573)
    largest = max(plan_run(SPEC, field).blocks, key=lambda b: b.slice_rows)
    # the estimate holds the largest slice as planned (short x short + 32) plus q and the fixed overhead
    assert estimate_block_bytes(SPEC, field) >= largest.slice_rows * (largest.slice_rows + 32) * 8


def test_on_a_gpu_the_large_slices_plan_the_block_lu_with_the_default_leaf(monkeypatch):
    monkeypatch.setattr(tuning, "GPU_MIN", 256)
    plan = plan_run(SPEC, Field(1048573), Device("gpu", fake_cupy.module()))
    big = [b for b in plan.blocks if b.slice_rows >= 256]
    assert big and all(b.kernel.name == "float64-block-lu" and b.leaf == "kernel" and b.device.name == "gpu"
                       for b in big)
    assert all(b.leaf is None for b in plan.blocks if b.slice_rows < 256)


def test_sep_dry_run_prints_the_plan_and_computes_nothing(tmp_path, capsys, monkeypatch):
    from verify.rank import degree_blocks

    monkeypatch.setattr(degree_blocks, "block_rank", lambda *a, **k: pytest.fail("--dry-run computed a block"))
    store = tmp_path / "s.sqlite"
    assert main(["sep", "--depth", "3", "--width", "3", "--dry-run", "--json", "--store", str(store)]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [b["rows"] for b in data["blocks"]] == [b.rows for b in plan_separation_rank(SPEC, device="cpu").blocks]
    assert set(data["blocks"][0]) >= {"kernel", "device", "leaf", "bytes", "seconds", "slice"}
    assert not store.exists()  # nothing stored either
    assert main(["sep", "--depth", "3", "--width", "3", "--dry-run"]) == 0
    text = capsys.readouterr().out
    assert "degree blocks" in text and "float64-blas-pluq" in text and "GiB" in text


def test_sep_dry_run_refuses_what_it_cannot_plan(capsys):
    assert main(["sep", "--depth", "2", "--width", "2", "--tokens", "2", "--dry-run"]) == 2
    err = capsys.readouterr().err
    assert "reduced route only" in err and len(err.strip().splitlines()) == 1


def test_no_rank_function_takes_a_device_beside_the_field():
    """Issue 40: the device travels in the plan (``Placement``, ``RunPlan``), not as a parameter beside the
    field; only the public entry points take the user's choice (``--device``) and resolve it."""
    entry = {"separation_rank", "plan_separation_rank", "device_for"}
    found = []
    for path in (Path(verify.__file__).parent / "rank").glob("*.py"):
        if path.name.startswith("token") or path.name == "positional_bound.py":  # the token route (issue 42's move)
            continue
        if path.name == "block_plan.py":  # where the device enters the plan
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name not in entry:
                names = [a.arg for a in node.args.args + node.args.kwonlyargs]
                found += [f"{path.name}:{node.name}" for name in names if name == "device"]
    assert found == []
