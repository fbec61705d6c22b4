"""Refusals at start-up speed (issues 46.6, 50.5): the console script imports a subcommand's module only
when it runs, and the parser reads its defaults from ``verify.defaults``, so ``verify recheck`` and every
refusal by the parser run with the engine's packages blocked; and ``verify completion`` (issue 48.6)."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from verify.cli.main import COMMANDS, build_parser

DATA = Path(__file__).resolve().parent.parent / "recheck" / "data"
SCRIPT = Path(sys.executable).parent / "verify"
#: The engine's packages: none may load for ``verify recheck`` or a refusal by the parser.
ENGINE = ("verify.rank", "verify.model", "verify.exact", "verify.sweeps", "verify.constructions", "verify.claims",
          "verify.api")

BLOCKER = textwrap.dedent('''
    import sys

    ENGINE = {engine!r}

    class Blocker:
        """Refuses every engine module: the import raises, and the name is written on stderr."""

        def find_spec(self, name, path=None, target=None):
            if any(name == e or name.startswith(e + ".") for e in ENGINE):
                sys.stderr.write(f"BLOCKED {{name}}\\n")
                raise ImportError(f"blocked engine module {{name}}")
            return None

    sys.meta_path.insert(0, Blocker())
''').format(engine=ENGINE)


def _blocked(tmp_path: Path, *args: str) -> subprocess.CompletedProcess:
    """The console script run with a ``sitecustomize`` that blocks every engine module."""
    site = tmp_path / "blocker"
    site.mkdir(exist_ok=True)
    (site / "sitecustomize.py").write_text(BLOCKER)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(site), os.environ.get("PYTHONPATH", "")])}
    command = [str(SCRIPT)] if SCRIPT.is_file() else [sys.executable, "-m", "verify"]
    return subprocess.run([*command, *args], env=env, capture_output=True, text=True, timeout=120, cwd=tmp_path)


def test_the_blocker_blocks(tmp_path):
    """The blocker is active in the console script: a command that needs the engine meets it."""
    done = _blocked(tmp_path, "sep", "--depth", "1", "--width", "2", "--json")
    assert "BLOCKED verify." in done.stderr and done.returncode != 0


def test_verify_recheck_runs_with_every_engine_module_blocked(tmp_path):
    done = _blocked(tmp_path, "recheck", str(DATA / "table.json"), "--quiet")
    assert "BLOCKED" not in done.stderr, done.stderr
    assert done.returncode == 0, done.stdout + done.stderr
    assert "0 contradicted" in done.stdout and "recomputed" in done.stdout


@pytest.mark.parametrize("args, problem", [
    (["sep", "--depth", "0", "--width", "2"], "--depth must be an integer from 1 to 64, got 0"),
    (["probe-n", "--width", "2"], "the following arguments are required: --depth"),
    (["monomials", "--depth", "1", "--width", "2"], "the following arguments are required: --tokens"),
    (["table", "--heads", "3"], "invalid choice: '3'"),
    (["sep", "--depth", "1", "--width", "2", "--field", "gf:4"], "field modulus 4 is not prime"),
    (["bogus"], "invalid choice: 'bogus'"),
])
def test_a_refusal_by_the_parser_runs_with_every_engine_module_blocked(tmp_path, args, problem):
    """One line, exit 2, and no engine module asked for.  The one exception: a ``--field`` typed is checked
    by the engine's own ``verify.parse_field`` (FLINT's primality test, the one check of a prime), so that
    refusal loads the API; the defaults pass without it."""
    if "--field" in args:
        done = _blocked(tmp_path, *args)
        assert [line for line in done.stderr.splitlines() if line.startswith("BLOCKED")][:1] == \
            ["BLOCKED verify.api"], done.stderr
        done = subprocess.run([sys.executable, "-m", "verify", *args], capture_output=True, text=True, timeout=120)
        assert done.returncode == 2 and problem in done.stderr and len(done.stderr.splitlines()) == 1
        assert "verify: error: argument --field: --field 'gf:4'" in done.stderr  # refused by the parser itself
        return
    done = _blocked(tmp_path, *args)
    assert "BLOCKED" not in done.stderr, done.stderr
    assert done.returncode == 2 and done.stdout == ""
    [line] = done.stderr.splitlines()
    assert line.startswith("verify: error: ") and problem in line


def test_the_parsers_import_list_is_free_of_the_engine():
    """Every subcommand's arguments built (as ``verify completion`` does): no engine package loads."""
    code = ("import sys; from verify.cli.main import build_parser; build_parser(); "
            "print(' '.join(sorted(m for m in sys.modules if m.startswith('verify'))))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True)
    loaded = done.stdout.split()
    assert "verify.cli.sep" in loaded and "verify.cli.recheck" in loaded
    assert [m for m in loaded if m.startswith(("verify.rank", "verify.exact", "verify.sweeps"))] == []
    assert [m for m in loaded if m.startswith(ENGINE)] == []


def test_the_help_lists_every_subcommand_with_its_own_help_line():
    """The top-level help (built without the subcommands' modules) says what each module's parser says."""
    import argparse

    full = build_parser()
    [sub] = [a for a in full._actions if isinstance(a, argparse._SubParsersAction)]
    helps = {choice.dest: choice.help for choice in sub._choices_actions}
    assert helps == {name: summary for name, (_, summary) in COMMANDS.items()}
    short = build_parser(None)
    [stub] = [a for a in short._actions if isinstance(a, argparse._SubParsersAction)]
    assert list(stub.choices) == list(COMMANDS)


@pytest.mark.parametrize("shell", ["bash", "zsh"])
def test_completion_names_every_subcommand_and_their_options(shell, capsys):
    from verify.cli.main import main

    assert main(["completion", shell]) == 0
    script = capsys.readouterr().out
    assert all(name in script for name in COMMANDS)
    assert "--max-memory-gib" in script and "--max-seconds" in script and "--junit" in script
    assert ("complete -o bashdefault -F _shtab_verify verify" in script) if shell == "bash" else \
        script.startswith("#compdef verify")


def test_bash_loads_the_completion_and_completes_a_subcommand(tmp_path, capsys):
    """bash sources the script and completes ``verify rec`` to ``recheck``."""
    import shutil

    from verify.cli.main import main

    if shutil.which("bash") is None:
        pytest.skip("no bash")
    assert main(["completion", "bash"]) == 0
    (tmp_path / "verify.bash").write_text(capsys.readouterr().out)
    probe = (f"source {tmp_path / 'verify.bash'}; COMP_WORDS=(verify rec); COMP_CWORD=1; COMP_LINE='verify rec'; "
             "COMP_POINT=${#COMP_LINE}; $(complete -p verify | sed 's/.*-F \\([^ ]*\\) .*/\\1/') verify rec verify; "
             "echo ${COMPREPLY[@]}")
    done = subprocess.run(["bash", "-c", probe], capture_output=True, text=True, timeout=60)
    assert done.stdout.split() == ["recheck"], done.stdout + done.stderr


def test_the_parsers_defaults_are_the_documented_ones():
    """verify.defaults holds the values the parser shows; each is checked against the number the README or
    docs/commands.md states (written here from those texts, not read from the code)."""
    root = Path(__file__).resolve().parents[2]
    readme, commands = (root / "README.md").read_text(), (root / "docs" / "commands.md").read_text()
    assert "`--max-memory-gib` (default 16)" in readme and "(`--target-probability`, default 10⁻⁹" in commands
    assert "[--depths 1-2] [--widths 2-4]" in readme and "`--templates`\n(default 24)" in commands
    assert "`--max-tokens` (default 40)" in commands and "`--patience` steps (default 4)" in commands
    parser = build_parser()
    sep = parser.parse_args(["sep", "--depth", "1", "--width", "2"])
    assert (sep.max_memory_gib, sep.target_probability, sep.field, sep.method) == (16.0, 1e-9, None, "auto")
    table = parser.parse_args(["table"])
    assert (table.depths, table.widths, table.templates, table.real_tokens, table.field) == \
        ("1-2", "2-4", 24, 4, "auto")
    probe = parser.parse_args(["probe-n", "--depth", "1", "--width", "2"])
    assert (probe.max_tokens, probe.patience, probe.field, probe.weight_range) == \
        (40, 4, "gf:9223372036854775783", 2**31)
