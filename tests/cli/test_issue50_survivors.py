"""The one-line bugs the default suite let through last round (issue 50, item 6), each pinned by a test
whose expected value comes from an independent route: a closed form, a hand count, the record itself."""

import json
import math
import re

import pytest

import toy_registry
from verify.cli.main import main


def test_a_certified_lower_bound_without_a_probability_is_not_labelled_certified():
    from verify.rank.certainty import WHP_LABEL, Certainty
    from verify.sweeps.provenance import certainty_label

    assert Certainty(True, None, "").label == "certified lower bound" == certainty_label(True, None)
    assert Certainty(True, 0.0, "").label == "certified" == certainty_label(True, 0.0)
    assert Certainty(True, 1e-9, "").label == WHP_LABEL
    assert Certainty(False, 1e-9, "").label == "probabilistic" == Certainty(False, None, "").label


@pytest.mark.parametrize("depth", [1, 2, 3, 4])
def test_a_width_one_reduced_run_is_the_count_of_the_powers_of_one_variable(depth):
    # width 1: S has one entry s, q = c s^C with C = (3^L - 1)/2, and its derivative space is spanned by s^C, ...,
    # s, 1: C + 1 = (3^L + 1)/2 (every degree block is 1 x 1 with the one coefficient)
    from verify import NetworkSpec, separation_rank
    from verify.rank.block_plan import plan_run
    from verify.rank.sep import plan_separation_rank

    spec = NetworkSpec(depth=depth, width=1)
    found = separation_rank(spec, method="reduced")
    assert found.rank == (3**depth + 1) // 2 and found.certainty.certified_exact
    plan = plan_separation_rank(spec, device="cpu")
    assert plan.turn == (3**depth - 1) // 2 and len(plan.blocks) == (3**depth + 1) // 2
    assert all((b.rows, b.cols) == (1, 1) for b in plan_run(spec, plan.field).blocks)


def test_the_first_n_reaching_the_lower_bound_counts_a_rank_equal_to_it():
    from verify import NetworkSpec
    from verify.sweeps.probe import ProbeResult

    # Corollary 1 at L = 3, r = 9, H = 1: ((floor(8/2) over 3)) = binom(4 + 3 - 1, 3) = 20
    result = ProbeResult(NetworkSpec(depth=3, width=9), "tokens", 9, 9, 0)
    result.ranks = [{"tokens": 2, "rank": 19}, {"tokens": 4, "rank": 20}, {"tokens": 6, "rank": 21}]
    data = result.as_dict()
    assert data["lower_bound"] == math.comb(6, 3) and data["tokens_reaching_lower_bound"] == 4


@pytest.fixture(scope="module")
def toy_run(tmp_path_factory):
    """``verify run`` over the toy registry: its report.json records, report.html and the JUnit file."""
    import os

    tmp = tmp_path_factory.mktemp("toy")
    saved = os.environ.pop("VERIFY_REGISTRY", None)
    folder = toy_registry.make(tmp, extra=True)
    try:
        assert main(["run", "--registry", str(folder), "--out", str(tmp / "r"), "--junit", str(tmp / "j.xml"),
                     "--quiet", "--no-store"]) == 1
    finally:
        toy_registry.forget(folder)
        if saved is not None:
            os.environ["VERIFY_REGISTRY"] = saved
    records = json.loads((tmp / "r" / "report.json").read_text())["claims"]
    return records, (tmp / "r" / "report.html").read_text()


def test_the_junit_margin_is_the_margin_in_three_digits_never_a_fraction(toy_run):
    from junitparser import JUnitXml

    from verify.report.junit import junit_xml

    records = [dict(r) for r in toy_run[0]]
    records[0]["tightest_margin"] = {"value": 1 / 3, "unit": "relative", "where": "x"}
    records[1]["tightest_margin"] = {"value": 2 / 3, "unit": "relative", "where": "y"}
    suite = next(iter(JUnitXml.fromstring(junit_xml(records, {"seconds": 1.0}).encode())))
    margins = {case.name: dict(line.split(": ", 1) for line in case.system_out.splitlines() if ": " in line)["margin"]
               for case in suite}
    assert margins[records[0]["id"]] == "0.333" and margins[records[1]["id"]] == "0.667"  # 1/3, 2/3 to 3 digits
    assert all(margins[r["id"]] == "-" for r in records[2:])  # no margin: a dash


def test_report_html_marks_only_unexpected_outcomes_and_counts_all_claims(toy_run):
    records, page = toy_run
    unexpected = {r["id"] for r in records if not r["as_expected"]}
    assert unexpected and len(unexpected) < len(records)
    sections = dict(re.findall(r'<details class="claim" id="([^"]+)">(.*?)</details>', page, re.S))
    assert len(sections) == len(records)
    for rec in records:  # a claim's section carries "(expected ...)" exactly when its outcome is unexpected
        anchor = "claim-" + rec["id"]  # the toy ids are letters and underscores, kept as they are
        assert ("(expected " in sections[anchor]) == (rec["id"] in unexpected), rec["id"]
    total = re.search(r'<th>all</th><th id="total">(\d+)</th>', page)
    assert total and int(total.group(1)) == len(records) == len(toy_registry.CLAIMS) + len(toy_registry.EXTRA)


def test_the_sep_dry_run_header_gives_the_largest_slice_in_gib(capsys):
    # depth 3 width 3: n = 6 variables, q of degree C = 13 with 3 components; block a is
    # binom(a + 5, 5) x 3 binom(18 - a, 5); the largest slice is block 7's: 792 x (792 + 32) float64 entries
    # (the float64 BLAS kernel below 2^50 holds 8 bytes an entry)
    assert math.comb(7 + 5, 5) == 792 and 3 * math.comb(18 - 7, 5) == 1386
    slice_gib = 792 * 824 * 8 / 2**30
    assert main(["sep", "--depth", "3", "--width", "3", "--device", "cpu", "--dry-run"]) == 0
    header = capsys.readouterr().out.splitlines()[0]
    assert f"the largest slice holds {slice_gib:.3g} GiB" in header, header
