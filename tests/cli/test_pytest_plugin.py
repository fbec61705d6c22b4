"""The pytest plugin (verify.pytest_plugin), run as a user runs it: pytest in a project folder of its
own (pytester: a fresh folder, ``testpaths = tests`` with two tests of its own, in-process runs for
speed, xdist workers as real processes), over the toy registries of tests/toy_registry.py (one
claim as expected, one with a planted wrong expectation, checks that raise; a one-claim registry
of one rank bound).  The plugin is found through its ``pytest11`` entry point, as a user's pytest
finds it."""

import importlib.metadata
import os
import re
import sqlite3
import xml.etree.ElementTree as ET

import pytest

import toy_registry

# imported here, so the in-process runs share them: pytester drops the modules a run imported, and
# numpy (under the claims' checks and the rank sweep) cannot be imported twice in one process
import verify.authoring  # noqa: F401
import verify.claims.coverage  # noqa: F401
import verify.claims.record  # noqa: F401
import verify.claims.registry  # noqa: F401  (patched below: the runs must see the same module)
import verify.claims.specsets  # noqa: F401
import verify.report.junit  # noqa: F401
import verify.sweeps.claim_run  # noqa: F401
import verify.sweeps.executor  # noqa: F401
import verify.sweeps.store  # noqa: F401  (patched below)
import verify.sweeps.table  # noqa: F401
from toy_registry import CLASSNAME, schema_errors

pytest_plugins = ["pytester"]

OWN = {"test_one", "test_two"}
CLAIMS = set(toy_registry.CLAIMS)


@pytest.fixture
def project(pytester, monkeypatch):
    """A project with ``testpaths = tests`` (two tests of its own) and the toy registry beside them."""
    monkeypatch.delenv("VERIFY_REGISTRY", raising=False)
    pytester.makefile(".ini", pytest="[pytest]\ntestpaths = tests\n")
    pytester.mkdir("tests")
    (pytester.path / "tests" / "test_own.py").write_text("def test_one():\n    pass\n\n\ndef test_two():\n    pass\n")
    toy_registry.make(pytester.path)
    return pytester


def claims(project, *args, registry="toy_claims_registry"):
    return project.runpytest("-p", "no:randomly", "--verify-claims", "--verify-registry",
                             str(project.path / registry), *args)


def collected(result) -> set[str]:
    """The names of the items ``--co -q`` listed."""
    return {line.rsplit("::", 1)[1] for line in result.outlines if "::" in line}


def junit_cases(path) -> dict:
    return {case.get("name"): case for case in ET.parse(path).getroot().iter("testcase")}


def test_the_plugin_is_registered_by_the_entry_point_and_inert_without_its_option(project):
    [entry] = [e for e in importlib.metadata.entry_points(group="pytest11") if e.value == "verify.pytest_plugin"]
    assert entry.dist.name == "seprank-verify"
    result = project.runpytest("-q")
    assert result.ret == 0 and result.parseoutcomes() == {"passed": 2}
    result = project.runpytest("--markers")
    assert "verify_claim" not in result.stdout.str() and "expected_" not in result.stdout.str()
    result = project.runpytest("--help")
    assert "--verify-claims" in result.stdout.str() and "--verify-registry" in result.stdout.str()


def test_the_claims_are_added_to_the_projects_own_tests_never_in_their_place(project):
    """Issue 41: no paths collects the testpaths and the claims; paths collect those and the claims."""
    assert collected(claims(project, "--co", "-q")) == OWN | CLAIMS
    assert collected(claims(project, "--co", "-q", "tests/test_own.py::test_one")) == {"test_one"} | CLAIMS
    assert collected(claims(project, "--co", "-q", "-m", "verify_claim")) == CLAIMS  # the claims alone


