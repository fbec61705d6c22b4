"""Bad input is one line and exit 2; the re-checker imports nothing of the engine."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

from verify.cli.main import main

DATA = Path(__file__).resolve().parent / "data"
PACKAGE = Path(__file__).resolve().parents[2] / "verify" / "recheck"


def _bad(tmp_path):
    (tmp_path / "other.json").write_text('{"hello": 1}')
    (tmp_path / "list.json").write_text("[1, 2]")
    (tmp_path / "broken.json").write_text('{"mode": ')
    (tmp_path / "other.csv").write_text("a,b\n1,2\n")
    (tmp_path / "binary.bin").write_bytes(b"\xff\xfe\x00\x01" * 10)
    short = (DATA / "probe_tokens.json").read_text().replace('"rank": 2,', '"rank": "two",', 1)
    (tmp_path / "probe.json").write_text(short)
    return ["missing.json", "other.json", "list.json", "broken.json", "other.csv", "binary.bin", "probe.json", "."]


@pytest.mark.parametrize("index", range(8))
def test_bad_input_is_one_line_and_exit_2(capsys, tmp_path, index, monkeypatch):
    monkeypatch.chdir(tmp_path)
    name = _bad(tmp_path)[index]
    code = main(["recheck", name])
    out, err = capsys.readouterr()
    assert code == 2, (name, out, err)
    assert len(err.strip().splitlines()) == 1 and err.startswith("verify: error: ") and "Traceback" not in err
    assert out == ""


def test_a_negative_budget_is_refused(capsys):
    assert main(["recheck", str(DATA / "certificate.json"), "--max-seconds", "-1"]) == 2
    assert "--max-seconds" in capsys.readouterr().err


def test_the_package_imports_only_the_standard_library_numpy_and_flint():
    allowed = set(sys.stdlib_module_names) | {"numpy", "flint"}
    for path in PACKAGE.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom):
                assert node.level == 1 or node.module.split(".")[0] in allowed, (path.name, node.module)
            elif isinstance(node, ast.Import):
                assert all(a.name.split(".")[0] in allowed for a in node.names), (path.name, ast.dump(node))


def test_rechecking_loads_no_engine_module():
    code = ("import sys, verify.recheck as r; r.recheck([sys.argv[1]], 5); "
            "print(sorted(m for m in sys.modules if m.startswith('verify')))")
    done = subprocess.run([sys.executable, "-c", code, str(DATA / "probe_probabilistic.json")],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    loaded = {m for m in eval(done.stdout) if not m.startswith("verify.recheck")}  # noqa: S307 - our own list
    assert loaded <= {"verify", "verify.version"}, loaded
