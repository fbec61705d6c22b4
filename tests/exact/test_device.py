"""The device choice (verify.exact.device) and the device code path, on the CPU.

No test needs cupy or a GPU: the refusals are tested where cupy is missing (or made to look
missing), and the GPU path runs with a stand-in ``Device("gpu", numpy)``, so CI runs the same
kernel choices and the same code the GPU runs with cupy."""

import json

import flint
import numpy as np
import pytest

from verify import NetworkSpec
from verify.cli.main import main
from verify.errors import InputError
from verify.exact import device as devices
from verify.exact import kernels, tuning
from verify.exact.device import CPU, Device, resolve_device
from verify.exact.fields import Field
from verify.rank.reduced import reduced_separation_rank


class FakeGPU(Device):
    """The GPU's code path with numpy for its array module, and a given amount of free memory."""

    def __init__(self, free: int = 2**40):
        super().__init__("gpu", np)
        self.free = free

    def free_bytes(self) -> int:
        return self.free

    def synchronize(self) -> None:
        pass

    def describe(self) -> str:
        return "gpu: stand-in (numpy)"


def no_gpu(monkeypatch, why="cupy is not installed"):
    monkeypatch.setattr(devices, "gpu_device", lambda: why)


def a_gpu(monkeypatch, free=2**40):
    gpu = FakeGPU(free)
    monkeypatch.setattr(devices, "gpu_device", lambda: gpu)
    return gpu


def test_cpu_and_none_are_numpy():
    assert resolve_device("cpu") is CPU and resolve_device(None) is CPU and CPU.xp is np


def test_unknown_device_is_refused():
    with pytest.raises(InputError, match="auto, cpu or gpu"):
        resolve_device("tpu")


@pytest.mark.parametrize("why", ["cupy is not installed", "no CUDA device"])
def test_gpu_without_cupy_or_cuda_names_the_extra(monkeypatch, why):
    no_gpu(monkeypatch, why)
    with pytest.raises(InputError) as err:
        resolve_device("gpu")
    text = str(err.value)
    assert why in text and "pip install 'seprank-verify[gpu-cuda1" in text and "\n" not in text


@pytest.mark.parametrize("major, extra", [(12, "gpu-cuda12"), (13, "gpu-cuda13"), (None, "gpu-cuda12")])
def test_the_refusal_names_the_extra_for_the_drivers_cuda(monkeypatch, major, extra):
    """A CUDA 13 driver (the H200 of issue 40) is told cupy-cuda13x's extra, a CUDA 12 one cupy-cuda12x's;
    with no driver to ask, both, each with its CUDA version."""
    no_gpu(monkeypatch, "cupy is not installed")
    monkeypatch.setattr(devices, "driver_cuda_major", lambda: major)
    with pytest.raises(InputError) as err:
        resolve_device("gpu")
    text = str(err.value)
    assert f"seprank-verify[{extra}]" in text
    assert ("gpu-cuda13" in text) == (major != 12) and ("gpu-cuda12" in text) == (major != 13)


def test_auto_without_a_gpu_is_the_cpu(monkeypatch):
    no_gpu(monkeypatch)
    assert resolve_device("auto", 10**12, 10**6) is CPU


def test_gpu_memory_is_priced_before_anything_is_allocated(monkeypatch):
    gpu = a_gpu(monkeypatch, free=2**30)
    with pytest.raises(InputError, match="GPU memory"):
        resolve_device("gpu", 2**30 + 1)
    assert resolve_device("gpu", 2**30) is gpu  # exactly what is free fits


def test_auto_takes_the_gpu_only_where_it_pays_and_fits(monkeypatch):
    gpu = a_gpu(monkeypatch, free=2**30)
    assert resolve_device("auto", 2**20, tuning.GPU_MIN) is gpu
    assert resolve_device("auto", 2**20, tuning.GPU_MIN - 1) is CPU  # too small to pay
    assert resolve_device("auto", 2**30 + 1, tuning.GPU_MIN) is CPU  # would not fit