def test_under_xdist_the_projects_tests_and_the_claims_run_and_report(project):
    result = claims(project, "-n", "2", "--junitxml=x.xml")
    assert result.ret == 1 and result.parseoutcomes() == {"passed": 3, "failed": 1, "errors": 1}, result.outlines
    cases = junit_cases(project.path / "x.xml")
    assert set(cases) == OWN | CLAIMS
    assert {cases[name].get("classname") for name in CLAIMS} == {CLASSNAME[name] for name in CLAIMS}


def test_one_item_per_claim_named_by_its_registry_paper_and_id_and_exactly_the_planted_failure(project):
    result = claims(project, "-k", "not toy_raises", "-m", "verify_claim")
    assert result.ret == 1 and result.parseoutcomes() == {"passed": 1, "failed": 1, "deselected": 3}
    out = result.stdout.str()
    assert "FAILED toy_claims_registry/toy_paper_b::toy_planted" in out
    assert "expected verified, got not-decided" in out and "evidence of the planted claim: 2 + 2 = 4" in out
    assert "passage:" in out and "reading:" in out


def test_markers_select_by_paper_and_expected_outcome_one_marker_line_each(project):
    result = claims(project, "--co", "-q", "-m", "paper_toy_paper_a and not expected_violated")
    assert collected(result) == {"toy_as_expected"}
    # a .txt paper's marker has no _txt (PP02): the paper of toy_planted is toy_paper_b.txt
    assert collected(claims(project, "--co", "-q", "-m", "paper_toy_paper_b")) == {"toy_planted"}
    assert collected(claims(project, "--co", "-q", "-m", "expected_not_decided or expected_verified")) == \
        {"toy_as_expected", "toy_planted"}
    lines = [line for line in claims(project, "--markers").outlines if line.startswith("@pytest.mark.")]
    names = [line.split(":")[0].removeprefix("@pytest.mark.") for line in lines]
    ours = [n for n in names if n == "verify_claim" or n.startswith(("paper_", "expected_"))]
    assert len(ours) == len(set(ours)) == 1 + 7 + 2  # verify_claim, every outcome, the two papers


def test_a_marker_of_an_outcome_no_claim_has_is_known_to_strict_markers(project):
    result = claims(project, "--strict-markers", "-m", "expected_erratum or expected_gap", "-q")
    assert result.ret == pytest.ExitCode.NO_TESTS_COLLECTED and "error" not in result.stdout.str().lower()


def test_last_failed_reruns_only_the_failed_and_errored_claims(project):
    claims(project, "-q")
    result = claims(project, "-q", "--lf")
    assert result.parseoutcomes() == {"failed": 1, "errors": 1, "deselected": 3}


def test_both_junit_files_name_map_and_word_each_claim_alike_and_validate(project, tmp_path):
    """Issue 41 item 5: ``verify run --junit`` and ``--junitxml`` over the same registry: the same
    classnames, names, error/failure/pass per claim, the same system-out lines (properties and
    evidence); both valid against tests/junit.xsd, and the plugin's only without
    ``--verify-junit-properties``."""
    from verify.cli.main import main

    folder = toy_registry.make(tmp_path, extra=True)
    try:
        assert main(["run", "--registry", str(folder), "--out", str(tmp_path / "r"), "--junit",
                     str(tmp_path / "cli.xml"), "--quiet", "--no-store"]) == 1
    finally:
        toy_registry.forget(folder)
    result = project.runpytest("-p", "no:randomly", "--verify-claims", "--verify-registry", str(folder),
                               "-m", "verify_claim", "-o", "junit_logging=system-out", "--junitxml=plugin.xml")
    assert result.parseoutcomes() == {"passed": 1, "failed": 1, "errors": 3, "deselected": 2}
    cli, plugin = junit_cases(tmp_path / "cli.xml"), junit_cases(project.path / "plugin.xml")
    assert set(cli) == set(plugin) == set(CLASSNAME)

    def verdict(case):
        return [child.tag for child in case if child.tag in ("error", "failure", "skipped")]

    for name in CLASSNAME:
        assert cli[name].get("classname") == plugin[name].get("classname") == CLASSNAME[name]
        assert verdict(cli[name]) == verdict(plugin[name]), name
        assert cli[name].find("system-out").text in plugin[name].find("system-out").text
    assert verdict(cli["toy_gap_raises"]) == ["error"] and verdict(cli["toy_planted"]) == ["failure"]
    assert schema_errors(tmp_path / "cli.xml") == [] and schema_errors(project.path / "plugin.xml") == []
    project.runpytest("--verify-claims", "--verify-registry", str(folder), "-m", "verify_claim",
                      "--verify-junit-properties", "--junitxml=with_properties.xml")
    assert schema_errors(project.path / "with_properties.xml")
    properties = {p.get("name")
                  for p in junit_cases(project.path / "with_properties.xml")["toy_planted"].iter("property")}
    assert properties == {"paper", "source", "expected", "outcome", "passage", "margin"}


