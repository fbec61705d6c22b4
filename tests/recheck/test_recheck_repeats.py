"""The recheck of repeated atlas results (docs/mathematics.md §7, Lemma R): the runs' documented draws and the
product over them, recomputed without the engine."""

from __future__ import annotations

import csv
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest

from special_files import write_csv
from verify.recheck import CONFIRMED, CONSISTENT, CONTRADICTED, recheck
from verify.recheck.repeats import parse_repeats, product_over_runs, run_prime, run_seed

ROOT = Path(__file__).resolve().parents[2]


def test_the_documented_draws():
    assert run_seed(0, 0) == 0 and run_seed(5, 2) == 5 + 2 * 1_000_003
    # the primes below 2^31 - 1, by trial division here (an independent route)

    def is_prime(n):
        return n > 1 and all(n % d for d in range(2, int(n**0.5) + 1))
    below = [n for n in range(2**31 - 2, 2**31 - 200, -1) if is_prime(n)][:2]
    assert [run_prime(2**31 - 1, i) for i in range(3)] == [2**31 - 1] + below


def test_parse_and_product():
    parsed = parse_repeats("limit:7 runs | 16:3 runs; rank from run 2 | 18:1 runs; budget: one run costs 5 evaluations"
                           " | 20:not repeated: the first run met no bound of this N's kind (every)")
    assert parsed == {"limit": (7, 0), 16: (3, 2), 18: (1, 0)}
    assert parse_repeats("") == {}
    assert product_over_runs(lambda p: Fraction(1, 10), 2**31 - 1, 3) == Fraction(1, 1000)
    assert product_over_runs(lambda p: Fraction(3, 2), 2**31 - 1, 2) == 1  # a bound above 1 counts as 1


@pytest.fixture(scope="module")
def small_atlas(tmp_path_factory):
    out = tmp_path_factory.mktemp("atlas")
    subprocess.run([sys.executable, str(ROOT / "benchmarks" / "atlas.py"), "--cells", "3,2,1,1", "2,2,2,2",
                    "--out", str(out)], check=True, capture_output=True)
    return out / "n_atlas.csv"


def _findings(path, status):
    rc = recheck([str(path)], 5)
    return [f.line() for f in rc.findings if f.status == status]


def test_a_repeated_atlas_rechecks_clean(small_atlas):
    rows = list(csv.DictReader(small_atlas.open()))
    assert any("runs" in row["repeats"] for row in rows)
    assert _findings(small_atlas, CONTRADICTED) == []
    # the limit's probability rests on the engine's doubling route (r1's dependencies): a consistent line
    confirmed = " ".join(_findings(small_atlas, CONFIRMED) + _findings(small_atlas, CONSISTENT))
    assert "multiplied over 2 runs" in confirmed


