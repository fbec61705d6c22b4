"""Hints added to argparse's own messages (standard library only: the parser's refusals load nothing more)."""

from __future__ import annotations

import re

__all__ = ["dash_value_hint"]


def dash_value_hint(message: str, given: list[str]) -> str:
    """``message`` with the fix for argparse's "argument --partition: expected one argument" where the value
    typed after the option starts with ``-`` (argparse reads ``-1,0`` as an option): write ``--partition=-1,0``.

    >>> hint = dash_value_hint("argument --partition: expected one argument (see 'verify sep --help')",
    ...                        ["sep", "--partition", "-1,0"])
    >>> hint.endswith("expected one argument; a value starting with - is read as an option: write "
    ...               "--partition=-1,0 (see 'verify sep --help')")
    True
    """
    found = re.match(r"argument (\S+): expected one argument", message)
    if not found:
        return message
    options = found.group(1).split("/")
    for arg, value in zip(given, given[1:], strict=False):
        if arg in options and re.match(r"-[\d.]", value):  # -1,0 or -0.5: a value, where --json is an option
            end = found.end()
            return f"{message[:end]}; a value starting with - is read as an option: write {arg}={value}{message[end:]}"
    return message
