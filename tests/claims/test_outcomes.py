"""Outcomes of the engine on toy claims whose verdicts are known by hand: a tight true bound refutes
its strengthening, a vacuous bound is not-decided, disagreeing readings are ambiguous, and the
property-based search reports the smallest counterexample."""

import json
import re
from pathlib import Path

import sympy as sp
from hypothesis import strategies as st

from verify import NetworkSpec
from verify.claims.bounds import trivial_upper
from verify.claims.checks import Cases, InequalityChain, Property, QuotedNumber, RankBound
from verify.claims.perturb import NO_PERTURBATION
from verify.claims.record import OUTCOMES, Claim, Source, d_x, n, run_claim
from verify.cli.main import main
from verify.report.run_report import counts, markdown

SRC = Source("levine2020_limits_to_depth_efficiencies.md", "test", "test")
DEPTH1 = [NetworkSpec(depth=1, width=2), NetworkSpec(depth=1, width=3)]  # H = 1: sep = d_x + 1 (3, 4)
TRUE = (True, "holds", None)
FALSE = (False, "fails", {"x": 0})


def _claim(checks, expected="verified", **kw):
    return Claim("toy_claim", SRC, "a toy statement", checks, expected=expected, **kw)


def test_trivial_upper_bound_is_the_monomial_count_of_one_side():
    # N = 2(d_x + 1) = 6 tokens, 3 a side, 6 coordinates; monomials of degree <= 3 in 6 variables: C(9, 3)
    assert trivial_upper(NetworkSpec(depth=1, width=2)) == 84
    # depth 2, width 3: N = 8, 12 coordinates a side, degree <= 9: C(21, 9)
    assert trivial_upper(NetworkSpec(depth=2, width=3, heads=3)) == 293930


def test_a_tight_true_bound_is_verified_because_its_strengthening_is_refuted():
    # depth 1, one head: sep = d_x + 1 exactly (the Theorem 1 upper bound (H(d_a+1))^C(L) at L = 1 is tight)
    check = RankBound(d_x + 1, "upper", "sep", specs=DEPTH1)
    result = run_claim(_claim([check]))
    assert result.outcome == "verified"
    tried = {p["statement"]: p["refuted"] for p in result.checks[0].perturbations}
    assert tried == {"upper bound /3": True, "upper bound -1": True}
    assert result.checks[0].margin["value"] == 0.0  # log3 bound - log3 sep = 0 at both specs
    rows = result.checks[0].details  # per spec: margin, and 3 < 84 and 4 < 455 beat the monomial counts
    assert [(r["rank"], r["margin_log3"], r["beats_trivial"]) for r in rows] == [(3, 0.0, True), (4, 0.0, True)]


def test_a_tight_lower_bound_is_refuted_when_multiplied_by_three():
    result = RankBound(d_x + 1, "lower", "sep", specs=DEPTH1).run()
    assert result.status == "pass" and result.could_fail
    assert {p["statement"]: p["refuted"] for p in result.perturbations} == {"lower bound x3": True,
                                                                            "lower bound +1": True}


def test_a_vacuous_lower_bound_is_not_decided_and_names_where_it_would_bite():
    # d_x - 4 <= sep, strengthened to 3(d_x - 4) <= sep: at depth 1 the proven upper bound on sep is
    # 1 + d_x (degree blocks 0 and 1 of the derivative bound; the paper's sep = d_x + 1 for H = 1), and
    # 3(d_x - 4) > d_x + 1 first at d_x = 7; depth 1 has the smallest reduced problems
    result = run_claim(_claim([RankBound(d_x - 4, "lower", "sep", specs=DEPTH1)], expected="not-decided"))
    assert result.outcome == "not-decided" and result.as_expected
    check = result.checks[0]
    assert not check.could_fail and not any(p["refuted"] for p in check.perturbations)
    assert "certainly refuted first at L=1 d_x=7 H=1 (not in the spec set" in check.bites_at
    assert "GiB" in check.bites_at  # the estimated cost there


