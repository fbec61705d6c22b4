"""Certificates round-trip, and tampering with any number makes the check fail."""

import copy
import json

import pytest

from verify import NetworkSpec
from verify.cli.main import main
from verify.constructions.certificate import certify, check_certificate, lower_bound


@pytest.fixture(scope="module")
def certificate():
    return certify(NetworkSpec(depth=2, width=10, heads=2))


def test_lower_bound_is_the_multiset_coefficient():
    assert lower_bound(2, 10, 2) == 4              # ((4 over 1))
    assert lower_bound(3, 28, 2) == 455            # ((13 over 3)) = binom(15, 3)
    assert lower_bound(3, 30, 2) == 560            # ((14 over 3)) = binom(16, 3)


def test_certificate_round_trips_through_a_file(tmp_path, capsys, certificate):
    path = tmp_path / "cert.json"
    assert main(["certify", "--depth", "2", "--width", "10", "--heads", "2", "--out", str(path)]) == 0
    data = json.loads(path.read_text())
    assert data["claimed_rank"] == 4 and isinstance(data["prime"], int)
    assert all(isinstance(v, int) for t in data["templates_a"] for v in t)
    capsys.readouterr()
    assert main(["check-certificate", str(path), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["holds"]


def _tamper(data, path):
    out = copy.deepcopy(data)
    *keys, last = path
    target = out
    for key in keys:
        target = target[key]
    target[last] = target[last] + 1
    return out


TAMPER = [("weights", "layers", 0, "query", 0, 0, 0), ("weights", "layers", 1, "output", 1, 3, 0),
          ("templates_a", 0, 0), ("templates_b", 3, 9), ("prime",), ("claimed_rank",),
          ("determinant_mod_prime",), ("heads",), ("width",), ("depth",), ("output",),
          ("outputs_at_first_point", 7), ("weights", "layers", 1, "value", 0, 4, 9)]


@pytest.mark.parametrize("path", TAMPER, ids=["/".join(map(str, p)) for p in TAMPER])
def test_tampering_with_any_number_makes_the_check_fail(certificate, path):
    assert check_certificate(certificate)[0]
    holds, reason = check_certificate(_tamper(certificate, path))
    assert not holds, reason


def test_tampered_file_exits_1(tmp_path, capsys, certificate):
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(_tamper(certificate, ("templates_b", 0, 0))))
    assert main(["check-certificate", str(path)]) == 1
    assert "FAILS" in capsys.readouterr().out


def test_out_of_regime_and_missing_files_are_one_line_errors(tmp_path, capsys):
    assert main(["certify", "--depth", "2", "--width", "9"]) == 2
    assert main(["check-certificate", str(tmp_path / "none.json")]) == 2
    (tmp_path / "x.json").write_text("not json")
    assert main(["check-certificate", str(tmp_path / "x.json")]) == 2
    assert all(line.startswith("verify: error:") for line in capsys.readouterr().err.strip().splitlines())


@pytest.mark.slow
def test_depth_three_certificate_for_the_smallest_admissible_width():
    data = certify(NetworkSpec(depth=3, width=28, heads=2))
    assert data["claimed_rank"] == 455 and check_certificate(data)[0]
