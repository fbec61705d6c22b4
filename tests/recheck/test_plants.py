"""`verify recheck` on a small export of every kind: the untouched file is confirmed (exit 0, at least one
recomputed rank confirmed), and a planted wrong rank, label, probability or provenance field is caught
(exit 1, the contradicted line names the value).

The exports in data/ are toy sizes written by the engine (verify probe-n/table/run/certify --json and
results/ rows), with the provenance and probabilities of issue 39 (field gf:<modulus>, the union over every j,
the prime condition) where the engine's output predates it; each such edit is in build notes below.
"""

from __future__ import annotations

import csv
import json
import shutil
from pathlib import Path

import pytest

from special_files import write_csv, write_store
from verify.cli.main import main

DATA = Path(__file__).resolve().parent / "data"
BUDGET = "1"


def _run(capsys, path, budget=BUDGET):
    code = main(["recheck", str(path), "--max-seconds", budget])
    out, err = capsys.readouterr()
    return code, out, err


def _contradictions(out: str) -> list[str]:
    return [line for line in out.splitlines() if line.startswith("contradicted: ")]


def _json_plant(tmp_path, name, edit):
    data = json.loads((DATA / name).read_text())
    edit(data)
    path = tmp_path / name
    path.write_text(json.dumps(data))
    return path


def _csv_plant(tmp_path, name, edit):
    with open(DATA / name, newline="") as handle:
        rows = list(csv.DictReader(handle))
    edit(rows)
    path = tmp_path / name
    write_csv(path, rows)
    return path


def _store(tmp_path, edit=None):
    """The store's schema (docs/store.md) with the rows of data/store_rows.json."""
    rows = json.loads((DATA / "store_rows.json").read_text())
    if edit:
        edit(rows)
    path = tmp_path / "store.sqlite"
    write_store(path, rows)
    return path


UNTOUCHED = ["probe_tokens.json", "probe_positions.json", "probe_probabilistic.json", "atlas.csv",
             "atlas_probabilistic.csv", "cells.csv", "cells_old.csv", "table.json", "table.csv", "report.json",
             "certificate.json"]


@pytest.mark.parametrize("name", UNTOUCHED)
def test_an_untouched_export_is_confirmed(capsys, name):
    code, out, err = _run(capsys, DATA / name)
    assert code in (0, 3) and _contradictions(out) == [], out
    assert (code == 0) == all(line.startswith("recomputed: ") for line in out.splitlines()[:-1]), out
    assert any(line.startswith("recomputed: ") and (": rank " in line or "determinant" in line)
               for line in out.splitlines()), out


def test_an_untouched_store_is_confirmed(capsys, tmp_path):
    code, out, _ = _run(capsys, _store(tmp_path))
    assert code in (0, 3) and _contradictions(out) == [], out


def _set_row(rows, index, **values):
    rows[index].update(values)


def _probe_row(data, tokens):
    return next(row for row in data["ranks"] if row["tokens"] == tokens)


