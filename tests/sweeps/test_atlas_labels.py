"""Issue 43's atlas survivors (AT02-AT04) and issue 39's atlas rows: a rank at the derivative bound is certified,
the first N at Theorem 2's bound includes equality, "at the counting floor" only where it is, and the committed
(L = 3, V = 3, R = 1) rows read 696 at N = 16 and 705, certified, at N = 18."""

import csv
from pathlib import Path
from types import SimpleNamespace

import pytest

from verify import NetworkSpec
from verify.sweeps.atlas import bound as bound_module
from verify.sweeps.atlas.grid import first_n_reaching, row_label
from verify.sweeps.atlas.plan import Cell

ROOT = Path(__file__).resolve().parents[2]
SPEC = NetworkSpec(depth=3, width=4, heads=1, attn_dim=4)


def test_a_rank_at_the_derivative_bound_is_certified():
    """The derivative bound is proven for every weight: a rank meeting it, below the counting cap and eq. 7.4's caps,
    with no limit known and H not computed at the positions, is certified exact, not a lower bound."""
    none = {"certified": 9000, "at_positions": None, "probability": None}
    assert row_label(705, False, 6561, 705, none, None, SPEC) == "certified"
    assert row_label(704, False, 6561, 705, none, None, SPEC) == "lb-1"
    assert row_label(705, False, 6561, 800, none, SimpleNamespace(rank=705, certified_exact=True,
                                                                 probability_bound=0.0), SPEC) == "certified"


def test_the_first_n_at_a_bound_includes_the_n_where_the_rank_equals_it():
    steps = [(2, 3, 3, None), (4, 9, 9, None), (6, 10, 27, None), (8, 12, 81, None)]
    assert first_n_reaching(steps, 10) == 6
    assert first_n_reaching(steps, 11) == 8
    assert first_n_reaching(steps, 13) is None and first_n_reaching(steps, None) is None


def test_a_bound_cell_reached_above_its_floor_is_at_most_there(monkeypatch):
    """r = 8, L = 3, H = 1, R = 1: floor 4.  With the minor singular at N = 4 and nonsingular at N = 6 the row reads
    n_reached = 6 and its certainty must not claim the floor; reached at the floor, it does."""
    real = bound_module.sampled_minor_rank
    monkeypatch.setattr(bound_module, "sampled_minor_rank",
                        lambda spec, w, e, tokens, k, *rest: k - 1 if tokens == 4 else k)
    row = bound_module.bound_row(Cell("bound", 3, 8, 1, 1), 3_000_000)
    assert (row["counting_floor"], row["n_reached"], row["rank_at_least"], row["rank_at_n"]) == (4, 6, 10, "")
    assert row["n_reached_certainty"] == "at most"  # N = 4 not shown to reach it does not show it cannot
    monkeypatch.setattr(bound_module, "sampled_minor_rank", real)
    row = bound_module.bound_row(Cell("bound", 3, 8, 1, 1), 3_000_000)
    assert row["n_reached"] == 4 and row["n_reached_certainty"] == "certified"


def _committed_grid_row(depth, vocab, heads, pos_rank):
    with open(ROOT / "results" / "n_atlas.csv", newline="") as handle:
        return next(r for r in csv.DictReader(handle)
                    if (r["depth"], r["vocab_r"], r["heads"], r["pos_rank"])
                    == tuple(map(str, (depth, vocab, heads, pos_rank))))


@pytest.mark.parametrize("heads", [1, 2])
def test_the_committed_l3_v3_r1_rows_read_696_and_705_certified(heads):
    """Issue 39 item 7: N = 16 ranked whole (6,561 x 6,561: 696, two independent computations agree) and N = 18 by
    rows against every column (705, the proven derivative bound: certified); the first N at the limit is 18."""
    row = _committed_grid_row(3, 3, heads, 1)
    ranks = dict(item.split(":") for item in row["ranks"].split())
    labels = dict(item.split(":") for item in row["ranks_labels"].split())
    assert (ranks["16"], ranks["18"]) == ("696", "705")
    assert labels["18"] == "certified" and not labels["16"].startswith("lb-")
    assert row["first_n_limit"] == "18" and row["limit"] == "705" and row["limit_upper_bound"] == "705"
    assert "20" not in ranks


def test_the_committed_bound_cells_split_the_minor_from_the_rank():
    with open(ROOT / "results" / "n_positional_cells.csv", newline="") as handle:
        rows = list(csv.DictReader(handle))
    for row in rows:
        if row["status"] != "reached":
            continue
        if row["pos_rank"] != "0":
            assert row["rank_at_n"] == "" and row["rank_at_least"] == row["bound"]
        elif row["rank_route"] == "count rows":  # bound + 16 rows of the count matrix: no whole-matrix rank
            assert row["rank_at_n"] == "" and int(row["rank_at_least"]) >= int(row["bound"])
        else:
            assert row["rank_at_n"] == row["rank_at_least"] and int(row["rank_at_n"]) >= int(row["bound"])


def test_the_limit_column_holds_one_meaning():
    """Issue 39 item 4 (audit): ``limit`` is the computed limit or empty, never ">= n"; where its computation was
    beyond reach, ``limit_at_least`` holds the certified lower bound its last sample met."""
    with open(ROOT / "results" / "n_atlas.csv", newline="") as handle:
        rows = list(csv.DictReader(handle))
    assert all(row["limit"] == "" or row["limit"].isdigit() for row in rows)
    for row in rows:
        if row["limit_certainty"] == "beyond reach":
            assert row["limit"] == "" and int(row["limit_at_least"]) <= int(row["limit_upper_bound"])
        else:
            assert row["limit_at_least"] == ""
    assert sum(row["limit_certainty"] == "beyond reach" for row in rows) == 12