def test_a_product_over_fewer_runs_than_printed_is_contradicted(small_atlas, tmp_path):
    """A row that claims more runs than its probability multiplies (or the reverse) is caught."""
    rows = list(csv.DictReader(small_atlas.open()))
    for row in rows:
        row["repeats"] = row["repeats"].replace("12:3 runs", "12:2 runs").replace("limit:2 runs", "limit:1 runs")
    planted = tmp_path / "n_atlas.csv"
    with planted.open("w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    lines = " ".join(_findings(planted, CONTRADICTED))
    # r1 names the line after the label it judges ("label probabilistic(...)"), no longer "probability"
    assert "N=12: label probabilistic" in lines and "limit probability" in lines


def test_a_rank_from_a_later_run_is_rechecked_at_that_runs_draws(small_atlas, tmp_path):
    rows = list(csv.DictReader(small_atlas.open()))
    for row in rows:
        row["repeats"] = row["repeats"].replace("12:3 runs", "12:3 runs; rank from run 1")
    planted = tmp_path / "n_atlas.csv"
    with planted.open("w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    assert any("(repeat run 1) N=12: rank" in line for line in _findings(planted, CONFIRMED))
    assert _findings(planted, CONTRADICTED) == []


def test_probe_n_repeats_its_limit_and_the_recheck_multiplies(tmp_path):
    """probe-n's computed limit of (L, d_x, H, d_a, V, R) = (2, 3, 2, 1, 2, 2) bounds 0.000842 in one run: it is
    repeated (two runs, product <= 1e-6) and the recheck confirms the product from the documented draws."""
    out = tmp_path / "probe.json"
    with out.open("w") as handle:
        subprocess.run([sys.executable, "-m", "verify", "probe-n", "--depth", "2", "--width", "3", "--heads", "2",
                        "--attn-dim", "1", "--vocab", "2", "--rank", "2", "--pos-rank", "2", "--max-tokens", "10",
                        "--no-store", "--json"], check=True, stdout=handle, stderr=subprocess.DEVNULL, cwd=ROOT)
    import json

    limit = json.loads(out.read_text())["limit"]
    assert [run["seed"] for run in limit["runs"]] == [0, 1_000_003] and limit["probability_bound"] <= 1e-6
    assert _findings(out, CONTRADICTED) == []
    # the limit's probability rests on the engine's doubling route (r1's dependencies): a consistent line
    assert any("multiplied over 2 runs" in line for line in _findings(out, CONFIRMED) + _findings(out, CONSISTENT))


def test_an_every_sequence_row_over_three_runs_is_the_cube():
    """Where H is not computed at this N the repeats' kind is 'every sequence kept': the recheck's offer is the
    product of the three runs' Schwartz-Zippel bounds, proven * D / (2^21 + 1) each (D = 42 at L = 2)."""
    from verify.recheck.tokens import Cell, _offers

    cell = Cell(2, 3, 1, 3, 2, 2, 1, 0, 2**31, 2**31 - 1, None, None, None)
    cell.row_runs = {8: 3}
    proven = cell.proven(8)[0]
    offers = dict((what, value) for value, what in _offers(cell, 8, proven - 1, None, True))
    assert offers["every sequence kept"] == (Fraction(proven * 42, 2 * 2**20 + 1)) ** 3


def _one_run_row(tmp_path, label: str) -> list:
    """data/atlas_why1_v2.csv's first row (L = 4, V = 2, R = 1) with N = 16 (every sequence kept, eq. 7.4 met at
    the positions: its menu's union 0.184) printed as a repeated row that the budget stopped after its first run."""
    with open(ROOT / "tests" / "recheck" / "data" / "atlas_why1_v2.csv", newline="") as handle:
        rows = list(csv.DictReader(handle))
    for row in rows:
        row["repeats"] = ""
    rows[0]["ranks_labels"] = rows[0]["ranks_labels"].replace("16:probabilistic(0.184)", f"16:probabilistic({label})")
    rows[0]["repeats"] = "16:1 runs; budget: one run costs 65,536 evaluations of F, the cell's repeat budget has 0 left"
    path = write_csv(tmp_path / "atlas.csv", rows)
    rc = recheck([str(path)], 0)
    return [f for f in rc.findings if f.where.endswith("row 1 (L=4, V=r=2, H=1, R=1) N=16") and "label" in f.value]


def test_a_row_repeated_once_prints_its_kind_alone(tmp_path):
    """Lemma C: a row whose first run met the kind fixed by N (eq. 7.4 at the positions) is on the repeated branch
    even where the budget stops it after that run; its bound is that kind's product over one run, Lemma P's 0.1341
    alone, valid because the single branch's union carries Lemma P's term whether met or not.  Recomputed as such,
    and the menu's union (0.184) is not demanded of it; a smaller number is still contradicted."""
    (line,) = _one_run_row(tmp_path, "0.135")
    assert line.status != CONTRADICTED and "the bound for 'eq. 7.4 with H at the positions" in line.detail
    (line,) = _one_run_row(tmp_path, "0.1")
    assert line.status == CONTRADICTED and "the proof gives 0.135" in line.detail
