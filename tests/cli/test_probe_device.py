"""``verify probe-n --device``: only the --continuous limit (the reduced route) can use a GPU; the token
routes rank on the CPU.  The GPU is the strict fake cupy (verify.testing.fake_cupy) put where
the device loader imports cupy, or made to look missing."""

import json

import pytest

import verify
from verify.cli.main import main
from verify.errors import InputError
from verify.exact import device as devices
from verify.exact import tuning
from verify.sweeps import probe as probe_module
from verify.testing import fake_cupy

CONTINUOUS = ["probe-n", "--depth", "2", "--width", "2", "--continuous", "--max-tokens", "6", "--patience", "1",
              "--no-store", "--json"]
TOKENS = ["probe-n", "--depth", "2", "--width", "2", "--vocab", "2", "--rank", "2", "--max-tokens", "4",
          "--no-store", "--json"]


def run(capsys, argv):
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("argv", [CONTINUOUS, TOKENS])
def test_gpu_without_cupy_is_one_line_naming_the_extra_only_where_a_gpu_would_serve(capsys, monkeypatch, argv):
    monkeypatch.setattr(devices, "gpu_device", lambda: "cupy is not installed")
    code, out, err = run(capsys, [*argv, "--device", "gpu"])
    assert code == 2 and out == "" and "Traceback" not in err
    assert len(err.strip().splitlines()) == 1
    if argv is CONTINUOUS:
        assert "pip install 'seprank-verify[gpu-cuda1" in err
    else:  # the token routes never use a GPU: installing cupy would not help (issue 43)
        assert "cupy" not in err and "pip install" not in err and "rank on the CPU" in err


def test_the_token_routes_refuse_gpu_saying_they_rank_on_the_cpu(capsys):
    with fake_cupy.install():
        code, out, err = run(capsys, [*TOKENS, "--device", "gpu"])
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1
    assert "rank on the CPU" in err and "--continuous" in err


def test_the_continuous_limit_runs_on_the_device_with_the_cpus_result(capsys, monkeypatch):
    """The limit of depth 2 width 2 is the reduced route's 18 (verify.separation_rank's example); the
    strict device takes it when asked, with every eliminated slice on the device's kernels."""
    monkeypatch.setattr(tuning, "FLOAT_MIN", 4)  # slices this small go to the float kernels (on the device)
    seen = []
    real = probe_module.rank_once

    def spy(spec, method, **kwargs):  # the limit's call (the steps rank by the coefficient route)
        if method == "reduced":
            seen.append(kwargs.get("placement"))
        return real(spec, method, **kwargs)
    monkeypatch.setattr(probe_module, "rank_once", spy)
    found = {}
    for device in ("cpu", "gpu"):
        with fake_cupy.install():
            code, out, err = run(capsys, [*CONTINUOUS, "--device", device])
        assert code == 0, err
        data = json.loads(out)
        found[device] = (data["limit_rank"], [(r["tokens"], r["rank"]) for r in data["ranks"]])
    assert found["cpu"] == found["gpu"] and found["cpu"][0] == 18
    assert [d.name for d in seen] == ["cpu", "gpu"] and seen[1].xp is fake_cupy.module()


def test_the_api_refuses_gpu_for_tokens_and_auto_is_the_cpu(monkeypatch):
    with fake_cupy.install(), pytest.raises(InputError, match="rank on the CPU"):
        verify.probe_n(depth=2, width=2, vocab=2, rank=2, max_tokens=4, device="gpu")
    with fake_cupy.install():
        assert verify.probe_n(depth=2, width=2, vocab=2, rank=2, max_tokens=4, device="auto")["ranks"]
