"""Each checker fed a wrong value of every kind it judges must contradict it (issue 46 item 7), and the machinery
that decides a line's kind must never let a value that was not recomputed pass as recomputed.

The exports are the toy files of data/ (see test_plants.py); each plant is one wrong value whose right value comes
from the closed forms of docs/mathematics.md, never from the recheck's own output.
"""

from __future__ import annotations

import csv
import json
from fractions import Fraction
from pathlib import Path

import pytest

from verify.cli.main import main
from verify.recheck import BEYOND, CONSISTENT, CONTRADICTED, RECOMPUTED, Recheck, cells, formulas, recheck, tokens
from verify.recheck.core import BadInput

DATA = Path(__file__).resolve().parent / "data"
PRIME = "unless p divides the content of every witness minor"


def _csv(tmp_path, name, index, **values):
    with open(DATA / name, newline="") as handle:
        rows = list(csv.DictReader(handle))
    rows[index].update(values)
    path = tmp_path / name
    with open(path, "w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(rows[0]) + [k for k in values if k not in rows[0]],
                                restval="")
        writer.writeheader()
        writer.writerows(rows)
    return str(path)


def _json(tmp_path, name, edit):
    data = json.loads((DATA / name).read_text())
    edit(data)
    path = tmp_path / name
    path.write_text(json.dumps(data))
    return str(path)


def _contradicted(path, value, budget=0):
    rc = recheck([path], budget)
    hits = [f for f in rc.findings if f.status == CONTRADICTED and f.value.startswith(value)]
    assert hits and rc.exit_status() == 1, [f.line() for f in rc.findings if f.status == CONTRADICTED]
    return hits


# ------------------------------------------------------------------------------------------ cells (section 2)

@pytest.mark.parametrize("index, values, value", [
    (0, {"counting_floor": "2"}, "counting_floor 2"),      # one step below: cap V^(N/2) = 8 < bound 10 at N = 2
    (3, {"counting_floor": "4"}, "counting_floor 4"),      # one step above: cap 8 >= bound 4 already at N = 2
    (0, {"n_reached": "2", "c": "0.16"}, "n_reached 2"),   # below the counting floor
    (0, {"n_reached": "6", "c": "0.47", "cap_at_n": "512", "eq74_at_n": "106"},
     "certainty 'at the counting floor'"),                   # "at the counting floor" above the floor
    (0, {"bound": "9"}, "bound 9"),
    (0, {"rank_at_least": "11"}, "rank_at_least 11 is the bound"),
    (3, {"rank_at_least": "9"}, "rank_at_least 9"),        # a minor larger than the 8-row matrix at N = 2
    (2, {"rank_at_n": "9", "rank_at_least": "9"}, "rank_at_n 9 reaches the bound"),
    (0, {"cap_at_n": "63"}, "cap_at_n 63"),
    (1, {"eq74_at_n": "63"}, "eq74_at_n 63"),
    (0, {"c": "0.33"}, "c 0.33"),
    (0, {"scale": "12.70"}, "scale 12.70"),
])
def test_cells_wrong_values(tmp_path, index, values, value):
    _contradicted(_csv(tmp_path, "cells.csv", index, **values), value)


def test_a_minor_larger_than_the_rank_is_never_recomputed():
    """A sample cannot find a nonsingular 3 x 3 minor in a matrix of rank <= 2: never "certified"."""
    rc = Recheck(10)
    cell = tokens.Cell(1, 3, 1, 3, 2, 2, 1)
    finding = cells._minor_task(rc, "w", cell, 2, 3)  # V^(N/2) = 2 rows at N = 2
    rc.run()
    assert finding.status == BEYOND


# ------------------------------------------------------------------------------------------ atlas (section 1)

