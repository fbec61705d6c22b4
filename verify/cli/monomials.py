"""``verify monomials``: monomials of y_p^i against the closed form (``verify.api.monomials``)."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from .. import defaults
from .args import add_network_args, add_output_args, pairs_table, spec_of

if TYPE_CHECKING:
    import argparse

NAME = "monomials"


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    mono = sub.add_parser("monomials", help="monomials of y_p^i against the closed form", description=(
        "Degree and monomial count of the exact polynomial y_p^i, beside the closed-form count "
        "a generic network must have."))
    add_network_args(mono, defaults.MONOMIALS, tokens_required=True)
    add_output_args(mono)


def run(args: argparse.Namespace) -> int:
    from .. import api

    report = api.monomials(spec_of(args), args.seed, args.weight_range, args.field, args.max_memory_gib)
    if args.json:
        print(json.dumps(report))
    else:
        print(pairs_table([("monomials", f"{report['count']:,}"),
                           ("closed form", f"{report['expected_count']:,} (generic network)"),
                           ("matches", report["matches"]),
                           ("degree", f"{report['degree']} (expected {report['expected_degree']})")]))
    return 0
