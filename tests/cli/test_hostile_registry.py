"""Broken claims registries (issue 35, item 1 and 7): every mistake in a registry is one line on
stderr naming the registry and the file, with the fix, exit status 2, never "internal error"; a
claim file cannot end the process; ``verify run --registry X`` computes only X's ranks.

The trial's cases are rerun here in-process through ``main(argv)``; the fuzz test at the end draws
random module trees and claim files.
"""

import itertools
import json
import shutil
import sys
import textwrap
import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import verify
from toy_registry import TOY_BOUND
from verify.claims.registry import ENVIRONMENT
from verify.cli.main import main
from verify.errors import InputError

FAST = 5.0

CLAIM = '''
from verify.authoring import Claim, Property, Source

CLAIM = Claim(
    id="{id}",
    source=Source("toy", "§1", "eq. 1"),
    statement="1 + 1 = 2",
    expected="not-decided",
    checks=[Property(lambda: (1 + 1 == 2, "1 + 1 = 2 in Python's integers", None), name="1 + 1 = 2")],
)
'''

_names = itertools.count()


def _drop_modules(name):
    for module in [m for m in sys.modules if m == name or m.startswith(name + ".")]:
        del sys.modules[module]


@pytest.fixture
def make_registry(tmp_path, monkeypatch):
    """make_registry({file: text}, coverage=True): a registry folder of a name no other test uses."""
    monkeypatch.delenv(ENVIRONMENT, raising=False)
    made = []

    def make(files, coverage=True, init='"""A toy registry."""\n'):
        folder = tmp_path / f"hostile_registry_{next(_names)}_{tmp_path.name.replace('-', '_')}"
        folder.mkdir()
        if init is not None:
            (folder / "__init__.py").write_text(init)
        if coverage:
            (folder / "coverage").mkdir()
        for name, text in files.items():
            (folder / name).parent.mkdir(parents=True, exist_ok=True)
            (folder / name).write_text(text)
        made.append(folder.name)
        return folder

    yield make
    for name in made:
        _drop_modules(name)


def refused(capsys, *argv, phrases=()):
    start = time.perf_counter()
    code = main([str(a) for a in argv])
    seconds = time.perf_counter() - start
    out, err = capsys.readouterr()
    assert code == 2, (code, out, err)
    assert len(err.strip().splitlines()) == 1 and err.startswith("verify: error: "), err
    assert "Traceback" not in err and "internal error" not in err, err
    for phrase in phrases:
        assert phrase in err, (phrase, err)
    assert seconds < FAST, seconds
    return err


def good(id_):
    return textwrap.dedent(CLAIM.format(id=id_))


# -- not a registry -------------------------------------------------------------------------------

@pytest.mark.parametrize("name", ["json", "verify", "email"])
def test_a_package_that_is_not_a_registry_is_named_as_such(capsys, monkeypatch, name):
    monkeypatch.delenv(ENVIRONMENT, raising=False)
    refused(capsys, "claims", "--registry", name, phrases=(repr(name), "not a claims registry", "coverage/"))
    monkeypatch.setenv(ENVIRONMENT, name)
    refused(capsys, "claims", phrases=(repr(name), ENVIRONMENT, "not a claims registry", f"unset {ENVIRONMENT}"))


def test_a_folder_without_coverage_is_not_a_registry(capsys, make_registry):
    folder = make_registry({"toy_a.py": good("toy_a")}, coverage=False)
    refused(capsys, "claims", "--registry", folder, phrases=("not a claims registry", "coverage/"))


@pytest.mark.parametrize("name, phrase", [("", "empty"), ("   ", "empty"), ("os", "not a package"),
                                          ("no_such_registry_q", "neither")])
def test_empty_and_unknown_names_are_one_line(capsys, monkeypatch, name, phrase):
    monkeypatch.delenv(ENVIRONMENT, raising=False)
    refused(capsys, "claims", "--registry", name, phrases=(phrase,))


def test_a_stale_environment_gives_plain_table_a_clean_line(capsys, monkeypatch, tmp_path):
    """verify table reads its bound columns from the registry: a stale VERIFY_REGISTRY is one line
    naming the variable and how to unset it, before any rank is computed."""
    monkeypatch.setenv(ENVIRONMENT, str(tmp_path / "gone"))
    refused(capsys, "table", "--depths", "1", "--widths", "2", "--no-store",
            phrases=(ENVIRONMENT, "does not exist", f"unset {ENVIRONMENT}"))
    monkeypatch.setenv(ENVIRONMENT, "json")
    refused(capsys, "table", "--depths", "1", "--widths", "2", "--no-store", phrases=(ENVIRONMENT, "unset"))


# -- broken claim files ---------------------------------------------------------------------------

