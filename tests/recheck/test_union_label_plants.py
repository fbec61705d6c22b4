"""The re-checker contradicts a probabilistic label printed with the smaller offer alone: the label's probability
is the union over every offer on the row's menu (docs/mathematics.md §7, "A label's union").  The plants put
back what the old min rule printed: Lemma P's 0.0033602698515558956 at N = 12 of data/probe_probabilistic.json
(every sequence kept there: the union adds 64 * 132 / (2^21 + 1)), and the computed limit's 0.00439 at N = 10 of
row 6 of data/atlas.csv (the union adds eq. 7.4 at the positions, 0.000927, and the every-sequence offer that the
fixed menu carries there)."""

from __future__ import annotations

import csv
import json
from pathlib import Path

from special_files import write_csv
from verify.cli.main import main

DATA = Path(__file__).resolve().parent / "data"


def _contradictions(capsys, path) -> list[str]:
    assert main(["recheck", str(path), "--max-seconds", "1"]) == 1
    return [line for line in capsys.readouterr().out.splitlines() if line.startswith("contradicted: ")]


def test_a_probe_label_with_the_smaller_offer_alone_is_contradicted(tmp_path, capsys):
    data = json.loads((DATA / "probe_probabilistic.json").read_text())
    row = next(row for row in data["ranks"] if row["tokens"] == 12)
    assert row["label"] == "probabilistic"
    row["probability"] = row["probability_bound"] = 0.0033602698515558956
    path = tmp_path / "probe_probabilistic.json"
    path.write_text(json.dumps(data))
    bad = _contradictions(capsys, path)
    assert any("N=12" in line and "the proof gives 0.00739" in line and "union of the row's offers" in line
               for line in bad), bad


def test_an_atlas_label_with_the_smaller_offer_alone_is_contradicted(tmp_path, capsys):
    with open(DATA / "atlas.csv", newline="") as handle:
        rows = list(csv.DictReader(handle))
    assert "10:probabilistic(0.00532)" in rows[5]["ranks_labels"]
    rows[5]["ranks_labels"] = rows[5]["ranks_labels"].replace("10:probabilistic(0.00532)", "10:probabilistic(0.00439)")
    path = tmp_path / "atlas.csv"
    write_csv(path, rows)
    bad = _contradictions(capsys, path)
    # the menu is fixed before the draw (docs/mathematics.md §7, Lemma C): at N = 10 (243 sequences a side, the
    # file does not record the sample budget) every sequence may be kept, so the every-sequence offer,
    # 78 * 42 / (2^21 + 1) = 0.00156 (78: eq. 7.4's caps, the smallest proven bound; 42 the entry degree at L = 2),
    # joins the limit's 0.00439 and Lemma P's 0.000927: 0.00688
    assert any("N=10" in line and "probabilistic(0.00439)" in line and "the proof gives 0.00688" in line
               for line in bad), bad
