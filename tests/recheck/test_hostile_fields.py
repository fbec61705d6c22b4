"""Fields of the right syntax but the wrong type or range, beyond issue 46's list: each one line naming the field,
exit 2 (``fields``, ``shapes``, ``reading``); and the sampling of a side by index (``network.multiset``)."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import pytest

from special_files import write_store
from verify.cli.main import main
from verify.recheck.network import multiset

DATA = Path(__file__).resolve().parent / "data"


def _refused(capsys, path, *names):
    code = main(["recheck", str(path), "--max-seconds", "1"])
    out, err = capsys.readouterr()
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1, (code, out[-300:], err)
    for name in names:
        assert name in err, (name, err)


def _edited(tmp_path, name, edit):
    data = json.loads((DATA / name).read_text())
    edit(data)
    path = tmp_path / name
    path.write_text(json.dumps(data))
    return path


@pytest.mark.parametrize("field,value", [("depth", True), ("width", 2.0), ("heads", "1"), ("valid_from_tokens", 7),
                                         ("sep_rank", -1), ("probability_bound", 1.5), ("seed", [0])])
def test_a_table_field_of_the_wrong_type_or_range(capsys, tmp_path, field, value):
    path = _edited(tmp_path, "table.json", lambda d: d["rows"][0].update({field: value}))
    _refused(capsys, path, "row 1", f"'{field}'")


def test_more_heads_than_the_width(capsys, tmp_path):
    path = _edited(tmp_path, "table.json", lambda d: d["rows"][0].update(heads=d["rows"][0]["width"] + 1))
    _refused(capsys, path, "'heads'", "at most the width")


def test_an_odd_token_count_in_a_probe(capsys, tmp_path):
    path = _edited(tmp_path, "probe_tokens.json", lambda d: d["ranks"][0].update(tokens=3))
    _refused(capsys, path, "ranks[0]", "'tokens'", "even")


def test_an_odd_n_in_the_atlas_pairs(capsys, tmp_path):
    text = (DATA / "atlas.csv").read_text()
    lines = text.splitlines()
    header = lines[0].split(",")
    row = next(iter(__import__("csv").reader([lines[1]])))
    row[header.index("ranks")] = "3:2"
    path = tmp_path / "atlas.csv"
    import csv
    with open(path, "w", newline="") as handle:
        csv.writer(handle).writerows([header, row])
    _refused(capsys, path, "row 1", "'ranks'")


def test_a_limit_no_counting_cap_reaches(capsys, tmp_path):
    import csv
    rows = list(csv.reader((DATA / "atlas.csv").read_text().splitlines()))
    header = rows[0]
    for row in rows[1:]:
        row[header.index("limit")] = "999999999999"
    path = tmp_path / "atlas.csv"
    with open(path, "w", newline="") as handle:
        csv.writer(handle).writerows(rows)
    _refused(capsys, path, "row 1", "'limit'")


def test_json_nested_beyond_the_limit_but_within_the_interpreter(capsys, tmp_path):
    path = tmp_path / "deep.json"
    path.write_text('{"rows": ' + "[" * 50 + "]" * 50 + "}")
    _refused(capsys, path, "MAX_JSON_DEPTH")


def test_a_certificate_matrix_of_the_wrong_shape(capsys, tmp_path):
    path = _edited(tmp_path, "certificate.json", lambda d: d["weights"]["layers"][0]["query"][0].pop())
    _refused(capsys, path, "weights.layers[0]", "'query'")


def test_a_certificate_template_of_the_wrong_length(capsys, tmp_path):
    path = _edited(tmp_path, "certificate.json", lambda d: d["templates_a"][0].append(1))
    _refused(capsys, path, "'templates_a'")


def test_an_output_coordinate_beyond_the_width(capsys, tmp_path):
    path = _edited(tmp_path, "certificate.json", lambda d: d.update(output=d["width"]))
    _refused(capsys, path, "'output'")


def test_multiset_is_combinations_with_replacement():
    for v, size in itertools.product(range(1, 5), range(0, 5)):
        every = list(itertools.combinations_with_replacement(range(v), size))
        assert [multiset(v, size, i) for i in range(len(every))] == every


def test_an_integer_longer_than_the_digit_limit_is_named_by_its_length(capsys, tmp_path):
    """500 digits: beyond reading.MAX_INT_DIGITS (400), within Python's own limit; never converted."""
    path = tmp_path / "table.json"
    path.write_text((DATA / "table.json").read_text().replace('"width": ', '"width": ' + "9" * 500 + ", \"w\": ", 1))
    _refused(capsys, path, "'width'", "500 digits")


def test_an_empty_json_column_of_a_store_is_called_empty(capsys, tmp_path):

    rows = json.loads((DATA / "store_rows.json").read_text())
    rows[0][2] = ""  # the spec column
    path = tmp_path / "store.sqlite"
    write_store(path, rows)
    _refused(capsys, path, "row 1 column 'spec' is empty")


def test_a_certificate_of_more_templates_than_the_recheck_prices(capsys, tmp_path):
    path = _edited(tmp_path, "certificate.json", lambda d: d.update(templates_b=[d["templates_b"][0]] * 4097))
    _refused(capsys, path, "'templates_b'", "at most 4096")