PLANTS = [
    # probe-n --json, no positions: rank, limit bound, provenance, top-level certainty
    ("probe_tokens.json", lambda d: _probe_row(d, 6).update(rank=3), "rank 3", "1"),
    ("probe_tokens.json", lambda d: d["limit"].update(upper_bound=6), "limit upper bound 6"),
    ("probe_tokens.json", lambda d: d.update(field="gf:9223372036854775783"), "field gf:9223372036854775783"),
    ("probe_tokens.json", lambda d: d.update(certainty="certified lower bound"), "certainty 'certified lower bound'"),
    ("probe_tokens.json", lambda d: d.update(meaning=d["meaning"].split(";")[0]), "meaning names the prime condition"),
    # probe-n --json with positions
    ("probe_positions.json", lambda d: _probe_row(d, 8).update(rank=13), "rank 13"),
    ("probe_positions.json", lambda d: _probe_row(d, 8).update(bound_eq74_at_positions=11),
     "eq. 7.4 at the positions 11", "1"),
    ("probe_positions.json", lambda d: d.update(primes=[2305843009213693951]), "primes [2305843009213693951]"),
    # a probabilistic row: the old two-term probability, a label, a rank
    ("probe_probabilistic.json", lambda d: _probe_row(d, 12).update(probability=0.0003662107628771006),
     "probabilistic(0.0003662107628771006)"),
    # the every-sequence bound 64 * 132 / (2^21 + 1) is a bound too, but not the smallest the row meets
    ("probe_probabilistic.json", lambda d: _probe_row(d, 12).update(probability=0.004028318391648107),
     "probabilistic(0.004028318391648107)"),
    ("probe_probabilistic.json", lambda d: _probe_row(d, 12).update(label="certified exact"),
     "label certified exact (52)"),
    ("probe_probabilistic.json", lambda d: _probe_row(d, 12).update(rank=51), "rank 51", "2"),
    ("probe_probabilistic.json", lambda d: d.update(probability_bound=0.0), "probability_bound 0.0"),
    # table --json
    ("table.json", lambda d: d["rows"][7].update(sep_rank=d["rows"][7]["sep_rank"] + 1), "rank 44"),
    ("table.json", lambda d: d["rows"][7].update(sep_rank=d["rows"][7]["sep_rank"] - 1), "rank 42"),
    ("table.json", lambda d: d["rows"][2].update(probability_bound=0.01), "probability_bound 0.01"),
    # a rank below the generic one, labelled consistently: only the recomputed grid (43) catches it
    ("table.json", lambda d: d["rows"][7].update(sep_rank=42, certified_exact=False, probability_bound=0.01,
                                                 certainty="certified lower bound; equal to generic w.h.p."),
     "rank 42", "1"),
    ("table.json", lambda d: d["rows"][2].update(certainty="certified lower bound"), "certainty 'certified lower"),
    ("table.json", lambda d: d["rows"][7].update(certified_exact=False, probability_bound=0.01,
                                                 certainty="certified lower bound; equal to generic w.h.p."),
     "names the prime condition"),
    # report.json
    ("report.json", lambda d: d["header"]["rank_table"][3].update(rank=5), "rank 5"),
    ("report.json", lambda d: d["header"].update(ranks_certified_exact=7), "ranks_certified_exact 7"),
    ("report.json", lambda d: d["header"]["rank_table"][0].update(primes=[1048573]), "primes [1048573]"),
    ("report.json", lambda d: d["header"]["rank_table"][1].update(probability_bound=0.5), "probability_bound 0.5"),
    # certificate
    ("certificate.json", lambda d: d.update(claimed_rank=d["claimed_rank"] + 1), "claimed_rank 5"),
    ("certificate.json", lambda d: d.update(determinant_mod_prime=(d["determinant_mod_prime"] + 1) % d["prime"]),
     "determinant_mod_prime", "1"),
    ("certificate.json", lambda d: d["weights"].update(seed=1), "weights (seed 1)"),
    ("certificate.json", lambda d: d.update(prime=1048575), "prime 1048575"),
    # impossible sizes (issue 46 Why 3: claimed_rank -3 was "confirmed: ... sep >= -3") and a singular grid
    ("certificate.json", lambda d: d.update(claimed_rank=-3), "claimed_rank -3"),
    ("certificate.json", lambda d: d.update(claimed_rank=0), "claimed_rank 0"),
    ("certificate.json", lambda d: d.update(templates_b=[d["templates_b"][0]] * len(d["templates_b"]),
                                            determinant_mod_prime=0), "determinant_mod_prime 0", "1"),
]


def _with_budget(plants):
    """(name, edit, names, budget): "0" where a closed form catches the fault, "1" where a recomputation must."""
    return [p if len(p) == 4 else (*p, "0") for p in plants]


@pytest.mark.parametrize("name, edit, names, budget", _with_budget(PLANTS), ids=[f"{p[0]}:{p[2]}" for p in PLANTS])
def test_a_planted_fault_in_a_json_export_is_caught(capsys, tmp_path, name, edit, names, budget):
    code, out, _ = _run(capsys, _json_plant(tmp_path, name, edit), budget)
    assert code == 1, out
    assert any(names in line for line in _contradictions(out)), out


def test_a_boolean_claimed_rank_is_bad_input(capsys, tmp_path):
    """JSON true is no size at all: a field of the wrong JSON type, refused before any check (issue 46 item 4),
    where a size of the right type that no grid can have is a contradiction (the plants above)."""
    code, out, err = _run(capsys, _json_plant(tmp_path, "certificate.json", lambda d: d.update(claimed_rank=True)),
                          "0")
    assert code == 2, out + err
    assert "claimed_rank" in err and len(err.strip().splitlines()) == 1, err