# --- refusals at configure time (issue 43): pytest's usage error, exit 4, naming the option ---------

def refused(result, *phrases):
    err = result.stderr.str()
    assert result.ret == pytest.ExitCode.USAGE_ERROR, (result.ret, err, result.stdout.str())
    assert "Traceback" not in err + result.stdout.str()
    for phrase in phrases:
        assert phrase in err, (phrase, err)
    # the command line's option names would send the user to options pytest does not have
    assert not re.search(r"(?<![\w-])--(no-store|store|registry)\b", err), err


@pytest.fixture
def bound(project):
    """The one-claim registry whose one check reads the exact ranks of one layer of width 2."""
    toy_registry.make_bound(project.path)
    return project


def foreign_sqlite(path):
    with sqlite3.connect(path) as conn:
        conn.execute("CREATE TABLE songs (title TEXT)")


@pytest.mark.parametrize("kind", ["folder", "text file", "another application's SQLite file"])
def test_a_store_that_is_not_a_store_is_refused_naming_the_option(project, kind):
    target = project.path / "target"
    if kind == "folder":
        target.mkdir()
    elif kind == "text file":
        target.write_text("notes\n")
    else:
        foreign_sqlite(target)
    refused(claims(project, "--verify-store", str(target)), "--verify-store", str(target),
            {"folder": "is a folder", "text file": "not an SQLite file", "another application's SQLite file":
             "another application's SQLite database"}[kind])
    assert target.is_dir() if kind == "folder" else target.read_bytes()  # left as it was


def test_an_empty_store_option_is_refused(project):
    refused(claims(project, "--verify-store", ""), "--verify-store is empty", "--verify-store none")


@pytest.mark.parametrize("workers", [[], ["-n", "2"]])
def test_a_read_only_folder_is_refused_before_any_worker_starts(bound, monkeypatch, workers):
    """Root writes through mode bits, so the folder is read-only through os.access, which is what the
    store's check asks (as tests/cli/test_outputs.py does)."""
    store_module = verify.sweeps.store
    folder = bound.path / "locked"
    folder.mkdir()
    real = os.access
    monkeypatch.setattr(store_module.os, "access",
                        lambda p, mode: False if str(p) == str(folder) else real(p, mode))
    result = claims(bound, *workers, "--verify-store", str(folder / "s.sqlite"), registry="toy_bound_registry")
    refused(result, "--verify-store", "read-only")
    assert "PermissionError" not in result.stdout.str() + result.stderr.str()
    assert not list(folder.iterdir())


def test_a_full_disk_is_refused_as_the_command_line_refuses_it(bound, monkeypatch):
    """A full disk, simulated: SQLite cannot write the new store's schema."""
    store_module = verify.sweeps.store

    class FullDisk:
        def __init__(self, *args, **kwargs):
            pass

        def execute(self, *args):
            raise sqlite3.OperationalError("database or disk is full")

        def close(self):
            pass

    monkeypatch.setattr(store_module.sqlite3, "connect", FullDisk)
    refused(claims(bound, "--verify-store", str(bound.path / "s.sqlite"), registry="toy_bound_registry"),
            "--verify-store", "database or disk is full")