def test_the_registry_picks_block_lu_for_large_ranks_on_a_gpu():
    field = Field(1048573)
    gpu = FakeGPU()
    big = tuning.GPU_MIN
    assert kernels.kernel_for(field, big, big, device=gpu).name == "float64-block-lu"
    assert kernels.kernel_for(field, big, big).name == "float64-blas-pluq"  # the CPU: unchanged
    assert kernels.kernel_for(field, big - 1, big, device=gpu).name == "float64-blas-pluq"
    assert kernels.kernel_for(Field(2**40 - 87), big, big, device=gpu).name == "float64-blas-pluq"  # two limbs
    assert kernels.kernel_for(field, 300, 300, kernel="block-lu").name == "float64-block-lu"  # selectable on the CPU
    assert kernels.kernel_for(Field(2**63 - 25), 300, 300, kernel="block-lu").name == "flint"


@pytest.mark.parametrize("rank", [300, 211])
def test_block_lu_kernel_rank_is_flints(rank):
    p = 1048573
    rng = np.random.default_rng(rank)
    a = (rng.integers(0, p, (300, rank)) @ rng.integers(0, 64, (rank, 320))) % p
    a[:, 1] = 2 * a[:, 0] % p  # a singular leading block: the Schur complement goes to the PLUQ
    want = flint.nmod_mat([[int(x) for x in row] for row in a], p).rank()
    assert kernels.kernel_for(Field(p), 300, 320, kernel="block-lu").rank(a.copy()) == want


def test_degree_blocks_on_the_gpu_path_give_the_cpus_ranks(monkeypatch):
    """Depth 3, width 3 over GF(1048573), its slices (462 lines and more) ranked on the stand-in GPU
    with the block LU first (the kernel registry's choice there once GPU_MIN is lowered) and stopped at
    the proven bounds: the same rank, blocks and certainty as on the CPU."""
    monkeypatch.setattr(tuning, "GPU_MIN", 256)
    spec, field = NetworkSpec(depth=3, width=3, heads=1), Field(1048573)
    on_cpu = reduced_separation_rank(spec, field, seed=1)
    on_gpu = reduced_separation_rank(spec, field, seed=1, placement=FakeGPU())
    assert on_gpu.rank == on_cpu.rank
    assert [b.rank for b in on_gpu.blocks] == [b.rank for b in on_cpu.blocks]
    assert on_gpu.certainty.certified_exact == on_cpu.certainty.certified_exact
    assert on_gpu.certainty.probability_bound == on_cpu.certainty.probability_bound
    assert "float64-block-lu" in {b.elimination for b in on_gpu.blocks}  # the device path did run


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("argv", [["sep", "--depth", "2", "--width", "2", "--device", "gpu"],
                                  ["table", "--depths", "1", "--widths", "2", "--no-store", "--device", "gpu"]])
def test_cli_gpu_without_cupy_exits_2_with_one_line(capsys, monkeypatch, argv):
    no_gpu(monkeypatch)
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and err.startswith("verify: error:")
    assert "seprank-verify[gpu-cuda1" in err and "Traceback" not in err


def test_cli_gpu_refuses_a_slice_past_the_gpus_memory(capsys, monkeypatch):
    a_gpu(monkeypatch, free=2**20)
    code, out, err = run(capsys, "sep", "--depth", "3", "--width", "3", "--device", "gpu")
    assert code == 2 and "GPU memory" in err and len(err.strip().splitlines()) == 1


def test_cli_gpu_on_a_route_that_cannot_use_it(capsys, monkeypatch):
    a_gpu(monkeypatch)
    code, out, err = run(capsys, "sep", "--depth", "1", "--width", "2", "--tokens", "2", "--method", "coefficients",
                         "--device", "gpu")
    assert code == 2 and "reduced route only" in err


def test_cli_auto_and_cpu_give_the_same_rank(capsys, monkeypatch):
    no_gpu(monkeypatch)
    found = []
    for device in ("auto", "cpu"):
        code, out, _ = run(capsys, "sep", "--depth", "2", "--width", "2", "--json", "--device", device)
        assert code == 0
        data = json.loads(out)
        found.append((data["rank"], data["certified_exact"], data["probability_bound"], data["notes"]))
    assert found[0] == found[1] == [(18, True, 0.0, found[0][3])][0]
