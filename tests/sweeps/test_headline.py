"""The certainty of a derived headline (issue 47, item 1; docs/mathematics.md §11): a first N is a statement about
every smaller N, certified only where a bound proven for every weight lies below the value there, otherwise it
carries the union of those rows' events; a sampled lower bound leaves it not shown."""

import csv
import re
from fractions import Fraction
from pathlib import Path

import pytest

from verify.model.spec import NetworkSpec
from verify.rank.labels import every_sequence_probability
from verify.rank.token.gram import TOKEN_PRIME
from verify.sweeps.headline import Step, all_equal, first_reaching, probability_text, probe_headlines, saturation

ROOT = Path(__file__).resolve().parents[2]


def _union(*bounds) -> Fraction:
    return sum((Fraction(b) for b in bounds), Fraction(0))


def test_the_l3_v3_r1_first_n_at_the_limit_carries_the_union_of_n_12_to_16():
    """The issue's example, from the committed row: 2-10 meet their counting caps (< 705, proven), 12 is Lemma P's
    0.0324 (the committed label), 14 and 16 the every-sequence bound 705 * 132 / (2^21 + 1) each (Schwartz-Zippel
    over the weights and positions, docs/conjecture_n.md); no bound proven below 705 exists at 12-16 (the caps
    729, 2,187, 6,561 and eq. 7.4's 705 are not below it), so the first N at the limit, 18, holds unless one of
    those three events occurred, not certified (and not only N = 16's event: nothing proven says sep(12) <=
    sep(16)).  Its probability: the 9 N that may enter (2-18, fixed before the draw) times the largest bound,
    9 * 705 * 132 / (2^21 + 1) = 0.3994 (docs/mathematics.md §7, "A headline's union"), not the sum 0.1212: which
    N carry a probability is read off the draws."""
    every = Fraction(705 * 132, 2**21 + 1)
    spec = NetworkSpec(depth=3, width=4, heads=1, attn_dim=4)
    assert Fraction(every_sequence_probability(696, 705, spec, 2**31, TOKEN_PRIME)) >= every  # rounded up, never down
    ranks = {2: 3, 4: 9, 6: 27, 8: 81, 10: 243, 12: 554, 14: 645, 16: 696, 18: 705}
    caps = {n: 3 ** (n // 2) for n in ranks}
    chances = {12: 0.0324, 14: float(every), 16: float(every)}
    steps = [Step(n, r, min(caps[n], 705), 0.0 if r == min(caps[n], 705) else chances[n]) for n, r in ranks.items()]
    first, head = first_reaching(steps, 705)
    assert first == 18 and head.certainty == "probabilistic" and head.union_over == (12, 14, 16)
    assert Fraction(head.probability) >= 9 * every > _union(0.0324, chances[14], chances[16])
    assert head.probability < 0.3993701 and not head.limit_event
    assert head.csv_cells("first_n_limit") == {"first_n_limit_certainty": "probabilistic",
                                               "first_n_limit_probability": "0.4",
                                               "first_n_limit_union_over": "12 14 16"}
    # the atlas's loop may rank every N to max_n = 32 at L = 3: 16 possible events
    assert first_reaching(steps, 705, possible=16)[1].probability == pytest.approx(16 * float(every))


def test_a_proven_bound_below_the_value_certifies_a_step_and_a_lower_bound_hides_the_headline():
    assert first_reaching([Step(2, 3, 3, 0.0), Step(4, 9, 9, 0.0)], 9)[1].certainty == "certified"
    # a probabilistic rank above a smaller proven bound: the proven bound decides, no event enters
    first, head = first_reaching([Step(2, 5, 6, 0.3), Step(4, 9, 20, 0.0)], 9)
    assert (first, head.certainty, head.probability) == (4, "certified", 0.0)
    # a sampled lower bound (no probability) with no proven bound below: the first N is only an upper bound
    first, head = first_reaching([Step(2, 5, 20, None), Step(4, 9, 20, 0.0)], 9)
    assert (first, head.certainty, head.probability) == (4, "not shown", None)
    assert head.csv_cells("x") == {"x_certainty": "not shown", "x_probability": "", "x_union_over": ""}
    assert first_reaching([Step(2, 5, 20, 0.0)], 9) == (None, None) and first_reaching([], None) == (None, None)


def test_a_computed_limit_adds_its_own_event():
    first, head = first_reaching([Step(2, 5, 5, 0.0), Step(4, 9, 20, 0.01)], 9, 0.02)
    # three events may enter (N = 2, 4 and the limit's), whatever this draw proved: 3 * 0.02
    assert first == 4 and head.limit_event and head.union_over == () and head.probability == pytest.approx(0.06)
    assert head.csv_cells("f")["f_union_over"] == "limit"
    assert first_reaching([Step(2, 9, 20, 0.0)], 9, None)[1].certainty == "not shown"


def test_the_union_is_rounded_up_and_capped_at_one():
    head = all_equal([Step(2, 1, None, 0.1), Step(4, 1, None, 0.2)])  # two possible events: 2 * 0.2
    assert Fraction(head.probability) >= 2 * Fraction(0.2) and head.probability < 0.40000000000001
    assert all_equal([Step(2, 1, None, 0.1)], 5).probability == pytest.approx(0.5)  # five could have entered
    with pytest.raises(ValueError, match="only 1 were said to be possible"):
        all_equal([Step(2, 1, None, 0.1), Step(4, 1, None, 0.2)], 1)
    assert all_equal([Step(2, 1, None, 0.7), Step(4, 1, None, 0.7)]).probability == 1.0
    assert all_equal([]) is None and all_equal([Step(2, 1, None, None)]).certainty == "not shown"


def test_saturation_needs_every_run_row_and_the_row_before():
    steps = [Step(2, 3, 3, 0.0), Step(4, 7, 9, 0.05), Step(6, 9, 27, 0.1), Step(8, 9, 81, 0.2)]
    head = saturation(steps, 6)
    assert head.certainty == "probabilistic" and head.union_over == (4, 6, 8)
    assert saturation(steps, None) is None
    # the row before is above the run's rank: a certified lower bound above it, so no event from it
    assert saturation([Step(2, 12, 20, None), Step(4, 9, 9, 0.0), Step(6, 9, 9, 0.0)], 4).certainty == "certified"
    assert saturation([Step(2, 5, 20, None), Step(4, 9, 9, 0.0), Step(6, 9, 9, 0.0)], 4).certainty == "not shown"


def test_probe_headlines_read_the_rows():
    data = {"ranks": [{"tokens": 2, "rank": 2, "count_cap": 2, "certainty": "certified", "probability_bound": 0.0},
                      {"tokens": 4, "rank": 3, "count_cap": 4, "certainty": "certified lower bound",
                       "probability_bound": None},
                      {"tokens": 6, "rank": 3, "count_cap": 8, "certainty": "certified", "probability_bound": 0.0}],
            "limit": {"rank": 3, "upper_bound": 3, "certified_exact": True}, "saturation_tokens": 4,
            "lower_bound": 3, "tokens_reaching_lower_bound": 4, "lemma7_lower_bound": None,
            "tokens_reaching_lemma7_lower_bound": None, "cap_decides": [2]}
    out = probe_headlines(data)
    # N = 4's row meets the certified limit 3 (proven) though its own label claims nothing: the limit proves it
    assert out["saturation_certainty"]["certainty"] == "not shown"  # the run's row 4 claims no equality
    assert out["tokens_reaching_lower_bound_certainty"]["certainty"] == "certified"  # N = 2: cap 2 < 3
    assert out["tokens_reaching_lemma7_lower_bound_certainty"] is None
    assert out["cap_decides_certainty"] == {"certainty": "certified", "probability": 0.0, "union_over": [],
                                            "limit_event": False}


def test_probability_text_is_rounded_up_with_its_event_and_condition():
    assert probability_text(2.8088688844114464e-06) == ("<= 2.81e-06 that the rank is below the generic rank, "
                                                         "unless p divides the content of every witness minor")
    assert probability_text(0.0) == "0 (certified exact)" and probability_text(None) is None
    assert probability_text(0.5, False, "x") == "<= 0.5 that x"


def test_the_committed_row_before_regeneration_still_reads_18():
    """The committed table is the unversioned format until the lead regenerates it (python benchmarks/atlas.py);
    the row the issue cites reads 18 there, and the certainty above is what the new format prints beside it."""
    with open(ROOT / "results" / "n_atlas.csv", newline="") as handle:
        row = next(r for r in csv.DictReader(handle) if (r["depth"], r["vocab_r"], r["heads"], r["pos_rank"])
                   == ("3", "3", "1", "1"))
    assert row["first_n_limit"] == "18"
    if row.get("schema_version") == "2":  # regenerated: the headline's certainty beside it
        assert row["first_n_limit_certainty"] in ("probabilistic", "certified")
        assert row["first_n_limit_certainty"] == "certified" or float(row["first_n_limit_probability"]) > 0


def test_the_probe_prose_says_each_headline_certainty():
    from verify import api
    from verify.report.probe_summary import probe_summary

    data = api.probe_n(2, 3, 1, vocab=2, rank=2, positional_rank=1, max_tokens=12, store=None)
    text = probe_summary(data)
    assert "the rank is 12 from N = 8 on (certified)" in text
    data["saturation_certainty"] = {"certainty": "probabilistic", "probability": 0.12111133522446861,
                                    "union_over": [12, 14, 16], "limit_event": True}
    assert ("from N = 8 on (with probability >= 1 - 0.122: the union of the events of N = 12, N = 14, N = 16, the "
            "limit, unless p divides the content of every witness minor)") in probe_summary(data)
    data["saturation_certainty"] = {"certainty": "not shown", "probability": None, "union_over": [],
                                    "limit_event": False}
    assert "(not shown: a row of the run is a lower bound only)" in probe_summary(data)


def test_all_equal_needs_every_step_claimed():
    assert all_equal([Step(2, 1, None, 0.1), Step(4, 1, None, None)]).certainty == "not shown"
    assert all_equal([Step(2, 1, None, 0.0), Step(4, 1, None, 0.0)]).certainty == "certified"


def test_the_union_is_never_rounded_down():
    """The printed union is a bound: the float stored is never below the exact sum of the steps' bounds (the sum
    of two floats often rounds down to the nearest float)."""
    downs = 0
    for i in range(1, 200):
        a, b = i / 997, (3 * i) / 1009
        exact = Fraction(a) + Fraction(b)
        head = all_equal([Step(2, 1, None, a), Step(4, 1, None, b)])
        assert Fraction(head.probability) >= exact or head.probability == 1.0
        downs += Fraction(float(exact)) < exact
    assert downs > 10  # the case the rounding guards against occurs here


def test_the_atlas_headline_adds_a_computed_limit_event_and_not_a_certified_one():
    from types import SimpleNamespace

    from verify.sweeps.atlas.grid import _headlines

    steps = [Step(2, 3, 3, 0.0), Step(4, 9, 20, 0.0)]
    row = {}
    _headlines(row, steps, None, SimpleNamespace(rank=9, certified_exact=False, probability_bound=0.25), 4)
    assert (row["first_n_limit"], row["first_n_limit_certainty"], row["first_n_limit_union_over"]) == (
        4, "probabilistic", "limit")
    assert row["first_n_limit_probability"] == "0.25"
    _headlines(row, steps, None, SimpleNamespace(rank=9, certified_exact=True, probability_bound=0.0), 4)
    assert row["first_n_limit_certainty"] == "certified" and row["first_n_limit_probability"] == "0"
    assert row["first_n_thm2_bound_status"] == "no bound with content" and row["first_n_thm2_bound"] == ""
    _headlines(row, steps, 0, None, None)
    assert row["first_n_thm2_bound_status"] == "no bound with content" and row["first_n_limit_status"] == "no limit"
    _headlines(row, steps, 5, None, None)
    assert (row["first_n_thm2_bound"], row["first_n_thm2_bound_status"]) == (4, "reached")


def test_a_count_route_rank_below_its_cap_leaves_the_first_n_not_shown(monkeypatch):
    """Without positions a rank is exact at these weights only: below its proven cap and the limit it says nothing
    of the generic rank, so a first N after it is not shown (it is at most that N)."""
    from verify.sweeps.atlas import grid
    from verify.sweeps.atlas.plan import GRIDS, Cell

    real = grid.count_rank

    def low_at_two(model, tokens):
        found = real(model, tokens)
        return (found[0] - 1, *found[1:]) if tokens == 2 else found

    monkeypatch.setattr(grid, "count_rank", low_at_two)
    row = grid.grid_row(Cell("grid", 1, 3, 1, 0), GRIDS["quick"]["budget"], 0)
    assert row["first_n_limit_status"] == "reached" and row["first_n_limit_certainty"] == "not shown"
    assert row["ranks_offer"].split()[0] == "2:count_route"


def test_the_sample_shape_is_read_off_the_sampler():
    from verify.sweeps.atlas.grid import sample_shape

    assert sample_shape(19683, 705, 15_000_000, False, 721 * 19683) == "721x19683"  # rows against every column
    assert sample_shape(19683, 705, 15_000_000, False, 2 * 721 * 19683) == "1442x19683"
    assert sample_shape(6561, 705, 1_000, False, 721**2) == "721x721"  # a square sample: not one row fits beside it
    assert sample_shape(27, 5, 10**6, True, 27**2) == "27x27"
    # rows first (issue 49 item 3): aim 60, k = 76, 256 columns, budget 76 * 256 - 1: r = (budget - 76^2) // 256 = 53
    # rows against every column, alone (their rank below r: dependent rows) or beside the 76 x 76 square that followed
    assert sample_shape(256, 60, 76 * 256 - 1, False, 53 * 256) == "53x256"
    assert sample_shape(256, 60, 76 * 256 - 1, False, 53 * 256 + 76**2) == "53x256+76x76"
    with pytest.raises(AssertionError):
        sample_shape(19683, 705, 15_000_000, False, 721 * 19683 + 1)
    with pytest.raises(AssertionError):
        sample_shape(256, 60, 76 * 256 - 1, False, 53 * 256 + 76**2 + 1)


def test_a_computed_limit_is_probabilistic_in_its_own_columns(monkeypatch):
    # a limit left computed (not certified): a whole TokenLimit with its exact bound, which the repeats and the
    # rows' met bounds read; the repeats are held off (they would certify it: tests/sweeps/test_repeats.py)
    from dataclasses import replace
    from fractions import Fraction

    from verify.sweeps.atlas import grid
    from verify.sweeps.atlas.plan import GRIDS, Cell

    real = grid.token_limit

    def computed(*args, **kwargs):
        return replace(real(*args, **kwargs), certified_exact=False, probability_bound=0.125,
                       exact_bound=Fraction(1, 8))

    monkeypatch.setattr(grid, "token_limit", computed)
    monkeypatch.setattr(grid, "repeat_cell_limit", lambda limit, *args, **kwargs: limit)
    row = grid.grid_row(Cell("grid", 1, 3, 1, 1), GRIDS["quick"]["budget"], 0)
    assert (row["limit_certainty"], row["limit_probability"]) == ("probabilistic", "0.125")
    assert row["first_n_limit_certainty"] == "probabilistic" and row["first_n_limit_union_over"].endswith("limit")


def test_a_probe_row_records_the_offer_its_label_meets():
    """Issue 46 item 2: the label of a row with every sequence kept and nothing else met rests on the
    every-sequence offer (Schwartz-Zippel over the weights); sampled, the same rank meets nothing: a lower bound."""
    from verify.rank.labels import label_row

    spec = NetworkSpec(depth=3, width=4, heads=1, attn_dim=4)
    limit = {"rank": 705, "upper_bound": 705, "certified_exact": True, "probability_bound": 0.0}
    for sampled, label, offer in ((False, "probabilistic", "every_sequence"), (True, "lower bound", "none")):
        row = {"tokens": 16, "rank": 696, "count_cap": 6561}
        found = {"bounds": {"certified": 705, "at_positions": None, "probability": None}, "sampled": sampled,
                 "modulus": TOKEN_PRIME}
        label_row(row, found, spec, limit, 2**31)
        assert (row["label"], row["offer"]) == (label, offer)
    assert row["probability"] is None
    row = {"tokens": 4, "rank": 9, "count_cap": 9}
    label_row(row, {"bounds": {"certified": 9, "at_positions": 9, "probability": 0.1}, "sampled": False,
                    "modulus": TOKEN_PRIME}, spec, limit, 2**31)
    assert (row["label"], row["offer"]) == ("certified exact", "count_cap")


def test_the_n18_run_names_its_721_rows_and_the_separate_1200_row_check():
    """Issue 47 item 6: docs/conjecture_n.md said both 721 and 1,200 rows for N = 18; the engine's sample is
    705 + 16 = 721 rows against all 3^9 columns (its step price says so), the 1,200 rows a separate check's draw."""
    from verify.sweeps.atlas.plan import Cell, budget_for, step_cost

    budget = budget_for(Cell("grid", 3, 3, 1, 1)).evaluations("step_evaluations", 3)
    assert step_cost(3, 18, 13, True, 705, budget) == 721 * 3**9
    text = (ROOT / "docs" / "conjecture_n.md").read_text()
    assert "721 = 705 + 16" in " ".join(text.split())
    for at in (m.start() for m in re.finditer("1,200", text)):
        assert "separate draw" in text[max(0, at - 40):at + 40]


def test_the_counting_floor_claim_names_the_cells_it_checks():
    # the claim checks its own cells (30 since the batched pass widened it, bound <= 1,000), no longer the
    # positional conjecture's 7
    from seprank_proofs.derived_conjecture_n_counting_floor import CELLS, CLAIM

    statement = " ".join(CLAIM.statement.split())
    assert len(CELLS) == 30 and "each of the 30 computed cells" in statement and "the 30 positional" in CLAIM.domain
    assert all(f"({r}, {depth}, {heads}, {big_r})" in statement for r, depth, heads, big_r in CELLS)


def test_a_computed_limit_is_no_proven_bound_for_a_probe_step():
    rows = [{"tokens": 2, "rank": 2, "count_cap": 9, "certainty": "certified lower bound", "probability_bound": None},
            {"tokens": 4, "rank": 5, "count_cap": 27, "certainty": "certified", "probability_bound": 0.0}]
    data = {"ranks": rows, "limit": {"rank": 3, "upper_bound": 10, "certified_exact": False},
            "saturation_tokens": None, "lower_bound": 5, "tokens_reaching_lower_bound": 4, "lemma7_lower_bound": None,
            "tokens_reaching_lemma7_lower_bound": None, "cap_decides": []}
    assert probe_headlines(data)["tokens_reaching_lower_bound_certainty"]["certainty"] == "not shown"
    data["limit"]["certified_exact"] = True  # a certified limit 3 < 5 is a proven bound at N = 2
    assert probe_headlines(data)["tokens_reaching_lower_bound_certainty"]["certainty"] == "certified"
