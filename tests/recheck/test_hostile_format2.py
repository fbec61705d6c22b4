"""The fields format version 2 and degree-block store rows added (ranks_sampled, ranks_offer, limit_probability,
cells without a bound, a block's spec, params and value) read as untrusted input like every other field: a
malformed one is one line naming it, exit 2, in seconds; a well-formed but huge one is priced, not run."""

from __future__ import annotations

import csv
import json
from math import comb
from pathlib import Path

import pytest

from special_files import write_store
from verify.cli.main import main
from verify.recheck import BEYOND, recheck

DATA = Path(__file__).resolve().parent / "data"


def _run(capsys, path, budget="1"):
    code = main(["recheck", str(path), "--max-seconds", budget])
    out, err = capsys.readouterr()
    return code, out, err


def _atlas(tmp_path, **changes):
    rows = list(csv.DictReader((DATA / "atlas_why1_v2.csv").open()))[:1]
    rows[0].update(changes)
    path = tmp_path / "n_atlas.csv"
    with path.open("w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    return path


@pytest.mark.parametrize("changes, field", [
    ({"ranks_sampled": "1000000000:1x1"}, "ranks_sampled"),   # V^(N/2) at N = 10^9 before this check
    ({"ranks_sampled": "2:abc"}, "ranks_sampled"),
    ({"ranks_sampled": "2:" + "9" * 5000 + "x1"}, "ranks_sampled"),
    ({"ranks_offer": "16:" + "x" * 100}, "ranks_offer"),
    ({"limit_probability": "nan"}, "limit_probability"),
    ({"limit_probability": "abc"}, "limit_probability"),
])
def test_a_malformed_format2_atlas_field_is_refused_naming_it(tmp_path, capsys, changes, field):
    code, out, err = _run(capsys, _atlas(tmp_path, **changes))
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1, (code, out[-300:], err)
    assert f"field '{field}'" in err and "row 1" in err, err


def _block_store(tmp_path, spec=None, params=None, value=None):
    rows = json.loads((DATA / "store_blocks.json").read_text())[:1]
    row = rows[0]
    key = json.loads(row[0])
    for index, name, changes in ((2, "spec", spec), (6, "params", params), (8, "value", value)):
        if changes:
            decoded = json.loads(row[index])
            decoded.update(changes)
            row[index] = json.dumps(decoded)
            if name != "value":
                key[name] = decoded
    row[0] = json.dumps(key, sort_keys=True)
    path = tmp_path / "blocks.sqlite"
    write_store(path, rows)
    return path


@pytest.mark.parametrize("edit, field", [
    ({"spec": {"depth": 40}}, "'depth'"),  # a depth the CLI accepts, beyond the recheck's range
    ({"spec": {"width": 10**6}}, "'width'"),
    ({"spec": {"depth": "2"}}, "'depth'"),
    ({"params": {"degree": "x"}}, "'degree'"),
    ({"params": {"weight_range": None}}, "'weight_range'"),  # was an internal error
    ({"value": {"rank": True}}, "'rank'"),
])
def test_a_malformed_degree_block_field_is_refused_naming_it(tmp_path, capsys, edit, field):
    code, out, err = _run(capsys, _block_store(tmp_path, **edit))
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1, (code, out[-300:], err)
    assert field in err and "row 1" in err, err


def test_a_huge_degree_block_is_priced_beyond_the_budget(tmp_path):
    """depth 8, d_x = 14, degree 1640: the block has about 10^170 rows and columns, so its stated full rank is
    priced beyond any budget (the product of the sizes would overflow a float price)."""
    n, top, a = 14 * 15 // 2, (3**8 - 1) // 2, 1640
    rows, cols = comb(a + n - 1, n - 1), 14 * comb(top - a + n - 1, n - 1)
    path = _block_store(tmp_path, spec={"depth": 8, "width": 14, "heads": 1, "attn_dim": 14},
                        params={"degree": a}, value={"rows": rows, "cols": cols, "rank": rows})
    rc = recheck([str(path)], 1)
    (line,) = [f for f in rc.findings if f.value == f"rank {rows}"]
    assert line.status == BEYOND, line.line()


def test_a_format2_cell_without_a_bound_is_read(tmp_path):
    """(r, L, H) = (3, 1, 1): Theorem 2's proof bound needs L >= 2, so format version 2 writes no bound, floor, N
    or scale; the shapes accept the row and the check confirms that there is no bound."""
    rows = list(csv.DictReader((DATA / "cells.csv").open()))[:1]
    rows[0].update(r="3", depth="1", heads="1", bound="", scale="", counting_floor="", n_reached="",
                   rank_at_least="", rank_at_n="", certainty="", eq74_at_n="", cap_at_n="", c="",
                   status="no bound")
    path = tmp_path / "cells.csv"
    with path.open("w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(rows[0]) + ["schema_version"])
        writer.writeheader()
        writer.writerows([{**rows[0], "schema_version": "2"}])
    rc = recheck([str(path)], 1)
    assert [f.value for f in rc.findings if "no bound" in f.value] == ["status 'no bound'"]
    assert rc.exit_status() == 0, [f.line() for f in rc.findings]
