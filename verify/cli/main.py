"""The ``verify`` command line: one subcommand per job, ``--json`` for scripts.

Each command is one module of this package (``NAME``, ``add_parser(sub)``, ``run(args)``) listed in
``COMMANDS``; it parses, calls one function of ``verify.api`` and prints.
Every bad input ends in one line ``verify: error: <problem>; <fix>`` on stderr and exit status 2.
"""

from __future__ import annotations

import argparse
import sys

from ..errors import InputError
from ..version import __version__
from . import certify, check_certificate, claims, coverage, monomials, probe_n, recheck, results, run, sep, table

__all__ = ["main", "build_parser", "COMMANDS"]

#: The subcommands, in the order ``verify --help`` lists them.
COMMANDS = [sep, monomials, claims, run, certify, check_certificate, probe_n, table, results, coverage, recheck]


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


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="verify", description="Exact verification of the separation-rank theory of "
                     "self-attention (Levine et al. 2020; Wies et al. 2021).")
    parser.add_argument("--version", action="version", version=f"verify {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    for command in COMMANDS:
        command.add_parser(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    from .faults import run_guarded

    handlers = {command.NAME: command.run for command in COMMANDS}

    def dispatch(argv):
        args = build_parser().parse_args(argv)
        return handlers[args.command](args)

    return run_guarded(dispatch, argv)


if __name__ == "__main__":
    sys.exit(main())
