"""The pytest plugin (verify.pytest_plugin), run as a user runs it: ``python -m pytest`` in a folder
of its own, in a subprocess, over the toy registry (tests/toy_registry.py: one claim as expected,
one with a planted wrong expectation, one whose check raises).  Installed through the ``pytest11``
entry point, so these runs find it the way a user's pytest does."""

import importlib.metadata
import subprocess
import sys
import xml.etree.ElementTree as ET

import pytest

import toy_registry

PLANTED = "verify-claims/{}::toy_planted"


@pytest.fixture
def folder(tmp_path):
    """A project folder with one ordinary test and the toy registry beside it (its own pytest.ini,
    so the checkout's addopts do not apply)."""
    (tmp_path / "pytest.ini").write_text("[pytest]\n")
    (tmp_path / "test_plain.py").write_text("def test_plain():\n    assert True\n")
    toy_registry.make(tmp_path)
    return tmp_path


def pytest_run(folder, *args, timeout=240):
    done = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:randomly", *args], cwd=folder,
                          capture_output=True, text=True, timeout=timeout)
    return done.returncode, done.stdout + done.stderr


def claims(folder, *args, **kw):
    return pytest_run(folder, "--verify-claims", "--verify-registry", str(folder / "toy_claims_registry"),
                      *args, **kw)


def test_the_plugin_is_registered_by_the_entry_point_and_inert_without_its_option(folder):
    [entry] = [e for e in importlib.metadata.entry_points(group="pytest11") if e.value == "verify.pytest_plugin"]
    assert entry.dist.name == "seprank-verify"
    status, out = pytest_run(folder, "-q")
    assert status == 0 and "1 passed" in out and "toy_" not in out
    status, out = pytest_run(folder, "--markers")
    assert "--verify-claims" not in out and "verify_claim" not in out
    status, out = pytest_run(folder, "--help")
    assert "--verify-claims" in out and "--verify-registry" in out


def test_one_item_per_claim_named_by_its_id_and_exactly_the_planted_failure(folder):
    status, out = claims(folder, "-q", "--junitxml=j.xml", "-k", "not toy_raises")
    assert status == 1
    assert "1 failed, 1 passed" in out and "test_plain" not in out  # no paths given: the claims alone
    assert f"FAILED {PLANTED.format('toy_claims_registry')}" in out
    assert "expected verified, got not-decided" in out and "evidence of the planted claim: 2 + 2 = 4" in out
    assert "passage:" in out and "reading:" in out
    cases = ET.parse(folder / "j.xml").getroot().iter("testcase")
    found = {c.get("name"): c for c in cases}
    assert set(found) == {"toy_as_expected", "toy_planted"}
    [failure] = found["toy_planted"].iter("failure")
    assert "evidence of the planted claim" in failure.text
    props = {p.get("name"): p.get("value") for p in found["toy_as_expected"].iter("property")}
    assert props["paper"] == "toy_paper_a.md" and props["outcome"] == props["expected"] == "not-decided"


def test_markers_select_by_paper_and_expected_outcome(folder):
    status, out = claims(folder, "-q", "--co", "-m", "paper_toy_paper_a and not expected_violated")
    assert status == 0 and "toy_as_expected" in out and "toy_raises" not in out and "toy_planted" not in out
    status, out = claims(folder, "-q", "--co", "-m", "expected_not_decided or expected_verified")
    assert "2/3 tests collected" in out


def test_last_failed_reruns_only_the_failed_claim(folder):
    claims(folder, "-q")
    status, out = claims(folder, "-q", "--lf")
    assert status == 1 and "1 failed" in out and "passed" not in out and "toy_planted" in out


def test_paths_on_the_command_line_run_beside_the_claims_under_xdist(folder):
    status, out = claims(folder, "-q", "-n", "2", "test_plain.py", "--junitxml=x.xml")
    assert status == 1 and "1 failed, 3 passed" in out, out
    names = {c.get("name") for c in ET.parse(folder / "x.xml").getroot().iter("testcase")}
    assert names == {"test_plain", "toy_as_expected", "toy_planted", "toy_raises"}


def test_an_unknown_registry_is_a_usage_error(folder):
    status, out = pytest_run(folder, "--verify-claims", "--verify-registry", "no_such_registry_here", "-q")
    assert status == 4 and "no_such_registry_here" in out and "Traceback" not in out


def test_xdist_workers_fill_the_store_one_at_a_time(tmp_path):
    """The lock beside the store lets one worker compute while the others wait (separate opens of
    the lock file exclude each other, in threads as in processes)."""
    import threading
    import time

    from verify.pytest_plugin import _one_worker_at_a_time

    store, order = str(tmp_path / "folder" / "results.sqlite"), []

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
