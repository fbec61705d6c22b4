"""Every export carries its provenance (issue 33): certainty, probability bound, seed, primes,
version, and the registry where one decided something.  One test per export, through the command
users run.  Expected values come from the closed form, not from the program: depth 1, width 2 has
rank 3 = its proven upper bound 1 + 2 (the degree blocks 1x6 and 3x2), so it is certified exact
(certainty "certified", probability bound 0); a probe step is an exact rank mod p at seeded
weights, a certified lower bound over the probe's one prime."""

import csv
import io
import json

import pytest

import toy_registry
from verify.cli.main import main
from verify.version import __version__

PROVENANCE = {"certainty", "probability_bound", "seed", "primes", "version"}


def out_of(capsys, *argv):
    assert main(list(argv)) == 0
    return capsys.readouterr().out


def test_table_json_and_csv(tmp_path, capsys):
    data = json.loads(out_of(capsys, "table", "--depths", "1", "--widths", "2", "--heads", "1", "--no-store",
                             "--json", "--quiet"))
    assert data["registry"] == "seprank_proofs" and data["version"] == __version__
    [row] = data["rows"]
    assert PROVENANCE <= set(row)
    assert (row["sep_rank"], row["certainty"], row["probability_bound"], row["seed"]) == (3, "certified", 0.0, 0)
    assert row["primes"] and all(isinstance(p, int) for p in row["primes"])
    out_of(capsys, "table", "--depths", "1", "--widths", "2", "--heads", "1", "--no-store", "--quiet",
           "--csv", str(tmp_path / "t.csv"))
    [line] = list(csv.DictReader(io.StringIO((tmp_path / "t.csv").read_text())))
    assert PROVENANCE | {"registry"} <= set(line)
    assert (line["certainty"], line["registry"], line["version"], line["seed"]) == ("certified", "seprank_proofs",
                                                                                    __version__, "0")


@pytest.fixture
def store(tmp_path, capsys):
    path = str(tmp_path / "s.sqlite")
    out_of(capsys, "table", "--depths", "1", "--widths", "2", "--heads", "1", "--store", path, "--quiet")
    out_of(capsys, "probe-n", "--depth", "1", "--width", "2", "--vocab", "2", "--rank", "1", "--max-tokens", "4",
           "--store", path, "--quiet")
    return path


def test_results_json_and_csv(store, capsys):
    rows = json.loads(out_of(capsys, "results", "--store", store, "--format", "json"))["results"]
    assert {r["kind"] for r in rows} == {"sep", "probe_step"}
    for row in rows:
        assert PROVENANCE <= set(row) and row["version"] == __version__ and row["seed"] == 0
        assert row["primes"]
    sep = next(r for r in rows if r["kind"] == "sep")
    assert (sep["certainty"], sep["probability_bound"]) == ("certified", 0.0)
    for probe in (r for r in rows if r["kind"] == "probe_step"):  # V = 2, no positions: cap binom(N/2 + 1, 1)
        meets_cap = probe["value"]["rank"] == probe["params"]["tokens"] // 2 + 1
        assert probe["certainty"] == ("certified" if meets_cap else "certified lower bound")
        assert probe["primes"] == [probe["value"]["modulus"]]
    lines = list(csv.DictReader(io.StringIO(out_of(capsys, "results", "--store", store, "--format", "csv"))))
    assert all(PROVENANCE <= set(line) and line["certainty"] and line["primes"] for line in lines)


def test_probe_n_json(capsys):
    data = json.loads(out_of(capsys, "probe-n", "--depth", "1", "--width", "2", "--vocab", "2", "--rank", "1",
                             "--max-tokens", "4", "--no-store", "--json", "--quiet"))
    assert PROVENANCE <= set(data)
    assert data["version"] == __version__ and data["seed"] == 0 and data["primes"] == [data["modulus"]]
    assert data["certainty"] in ("certified", "certified lower bound; equal to generic w.h.p.")
    assert data["probability_bound"] == data["limit"]["probability_bound"]


def test_report_json_header(tmp_path, capsys, monkeypatch):
    monkeypatch.delenv("VERIFY_REGISTRY", raising=False)
    folder = toy_registry.make(tmp_path)
    try:
        main(["run", "--registry", str(folder), "--claim", "toy_as_expected", "--out", str(tmp_path / "r"),
              "--quiet", "--no-store"])
    finally:
        toy_registry.forget(folder)
    header = json.loads((tmp_path / "r" / "partial" / "report.json").read_text())["header"]
    assert PROVENANCE | {"registry", "field"} <= set(header)
    assert header["registry"] == "toy_claims_registry" and header["version"] == __version__
    assert header["primes"] == [] and header["probability_bound"] is None  # no exact rank was needed
    assert header["probability_bound_text"] is None and header["ranks"] == 0
