"""``verify completion bash|zsh``: a shell completion script generated from the parser by shtab, so it
names every subcommand and option the parser has (and changes with it)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import argparse

NAME = "completion"
SHELLS = ("bash", "zsh")


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = sub.add_parser("completion", help="print a bash or zsh completion script", description=(
        "Print a completion script for the shell, generated from verify's own parser (shtab). "
        "bash: verify completion bash > ~/.local/share/bash-completion/completions/verify; "
        "zsh: verify completion zsh > ~/.zfunc/_verify, with fpath+=(~/.zfunc) before compinit in ~/.zshrc."))
    parser.add_argument("shell", choices=SHELLS, help="the shell: bash or zsh")


def run(args: argparse.Namespace) -> int:
    import shtab

    from .main import build_parser

    print(shtab.complete(build_parser(), shell=args.shell), end="")
    return 0
