"""``verify check-certificate``: re-check a certificate (``verify.api.check_certificate_file``)."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from .args import add_output_args

if TYPE_CHECKING:
    import argparse

NAME = "check-certificate"


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    check = sub.add_parser("check-certificate", help="re-check a certificate; exit 0 only if it holds",
                           description="Rebuild the certificate's grid matrix from its stored weights and "
                                       "templates with an independent eq. 3 forward pass, recompute the "
                                       "determinant mod p and the bound; exit 0 only if everything agrees.")
    check.add_argument("file", help="certificate JSON file")
    add_output_args(check)


def run(args: argparse.Namespace) -> int:
    from .. import api

    holds, reason = api.check_certificate_file(args.file, not (args.json or args.quiet))
    if args.json:
        print(json.dumps({"holds": holds, "reason": reason}))
    else:
        print(("HOLDS: " if holds else "FAILS: ") + reason)
    return 0 if holds else 1
