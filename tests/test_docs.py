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


def test_the_ci_jobs_parse_and_run_the_readmes_commands():
    import yaml

    blocks = re.findall(r"```yaml\n(.*?)```", (ROOT / "docs" / "ci.md").read_text(), flags=re.S)
    files = [yaml.safe_load(block) for block in blocks]
    assert len(files) == 3  # GitHub Actions (verify run, pytest), GitLab CI
    readme = _readme_commands()
    for job_file in files:
        commands = _ci_commands(job_file)
        assert commands and set(commands) <= readme, set(commands) - readme
        assert any("pip install" in c for c in commands) and any("--junit" in c for c in commands)
        text = yaml.safe_dump(job_file)
        assert "VERIFY_STORE" in text and ".verify-store" in text and "verify-report/" in text  # cache, artifact
    gitlab = files[2]["claims"]
    assert gitlab["artifacts"]["reports"]["junit"] in " ".join(gitlab["script"])


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