BROKEN = [
    ("toy_b.py", "X = 1\n", ("toy_b.py", "defines no CLAIM", "define CLAIM")),
    ("toy_b.py", "CLAIM = 3\n", ("toy_b.py", "not a verify.authoring.Claim")),
    ("toy_b.py", good("toy_other"), ("toy_b.py", "'toy_other' differs from the file name 'toy_b'",
                                     "rename the file")),
    ("toy_b.py", "x = (\n", ("toy_b.py:1", "SyntaxError")),
    ("toy_b.py", "\n\nimport no_such_module_anywhere_q\n", ("toy_b.py:3", "ModuleNotFoundError",
                                                             "no_such_module_anywhere_q")),
    ("toy_b.py", "from . import _missing_helper\n", ("toy_b.py:1", "ImportError")),
    ("toy_b.py", "raise ValueError('two\\nlines')\n", ("toy_b.py:1", "ValueError: two\\nlines")),
    ("toy_b.py", "import sys\nsys.exit(0)\n", ("toy_b.py:2", "sys.exit(0)", "must only define CLAIM")),
    ("toy_b.py", "raise SystemExit('bye')\n", ("toy_b.py:1", "sys.exit('bye')")),
    ("toy_b.py", "def f():\n    return f()\nf()\n", ("toy_b.py", "RecursionError")),
    ("toy_b/__init__.py", "X = 1\n", ("toy_b/__init__.py", "defines no CLAIM")),
]


@pytest.mark.parametrize("file, text, phrases", BROKEN, ids=[f"{i}" for i in range(len(BROKEN))])
def test_a_broken_claim_file_is_one_line_naming_the_registry_and_the_file(capsys, make_registry, file, text,
                                                                           phrases):
    folder = make_registry({"toy_a.py": good("toy_a"), file: text})
    for command in ("claims", "run", "coverage"):
        extra = ["--out", folder.parent / "out", "--no-store"] if command == "run" else []
        err = refused(capsys, command, "--registry", folder, *extra, phrases=phrases)
        assert f"registry {folder.name!r} (--registry)" in err, err
    with pytest.raises(InputError, match=folder.name):
        verify.list_claims(registry=folder)
    assert not (folder.parent / "out" / "report.json").exists()  # refused before any report


def test_a_broken_package_init_is_one_line(capsys, make_registry):
    folder = make_registry({"toy_a.py": good("toy_a")}, init="import sys\nsys.exit(3)\n")
    refused(capsys, "claims", "--registry", folder, phrases=("__init__.py:2", "sys.exit(3)"))
    assert folder.name not in sys.modules


