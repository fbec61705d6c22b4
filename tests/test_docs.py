"""The README and docs/ stand alone: the Python quick start runs, and no link or path leaves the repository."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


def _quick_start() -> str:
    blocks = re.findall(r"```python\n(.*?)```", (ROOT / "README.md").read_text(), flags=re.S)
    assert blocks, "the README has no Python quick start"
    return blocks[0]


def test_readme_python_quick_start_runs_and_prints_the_certified_rank():
    done = subprocess.run([sys.executable, "-c", _quick_start()], capture_output=True, text=True, timeout=120,
                          cwd=ROOT)
    assert done.returncode == 0, done.stderr
    first = done.stdout.splitlines()[0]
    # depth 2, width 2: the degree-block count min(C(a+2,2), 2 C(6-a,2)) summed over a = 0..4 is 18
    assert first.split()[0] == "18"


def test_docs_and_readme_point_nowhere_outside_the_repository():
    outside = []
    for page in PAGES:
        text = page.read_text()
        for match in re.finditer(r"\.\./|shared/|/work/", text):
            outside.append(f"{page.name}: {text[max(0, match.start() - 30):match.end() + 30]!r}")
    assert outside == []


def test_every_relative_link_in_the_docs_resolves():
    broken = []
    for page in PAGES:
        for target in re.findall(r"\]\(([^)#]+)(?:#[^)]*)?\)", page.read_text()):
            if "://" in target:
                continue
            if not (page.parent / target).exists():
                broken.append(f"{page.name} -> {target}")
    assert broken == []


def test_the_readme_has_no_link_a_package_index_page_cannot_follow():
    """The README is the package's description on an index page, where a relative link (``docs/ci.md``)
    points nowhere: every link is absolute or an anchor of the README itself."""
    targets = re.findall(r"\]\(([^)]+)\)|<a [^>]*href=\"([^\"]+)\"", (ROOT / "README.md").read_text())
    relative = [t for pair in targets for t in pair if t and "://" not in t and not t.startswith("#")]
    assert relative == []


def _readme_commands() -> set[str]:
    """The shell commands of the README's indented blocks."""
    return {line.strip() for line in (ROOT / "README.md").read_text().splitlines()
            if line.startswith("    ") and line.strip().startswith(("python3 -m venv", ".venv/bin/"))}


def _ci_commands(job_file: dict) -> list[str]:
    """Every command a CI file runs: GitHub Actions' ``run`` steps and GitLab's ``script`` lines."""
    found = []
    for name, job in job_file.items():
        if name == "jobs":  # GitHub Actions
            found += [step["run"].strip() for j in job.values() for step in j["steps"] if "run" in step]
        elif isinstance(job, dict) and "script" in job:  # GitLab CI
            found += [line.strip() for line in job["script"]]
    return found


def _ci_files() -> dict[str, dict]:
    """docs/ci.md's YAML blocks by workflow name (GitLab's file, which has none, as ``gitlab``)."""
    import yaml

    blocks = re.findall(r"```yaml\n(.*?)```", (ROOT / "docs" / "ci.md").read_text(), flags=re.S)
    files = [yaml.safe_load(block) for block in blocks]
    return {f.get("name", "gitlab"): f for f in files}


def _steps(job_file: dict) -> list[dict]:
    return [step for job in job_file["jobs"].values() for step in job["steps"]]


def _on(job_file: dict):
    return job_file.get("on", job_file.get(True))  # YAML 1.1 reads the key ``on`` as True


def _triggers(job_file: dict) -> set[str]:
    on = _on(job_file)
    return set(on) if isinstance(on, (list, dict)) else {on}


