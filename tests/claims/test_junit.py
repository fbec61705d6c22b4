"""``verify run --junit FILE`` (verify.report.junit), read back by a JUnit reader (junitparser), not by
the code that wrote it: one testcase per claim, classname the paper, the properties, the evidence
in system-out, an unexpected outcome a failure and a raising check an error."""

import json

import pytest
from junitparser import Error, Failure, JUnitXml, Properties

import toy_registry
from verify.cli.main import main


@pytest.fixture
def run(tmp_path, monkeypatch):
    """``verify run`` over the toy registry's three claims; returns (exit status, JUnit path, out folder)."""
    monkeypatch.delenv("VERIFY_REGISTRY", raising=False)
    folder = toy_registry.make(tmp_path)
    junit, out = tmp_path / "claims.xml", tmp_path / "report"
    argv = ["run", "--registry", str(folder), "--out", str(out), "--junit", str(junit), "--quiet", "--no-store"]
    argv += [arg for claim in toy_registry.CLAIMS for arg in ("--claim", claim)]
    status = main(argv)
    yield status, junit, out / "partial"
    toy_registry.forget(folder)


def _properties(case) -> dict:
    return {p.name: p.value for props in case.iterchildren(Properties) for p in props}


def _cases(path):
    xml = JUnitXml.fromfile(str(path))
    [suite] = list(xml)
    return suite, {case.name: case for case in suite}


def test_one_testcase_per_claim_with_the_paper_as_classname_and_the_properties(run):
    status, junit, out = run
    assert status == 1  # toy_planted is unexpected
    suite, cases = _cases(junit)
    assert set(cases) == set(toy_registry.CLAIMS)
    assert (suite.tests, suite.failures, suite.errors) == (3, 1, 1)
    for name, case in cases.items():
        assert case.classname == toy_registry.DOCUMENT[name]
        props = _properties(case)
        assert props["expected"] == toy_registry.CLAIMS[name][0]
        assert {"outcome", "expected", "passage", "margin"} <= set(props)
        assert props["passage"] == name
    assert _properties(cases["toy_planted"])["outcome"] == "not-decided"
    assert 'evidence <1 + 1 & "2">' in cases["toy_as_expected"].system_out  # escaped by the writer, read back whole


def test_an_unexpected_outcome_is_a_failure_and_a_raising_check_an_error(run):
    _, junit, _ = run
    _, cases = _cases(junit)
    assert cases["toy_as_expected"].is_passed
    [failure] = cases["toy_planted"].result
    assert isinstance(failure, Failure)
    assert failure.message == "toy_planted: expected verified, got not-decided"
    assert "evidence of the planted claim: 2 + 2 = 4" in failure.text and "passage:" in failure.text
    [error] = cases["toy_raises"].result
    assert isinstance(error, Error) and "ZeroDivisionError" in error.message


def test_the_suite_carries_the_provenance_and_matches_report_json(run):
    _, junit, out = run
    suite, cases = _cases(junit)
    props = {p.name for p in suite.properties()}
    assert {"version", "registry", "certainty", "probability_bound", "seed", "primes", "field"} <= props
    report = json.loads((out / "report.json").read_text())
    assert [c["id"] for c in report["claims"]] == sorted(cases)


def test_an_unwritable_junit_path_is_refused_before_any_work(tmp_path, capsys, monkeypatch):
    import verify.api

    monkeypatch.setattr(verify.api, "run_registry", lambda *a, **k: pytest.fail("work started before the check"))
    assert main(["run", "--junit", str(tmp_path), "--no-store", "--out", str(tmp_path / "r")]) == 2
    err = capsys.readouterr().err
    assert "--junit" in err and len(err.strip().splitlines()) == 1