ATLAS_PLANTS = [
    # row 6 (L = 2, V = 3, R = 4 full): limit 60 computed, derivative bound 99
    (5, {"limit_certainty": "certified exact"}, "limit certified = True"),           # certified below the bound
    (5, {"limit": "100"}, "limit 100 against the derivative bound"),                  # above the bound
    (5, {"limit_certainty": f"= generic w.p. >= 1 - 0.00438 {PRIME}"}, "limit probability 0.00438"),  # below
    (5, {"limit_upper_bound": "98"}, "limit upper bound 98"),
    (5, {"ranks_labels": "2:certified 4:certified 6:certified 8:certified 10:certified"},
     "label certified exact (60)"),                                                   # one step too strong
    (5, {"maximal_rank_exceptions": ""}, "maximal_rank_exceptions"),
    (5, {"first_n_cap_reaches_limit": "6"}, "first_n_cap_reaches_limit 6"),          # off by one step
    (5, {"n_c1": "8"}, "n_c1 8"),
    (5, {"scale_rL_over_log3r": "6.02"}, "scale 6.02"),                             # r L / log3 r = 6 exactly
    (5, {"layer_degree": "5"}, "layer_degree 5"),
    (4, {"thm2_proof_bound": "1"}, "thm2_proof_bound 1"),
    (4, {"first_n_limit": "6"}, "first_n_limit 6"),
    (3, {"ranks_labels": "2:certified 4:certified 6:certified 8:certified 10:lb-1"}, "label lower bound"),
    (3, {"ranks_labels": "2:certified 4:certified 6:certified 8:certified 10:lb-0"}, "label lower bound (18, 0 short)"),
    (3, {"caps": "2:2 4:4 6:8 8:16 10:33"}, "count cap 33"),
    (3, {"status": "stopped at N = 10 below the limit"}, "status"),
]


@pytest.mark.parametrize("index, values, value", ATLAS_PLANTS, ids=[p[2] for p in ATLAS_PLANTS])
def test_atlas_wrong_values(tmp_path, index, values, value):
    _contradicted(_csv(tmp_path, "atlas.csv", index, **values), value)


def test_a_rank_above_every_bound_is_contradicted_without_a_recomputation(tmp_path):
    path = _csv(tmp_path, "atlas.csv", 3, ranks="2:2 4:4 6:8 8:16 10:19")  # cap 32, eq. 7.4 18, limit 18
    (hit,) = _contradicted(path, "rank 19")
    assert "a bound at every weight" in hit.detail


# ------------------------------------------------------------------------------------------ sep rows

def _row(index, **values):
    return lambda d: d["rows"][index].update(values)


SEP_PLANTS = [
    (_row(7, sep_rank=10**6), "rank 1000000 against the proven bound"),      # above the block bound
    (_row(2, certified_exact=False, probability_bound=0.0, certainty="certified lower bound"),
     "probability_bound 0.0"),                                                 # certified rank given no probability
    (_row(2, log3_sep=1.5), "log3_sep 1.5"),
    (_row(2, upper_bound=1), "upper_bound 1"),
    (_row(0, regime="L < log3 d_x"), "regime"),
]


@pytest.mark.parametrize("edit, value", SEP_PLANTS, ids=[p[1] for p in SEP_PLANTS])
def test_table_wrong_values(tmp_path, edit, value):
    _contradicted(_json(tmp_path, "table.json", edit), value)


def test_a_negative_rank_is_refused_as_bad_input(tmp_path):
    """A rank below 0 is outside the field's range, refused on reading with the field named (issue 46 item 4,
    r2's shapes), before any check could call it a contradiction."""
    with pytest.raises(BadInput, match="row 8: field 'sep_rank' = -3"):
        recheck([_json(tmp_path, "table.json", _row(7, sep_rank=-3))], 0)


def test_a_bound_that_holds_with_equality_is_decided_exactly(tmp_path):
    """sep 3 against the integer bound 3 (printed log3 1.0, scale sep): holds; flipped, it is contradicted."""
    def flip(data):
        bound = next(b for b in data["rows"][0]["bounds"] if b["bound"] == "L:supp1_theorem3_upper")
        bound["holds"] = False
    _contradicted(_json(tmp_path, "table.json", flip), "bound L:supp1_theorem3_upper holds=False")
    rc = recheck([str(DATA / "table.json")], 0)
    (line,) = [f for f in rc.findings if f.value == "bound L:supp1_theorem3_upper holds=True" and "row 1 " in f.where]
    assert "integer bound" in line.detail


# ------------------------------------------------------------------------------------------ kinds and exit statuses