def test_registry_problems_are_refused_naming_the_plugins_option(project, monkeypatch):
    refused(project.runpytest("--verify-claims", "--co", "--verify-registry", "no_such_registry_here"),
            "no_such_registry_here", "--verify-registry")
    empty = project.path / "empty_registry"
    (empty / "coverage").mkdir(parents=True)
    (empty / "__init__.py").write_text("")
    refused(claims(project, "--co", registry="empty_registry"), "holds no claim file", "--verify-registry")
    # two installed registries and no choice: refused, as verify run/claims/table refuse it (--co: were it
    # not refused, the installed registry's claims would only be listed, not run)
    monkeypatch.setattr(verify.claims.registry, "registry_entry_points", lambda: {"one": "one_mod", "two": "two_mod"})
    refused(project.runpytest("--verify-claims", "--co"), "several claims registries", "--verify-registry")


def test_the_registry_is_found_through_verify_registry_as_the_command_line_finds_it(project, monkeypatch):
    monkeypatch.setenv("VERIFY_REGISTRY", str(project.path / "toy_claims_registry"))
    assert collected(project.runpytest("--verify-claims", "--co", "-q", "-m", "verify_claim")) == CLAIMS
    monkeypatch.setenv("VERIFY_REGISTRY", "no_such_registry_either")
    refused(project.runpytest("--verify-claims", "--co"), "no_such_registry_either", "VERIFY_REGISTRY")


def test_a_one_claim_registry_computes_only_the_ranks_it_reads_and_a_second_run_reuses_them(bound, monkeypatch):
    """Issue 43: only the exact ranks of the claim's bound checks (depth 1, width 2), not the 43 of
    the default set; and the store of VERIFY_STORE as pytest found it, though the project's conftest
    (as ours does) points VERIFY_STORE elsewhere: the second run computes nothing."""
    from verify.sweeps.store import Store

    store = bound.path / "cache" / "results.sqlite"
    monkeypatch.setenv("VERIFY_STORE", str(store))
    bound.makeconftest("import os\nos.environ['VERIFY_STORE'] = os.path.join(os.getcwd(), 'throwaway.sqlite')\n")
    puts = []
    real_put = Store.put
    monkeypatch.setattr(Store, "put", lambda self, task, value, seconds: (puts.append(task.spec),
                                                                          real_put(self, task, value, seconds)))
    result = claims(bound, "-q", "-m", "verify_claim", registry="toy_bound_registry")
    assert result.parseoutcomes() == {"passed": 1, "deselected": 2}
    with Store(store, read_only=True) as kept:
        rows = kept.rows()
    assert rows and {(row["spec"]["depth"], row["spec"]["width"]) for row in rows} == {(1, 2)}
    assert len(puts) == len(rows) and not (bound.path / "throwaway.sqlite").exists()
    puts.clear()
    monkeypatch.setenv("VERIFY_STORE", str(store))  # a new process starts with it again; this one was changed
    result = claims(bound, "-q", "-m", "verify_claim", registry="toy_bound_registry")
    assert result.parseoutcomes() == {"passed": 1, "deselected": 2} and puts == []


def test_xdist_workers_fill_the_store_one_at_a_time(tmp_path):
    """The lock beside the store lets one worker compute while the others wait (separate opens of
    the lock file exclude each other, in threads as in processes)."""
    import threading
    import time

    from verify.pytest_plugin import _one_worker_at_a_time

    store, order = str(tmp_path / "results.sqlite"), []

    def worker(name):
        with _one_worker_at_a_time(store):
            order.append(f"{name} in")
            time.sleep(0.2)
            order.append(f"{name} out")

    threads = [threading.Thread(target=worker, args=(name,)) for name in "ab"]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert [step.split()[1] for step in order] == ["in", "out", "in", "out"]
    with _one_worker_at_a_time(None):  # no store: nothing to share, no lock
        pass
    with _one_worker_at_a_time(str(tmp_path / "no" / "such" / "folder" / "s.sqlite")):  # no lock file: no lock
        pass
