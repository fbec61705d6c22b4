"""A label is confirmed only on an argument the file carries (issue 46 items 1-2; docs/mathematics.md §11).

data/atlas_why1.csv holds two rows of results/n_atlas.csv as committed before issue 46 (format version 1: no
record of what each label rests on): (L=4, V=2, H=1, R=1) and (L=3, V=3, H=1, R=1).  data/atlas_why1_v2.csv is
the same two rows in format version 2 (schema_version 2, ranks_sampled, ranks_offer, limit_probability), written
by hand from the docs of that format: N <= 18 of the first row and every N of the second kept every sequence,
N >= 20 of the first sampled 600 rows.  The plants are the two of issue 46's Why 1.
"""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from special_files import write_csv
from verify.cli.main import main
from verify.recheck import CONSISTENT, CONTRADICTED, RECOMPUTED, recheck

DATA = Path(__file__).resolve().parent / "data"


def _plant(tmp_path, name, index, **changes):
    with open(DATA / name, newline="") as handle:
        rows = list(csv.DictReader(handle))
    for key, (old, new) in changes.items():
        assert old in rows[index][key], (key, old)
        rows[index][key] = rows[index][key].replace(old, new)
    path = tmp_path / name
    write_csv(path, rows)
    return path


#: Why 1, the first plant: lb-328 at N = 22 made probabilistic(0.113), the every-sequence bound of 588
PLANT_22 = {"ranks_labels": ("22:lb-328", "22:probabilistic(0.113)"), "sampled_below": ("22:260<588 ", ""),
            "maximal_rank_exceptions": ("18:245<512", "18:245<512 22:260<588")}
#: Why 1, the second plant: 696 at N = 16 made 697, the exceptions edited to match
PLANT_16 = {"ranks": ("16:696", "16:697"), "maximal_rank_exceptions": ("16:696<705", "16:697<705")}


def _lines(rc, status, value):
    return [f for f in rc.findings if f.status == status and value in f.value]


@pytest.mark.parametrize("name", ["atlas_why1.csv", "atlas_why1_v2.csv"])
def test_a_label_made_probabilistic_on_a_sample_is_contradicted(tmp_path, capsys, name):
    offer = {"ranks_offer": ("22:none", "22:every_sequence")} if name.endswith("_v2.csv") else {}
    path = _plant(tmp_path, name, 0, **PLANT_22, **offer)
    assert main(["recheck", str(path), "--max-seconds", "0"]) == 1
    out = capsys.readouterr().out
    hit = [line for line in out.splitlines() if line.startswith("contradicted: ") and "N=22" in line
           and "probabilistic(0.113)" in line]
    assert hit and "does not show every sequence was kept" in hit[0], out


def _first_row_only(path):
    with open(path, newline="") as handle:
        rows = list(csv.DictReader(handle))[:1]
    write_csv(path, rows)
    return path


def test_claiming_every_sequence_for_that_sample_leaves_it_unconfirmed(tmp_path):
    """The planter also edits ranks_sampled to claim every sequence: the file now carries the argument, and only
    the rank itself can speak against it (the whole 2,048 x 2,048 matrix has rank 312, issue 46; 264 rows against
    every column is priced at about 163 s).  Within a small budget the label is never recomputed: exit 3."""
    changes = dict(PLANT_22, ranks_sampled=("22:600x2048", "22:2048x2048"),
                   ranks_offer=("22:none", "22:every_sequence"))
    rc = recheck([str(_first_row_only(_plant(tmp_path, "atlas_why1_v2.csv", 0, **changes)))], 1)
    assert rc.exit_status() == 3
    (label,) = _lines(rc, CONSISTENT, "probabilistic(0.113)")
    assert "rank 260 (beyond the budget)" in label.detail


def test_the_old_format_cannot_carry_an_every_sequence_label(tmp_path):
    """Unplanted, the old format's N = 14 and 16 labels of the second row rest on every sequence kept, which it
    does not record: contradicted, never confirmed (a file regenerated in format version 2 shows it).  The first
    row's N = 16 and 18 (L = 4, V = 2: 256 and 512 sequences a side, the counting cap the smallest proven bound)
    print Lemma P alone (0.135, 0.233), from before the menu was fixed before the draw (docs/mathematics.md §7,
    Lemma C): where the first sample can be the whole matrix the every-sequence offer, cap * 402 / (2^21 + 1)
    (0.0491, 0.0982), is on the menu: 0.184 and 0.331 are proven, not 0.135 and 0.233."""
    rc = recheck([str(DATA / "atlas_why1.csv")], 0)
    bad = [f for f in rc.findings if f.status == CONTRADICTED]
    assert {(f.where.split()[-2], f.where.split()[-1]) for f in bad} >= {("R=1)", "N=14"), ("R=1)", "N=16")}
    shown = [f for f in bad if "does not show every sequence was kept" in f.detail]
    assert {f.where.split()[-1] for f in shown} == {"N=14", "N=16"} and all("row 2" in f.where for f in shown)
    union = [f for f in bad if f not in shown]
    assert [f.where.split()[-1] for f in union] == ["N=16", "N=18"]
    assert "the proof gives 0.184" in union[0].detail and "the proof gives 0.331" in union[1].detail
    assert recheck([str(DATA / "atlas_why1_v2.csv")], 0).counts()[CONTRADICTED] == 0