def test_beating_the_trivial_lower_bound_alone_no_longer_verifies():
    # depth 1, width 3, one head: sep = d_x + 1 = 4.  4/3 <= sep beats sep >= 1, but both strengthenings
    # hold (3 * 4/3 = 4 <= 4 and 4/3 + 1 <= 4): not decided.  2 <= sep: x3 gives 6 > 4, refuted.
    loose = RankBound(sp.Rational(4, 3), "lower", "sep", specs=DEPTH1[1:])
    result = run_claim(_claim([loose], expected="not-decided"))
    assert result.outcome == "not-decided" and result.checks[0].details[0]["beats_trivial"]
    tight = run_claim(_claim([RankBound(sp.Integer(2), "lower", "sep", specs=DEPTH1[1:])]))
    assert tight.outcome == "verified"


def test_a_chain_step_far_from_tight_refutes_no_strengthening():
    # n <= n + 5: rhs - lhs = 5 >= 1 everywhere, so n + 1 <= n + 5 holds too: nothing refuted
    loose = InequalityChain([n, n + 5], ["<="], grid={n: [1, 2, 3]}, search=5).run()
    assert loose.status == "pass" and not loose.could_fail and loose.margin["value"] == 5.0
    # n/2 <= n: rhs - lhs = 1/2 < 1 at n = 1: the step tightened by one fails there
    tight = InequalityChain([n / 2, n], ["<="], grid={n: [1, 2, 3]}, search=5).run()
    assert tight.could_fail and tight.perturbations[0]["refuted"]


def test_a_proof_gap_is_its_own_outcome_and_needs_its_gap_checks_to_pass():
    true = Property(lambda: TRUE, perturb=lambda: FALSE)
    shown = Property(lambda: TRUE, name="the construction reaches fewer columns")
    result = run_claim(_claim([true], expected="gap", gap="part of the domain", gap_checks=[shown]))
    assert result.outcome == "gap" and result.as_dict()["gap"] == "part of the domain"
    not_shown = Property(lambda: FALSE, name="the construction reaches every column")
    assert run_claim(_claim([true], expected="violated", gap="x", gap_checks=[not_shown])).outcome == "violated"


def test_an_erratum_whose_correction_cannot_fail_is_violated():
    printed = Property(lambda: FALSE)
    vacuous = [Property(lambda: TRUE)]  # passes, refutes nothing
    result = run_claim(_claim([printed], expected="violated", corrected_checks=vacuous, corrected_statement="c"))
    assert result.outcome == "violated"
    able = [Property(lambda: TRUE, perturb=lambda: FALSE)]
    assert run_claim(_claim([printed], expected="erratum", corrected_checks=able,
                            corrected_statement="c")).outcome == "erratum"


def test_a_bound_that_never_bites_says_none_reachable():
    result = RankBound(sp.Rational(1, 2), "lower", "sep", specs=DEPTH1).run()
    assert result.status == "pass" and not result.could_fail and result.bites_at.startswith("none reachable")


def test_a_loose_upper_bound_above_the_monomial_count_is_not_decided():
    result = RankBound(sp.Integer(10**6), "upper", "sep", specs=DEPTH1).run()  # trivial bounds: 84 and 455
    assert result.status == "pass" and not result.could_fail


def test_an_upper_bound_below_the_monomial_count_no_longer_counts_as_able_to_fail():
    # 81 < 84 = trivial_upper at depth 1 width 2 beats the trivial bound, but sep = 3 there: 81/3 = 27
    # and 81 - 1 still hold, so no strengthening is refuted (rule 1): not decided
    result = RankBound(sp.Integer(81), "upper", "sep", specs=DEPTH1[:1]).run()
    assert result.details[0]["beats_trivial"]
    assert not result.could_fail and not any(p["refuted"] for p in result.perturbations)


def test_two_disagreeing_readings_give_ambiguous_with_both_outcomes():
    strict = Property(lambda: TRUE, perturb=lambda: FALSE, reading="strict")
    loose = Property(lambda: FALSE)
    result = run_claim(_claim([strict], expected="ambiguous", readings={"loose": [loose]}))
    assert result.outcome == "ambiguous"
    assert {k: v["outcome"] for k, v in result.readings.items()} == {"strict": "verified", "loose": "violated"}