def test_the_ci_jobs_parse_and_run_the_readmes_commands():
    files = _ci_files()
    assert set(files) == {"claims", "claims-pytest", "claims-report", "wheel", "tests-and-claims", "gitlab"}
    readme = _readme_commands()
    for name in ("claims", "claims-pytest", "gitlab"):  # this repository's jobs run the README's lines
        job_file = files[name]
        commands = _ci_commands(job_file)
        assert commands and set(commands) <= readme, set(commands) - readme
        assert any("pip install" in c for c in commands) and any("--junit" in c for c in commands)
        text = yaml_text(job_file)
        assert "VERIFY_STORE" in text and ".verify-store" in text and "verify-report/" in text  # cache, artifact
    gitlab = files["gitlab"]["claims"]
    assert gitlab["artifacts"]["reports"]["junit"] in " ".join(gitlab["script"])
    assert ".cache/pip/" in yaml_text(gitlab["cache"]) and "PIP_CACHE_DIR" in gitlab["variables"]


def yaml_text(data) -> str:
    import yaml

    return yaml.safe_dump(data)


def test_the_github_workflows_work_on_a_read_only_token_and_from_forks():
    """Every workflow states its permissions; one that a pull request (maybe from a fork, read-only
    token) starts asks for no write permission and does not report checks; the JUnit report runs in a
    workflow_run workflow with ``checks: write`` that downloads the artifacts of the workflows it names
    (which exist) from the run that started it; every setup-python caches pip."""
    files = {name: f for name, f in _ci_files().items() if name != "gitlab"}
    for name, job_file in files.items():
        permissions = job_file["permissions"]
        steps = _steps(job_file)
        reports = [s for s in steps if s.get("uses", "").startswith("mikepenz/action-junit-report")]
        if "pull_request" in _triggers(job_file):
            assert "write" not in permissions.values() and not reports, name
        for step in steps:
            if step.get("uses", "").startswith("actions/setup-python"):
                assert step["with"]["cache"] == "pip", name
    report = files["claims-report"]
    assert _triggers(report) == {"workflow_run"} and report["permissions"]["checks"] == "write"
    assert set(_on(report)["workflow_run"]["workflows"]) <= set(files)
    download, junit = _steps(report)
    assert download["with"]["run-id"] == "${{ github.event.workflow_run.id }}"
    assert junit["with"]["commit"] == "${{ github.event.workflow_run.head_sha }}"
    uploaded = {s["with"]["path"] for f in ("claims", "claims-pytest") for s in _steps(files[f])
                if s.get("uses", "").startswith("actions/upload-artifact")}
    assert uploaded == {"verify-report/"} and junit["with"]["report_paths"].startswith(download["with"]["path"])


def test_another_project_installs_the_package_not_a_checkout():
    """The other project's job installs seprank-verify by name from a URL it is given (a wheel or a git
    URL), never ``-e .`` of a checkout it does not have, and runs the claims beside its own tests; the
    wheel job builds with the standard front end and keeps the wheel as an artifact."""
    files = _ci_files()
    commands = _ci_commands(files["tests-and-claims"])
    assert any('"seprank-verify @ ${{ vars.SEPRANK_VERIFY }}"' in c for c in commands)
    assert not any("-e ." in c for c in commands) and any("--verify-claims" in c for c in commands)
    assert any("python3 -m build --wheel" in c for c in _ci_commands(files["wheel"]))
    [upload] = [s for s in _steps(files["wheel"]) if s.get("uses", "").startswith("actions/upload-artifact")]
    assert upload["with"]["path"].endswith(".whl")


def test_the_distribution_has_a_name_of_its_own():
    import importlib.metadata
    import tomllib

    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert project["name"] == "seprank-verify" and project["scripts"] == {"verify": "verify.cli.main:main"}
    assert set(importlib.metadata.packages_distributions()["verify"]) == {"seprank-verify"}
    wrong = [f"{page.name}: {line.strip()}" for page in PAGES + sorted((ROOT / "verify").rglob("*.py"))
             for line in page.read_text().splitlines()
             if re.search(r"pip install (-q )?['\"]?verify\b", line)]
    assert wrong == []
