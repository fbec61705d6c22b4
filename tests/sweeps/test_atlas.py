"""The atlas of the conjecture on N (``verify.sweeps.atlas``; ``benchmarks/atlas.py`` is its driver): the
quick run cross-checked cell by cell against enumeration of every token sequence (the literal forward
pass), the bound cells against closed forms (Lemma 7's binomial by counting multisets, the counting floor,
r L / log3 r), and the driver's files."""

import csv
import math
import re
import subprocess
import sys
from itertools import combinations_with_replacement, product
from math import comb
from pathlib import Path

import pytest

from verify import Field, NetworkSpec, draw_weights
from verify.errors import InputError
from verify.model.embeddings import VocabularyEmbedding
from verify.rank.token.gram import TOKEN_PRIME
from verify.rank.token.tokens import token_rank
from verify.sweeps.atlas.bound import bound_row
from verify.sweeps.atlas.csv_rows import csv_text, merge_rows, read_rows, row_key
from verify.sweeps.atlas.grid import grid_row, split_exceptions
from verify.sweeps.atlas.plan import (
    CONSTANTS,
    GRIDS,
    Budget,
    Cell,
    bound_cells,
    budget_for,
    estimate_seconds,
    grid_cells,
    parse_cell,
    step_cost,
)
from verify.sweeps.atlas.run import run_cells

ROOT = Path(__file__).resolve().parents[2]