def test_a_finding_resting_on_one_beyond_the_budget_is_only_consistent():
    rc = Recheck(0)
    rank = rc.later("w", "rank 5", 1.0, lambda: (RECOMPUTED, "x"))
    label = rc.check("w", "label", True, "meets", needs=[rank])
    chained = rc.check("w", "list", True, "from the label", needs=[label])
    closed = rc.check("w", "cap", True, "closed form")
    rc.run()
    assert (rank.status, label.status, chained.status, closed.status) == (BEYOND, CONSISTENT, CONSISTENT, RECOMPUTED)
    assert "rank 5 (beyond the budget)" in label.detail and "label (consistent)" in chained.detail
    assert rc.exit_status() == 3


def test_within_the_budget_the_same_finding_is_recomputed():
    rc = Recheck(1.0)
    rank = rc.later("w", "rank 5", 1.0, lambda: (RECOMPUTED, "x"))  # priced exactly at the budget: it runs
    label = rc.check("w", "label", True, "meets", needs=[rank])
    rc.run()
    assert (rank.status, label.status, rc.exit_status(), rc.spent) == (RECOMPUTED, RECOMPUTED, 0, 1.0)


def test_cheapest_first_and_a_trusted_value_is_consistent():
    rc = Recheck(1.5)
    dear = rc.later("w", "dear", 1.0, lambda: (RECOMPUTED, "x"))
    cheap = rc.later("w", "cheap", 0.6, lambda: (RECOMPUTED, "x"))
    trusted = rc.check("w", "prob", True, "formula", trust="the limit 7")
    wrong = rc.check("w", "bad", False, "formula", "it is 3", trust="the limit 7")
    rc.run()
    assert (dear.status, cheap.status) == (BEYOND, RECOMPUTED)
    assert trusted.status == CONSISTENT and "takes on trust the limit 7" in trusted.detail
    assert wrong.status == CONTRADICTED and rc.exit_status() == 1


def test_a_contradiction_a_finding_rests_on_leaves_it_consistent():
    rc = Recheck(1.0)
    rank = rc.later("w", "rank", 0.1, lambda: (CONTRADICTED, "x"))
    label = rc.check("w", "label", True, "meets", needs=[rank])
    rc.run()
    assert label.status == CONSISTENT and rc.exit_status() == 1