CSV_PLANTS = [
    ("atlas.csv", lambda rows: _set_row(rows, 1, ranks="2:2 4:4"), "rank 4", "1"),
    ("atlas.csv", lambda rows: _set_row(rows, 1, ranks_labels="2:certified 4:lb-1"), "label lower bound (3, 1 short)"),
    ("atlas.csv", lambda rows: _set_row(rows, 2, limit_certainty="= generic w.p. >= 1 - 0.01 unless p divides the "
                                        "content of every witness minor"), "limit certified = False"),
    ("atlas.csv", lambda rows: _set_row(rows, 0, prime="2147483646"), "prime 2147483646"),
    ("atlas.csv", lambda rows: _set_row(rows, 0, first_n_limit="4"), "first_n_limit 4"),
    ("atlas_probabilistic.csv", lambda rows: _set_row(rows, 0, ranks_labels=rows[0]["ranks_labels"].replace(
        "12:probabilistic(0.00739)", "12:probabilistic(0.000367)")), "probabilistic(0.000367)"),
    ("cells.csv", lambda rows: _set_row(rows, 2, rank_at_n="37", rank_at_least="37"), "rank 37"),
    ("cells.csv", lambda rows: _set_row(rows, 0, rank_at_least="9"), "rank_at_least 9"),
    ("cells.csv", lambda rows: _set_row(rows, 0, bound="11"), "bound 11"),
    ("cells.csv", lambda rows: _set_row(rows, 3, prime="2147483648"), "prime 2147483648"),
    ("cells_old.csv", lambda rows: _set_row(rows, 2, rank_at_n="35"), "rank 35", "1"),
    ("table.csv", lambda rows: _set_row(rows, 3, sep="18"), "rank 18"),
    ("table.csv", lambda rows: _set_row(rows, 3, regime="L < log3 d_x"), "regime 'L < log3 d_x'"),
    ("table.csv", lambda rows: _set_row(rows, 3, certified_exact="false"), "probability_bound 0.0"),
]


@pytest.mark.parametrize("name, edit, names, budget", _with_budget(CSV_PLANTS),
                         ids=[f"{p[0]}:{p[2]}" for p in CSV_PLANTS])
def test_a_planted_fault_in_a_csv_export_is_caught(capsys, tmp_path, name, edit, names, budget):
    code, out, _ = _run(capsys, _csv_plant(tmp_path, name, edit), budget)
    assert code == 1, out
    assert any(names in line for line in _contradictions(out)), out


def _value_edit(kind, **changes):
    def edit(rows):
        for row in rows:
            if row[1] == kind:
                value = json.loads(row[8])
                value.update(changes)
                row[8] = json.dumps(value, sort_keys=True)
                return
    return edit


def _positional_step_probability(rows):
    for row in rows:
        if row[1] == "probe_step" and json.loads(row[6]).get("positional_rank"):
            value = json.loads(row[8])
            value["bounds"]["probability"] = 1.9073477233182321e-06  # the old two-term sum
            row[8] = json.dumps(value, sort_keys=True)
            return


def _field_column(rows):
    rows[0][4] = "gf:1048573"


STORE_PLANTS = [
    (_value_edit("sep", rank=4), "rank 4"),
    (_value_edit("probe_step", modulus=2147483629), "modulus 2147483629"),
    (_positional_step_probability, "bounds.probability 1.9073477233182321e-06"),
    (_field_column, "key"),
]


@pytest.mark.parametrize("edit, names", STORE_PLANTS, ids=[p[1] for p in STORE_PLANTS])
def test_a_planted_fault_in_a_store_is_caught(capsys, tmp_path, edit, names):
    code, out, _ = _run(capsys, _store(tmp_path, edit), "0")
    assert code == 1, out
    assert any(names in line for line in _contradictions(out)), out


def test_a_value_priced_beyond_the_budget_is_never_confirmed(capsys):
    code, out, _ = _run(capsys, DATA / "report.json", budget="0")
    assert code == 3  # nothing contradicted, something beyond the budget: the "incomplete" status
    ranks = [line for line in out.splitlines() if ": rank " in line and "proven bound" not in line]
    assert ranks and all(line.startswith("beyond the budget: ") for line in ranks), out


def test_json_output_counts_the_findings(capsys, tmp_path):
    path = tmp_path / "c.json"
    shutil.copy(DATA / "certificate.json", path)
    assert main(["recheck", str(path), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["counts"]["contradicted"] == 0 and data["counts"]["recomputed"] == len(data["findings"])
    assert data["exit_status"] == 0 and data["schema_version"] == 2
    assert data["files"] == [{"path": str(path), "kind": "certificate"}]


def test_a_numerical_rank_in_a_store_is_counted_not_rechecked(capsys, tmp_path):
    def add_real_rank(rows):
        row = list(rows[0])
        key = json.loads(row[0])
        key.update(kind="real_rank", method="bert")
        row[0], row[1], row[3], row[8] = json.dumps(key, sort_keys=True), "real_rank", "bert", json.dumps({"rank": 7})
        rows.append(row)
    code, out, _ = _run(capsys, _store(tmp_path, add_real_rank), "0")
    assert code == 3 and "1 numerical values (no exact route) not rechecked" in out.splitlines()[-1]
