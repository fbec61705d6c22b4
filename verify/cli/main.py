"""The ``verify`` command line: one subcommand per job, ``--json`` for scripts.

Each command is one module of this package (``NAME``, ``add_parser(sub)``, ``run(args)``) listed in
``COMMANDS``; it parses, calls one function of ``verify.api`` and prints.
Every bad input ends in one line ``verify: error: <problem>; <fix>`` on stderr and exit status 2.
"""

from __future__ import annotations

import argparse
import sys

from ..version import __version__
from ..errors import InputError
from . import certify, check_certificate, claims, coverage, monomials, probe_n, recheck, results, run, sep, table

__all__ = ["main", "build_parser", "COMMANDS"]

#: The subcommands, in the order ``verify --help`` lists them.
COMMANDS = [sep, monomials, claims, run, certify, check_certificate, probe_n, table, results, coverage, recheck]


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # one line, exit 2, no usage dump
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