def test_exit_statuses_in_help_json_and_summary(capsys, tmp_path):
    with pytest.raises(SystemExit):
        main(["recheck", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "3 nothing contradicted" in text and "0 every value recomputed" in text
    assert main(["recheck", str(DATA / "report.json"), "--max-seconds", "0", "--json"]) == 3
    data = json.loads(capsys.readouterr().out)
    assert data["exit_status"] == 3 and set(data["counts"]) == {RECOMPUTED, CONSISTENT, BEYOND, CONTRADICTED}
    assert data["counts"][BEYOND] > 0 and sum(data["counts"].values()) == len(data["findings"])
    assert main(["recheck", str(DATA / "report.json"), "--max-seconds", "0"]) == 3
    last = capsys.readouterr().out.splitlines()[-1]
    assert "recomputed" in last and "consistent" in last and "beyond the budget" in last and last.endswith("exit 3")


def test_the_hilbert_function_past_three_times_the_points_is_ranked_degree_by_degree():
    import itertools

    import flint

    # 4 points on a line in 4-space, so H = 1, 2, 3, 4, 4: 15 columns > 12 at j = 2 while H(1) = 2 < 4
    points = [tuple(a + t * b for a, b in zip((1, 2, 3, 5), (2, 7, 1, 1), strict=True)) for t in range(4)]
    p = 2**31 - 1

    def brute(j):
        exps = [e for e in itertools.product(range(j + 1), repeat=4) if sum(e) <= j]
        return flint.nmod_mat([[pow(z[0], e[0], p) * pow(z[1], e[1], p) * pow(z[2], e[2], p) * pow(z[3], e[3], p)
                                % p for e in exps] for z in points], p).rank()
    assert formulas.hilbert_at_positions(points, 4, p) == [brute(j) for j in range(5)] == [1, 2, 3, 4, 4]


def test_a_rank_one_above_eq74_at_the_positions_the_file_left_out_is_contradicted(tmp_path):
    """N = 12 of (L = 3, V = 2, R = 1): eq. 7.4 with H at the seeded positions is 52 (issue 39's table); the file
    says it was not computed ("64/-") and raises the rank to 53: the recheck's own eq. 7.4 at the positions, an
    upper bound at every weight at these positions, contradicts it."""
    path = _csv(tmp_path, "atlas_probabilistic.csv", 0,
                ranks="2:2 4:4 6:8 8:16 10:32 12:53", eq74_bounds="2:2/2 4:4/4 6:8/8 8:16/16 10:32/32 12:64/-",
                ranks_labels="2:certified 4:certified 6:certified 8:certified 10:certified 12:probabilistic(0.00337)")
    (hit,) = _contradicted(path, "rank 53 against eq. 7.4 at the positions", budget=2)
    assert "52" in hit.detail


def test_an_every_sequence_offer_the_file_does_not_show_is_contradicted(tmp_path):
    """Format version 2 names the offer; "every_sequence" at an N whose ranks_sampled entry is missing is not shown."""
    with open(DATA / "atlas_why1_v2.csv", newline="") as handle:
        sampled = list(csv.DictReader(handle))[1]["ranks_sampled"]
    path = _csv(tmp_path, "atlas_why1_v2.csv", 1, ranks_sampled=sampled.replace("14:2187x2187 ", ""))
    (hit,) = _contradicted(path, "offer every_sequence")
    assert "does not show every sequence" in hit.detail


def test_a_first_n_over_a_sampled_smaller_n_is_never_recomputed():
    """(L = 3, V = 2, R = 1): the limit 75 is first reached at N = 22, but N = 20's 74 is a sampled lower bound
    (lb-1) where the proven bound is 75 itself, so "first at 22" rests on it (docs/mathematics.md §11)."""
    rc = recheck([str(DATA / "atlas_probabilistic.csv")], 0)
    (line,) = [f for f in rc.findings if f.value.startswith("first_n_limit")]
    assert line.status == CONSISTENT and "the ranks at N = [20] are below 75" in line.detail


def test_format_version_2_certainties_of_a_first_n(tmp_path):
    """(L = 3, V = 3, R = 1): the limit 705 is first reached at N = 18, but N = 12..16 have no bound proven below
    705 (eq. 7.4's caps give 705 there), so that first N cannot be certified; a cells row whose n_reached is
    above its counting floor cannot be certified either (docs/formats.md, n_reached_certainty)."""
    path = _csv(tmp_path, "atlas_why1_v2.csv", 1, first_n_limit_certainty="certified")
    (hit,) = _contradicted(path, "first_n_limit_certainty certified")
    assert "[12, 14, 16]" in hit.detail
    cells_v2 = _csv(tmp_path, "cells.csv", 0, n_reached="6", c="0.47", cap_at_n="512", eq74_at_n="106",
                    certainty="", n_reached_certainty="certified", schema_version="2")
    _contradicted(cells_v2, "n_reached_certainty certified")


def test_a_sep_rank_one_above_its_proven_bound_is_contradicted(tmp_path):
    """Row 3 of table.json is certified exact: its rank meets the block bound (B1)-(B4); one more exceeds it."""
    data = json.loads((DATA / "table.json").read_text())
    row = data["rows"][2]
    assert row["certified_exact"] and row["sep_rank"] == row["upper_bound"]
    path = _json(tmp_path, "table.json", _row(2, sep_rank=row["sep_rank"] + 1))
    (hit,) = _contradicted(path, f"rank {row['sep_rank'] + 1} against the proven bound")
    assert "above the proven upper bound" in hit.detail


def test_a_certificate_claim_rests_on_its_determinant():
    """With the determinant beyond the budget, the claimed rank is at most consistent (exit 3); a claimed rank above
    the block bound (L = 1, d_x = 2: 1 + 2 = 3, docs/mathematics.md §2) is contradicted before any grid is built."""
    rc = recheck([str(DATA / "certificate.json")], 0)
    (claim,) = [f for f in rc.findings if f.value.startswith("claimed_rank")]
    assert claim.status == CONSISTENT and "determinant_mod_prime" in claim.detail and rc.exit_status() == 3
    from verify.recheck.certificate import check_certificate

    rc = Recheck(0)
    check_certificate(rc, "c", {"bound": "multichoose(floor((width - heads)/2), 3^(depth - 2))", "depth": 1,
                                "width": 2, "heads": 1, "attn_dim": 2, "claimed_rank": 4, "prime": 1048573,
                                "templates_a": [[1, 2]] * 4, "templates_b": [[3, 4]] * 4})
    assert [f.status for f in rc.findings if f.value == "claimed_rank 4"] == [CONTRADICTED]


def test_residue_sample_is_count_over_the_largest_fibre():
    """count consecutive integers read mod p hit each residue at most ceil(count / p) times (docs/mathematics.md
    §3): 10 integers mod 7 give an effective set of 10 / 2 = 5; a prime above the count leaves it whole."""
    assert formulas.residue_sample(10, 7) == 5 and formulas.residue_sample(10, 11) == 10
    assert formulas.residue_sample(2 * 2**31 + 1, 2**31 - 1) == Fraction(2 * 2**31 + 1, 3)


def test_a_sample_equal_to_a_probabilistic_rank_shows_only_its_lower_side(tmp_path):
    """N = 16 of (L = 3, V = 2, R = 1), rank 70 labelled probabilistic: the whole 256 x 256 matrix is priced above a
    budget of 0.6 s (0.91 s at the quiet machine's prices), 74 random rows against every column fit and give 70, a lower
    bound: that no larger rank hides in the other rows is taken on trust (the rank is below the proven bound 75), so
    the line is consistent."""
    path = _csv(tmp_path, "atlas_probabilistic.csv", 0, ranks="16:70", ranks_labels="16:probabilistic(0.00521)",
                eq74_bounds="16:75/-", caps="16:256")
    rc = recheck([path], 0.6)
    (rank,) = [f for f in rc.findings if f.value == "rank 70"]
    assert rank.status == CONSISTENT and "taken on trust" in rank.detail and "rank 70" in rank.detail
    # with eq. 7.4 at the positions stated (70) and recomputed, that bound at every weight at these positions is the
    # upper side: the same sample recomputes the rank, resting on that line
    (tmp_path / "at").mkdir()
    path = _csv(tmp_path / "at", "atlas_probabilistic.csv", 0, ranks="16:70", ranks_labels="16:probabilistic(0.00521)",
                eq74_bounds="16:75/70", caps="16:256")
    rc = recheck([path], 0.6)
    (rank,) = [f for f in rc.findings if f.value == "rank 70"]
    assert rank.status == RECOMPUTED and [n.value for n in rank.needs] == ["eq. 7.4 at the positions 70"]


def test_a_limit_reached_by_a_rank_beyond_the_budget_is_only_consistent():
    rc = recheck([str(DATA / "atlas.csv")], 0)
    reached = [f for f in rc.findings if f.value.endswith("as a lower bound")]
    assert reached and all(f.status == CONSISTENT and "(beyond the budget)" in f.detail for f in reached)


def test_a_probability_on_a_rank_that_meets_its_proven_bound_is_contradicted(tmp_path):
    """Row 4 (L = 2, V = 2, R = 2) at N = 10: 18 meets eq. 7.4's caps, 18, so it is certified exact; labelled
    probabilistic with eq. 7.4 at the positions' own bound it is still one step too weak a label, never accepted."""
    value = formulas.round_up(formulas.union_probability(2, 2, 2, 10, 2**31 - 1))
    path = _csv(tmp_path, "atlas.csv", 3,
                ranks_labels=f"2:certified 4:certified 6:certified 8:certified 10:probabilistic({value})")
    (hit,) = _contradicted(path, f"label probabilistic({value})")
    assert "certified exact, with no probability" in hit.detail


@pytest.mark.parametrize("claimed", [-3, 0, 3])
def test_an_impossible_certificate_size_is_refused_before_any_grid(tmp_path, claimed):
    path = _json(tmp_path, "certificate.json", lambda d: d.update(claimed_rank=claimed))
    (hit,) = _contradicted(path, f"claimed_rank {claimed}")
    assert "not the size of its grid" in hit.detail
