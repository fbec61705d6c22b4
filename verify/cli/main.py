"""The ``verify`` command line: one subcommand per job, ``--json`` for scripts.

Each command is one module of this package (``NAME``, ``add_parser(sub)``, ``run(args)``) listed in
``COMMANDS`` and imported only when it runs; it parses, calls one function of ``verify.api`` (imported
in its ``run``) and prints.
Every bad input ends in one line ``verify: error: <problem>; <fix>`` on stderr and exit status 2.
"""

from __future__ import annotations

import argparse
import sys
from importlib import import_module
from types import ModuleType

from ..errors import InputError
from ..version import __version__

__all__ = ["main", "build_parser", "COMMANDS", "command_module"]

#: The subcommands, in the order ``verify --help`` lists them: name -> (module of this package, the
#: one-line help ``verify --help`` prints). A module is imported only when its command runs (or is
#: asked for its ``--help``), so a refusal by the parser, ``verify recheck`` and ``verify --help`` load
#: no engine module (issues 46.6, 50.5); tests/cli/test_startup.py checks both.
COMMANDS = {
    "sep": ("sep", "separation rank of y_p^i"),
    "monomials": ("monomials", "monomials of y_p^i against the closed form"),
    "claims": ("claims", "list the claims registry"),
    "run": ("run", "check every claim of the papers (the default job)"),
    "certify": ("certify", "write a certificate for the lower bound of Theorems 1-2"),
    "check-certificate": ("check_certificate", "re-check a certificate; exit 0 only if it holds"),
    "probe-n": ("probe_n", "separation rank against N (the conjecture on N)"),
    "table": ("table", "exact ranks beside every bound of both papers, per spec"),
    "results": ("results", "list or export the results store"),
    "coverage": ("coverage", "coverage index: every statement with its claims or a reason"),
    "recheck": ("recheck", "re-check an export independently; exit 1 on any contradiction"),
    "completion": ("completion", "print a bash or zsh completion script"),
}


def command_module(name: str) -> ModuleType:
    """The module of subcommand ``name`` (``NAME``, ``add_parser(sub)``, ``run(args)``), imported now."""
    return import_module(f".{COMMANDS[name][0]}", __package__)


class _Parser(argparse.ArgumentParser):
    def parse_known_args(self, args=None, namespace=None):
        self._given = list(sys.argv[1:] if args is None else args)  # for error(): what was typed
        return super().parse_known_args(args, namespace)

    def _unknown_option(self) -> str | None:
        """The first option typed that this parser does not know (``--dépth``), or None."""
        for arg in getattr(self, "_given", []):
            if arg == "--":
                return None
            if not arg.startswith("-") or arg == "-" or arg in self._option_string_actions:
                continue
            found = self._parse_optional(arg)
            found = found[0] if isinstance(found, list) and found else found  # Python 3.12 returns a list
            if isinstance(found, tuple) and found[0] is None and not self._negative_number_matcher.match(arg):
                return arg.split("=", 1)[0]
        return None

    def error(self, message):  # one line, exit 2, no usage dump
        unknown = self._unknown_option() if message.startswith("the following arguments are required") else None
        if unknown is not None:  # argparse names the missing option first; the typo is the problem
            import difflib

            close = difflib.get_close_matches(unknown, list(self._option_string_actions), n=1)
            message = f"unknown option {unknown}" + (f" (did you mean {close[0]}?)" if close else "")
        raise InputError(f"{message} (see '{self.prog} --help')")


def build_parser(command: str | None = "*") -> argparse.ArgumentParser:
    """The parser; ``command``: the one subcommand whose arguments are added (its module imported), the
    others only named with their help; ``"*"`` (the default) adds every subcommand's arguments."""
    parser = _Parser(prog="verify", description="Exact verification of the separation-rank theory of "
                     "self-attention (Levine et al. 2020; Wies et al. 2021).")
    parser.add_argument("--version", action="version", version=f"verify {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    for name, (_, summary) in COMMANDS.items():
        if command in ("*", name):
            command_module(name).add_parser(sub)
        else:
            sub.add_parser(name, help=summary, add_help=False)
    return parser


def command_named(argv: list[str]) -> str | None:
    """The subcommand ``argv`` names: its first word that is not an option (``verify`` itself takes only
    ``--help`` and ``--version``, which take no value), if it is one; else None."""
    for word in argv:
        if not word.startswith("-"):
            return word if word in COMMANDS else None
    return None


def main(argv: list[str] | None = None) -> int:
    from .faults import run_guarded

    def dispatch(argv):
        given = list(sys.argv[1:] if argv is None else argv)
        command = command_named(given)
        args = build_parser(command).parse_args(given)
        return command_module(args.command).run(args)

    return run_guarded(dispatch, argv)


if __name__ == "__main__":
    sys.exit(main())