def test_agreeing_readings_give_their_common_outcome():
    a = Property(lambda: TRUE, perturb=lambda: FALSE, reading="a")
    b = Property(lambda: TRUE, perturb=lambda: FALSE, reading="b")
    assert run_claim(_claim([a, b])).outcome == "verified"


def test_an_erratum_under_one_reading_and_verified_under_another_is_ambiguous():
    printed = Property(lambda: FALSE, reading="literal")
    other = Property(lambda: TRUE, perturb=lambda: FALSE, reading="intended")
    fixed = [Property(lambda: TRUE, perturb=lambda: FALSE)]
    result = run_claim(_claim([printed, other], expected="ambiguous", corrected_checks=fixed,
                              corrected_statement="fixed"))
    assert {k: v["outcome"] for k, v in result.readings.items()} == {"intended": "verified", "literal": "erratum"}


def test_a_property_without_a_perturbation_cannot_show_it_could_fail():
    result = run_claim(_claim([Property(lambda: TRUE)], expected="not-decided"))
    assert result.outcome == "not-decided" and result.checks[0].bites_at == NO_PERTURBATION


def test_cases_perturbation_shifted_by_one_is_refuted():
    # statement: the n-th odd number is 2n - 1; perturbation: the index shifted by one, 2(n+1) - 1
    odd = lambda i: sorted(k for k in range(1, 40) if k % 2)[i - 1]  # noqa: E731
    check = Cases([1, 2, 3], lambda i: (odd(i) == 2 * i - 1, f"{i}"),
                  perturb={"index shifted by one": lambda i: (odd(i) == 2 * (i + 1) - 1, f"{i}")})
    result = check.run()
    assert result.status == "pass" and result.could_fail and result.perturbations[0]["refuted"]


def test_chain_tightening_is_refuted_where_a_step_is_within_one():
    within = InequalityChain([n, n + sp.Rational(1, 2)], ["<="], grid={n: [1, 2, 3]}, search=5).run()
    flat = InequalityChain([n, 2 * n - n], ["<="], grid={n: [1, 2, 3]}, search=5).run()  # n + 1 <= n: refuted
    one = InequalityChain([n, n + 1], ["<"], grid={n: [1, 2, 3]}, search=5).run()  # n + 1 < n + 1: refuted
    assert within.could_fail and within.margin["value"] == 0.5
    assert flat.status == "pass" and flat.could_fail and flat.margin["value"] == 0.0
    assert one.could_fail


def test_hypothesis_search_shrinks_a_counterexample_outside_the_grid_to_the_smallest():
    # n^2 <= 300 holds on the grid 1..5 and first fails at n = 18 (17^2 = 289, 18^2 = 324)
    chain = InequalityChain([n**2, sp.Integer(300)], ["<="], grid={n: [1, 2, 3, 4, 5]}, search=200,
                            search_ranges={n: (1, 10**6)})
    result = chain.run()
    assert result.status == "fail" and result.counterexample["n"] == 18


def test_cases_search_shrinks_to_the_smallest_failing_case():
    check = Cases([1, 2], lambda m: (m < 50, f"m={m}"), strategy=st.integers(1, 10**6), search=100)
    result = check.run()
    assert result.status == "fail" and result.counterexample == {"case": "50"}


def test_quoted_number_shows_it_could_fail():
    result = QuotedNumber(lambda: sp.log(1000, 3), "6.3", "0.05").run()  # log3 1000 = 6.2877
    assert result.could_fail and all(p["refuted"] for p in result.perturbations)
    assert abs(result.margin["value"] - (0.05 - 0.0123)) < 1e-3


def test_report_counts_every_outcome_kind():
    records = [run_claim(_claim([Property(lambda: TRUE)], expected="not-decided")).as_dict()]
    assert counts(records) == {k: (1 if k == "not-decided" else 0) for k in OUTCOMES}
    text = markdown(records, {"version": "t", "claims": 1, "seconds": 0.0, "spec_set": "default"})
    assert "0 ambiguous" in text and "## Not decided" in text


