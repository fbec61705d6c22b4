"""``verify coverage``: the coverage index of the documents, its table and counts (``verify.api.coverage``)."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from .args import add_output_args, add_registry_arg

if TYPE_CHECKING:
    import argparse

NAME = "coverage"


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    cov = sub.add_parser("coverage", help="coverage index: every statement with its claims or a reason",
                         description=(
        "Read the coverage index (the registry's coverage/*.toml: one file per document part, one entry per checkable "
        "statement with the claim ids that check it or a one-line reason none can) and print, per document "
        "part, the entries, how many have a claim, a reason, a pending claim or neither, and claim ids that "
        "do not exist. Exits 0 when every entry has a claim or a reason and every claim id exists, else 1."))
    cov.add_argument("--dir", default=None, help="directory of the index files (default: the registry's "
                     "coverage folder)")
    cov.add_argument("--entries", action="store_true", help="also list every entry")
    add_registry_arg(cov)
    add_output_args(cov)


def run(args: argparse.Namespace) -> int:
    from .. import api

    data, entries = api.coverage(args.dir, args.registry)
    ok = data.pop("ok")
    if args.json:
        data["entries"] = [{"id": e.global_id, "place": e.place, "kind": e.kind, "statement": e.statement,
                            "claims": list(e.claims), "reason": e.reason} for e in entries]
        data["ok"] = ok
        print(json.dumps(data))
        return 0 if ok else 1
    head = (f"{'file':<22} {'entries':>7} {'claim':>6} {'reason':>6} {'pending':>7} {'neither':>7} {'bad id':>6}  "
            "document")
    print(head)
    for r in data["documents"] + [{"file": "total", "document": "", **data["totals"]}]:
        bad = r["unknown_claims"] if isinstance(r["unknown_claims"], int) else len(r["unknown_claims"])
        print(f"{r['file']:<22} {r['entries']:>7} {r['with_claim']:>6} {r['with_reason']:>6} {r['pending']:>7} "
              f"{r['neither']:>7} {bad:>6}  {r['document']}")
    if args.entries:
        print()
        for e in entries:
            print(f"{e.global_id:<40} {e.kind:<12} {', '.join(e.claims) or 'reason: ' + e.reason}")
    for line in ([f"no claim and no reason: {g}" for g in data["neither"]] +
                 [f"unknown claim id: {u}" for u in data["unknown_claims"]] + data["format_problems"]):
        print(line)
    print(f"\n{data['claims_cited']} claims cited; {len(data['claims_uncited'])} claims cited by no entry" +
          ("" if ok else "; INDEX INCOMPLETE"))
    return 0 if ok else 1
