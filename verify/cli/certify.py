"""``verify certify``: write a certificate for the lower bound of Theorems 1-2 (``verify.api.certify``)."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from ..errors import printable
from ..files import STDOUT, write_output
from .args import add_output_args
from .argtypes import MAX_DEPTH, MAX_WIDTH, int_range, writable_file

if TYPE_CHECKING:
    import argparse

NAME = "certify"

#: layout -> (the numerator of the bound's floor, where the layout applies): the bound each certificate claims
#: (``constructions.certificate.lower_bound`` and ``one_slot.one_slot_bound``; pinned against them by
#: tests/cli/test_certify_help.py).  Issue 39: the description named the seeded bound for both layouts.
LAYOUT_BOUNDS = {"seeded": ("d_x - H", "d_x > 3^L (the default)"),
                 "one-slot": ("d_x - 1", "any d_x >= 3 and H dividing d_x")}


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    cert = sub.add_parser("certify", help="write a certificate for the lower bound of Theorems 1-2",
                          description=(
        "Write a JSON certificate (integer weights, templates, prime, claimed rank, determinant) proving, almost "
        "everywhere, " + "; ".join(f"with --layout {name}: sep >= ((floor(({top})/2) over 3^(L-2))) for {where}"
                                   for name, (top, where) in LAYOUT_BOUNDS.items()) + ". 'verify check-certificate "
        "FILE' re-checks it from its own numbers."))
    cert.add_argument("--depth", type=int_range("--depth", 2, MAX_DEPTH), required=True, help="number of layers L >= 2")
    cert.add_argument("--width", type=int_range("--width", 2, MAX_WIDTH), required=True,
                      help="embedding dimension d_x (> 3^L with --layout seeded, >= 3 with one-slot)")
    cert.add_argument("--heads", type=int_range("--heads", 1, MAX_WIDTH), default=1,
                      help="attention heads H < d_x (default 1)")
    cert.add_argument("--seed", type=int_range("--seed", 0), default=0,
                      help="seed of weights and templates (default 0)")
    cert.add_argument("--layout", choices=("seeded", "one-slot"), default="seeded",
                      help="seeded: random weights, bound ((floor((d_x - H)/2) over 3^(L-2))), d_x > 3^L (default); "
                           "one-slot: the repaired construction's weights, bound ((floor((d_x - 1)/2) over 3^(L-2))), "
                           "any d_x >= 3 and H dividing d_x")
    cert.add_argument("--out", default=None, help="certificate file (default: stdout)")
    add_output_args(cert)


def run(args: argparse.Namespace) -> int:
    from .. import api

    if args.out == STDOUT:
        args.out = None  # - is stdout, the default
    writable_file(args.out, "--out")  # before the work, which can take minutes
    data, seconds = api.certify(args.depth, args.width, args.heads, args.seed, not (args.json or args.quiet),
                                args.layout)
    text = json.dumps(data)
    if args.out:
        write_output(args.out, text + "\n")
    if args.json or not args.out:
        print(text if not args.out else json.dumps({"file": args.out, "claimed_rank": data["claimed_rank"],
                                                     "seconds": round(seconds, 3)}))
    else:
        print(f"certificate for sep >= {data['claimed_rank']} (depth {args.depth}, width {args.width}, "
              f"heads {args.heads}) written to {printable(args.out)} in {seconds:.1f}s")
    return 0