def test_run_exits_0_when_a_not_decided_claim_is_expected_and_1_when_verified_was(tmp_path, capsys, monkeypatch):
    import verify.claims.record as record
    for expected, code in (("not-decided", 0), ("verified", 1)):
        toy = _claim([Property(lambda: TRUE)], expected=expected)
        monkeypatch.setattr(record, "load_claims", lambda package="seprank_proofs", toy=toy: [toy])
        assert main(["run", "--claim", "toy_claim", "--out", str(tmp_path), "--json", "--quiet"]) == code
        data = json.loads(capsys.readouterr().out)
        assert data["claims"][0]["outcome"] == "not-decided" and data["claims"][0]["could_fail"] is False
        written = json.loads(next(tmp_path.rglob("report.json")).read_text())
        assert written["counts"] == {k: (1 if k == "not-decided" else 0) for k in OUTCOMES}


def test_closest_names_the_refuted_strengthening_or_the_margin_and_never_prints_minus_zero():
    from verify.claims.record import closest
    refuted = [{"statement": "upper bound /3", "evidence": "refuted at L=1 d_x=2 H=1 (sep 3)", "refuted": True}]
    assert closest(refuted, None, None) == "refuted: upper bound /3 (refuted at L=1 d_x=2 H=1 (sep 3))"
    line = closest([], {"value": -0.0, "scale": "log3 units", "where": "L=1"}, "none reachable")
    assert line == "no strengthening refuted; margin 0 (log3 units) at L=1; none reachable"


def _findings_lists(text: str) -> dict:
    """docs/claims.md's findings lists: outcome -> (count in the heading, claim ids listed under it)."""
    headings = {"erratum": "### Errata", "gap": "### Proof gaps", "ambiguous": "### Ambiguous",
                "not-decided": "### Not decided"}
    found = {}
    for outcome, start in headings.items():
        head = text.index(start)
        line = text[head:text.index("\n", head)]
        body = text[text.index("\n", head):]
        body = body[:body.find("\n#")] if "\n#" in body else body
        found[outcome] = (int(re.findall(r"\((\d+)\)\s*$", line)[0]),
                          set(re.findall(r"^- \*\*`([a-z0-9_]+)`\*\*", body, re.M)))
    return found


def test_the_docs_and_the_readme_count_the_outcomes_the_registry_expects():
    """docs/claims.md's findings lists name exactly the claims expected with each outcome, and their
    headings and the README's summary line carry the registry's counts (they are kept by hand)."""
    from collections import Counter

    from verify.claims.record import load_claims

    root = Path(__file__).resolve().parents[2]
    claims = load_claims()
    counts = Counter(c.expected for c in claims)
    for outcome, (count, ids) in _findings_lists((root / "docs" / "claims.md").read_text()).items():
        assert ids == {c.id for c in claims if c.expected == outcome}, outcome
        assert count == counts[outcome], outcome
    readme = " ".join((root / "README.md").read_text().split())
    summary = (f"Today: {len(claims)} claims, {counts['verified']} verified, {counts['erratum']} errata, "
               f"{counts['ambiguous']} ambiguous, {counts['gap']} proof gap{'' if counts['gap'] == 1 else 's'}, "
               f"{counts['not-decided']} not decided.")
    assert summary in readme


def test_a_two_sided_statement_is_verified_only_if_each_side_is():
    """Issue 34: a sound upper half must not carry a vacuous lower half (Check.side)."""
    tight = Property(lambda: TRUE, perturb=lambda: FALSE, name="upper half, strengthening refuted")
    loose = Property(lambda: TRUE, name="lower half, nothing refuted")
    tight.side, loose.side = "upper", "lower"
    assert run_claim(_claim([tight, loose], expected="not-decided")).outcome == "not-decided"
    other = Property(lambda: TRUE, perturb=lambda: FALSE, name="lower half, strengthening refuted")
    other.side = "lower"
    assert run_claim(_claim([tight, loose, other])).outcome == "verified"
    unsided = Property(lambda: TRUE, name="no side named")
    assert run_claim(_claim([tight, unsided])).outcome == "verified"  # one statement: one refutation suffices
