"""``verify run --junit FILE`` (verify.report.junit), read back by a JUnit reader (junitparser), not by
the code that wrote it, and validated against the JUnit schema (tests/junit.xsd, the rules of the
Surefire/Jenkins junit-10.xsd) by lxml: one testcase per claim, classname ``<registry>.<paper>``,
the properties and the evidence in system-out, an unexpected outcome a failure and a raising check
an error and only that.  The plugin's file is compared with this one in tests/cli/test_pytest_plugin.py."""

import json

import pytest
from junitparser import Error, Failure, JUnitXml, Properties

import toy_registry
from toy_registry import CLASSNAME, schema_errors
from verify.cli.main import main


@pytest.fixture
def run(tmp_path, monkeypatch):
    """``verify run`` over the toy registry's three claims; returns (exit status, JUnit path, out folder)."""
    monkeypatch.delenv("VERIFY_REGISTRY", raising=False)
    folder = toy_registry.make(tmp_path, extra=True)
    junit, out = tmp_path / "claims.xml", tmp_path / "report"
    status = main(["run", "--registry", str(folder), "--out", str(out), "--junit", str(junit), "--quiet", "--no-store"])
    yield status, junit, out
    toy_registry.forget(folder)


def _properties(case) -> dict:
    """The claim's properties as system-out carries them (``name: value`` lines)."""
    lines = (case.system_out or "").splitlines()
    return dict(line.split(": ", 1) for line in lines if ": " in line)


def _cases(path):
    xml = JUnitXml.fromfile(str(path))
    [suite] = list(xml)
    return suite, {case.name: case for case in suite}


def test_one_testcase_per_claim_with_the_paper_as_classname_and_the_properties(run):
    status, junit, out = run
    assert status == 1  # toy_planted is unexpected
    suite, cases = _cases(junit)
    assert set(cases) == set(CLASSNAME)
    for name, case in cases.items():
        assert case.classname == CLASSNAME[name]
        props = _properties(case)
        assert props["expected"] == {**toy_registry.CLAIMS, **toy_registry.EXTRA}[name][0]
        assert list(props)[:6] == ["paper", "source", "expected", "outcome", "passage", "margin"]
        assert props["passage"] == name and props["paper"] == toy_registry.DOCUMENT[name]
        assert not list(case.iterchildren(Properties))  # not inside a testcase: junit-10.xsd has none there
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
    assert "1 check raised, so the checks did not decide the claim (recorded outcome violated, expected " \
           "violated)" in error.text


def test_a_raising_check_is_an_error_and_only_an_error_wherever_it_is(run):
    """Killing JU01 (a raised check also counted a failure) and JU02 (a raised proof-gap check not an
    error): three claims raise (a check as expected, a check against the expectation, a gap check),
    one other claim has an unexpected outcome."""
    _, junit, _ = run
    suite, cases = _cases(junit)
    assert (suite.tests, suite.failures, suite.errors) == (5, 1, 3)
    for name in ("toy_raises", "toy_raises_unexpected", "toy_gap_raises"):
        [error] = cases[name].result
        assert isinstance(error, Error), name
    assert "KeyError" in cases["toy_gap_raises"].result[0].message
    [failure] = cases["toy_planted"].result
    assert isinstance(failure, Failure)


def test_the_file_validates_against_the_junit_schema_and_testcase_properties_would_not(run, tmp_path):
    from verify.report.junit import junit_xml

    _, junit, out = run
    assert schema_errors(junit) == []
    report = json.loads((out / "report.json").read_text())
    with_properties = tmp_path / "with_properties.xml"
    with_properties.write_text(junit_xml(report["claims"], report["header"], testcase_properties=True))
    errors = schema_errors(with_properties)
    assert errors and all("properties" in e for e in errors)


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


def test_verify_run_exits_1_and_marks_the_table_when_a_check_raised_in_a_claim_that_went_as_expected(
        tmp_path, monkeypatch, capsys):
    """Issue 48.2: ``toy_raises`` is violated as expected, but its check raised: the JUnit file holds an
    error, so ``verify run`` exits 1 (as pytest --verify-claims does) and its table and summary say so."""
    monkeypatch.delenv("VERIFY_REGISTRY", raising=False)
    folder = toy_registry.make(tmp_path)
    junit = tmp_path / "one.xml"
    try:
        status = main(["run", "--registry", str(folder), "--claim", "toy_raises", "--out", str(tmp_path / "r"),
                       "--junit", str(junit), "--no-store", "--quiet"])
    finally:
        toy_registry.forget(folder)
    out = capsys.readouterr().out
    suite, _ = _cases(junit)
    assert (suite.errors, suite.failures) == (1, 0)
    assert status == 1
    [row] = [line for line in out.splitlines() if line.startswith("toy_raises")]
    assert "!error: a check raised" in row
    assert "every outcome as expected; ERROR (a check raised, so it decided nothing): toy_raises" in out
    (tmp_path / "again").mkdir()
    folder = toy_registry.make(tmp_path / "again")
    try:  # and a claim that raised nothing still exits 0
        assert main(["run", "--registry", str(folder), "--claim", "toy_as_expected", "--out", str(tmp_path / "s"),
                     "--no-store", "--quiet"]) == 0
    finally:
        toy_registry.forget(folder)
    assert "!error" not in capsys.readouterr().out
