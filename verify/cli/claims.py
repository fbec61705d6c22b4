"""``verify claims``: list the registry (``verify.api.list_claims``)."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from .args import add_output_args, add_registry_arg, registry_note

if TYPE_CHECKING:
    import argparse

NAME = "claims"


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    claims = sub.add_parser("claims", help="list the claims registry", description=(
        "List every claim of the registry: id, source, expected outcome, statement."))
    add_registry_arg(claims)
    add_output_args(claims)


def run(args: argparse.Namespace) -> int:
    from .. import api

    found = api.list_claims(args.registry)
    if args.json:
        print(json.dumps({"claims": [{"id": c.id, "source": str(c.source), "expected": c.expected,
                                      "statement": c.statement} for c in found], "count": len(found)}))
        return 0
    registry_note(args.registry)  # which registry, where several are installed (on stderr)
    width = max((len(c.id) for c in found), default=0)
    for c in found:
        print(f"{c.id:<{width}}  {c.expected:<14}  {c.source}")
    print(f"\n{len(found)} claims")
    return 0