def test_a_rank_raised_beyond_the_budget_is_never_confirmed(tmp_path):
    """The second plant in format version 2, where the file still claims every sequence at N = 16: the rank is
    beyond a small budget, so nothing resting on it is recomputed (the label, the exceptions, the limit)."""
    path = _plant(tmp_path, "atlas_why1_v2.csv", 1, **PLANT_16)
    rc = recheck([str(path)], 1)
    assert rc.exit_status() in (1, 3)
    for value in ("rank 697", "probabilistic(0.0444)", "maximal_rank_exceptions"):
        assert _lines(rc, RECOMPUTED, value) == [], value
    label = _lines(rc, CONSISTENT, "probabilistic(0.0444)")
    label = [f for f in label if f.where.endswith("N=16")]
    assert label and "rank 697 (beyond the budget)" in label[0].detail


@pytest.mark.slow
@pytest.mark.parametrize("name", ["atlas_why1.csv", "atlas_why1_v2.csv"])
def test_a_rank_raised_above_eq74_at_the_positions_is_contradicted(tmp_path, name):
    """The second plant: the recheck's own eq. 7.4 with H at the seeded positions at N = 16 is 696 (about 30 s),
    an upper bound at every weight at these positions, so 697 is contradicted by a proof in either format."""
    path = _plant(tmp_path, name, 1, **PLANT_16)
    with open(path, newline="") as handle:  # the second row alone: the budget goes to its N = 16
        rows = list(csv.DictReader(handle))[1:]
    write_csv(path, rows)
    rc = recheck([str(path)], 300)
    assert rc.exit_status() == 1
    assert _lines(rc, CONTRADICTED, "rank 697 against eq. 7.4 at the positions")


@pytest.mark.parametrize("version", ["3", "0", "two", "99999999999"])
def test_an_unknown_format_version_is_refused(tmp_path, capsys, version):
    with open(DATA / "atlas_why1_v2.csv", newline="") as handle:
        rows = list(csv.DictReader(handle))
    rows[1]["schema_version"] = version
    path = write_csv(tmp_path / "atlas.csv", rows)
    assert main(["recheck", str(path)]) == 2
    out, err = capsys.readouterr()
    assert out == "" and len(err.strip().splitlines()) == 1 and "format version" in err


def test_an_unknown_json_version_is_refused(tmp_path, capsys):
    data = (DATA.parent / "data" / "report.json").read_text()
    path = tmp_path / "report.json"
    path.write_text(data.replace("{", '{"schema_version": 7, ', 1))
    assert main(["recheck", str(path)]) == 2
    assert "format version 7" in capsys.readouterr().err


def test_a_square_sample_shows_the_every_sequence_offer_off_the_menu(tmp_path):
    """(L, V, R) = (2, 5, 6), N = 12 of results/n_atlas.csv: a 90 x 15,625 + 301 x 301 sample met the computed
    limit 285, and the label is the limit's product alone (9.1e-08).  The square part shows the budget below
    15,625^2 (the sampler squares only where aim + 16 rows against every column pass it), so no draw could have kept
    every sequence and that offer is off the menu (docs/mathematics.md §7, Lemma C): the union is recomputed, not
    left to the budget the file does not record."""
    with open(Path(__file__).resolve().parents[2] / "results" / "n_atlas.csv", newline="") as handle:
        rows = [row for row in csv.DictReader(handle)
                if (row["depth"], row["vocab_r"], row["heads"], row["pos_rank"]) == ("2", "5", "1", "6")]
    assert "12:probabilistic(9.1e-08)" in rows[0]["ranks_labels"] and "12:90x15625+301x301" in rows[0]["ranks_sampled"]
    path = write_csv(tmp_path / "atlas.csv", rows)
    rc = recheck([str(path)], 0)
    (label,) = [f for f in rc.findings if f.where.endswith("N=12") and f.value == "label probabilistic(9.1e-08)"]
    assert "the bound for 'the union of the row's offers: the computed limit' is" in label.detail, label.line()
