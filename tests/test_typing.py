"""The public API type-checks in a user's project (issue 48.1): mypy, run on a user's snippet in a
temporary folder, sees every public name of ``verify`` with its real signature, not ``Any``, through the
``TYPE_CHECKING`` imports beside the lazy ``__getattr__`` of ``verify/__init__.py``."""

from __future__ import annotations

import ast
import inspect
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

import verify

pytest.importorskip("mypy", reason="mypy is in the test extra")

PACKAGE = Path(verify.__file__).resolve().parent


def _revealed(tmp_path: Path, lines: list[str]) -> tuple[int, list[str]]:
    """mypy's exit status and output on a snippet of ``lines`` in a project at ``tmp_path``, with the
    package found as an installed one is (a folder holding only ``verify``; errors inside it silent)."""
    site = tmp_path / "site"
    site.mkdir()
    (site / "verify").symlink_to(PACKAGE, target_is_directory=True)
    project = tmp_path / "project"
    project.mkdir()
    (project / "snippet.py").write_text("\n".join(["import verify", *lines]) + "\n")
    env = {**os.environ, "MYPYPATH": str(site)}
    done = subprocess.run([sys.executable, "-m", "mypy", "--follow-imports=silent", "--no-incremental",
                           "--cache-dir", os.devnull, "snippet.py"],
                          cwd=project, env=env, capture_output=True, text=True, timeout=300)
    return done.returncode, done.stdout.splitlines()


def test_mypy_reveals_every_public_name_with_its_real_signature(tmp_path):
    names = [name for name in verify.__all__ if name != "__version__"]
    status, out = _revealed(tmp_path, [f"reveal_type(verify.{name})" for name in names]
                            + ["verify.seperation_rank", "reveal_type(verify.__version__)"])
    revealed = {}
    for line in out:
        found = re.match(r'snippet\.py:(\d+): note: Revealed type is "(.*)"$', line)
        if found:
            revealed[int(found[1])] = found[2]
    by_name = {name: revealed.get(i + 2) for i, name in enumerate(names)}
    assert not [name for name, text in by_name.items() if text in (None, "Any")], out
    # separation_rank: every parameter of the real function, by name, in order, and its return type
    from verify.rank.sep import separation_rank

    real = inspect.signature(separation_rank)
    text = by_name["separation_rank"]
    assert re.findall(r"(\w+): ", text.split(") ->")[0]) == list(real.parameters), text
    assert text.startswith("def (spec: verify.model.spec.NetworkSpec, method: str =")
    assert text.endswith("-> verify.rank.result.SepResult")
    assert by_name["NetworkSpec"].startswith("def (depth: int, width: int, heads: int =")
    assert by_name["parse_field"] == "def (text: str) -> verify.exact.fields.Field"
    assert by_name["DEFAULT_PRIME"] == "int" and revealed[len(names) + 3] == "str"
    # a misspelt name is an error, not Any (the lazy __getattr__ is hidden from type checkers)
    assert status == 1 and any('has no attribute "seperation_rank"' in line for line in out), out


def test_the_type_checkers_imports_and_the_lazy_loader_name_the_same_modules():
    """Every name of ``_PUBLIC`` is imported under ``TYPE_CHECKING`` from the module the loader reads."""
    tree = ast.parse((PACKAGE / "__init__.py").read_text())
    [block] = [node for node in tree.body if isinstance(node, ast.If) and ast.unparse(node.test) == "TYPE_CHECKING"]
    imported = {alias.name: "." * node.level + node.module for node in block.body for alias in node.names}
    assert imported == verify._PUBLIC