def _enumerated(depth: int, vocab: int, heads: int, big_r: int, tokens: int, seed: int = 0) -> int:
    """sep at N = tokens by the enumeration route: every one of the V^N sequences, ranked over GF(p)."""
    width = vocab + 1
    spec = NetworkSpec(depth=depth, width=width, heads=heads, attn_dim=max(1, width // heads))
    embedding = VocabularyEmbedding(width, vocab, vocab, big_r, seed)
    return token_rank(spec.with_tokens(tokens), draw_weights(spec, seed), embedding, Field(TOKEN_PRIME),
                      tuple(range(tokens // 2)), "enumeration").rank


def _pairs(text: str) -> dict:
    return dict(tuple(map(int, item.split(":"))) for item in str(text).split())


@pytest.fixture(scope="module")
def quick():
    return dict(run_cells(grid_cells("quick") + bound_cells("quick"), "quick"))


def test_quick_grid_against_enumeration(quick):
    rows = [row for cell, row in quick.items() if cell.section == "grid"]
    assert len(rows) == len(grid_cells("quick"))  # every cell is a row
    for row in rows:
        vocab, big_r = row["vocab_r"], int(str(row["pos_rank"]).split()[0])
        ranks, caps = _pairs(row["ranks"]), _pairs(row["caps"])
        for tokens, rank in ranks.items():
            sides = list(product(range(vocab), repeat=tokens // 2))
            distinct = len(sides) if big_r else len({tuple(sorted(s)) for s in sides})  # B side, by brute force
            assert caps[tokens] == distinct
            if vocab**tokens <= 729:
                assert rank == _enumerated(row["depth"], vocab, row["heads"], big_r, tokens), (row, tokens)
        assert row["status"] == "reached the limit"
        first = int(row["first_n_limit"])
        assert ranks[first] == int(row["limit"]) and all(r < int(row["limit"]) for n, r in ranks.items() if n < first)
        assert int(row["first_n_cap_reaches_limit"]) <= first  # rank <= cap at every N
        for c in CONSTANTS:
            scale = vocab * row["depth"] / math.log(vocab, 3)
            assert row[f"n_c{c}"] >= c * scale > row[f"n_c{c}"] - 2


def _lemma7_by_counting(depth: int, r: int, heads: int) -> int:
    """((n over k)), n = floor((r - 1 - H)/2), k = 3^(L-2): the multisets of size k from n items, listed."""
    return sum(1 for _ in combinations_with_replacement(range((r - 1 - heads) // 2), 3 ** (depth - 2)))


def test_bound_cells_against_closed_forms_and_enumeration(quick):
    rows = {cell: row for cell, row in quick.items() if cell.section == "bound"}
    assert list(rows) == bound_cells("quick")
    floors_above_two = 0
    for cell, row in rows.items():
        vocab, depth, positional = cell.vocab, cell.depth, cell.positional_rank > 0
        bound = _lemma7_by_counting(depth, vocab, cell.heads)
        assert row["bound"] == bound
        assert row["scale"] == f"{vocab * depth / math.log(vocab, 3):.2f}"
        # counting floor: the least even N whose B side has >= bound sequences (multisets without positions)
        floor = next(n for n in range(2, 40, 2) if len({s if positional else tuple(sorted(s))
                                                       for s in product(range(vocab), repeat=n // 2)}) >= bound)
        assert row["counting_floor"] == floor
        if positional:
            assert floor == max(2, 2 * math.ceil(round(math.log(bound, vocab), 9)))
        assert row["n_reached"] == floor and row["status"] == "reached" and row["n_reached_certainty"] == "certified"
        assert row["rank_route"] == ("sampled minor" if positional else "count route")
        rank = _enumerated(depth, vocab, cell.heads, cell.positional_rank, floor)
        assert bound <= row["rank_at_least"] <= rank  # the minor: a lower bound on sep
        if not positional and row["rank_at_n"] != "":
            assert row["rank_at_n"] == row["rank_at_least"] == rank  # the count route is sep at these weights
        elif not positional:  # issue 49: bound + 16 rows of the count matrix against every column, a lower bound
            assert "rows of the count matrix against every column" in row["certainty"]
        else:  # issue 39: only a minor was ranked, so no rank of the whole matrix is claimed
            assert row["rank_at_least"] == bound and row["rank_at_n"] == "" and row["eq74_at_n"] >= rank
        if floor > 2:
            floors_above_two += 1
            assert _enumerated(depth, vocab, cell.heads, cell.positional_rank, floor - 2) < bound
        assert row["c"] == f"{floor / (vocab * depth / math.log(vocab, 3)):.2f}"
    assert floors_above_two >= 2  # the counting floor is exercised where it bites


def test_theorem2_bounds_of_the_full_bound_cells():
    # the issue's sizes: 55 at (r, L) = (8, 4), 220 at (10, 4), 715 at (12, 4), 406 at (8, 5), 4,060 at (10, 5)
    from verify.rank.bound import lemma7_lower_bound

    for (r, depth), value in {(8, 4): 55, (10, 4): 220, (12, 4): 715, (8, 5): 406, (10, 5): 4060}.items():
        assert lemma7_lower_bound(depth, r, 1) == value == _lemma7_by_counting(depth, r, 1)
    assert {(c.depth, c.vocab, c.heads) for c in bound_cells()} == {
        (d, r, h) for d in (3, 4, 5) for r in (8, 10, 12) for h in (1, 2)}


def test_a_cell_without_the_bound_is_a_row_saying_so():
    row = bound_row(Cell("bound", 2, 4, 2, 1), 1000)  # floor((4 - 1 - 2)/2) = 0
    assert row["bound"] == "" and row["status"].startswith("no bound") and row["n_reached"] == ""


def test_a_bound_cell_past_its_budget_is_a_row_with_its_estimate():
    row = bound_row(Cell("bound", 4, 6, 1, 1), 99)  # 10^2 evaluations at the floor > 99
    assert row["status"] == "N = 4 beyond the budget" and row["next_step_price"] == 100
    assert row["next_step_unit"] == "evaluations of F" and float(row["next_step_seconds"]) >= 0
    assert row["eq74_at_n"] and row["cap_at_n"] == 36 and row["c"] == ""


def test_sampled_rows_below_are_not_exceptions():
    # the L = 3, V = 3, R = 1 row: 12 probabilistic, 16 a lower bound 19 short; a count-route rank is exact
    steps = [(12, 554, 729, "probabilistic(0.00312)"), (16, 686, 6561, "lb-19"), (20, 705, 59049, "certified"),
             (8, 40, 45, None)]
    assert split_exceptions(steps, 705) == (["12:554<705", "8:40<45"], ["16:686<705"])
    assert split_exceptions(steps, None) == ([], [])


def test_out_of_reach_cells_are_rows_with_the_estimate():
    tiny = Budget(limit_evaluations=50, step_evaluations=10, matrix_entries=10, loop_evaluations=10, loop_entries=10)
    row = grid_row(Cell("grid", 3, 3, 1, 1), tiny, 0)
    assert row["limit_certainty"] == "beyond reach" and "limit beyond reach" in row["notes"]
    assert "beyond reach" in row["status"] and "budget" in row["notes"] and row["limit_probability"] == ""
    assert row["first_n_limit"] == "" and row["first_n_limit_status"] == "no limit"
    if row["status"].endswith("beyond reach"):  # the refused step's price, in evaluations of F, and its seconds
        assert row["next_step_unit"] == "evaluations of F" and float(row["next_step_seconds"]) >= 0
    # issue 39: one meaning per column: no limit value, its certified lower bound in its own column
    assert row["limit"] == "" and isinstance(row["limit_at_least"], int) and row["limit_at_least"] >= 0
    # the priced N cost: rows V binom(min(N/2 - 1, C) + V - 1, V - 1) by columns binom(min(N/2, C) + V - 1, V - 1)
    assert step_cost(3, 8, 4, False, 0) == 3 * comb(3 + 2, 2) * comb(4 + 2, 2)


def test_a_limit_out_of_reach_skips_the_larger_cells_whatever_the_workers():
    tiny = dict(limit_evaluations=50, step_evaluations=10)
    cells = [Cell("grid", 3, 2, 1, 1), Cell("grid", 3, 2, 1, 2), Cell("grid", 3, 3, 1, 1)]
    one = dict(run_cells(cells, "quick", raise_budget=tiny))
    assert one[cells[0]]["limit_certainty"] == "beyond reach"
    assert [one[c]["limit_certainty"] for c in cells[1:]] == ["not attempted"] * 2
    assert "L=3 V=2 H=1 R=1 was beyond reach" in one[cells[2]]["notes"]
    two = dict(run_cells(cells[::-1], "quick", jobs=2, raise_budget=tiny, estimate={cells[2]: 9.0}))

    def computed(row):  # all but the time taken and the rate measured
        return {k: re.sub(r"about [\d.]+ s( at [\d.]+ us each)?", "", str(v)) for k, v in row.items() if k != "seconds"}

    for cell in cells:
        assert computed(two[cell]) == computed(one[cell])


def test_the_raised_budgets_are_the_cells_the_issue_names():
    assert budget_for(Cell("grid", 3, 3, 1, 2)).limit_evaluations == 60_000_000
    # issue 39, item 8: at R = 1 the step budget (scaled by 2/3 at L = 3) ranks N = 16 whole (3^8 x 3^8) and N = 18
    # by 705 + 16 rows against all 3^9 columns; the loop covers every sequence at N <= 14 and both of those
    raised = budget_for(Cell("grid", 3, 3, 2, 1))
    assert raised.evaluations("step_evaluations", 3) >= 3**16 >= 721 * 3**9
    assert raised.evaluations("loop_evaluations", 3) >= sum(9**n for n in range(1, 8)) + 3**16 + 721 * 3**9
    assert budget_for(Cell("grid", 3, 4, 1, 1)) == GRIDS["full"]["budget"]


def test_cell_names():
    assert parse_cell("3,3,1,full") == Cell("grid", 3, 3, 1, "full")
    assert parse_cell("bound:4,12,2,0").name == "bound:4,12,2,0"
    for cell in grid_cells() + bound_cells():
        assert parse_cell(cell.name) == cell
    for bad in ("3,3,1", "x:3,3,1,1", "3,3,a,1", "0,3,1,1", "bound:4,8,1,full"):
        with pytest.raises(InputError):
            parse_cell(bad)


def test_tables_merge_rows_in_place_and_estimate_from_the_committed_seconds(quick):
    order = bound_cells("quick")
    rows = [quick[c] for c in order]
    text = csv_text("bound", rows)
    back = read_rows(text)
    assert [row_key("bound", r) for r in back] == [c.key for c in order]
    new = dict(back[1], seconds="9.0")
    merged = merge_rows("bound", back, {order[1]: new}, order)
    assert [r["seconds"] for r in merged] == [back[0]["seconds"], "9.0", *(r["seconds"] for r in back[2:])]
    known, unknown = estimate_seconds(order + [Cell("bound", 5, 12, 1, 1)], {row_key("bound", r): r for r in merged})
    assert known[order[1]] == 9.0 and unknown == [Cell("bound", 5, 12, 1, 1)]
    grid = [quick[c] for c in grid_cells("quick")]
    assert [row_key("grid", r) for r in read_rows(csv_text("grid", grid))] == [c.key for c in grid_cells("quick")]


def test_the_driver_writes_both_tables_and_the_figure_and_reruns_named_rows(tmp_path):
    script = [sys.executable, str(ROOT / "benchmarks" / "atlas.py"), "--out", str(tmp_path)]
    done = subprocess.run(script + ["--quick"], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert "12 cells in" in done.stdout and sorted(p.name for p in tmp_path.iterdir()) == [
        "n_atlas.csv", "n_atlas.png", "n_positional_cells.csv"]  # no .partial left
    with open(tmp_path / "n_positional_cells.csv") as handle:
        before = list(csv.DictReader(handle))
    rerun = subprocess.run(script + ["--cells", "bound:4,6,2,1", "--bound-evaluations", "0", "--no-plot"],
                           capture_output=True, text=True, timeout=300)
    assert rerun.returncode == 0, rerun.stderr
    after = read_rows((tmp_path / "n_positional_cells.csv").read_text())
    assert [row_key("bound", r) for r in after] == [row_key("bound", r) for r in before]
    changed = [i for i, (a, b) in enumerate(zip(before, after, strict=False)) if a != b]
    assert changed == [2] and after[2]["status"] == "N = 2 beyond the budget"  # 1 evaluation > budget 0
    bad = subprocess.run(script + ["--cells", "3,3"], capture_output=True, text=True, timeout=60)
    assert bad.returncode == 2 and len(bad.stderr.strip().splitlines()) == 1 and "L,V,H,R" in bad.stderr
    assert (tmp_path / "n_atlas.png").read_bytes()[:4] == b"\x89PNG"


@pytest.mark.slow
def test_atlas_finds_the_known_maximal_rank_exception():
    # depth 3, d_x = 3, V = r = 2, positional rank 1: exact 52 < min(64, 75) at N = 12 (enumeration of 2^12
    # sequences, docs/conjecture_n.md)
    row = grid_row(Cell("grid", 3, 2, 1, 1), GRIDS["full"]["budget"], 0)
    assert "12:52<64" in row["maximal_rank_exceptions"]
    assert _enumerated(3, 2, 1, 1, 12) == 52


def test_probe_plot_draws_the_counting_caps(tmp_path):
    # verify probe-n --plot: the caps drawn are the B side's distinct multisets (sequences), counted here
    from verify.report.plot import cap_series, plot_probe
    from verify.sweeps.probe import probe_tokens

    for positional in (0, 1):
        data = probe_tokens(NetworkSpec(depth=1, width=3), Field(TOKEN_PRIME), 0, 8, 2, vocab=2, rank=2,
                            positional_rank=positional).as_dict()
        label, tokens, caps = cap_series(data)
        for n, cap in zip(tokens, caps, strict=False):
            sides = list(product(range(2), repeat=n // 2))
            assert cap == (len(sides) if positional else len({tuple(sorted(s)) for s in sides}))
        assert ("sequences" in label) == bool(positional) and tokens == [row["tokens"] for row in data["ranks"]]
        plot_probe(data, str(tmp_path / f"p{positional}.png"))
        assert (tmp_path / f"p{positional}.png").read_bytes()[:4] == b"\x89PNG"
    assert cap_series({"ranks": [{"tokens": 2, "rank": 1}]}) is None  # continuous inputs: no caps


def test_a_rank_meeting_the_proven_bound_certifies_the_limit_out_of_reach():
    # depth 2, d_x = 4, V = r = 3: limit 13 = the derivative bound (issue 19's enumeration data), reached at N = 8
    row = grid_row(Cell("grid", 2, 3, 1, 0), Budget(1, 10**6, 10**6, 10**6, 10**7), 0)
    assert (row["limit"], row["first_n_limit"], row["status"]) == (13, 8, "reached the limit")
    assert row["limit_certainty"] == "certified exact" and "meets the proven" in row["notes"]
    assert row["maximal_rank_exceptions"] == "" and row["first_n_limit_certainty"] == "certified"


def test_the_thm2_bound_columns_say_which_bound_there_is(quick):
    """Theorem 2's proof bound ((floor((r-1-H)/2) over 3^(L-2))) is defined for L >= 2 and r - 1 > H, and has
    content where it is at least 1 (counted here by listing the multisets)."""
    for cell, row in quick.items():
        if cell.section != "grid":
            continue
        defined = cell.depth >= 2 and cell.vocab - 1 > cell.heads
        value = _lemma7_by_counting(cell.depth, cell.vocab, cell.heads) if defined else None
        assert row["thm2_proof_bound"] == ("" if value is None else value)
        assert row["thm2_proof_bound_status"] == ("not defined" if value is None else
                                                  "has content" if value else "no content")
        assert (row["first_n_thm2_bound_status"] == "no bound with content") == (not value)
        assert row["pos_full"] == ("true" if cell.positional == "full" else "false")
        assert row["pos_rank"] == cell.positional_rank
