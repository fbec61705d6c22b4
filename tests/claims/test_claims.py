"""The claims registry: every kind of check reports a deliberately false statement."""

import json
from pathlib import Path

import pytest
import sympy as sp
from hypothesis import given
from hypothesis import strategies as st

from verify import NetworkSpec
from verify.claims.checks import InequalityChain, Property, QuotedNumber, RankBound
from verify.claims.record import Claim, H, L, Source, d_a, d_x, k, load_claims, n, run_claim
from verify.cli.main import main
from verify.exact.arbexpr import compare, evaluate, multichoose

SMALL = [NetworkSpec(depth=1, width=2), NetworkSpec(depth=2, width=2), NetworkSpec(depth=2, width=3, heads=3)]
SRC = Source("levine2020_limits_to_depth_efficiencies.md", "test", "test")
PAPERS = {"levine2020_limits_to_depth_efficiencies.md", "levine2020_supplement_revised.txt",
          "levine2020_author_response.txt", "wies2021_vocabulary_bottleneck.md"}


def test_rank_bound_reports_a_false_upper_bound():
    result = RankBound(sp.Integer(2), "upper", "sep", specs=SMALL).run()
    assert result.status == "fail" and result.counterexample["rank"] == 3  # smallest spec: depth 1, sep 3


def test_rank_bound_reports_a_false_lower_bound():
    assert RankBound(sp.Integer(10**6), "lower", "sep", specs=SMALL).run().status == "fail"


def test_rank_bound_passes_a_true_bound_and_decides_tight_ones_exactly():
    # depth 1, H = 1: sep = d_x + 1 = 3^((3^L-1)/2 log3(d_x+H)) exactly
    tight = (3**L - 1) / 2 * sp.log(d_x + H, 3)
    assert RankBound(tight, "upper", "log3", specs=SMALL[:1]).run().status == "pass"
    assert RankBound((H * (d_a + 1)) ** ((3**L - 1) / 2), "upper", "sep", specs=SMALL).run().status == "pass"


def test_rank_bound_outside_its_regime_is_information_only():
    result = RankBound(sp.Integer(2), "upper", "sep", specs=SMALL, regime=sp.StrictGreaterThan(L, 10)).run()
    assert result.status == "not-applicable"


def test_inequality_chain_finds_the_smallest_counterexample():
    false_step = [n**2, 3 * n + 1]  # n^2 <= 3n + 1 fails from n = 4
    result = InequalityChain(false_step, ["<="], grid={n: list(range(1, 30))}, search=10).run()
    assert result.status == "fail" and result.counterexample["n"] == 4


def test_inequality_chain_passes_true_steps_and_proves_equalities():
    steps = [sp.log(n, 3), sp.log(n + 1, 3), sp.log(3 * n + 3) / sp.log(3) - 1]
    assert InequalityChain(steps, ["<=", "="], grid={n: list(range(1, 50))}).run().status == "pass"


def test_inequality_chain_rejects_a_false_equality():
    result = InequalityChain([sp.log(n, 3), sp.log(n, 2)], ["="], grid={n: [2, 3]}, search=0).run()
    assert result.status == "fail"


def test_quoted_number_fails_on_a_wrong_figure_and_passes_the_right_one():
    assert QuotedNumber(lambda: sp.log(1000, 3), "6.4", "0.05").run().status == "fail"
    assert QuotedNumber(lambda: sp.log(1000, 3), "6.3", "0.05").run().status == "pass"


def test_property_reports_failure():
    assert Property(lambda: (False, "no", {"x": 1})).run().status == "fail"


def _claim(printed_ok, corrected_ok=None, expected="verified"):
    checks = [Property(lambda: (printed_ok, "printed", None if printed_ok else {"x": 0}),
                       perturb=lambda: (False, "perturbed statement refuted", None))]
    corrected = [] if corrected_ok is None else [Property(lambda: (corrected_ok, "corrected", None),
                                                          perturb=lambda: (False, "strengthened correction refuted",
                                                                           None))]
    return Claim("test_claim", SRC, "a statement", checks, expected=expected, corrected_checks=corrected,
                 corrected_statement="fixed" if corrected else "")


@pytest.mark.parametrize("printed,corrected,outcome", [
    (True, None, "verified"), (False, True, "erratum"), (False, False, "violated"), (False, None, "violated")])
def test_outcome_follows_from_the_checks(printed, corrected, outcome):
    result = run_claim(_claim(printed, corrected, expected=outcome))
    assert result.outcome == outcome and result.as_expected


def test_a_broken_check_is_never_a_silent_pass():
    def broken():
        raise RuntimeError("bug")
    assert run_claim(Claim("test_claim", SRC, "s", [Property(broken)])).outcome == "violated"


def test_registry_has_at_least_30_claims_each_citing_a_source_document():
    claims = load_claims()
    assert len(claims) >= 30
    assert len({c.id for c in claims}) == len(claims)
    for c in claims:
        assert c.source.document in PAPERS and c.source.label and c.statement
        if c.expected == "erratum":
            assert c.corrected_statement and c.corrected_checks
    shared = Path(__file__).resolve().parents[3] / "shared" / "papers"
    if shared.is_dir():
        assert PAPERS <= {p.name for p in shared.iterdir()}


