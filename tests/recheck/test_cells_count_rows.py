"""The committed bound cells of format 2 whose rank was shown by count rows (bound + 16 seeded rows of the count
matrix against every column, ``rank_route`` "count rows"): the recheck has no route for that draw, so the rank is
beyond the budget and never confirmed, and a rank below the bound where the row says it is reached is contradicted
(issue 49's L = 5 cells without positions)."""

from __future__ import annotations

import csv
from pathlib import Path

from verify.recheck import CONTRADICTED, recheck

ROOT = Path(__file__).resolve().parents[2]


def _write(path: Path, rows: list[dict]) -> Path:
    with path.open("w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    return path


def _count_rows(rows: list[dict]) -> list[dict]:
    return [row for row in rows if row.get("rank_route") == "count rows"]


def test_count_rows_are_beyond_the_budget_and_a_rank_below_the_bound_is_contradicted(tmp_path):
    with open(ROOT / "results" / "n_positional_cells.csv", newline="") as handle:
        rows = list(csv.DictReader(handle))
    counted = _count_rows(rows)
    assert counted, "the committed cells hold rows reached by count rows (L = 5 without positions)"
    rc = recheck([str(_write(tmp_path / "good.csv", counted))], 1)
    assert not [f for f in rc.findings if f.status == CONTRADICTED]
    lines = [f for f in rc.findings if f.value.startswith("rank_at_least")]
    assert lines and all(f.status == "beyond the budget" for f in lines if "reaches" not in f.value)
    bad = [dict(row) for row in counted]
    bad[0]["rank_at_least"] = str(int(bad[0]["bound"]) - 1)  # one below the bound it is said to reach
    rc = recheck([str(_write(tmp_path / "bad.csv", bad))], 1)
    wrong = [f for f in rc.findings if f.status == CONTRADICTED]
    assert wrong and "below the bound" in wrong[0].detail


def test_an_unknown_rank_route_is_one_line_naming_the_field(tmp_path):
    from verify.recheck import BadInput

    with open(ROOT / "results" / "n_positional_cells.csv", newline="") as handle:
        rows = list(csv.DictReader(handle))
    rows[0]["rank_route"] = "bogus"
    try:
        recheck([str(_write(tmp_path / "bad.csv", rows))], 1)
    except BadInput as exc:
        assert "'rank_route'" in str(exc) and "row 1" in str(exc)
    else:
        raise AssertionError("an unknown rank_route was read")