def test_sys_exit_in_a_claim_file_cannot_end_verify_claims_with_status_0(tmp_path, make_registry):
    """In a real process: the exit status is 2 and the one line is printed (it was a silent 0)."""
    import subprocess

    folder = make_registry({"toy_a.py": good("toy_a"), "toy_z.py": "import sys\nsys.exit(0)\n"})
    done = subprocess.run([sys.executable, "-m", "verify.cli.main", "claims", "--registry", str(folder)],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "toy_z.py:2" in done.stderr and done.stdout == "", done


# -- verify run ----------------------------------------------------------------------------------

def test_an_empty_registry_is_refused_by_run_and_listed_as_empty(capsys, make_registry, tmp_path):
    folder = make_registry({"_helper.py": "X = 1\n"})
    refused(capsys, "run", "--registry", folder, "--out", tmp_path / "out", "--no-store",
            phrases=("holds no claim file", "no report"))
    assert not (tmp_path / "out" / "report.json").exists()
    assert main(["claims", "--registry", str(folder), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["count"] == 0


def test_run_on_a_one_claim_registry_computes_no_rank_and_takes_seconds(capsys, make_registry, tmp_path,
                                                                        monkeypatch):
    """verify run --registry toy: no exact rank is computed (it computed the installed registry's 43
    first, 46-50 s); the report holds the one claim."""
    from verify.claims import specsets
    from verify.sweeps import executor

    computed = []
    real = executor.run_sweep
    monkeypatch.setattr(executor, "run_sweep", lambda tasks, *a, **k: (computed.extend(tasks), real(tasks, *a, **k))[1])
    monkeypatch.setattr(specsets, "_reduced_rank", lambda *a: computed.append(a) or 1)
    folder = make_registry({"toy_a.py": good("toy_a")})
    start = time.perf_counter()
    code = main(["run", "--registry", str(folder), "--out", str(tmp_path / "out"), "--no-store", "--json"])
    seconds = time.perf_counter() - start
    data = json.loads(capsys.readouterr().out)
    assert code == 0 and [c["id"] for c in data["claims"]] == ["toy_a"] and computed == []
    assert json.loads((tmp_path / "out" / "report.json").read_text())["claims"][0]["id"] == "toy_a"
    assert seconds < FAST, seconds


def test_run_computes_exactly_the_ranks_its_bounds_read(capsys, make_registry, tmp_path, monkeypatch):
    """A registry whose one bound reads depth 1 width 2 computes those two specs (heads 1 and 2),
    through the sweep, and nothing else; the dry run plans the same two."""
    from verify.sweeps import executor

    computed = []
    real = executor.run_sweep
    monkeypatch.setattr(executor, "run_sweep", lambda tasks, *a, **k: (computed.extend(tasks), real(tasks, *a, **k))[1])
    folder = make_registry({"toy_rank_at_most_three.py": textwrap.dedent(TOY_BOUND)})
    code = main(["run", "--registry", str(folder), "--out", str(tmp_path / "out"), "--no-store", "--json",
                 "--workers", "1"])
    data = json.loads(capsys.readouterr().out)
    assert code == 0 and data["claims"][0]["outcome"] == "verified"
    assert sorted((t.spec.depth, t.spec.width, t.spec.heads, t.spec.residual) for t in computed) == \
        [(1, 2, 1, False), (1, 2, 2, False)]
    assert main(["run", "--registry", str(folder), "--dry-run", "--json", "--no-store"]) == 0
    assert len(json.loads(capsys.readouterr().out)["tasks"]) == 2


def test_run_claims_takes_one_id_or_a_list(make_registry):
    folder = make_registry({"toy_a.py": good("toy_a"), "toy_b.py": good("toy_b")})
    [one] = verify.run_claims("toy_a", registry=folder)
    assert one.claim.id == "toy_a"
    assert [r.claim.id for r in verify.run_claims(["toy_b", "toy_a"], registry=folder)] == ["toy_a", "toy_b"]
    for wrong in (3, [3], 2.5):
        with pytest.raises(InputError):
            verify.run_claims(wrong, registry=folder)
    with pytest.raises(InputError, match="unknown claim 't'"):
        verify.run_claims(["t"], registry=folder)


# -- fuzz (item 7) ----------------------------------------------------------------------------------

_FRAGMENTS = [
    "X = 1\n", "CLAIM = None\n", "CLAIM = 'x'\n", "x = (\n", "def f(:\n", "import no_such_module_fz\n",
    "from . import _nope_fz\n", "from .. import nothing\n", "raise ValueError('bad\\x1b[31m')\n",
    "raise KeyError\n", "import sys\nsys.exit(0)\n", "import sys\nsys.exit('x')\n", "raise SystemExit\n",
    "1/0\n", "from verify.authoring import Claim\nCLAIM = Claim()\n", "\x00", "\ufeffX = 1\n",
    "\xff\xfe", "def f():\n    return f()\nf()\n", "from . import _helper\n", "assert False, 'no'\n",
]
_NAMES = st.sampled_from(["toy_a", "toy_b", "_helper", "sub", "sub/__init__", "sub/toy_c", "_sub/__init__",
                          "toy-d", "coverage/x", "__main__"])


@st.composite
def _trees(draw):
    files = {}
    for name in draw(st.lists(_NAMES, max_size=5, unique=True)):
        kind = draw(st.sampled_from(["good", "bad-id", "fragment", "text"]))
        stem = name.rsplit("/", 1)[-1]
        text = {"good": lambda stem=stem, name=name: good(stem if stem != "__init__" else name.split("/")[0]),
                "bad-id": lambda: good("toy_zz"),
                "fragment": lambda: draw(st.sampled_from(_FRAGMENTS)),
                "text": lambda: draw(st.text(max_size=30))}[kind]()
        files[name + ".py"] = text
    init = draw(st.one_of(st.none(), st.just('"""r"""\n'), st.sampled_from(_FRAGMENTS)))
    return files, init, draw(st.sampled_from([True, True, True, False]))


@settings(max_examples=60, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(tree=_trees())
def test_fuzz_any_module_tree_loads_or_is_one_line_and_status_2(capsys, make_registry, tree):
    files, init, coverage = tree
    folder = make_registry({}, coverage=coverage, init=init)
    for name, text in files.items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(text.encode("utf-8", "surrogateescape"))
    try:
        code = main(["claims", "--registry", str(folder), "--json"])
        out, err = capsys.readouterr()
        if code == 0:
            data = json.loads(out)
            assert err == "" and data["count"] == len(data["claims"])
        else:
            assert code == 2, (code, err)
            assert len(err.strip().splitlines()) == 1 and err.startswith("verify: error: "), err
            assert "internal error" not in err and "\x1b" not in err, err
    finally:
        _drop_modules(folder.name)
        shutil.rmtree(folder)


def test_a_dotted_registry_whose_parent_package_raises_is_one_line_exit_2(tmp_path):
    """A registry named pkg.sub whose parent package raises on import: one line naming the registry and the
    parent's error, exit 2 (the message once passed the exception itself to ``printable``, a TypeError)."""
    import os
    import subprocess
    import sys

    (tmp_path / "brokenparent").mkdir()
    (tmp_path / "brokenparent" / "__init__.py").write_text("raise RuntimeError('parent fails on import')\n")
    env = {**os.environ, "PYTHONPATH": str(tmp_path)}
    done = subprocess.run([sys.executable, "-m", "verify", "claims", "--registry", "brokenparent.sub"],
                          capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 2, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "brokenparent.sub" in lines[0] and "parent fails on import" in lines[0], lines