def test_registry_covers_the_issue_list():
    ids = {c.id for c in load_claims()}
    for needed in ["levine2020_theorem1_upper", "levine2020_theorem1_lower", "levine2020_theorem2_upper",
                   "levine2020_theorem2_lower", "levine2020_claim1_partition_invariance",
                   "levine2020_table1_min_depth", "levine2020_lth_1000", "levine2020_corollary1_example_widths",
                   "levine2020_supp1_theorem4_chain", "levine2020_response_corrected_chain",
                   "levine2020_response_transition_point", "levine2020_response_residual_factor",
                   "wies2021_theorem1_upper", "wies2021_theorem2_lower", "wies2021_theorem3_upper",
                   "wies2021_theorem4_upper", "wies2021_corollary1_lower", "wies2021_lemma4_multiset_lower",
                   "wies2021_lemma8_hadamard_rank"]:
        assert needed in ids


@given(st.integers(1, 400), st.integers(0, 4000))
def test_lemma3_multiset_upper_bound_has_no_counterexample(nv, kv):
    assert compare(multichoose(n, k), (2 * sp.E * (n + k) / n) ** n, "<=", {n: nv, k: kv}) is True


@given(st.integers(1, 400), st.integers(1, 4000))
def test_printed_lemma4_lower_bound_fails_everywhere(nv, kv):
    assert compare((2 * sp.E * (n + k) / n) ** n, multichoose(n, k), "<=", {n: nv, k: kv}) is False


def test_arb_evaluation_encloses_an_independent_high_precision_value():
    import mpmath
    ball = evaluate(sp.log(1000, 3))
    with mpmath.workdps(40):  # scoped: the precision is not left set for the next test
        reference = mpmath.log(1000) / mpmath.log(3)
        assert (abs(mpmath.mpf(ball.mid().str(30, radius=False)) - reference)
                <= mpmath.mpf(ball.rad().str(5, radius=False)) + mpmath.mpf(10) ** -25)
    assert evaluate(sp.log(81, 3)).contains(4) and compare(sp.log(82, 3), sp.Integer(4), ">") is True


@pytest.mark.parametrize("claim", load_claims(), ids=lambda c: c.id)
def test_every_claim_has_its_expected_outcome_and_every_verified_one_could_have_failed(claim):
    result = run_claim(claim)
    assert result.outcome == claim.expected, result.evidence
    if result.outcome in ("verified", "gap"):  # rule 1: a passing check refuted a strengthened statement
        # declared, no defect
        assert any(r.status == "pass" and any(p.get("counted", p["refuted"]) for p in r.perturbations)
                   for r in result.checks) or \
            result.outcome == "gap", result.evidence
    if result.outcome == "erratum":  # rule 6: the corrected statement passed and refuted a strengthening of it
        assert claim.corrected_statement and all(r.status == "pass" for r in result.corrected)
        assert any(p.get("counted", p["refuted"]) for r in result.corrected for p in r.perturbations), result.evidence


def test_run_one_claim_writes_reports(tmp_path, capsys):
    code = main(["run", "--claim", "levine2020_lth_1000", "--out", str(tmp_path), "--json"])
    data = json.loads(capsys.readouterr().out)
    assert code == 0 and data["all_as_expected"]
    partial = tmp_path / "partial"  # a --claim run never replaces the full report (issue 13)
    report = json.loads((partial / "report.json").read_text())
    record = report["claims"][0]
    for key in ("id", "source", "statement", "outcome", "evidence", "could_fail", "tightest_margin"):
        assert key in record
    assert (partial / "report.md").read_text().startswith("# Verification report")
    assert not (tmp_path / "report.json").exists()


def test_run_exits_1_on_an_unexpected_outcome(tmp_path, capsys, monkeypatch):
    import verify.claims.record as claims_module
    surprise = _claim(False, None, expected="verified")
    monkeypatch.setattr(claims_module, "load_claims", lambda package="seprank_proofs": [surprise])
    assert main(["run", "--out", str(tmp_path), "--quiet"]) == 1
    assert "UNEXPECTED" in capsys.readouterr().out


def test_unknown_claim_is_a_one_line_error(capsys):
    assert main(["run", "--claim", "no_such_claim"]) == 2
    assert "unknown claim" in capsys.readouterr().err


def test_claims_lists_the_registry(capsys):
    assert main(["claims", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)  # one object, like every --json
    assert len(data["claims"]) == data["count"] >= 30


def test_cases_check_stops_at_the_first_failing_case():
    from verify.claims.checks import Cases
    result = Cases([(1,), (2,), (3,)], lambda x: (x < 2, f"x={x}")).run()
    assert result.status == "fail" and result.evidence == "x=1; x=2" and result.counterexample == {"case": "(2,)"}
    assert Cases([(1,)], lambda x: (True, "ok")).run().status == "pass"
