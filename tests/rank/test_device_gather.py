"""The degree blocks on a device (verify.rank.degree_blocks with verify.testing.fake_cupy, cupy's rules on
the CPU): a slice is gathered on the device from the moment tables' device copy, and the ranks, labels
and certainty are the CPU's; ``verify sep --device gpu`` runs the same path through the device loader."""

import json

import numpy as np
import pytest

from verify import NetworkSpec
from verify.cli.main import main
from verify.exact import kernels, tuning
from verify.exact.device import Device
from verify.exact.fields import Field
from verify.rank import degree_blocks
from verify.rank.block_plan import RunPlan
from verify.rank.moments import DenseMoments
from verify.rank.reduced import reduced_separation_rank
from verify.testing import fake_cupy

cp = fake_cupy.module()
GPU = Device("gpu", cp)
P = 1048573


def _table(seed=0, nvars=4, degree=6, count=2, forms=None):
    """Dense moments of q_k = sum_j c_kj l_j^degree (``forms`` random linear forms: blocks of rank at
    most ``forms``), or of random q_k (None: generic blocks)."""
    from math import factorial, prod

    from verify.exact.compositions import compositions
    from verify.rank.moments import moment_values

    exps = compositions(degree, nvars)
    rng = np.random.default_rng(seed)
    if forms is None:
        coeffs = [rng.integers(0, P, len(exps)).tolist() for _ in range(count)]
    else:
        lines = rng.integers(1, P, (forms, nvars)).tolist()
        powers = [[factorial(degree) // prod(factorial(e) for e in alpha)
                   * prod(pow(l, e, P) for l, e in zip(line, alpha, strict=False))
                   % P for alpha in exps.tolist()] for line in lines]
        weights = rng.integers(1, P, (count, forms)).tolist()
        coeffs = [[sum(w * power[i] for w, power in zip(weights[k], powers, strict=False)) % P
                   for i in range(len(exps))]
                  for k in range(count)]
    field = Field(P)
    return DenseMoments(nvars, degree, [exps] * count, moment_values([exps] * count, coeffs, field), np.int64), exps


@pytest.mark.parametrize("a", [1, 2, 3, 4])
@pytest.mark.parametrize("dense", [True, False])
def test_lines_gathered_on_the_device_are_the_hosts(a, dense):
    from verify.exact.compositions import compositions
    from verify.rank.moments import moment_table

    moments, exps = _table()
    if not dense:  # a sorted-search table: gathered on the host, then copied to the device once
        values = [moments.tables[k][moments._position(moments.keys(exps))] for k in range(moments.count)]
        moments = moment_table([exps] * 2, [v.tolist() for v in values], Field(P), 4, 6, False)
        assert not isinstance(moments, DenseMoments)
    rows, cols = moments.keys(compositions(a, 4)), moments.keys(compositions(6 - a, 4))
    m, n = len(rows), len(cols) * moments.count
    wide = m <= n
    idx = np.array(sorted(np.random.default_rng(a).choice(max(m, n), size=min(m, n) // 2 + 1, replace=False)))
    host = degree_blocks._lines(moments, rows, cols, idx, wide)
    device = degree_blocks._lines(moments, rows, cols, idx, wide, cp)
    assert isinstance(device, fake_cupy.FakeArray) and isinstance(host, np.ndarray)
    assert np.array_equal(device.get(), host)


def _summary(result):
    return (result.rank, [(b.rank, b.implied_by, b.compressed_to) for b in result.blocks],
            result.certainty.certified_exact, result.certainty.probability_bound)


def test_degree_blocks_on_the_strict_device_give_the_cpus_ranks(monkeypatch):
    """Depth 3, width 3 over GF(1048573): slices of 462 lines and more go to the block LU (GPU_MIN
    lowered to 256), gathered on the device, and stop at the proven bounds."""
    monkeypatch.setattr(tuning, "GPU_MIN", 256)
    spec, field = NetworkSpec(depth=3, width=3, heads=1), Field(P)
    on_cpu = reduced_separation_rank(spec, field, seed=1)
    seen = []
    real = degree_blocks._gather_xp
    monkeypatch.setattr(degree_blocks, "_gather_xp", lambda f, k: seen.append(real(f, k)) or seen[-1])
    on_gpu = reduced_separation_rank(spec, field, seed=1, placement=GPU)
    assert _summary(on_gpu) == _summary(on_cpu)
    assert cp in seen  # some slice was gathered on the device


@pytest.mark.parametrize("bounded", [False, True])
@pytest.mark.parametrize("seed, forms", [(0, None), (1, 12), (2, 40)])
def test_probe_slices_and_null_spaces_on_the_strict_device_give_the_cpus_ranks(monkeypatch, seed, forms, bounded):
    """No bounds, PROBE_MIN 16, FLOAT_MIN 8 and GPU_MIN 32: the probe, the slices' null spaces (PLUQ and block LU)
    and the complements run with device slices; the ranks are the host run's."""
    monkeypatch.setattr(tuning, "GPU_MIN", 32)
    monkeypatch.setattr(tuning, "FLOAT_MIN", 8)
    monkeypatch.setattr(degree_blocks, "PROBE_MIN", 16)
    moments, _ = _table(seed, nvars=5, degree=8, forms=forms)
    field = Field(P)
    # ``bounded``: each block's shape as its (proven, loose) bound, so the block LU ranks a device slice
    # first, in the slice's own memory, and a deficient block's slice is gathered again for its null space
    from math import comb

    uppers = [min(comb(a + 4, 4), 2 * comb(8 - a + 4, 4)) for a in range(9)] if bounded else None
    calls = []
    real = kernels.BlockLUKernel.rank

    def spy(self, array, overwrite=False):
        calls.append((isinstance(array, fake_cupy.FakeArray), overwrite))
        return real(self, array, overwrite)
    monkeypatch.setattr(kernels.BlockLUKernel, "rank", spy)
    host = degree_blocks.degree_block_ranks(field, moments, 5, 8, seed=seed, uppers=uppers)
    device = degree_blocks.degree_block_ranks(RunPlan(field, GPU), moments, 5, 8, seed=seed, uppers=uppers)
    if bounded:
        on_device = [overwrite for here, overwrite in calls if here]  # (a complement's product is a host array)
        assert on_device and all(on_device)  # a device slice is eliminated in its own memory: one copy held
    assert host[0] == device[0] and [b.rank for b in host[1]] == [b.rank for b in device[1]]
    if forms is not None:  # the catalecticant of a sum of `forms` generic powers: min(forms, rows, cols)
        assert [b.rank for b in device[1]] == [min(forms, b.rows, b.cols) for b in device[1]]
    assert any(b.elimination in ("float64-block-lu", "float64-blas-pluq") for b in device[1])


def test_verify_sep_device_gpu_through_the_loader(capsys, monkeypatch):
    monkeypatch.setattr(tuning, "GPU_MIN", 256)
    found = []
    for device in ("cpu", "gpu"):
        with fake_cupy.install():
            code = main(["sep", "--depth", "3", "--width", "3", "--device", device, "--json"])
        out, err = capsys.readouterr()
        assert code == 0, err
        data = json.loads(out)
        found.append((data["rank"], data["certified_exact"], data["probability_bound"],
                      [b["rank"] for b in data["blocks"]]))
        if device == "gpu":
            assert data["elimination"] == "float64-block-lu" and any("fake cupy" in n for n in data["notes"])
    assert found[0] == found[1] and found[0][:2] == (3102, True)
