"""``verify probe-n``: separation rank against N, the conjecture on N (``verify.api.probe_n``)."""

from __future__ import annotations

import json
import sys
from typing import TYPE_CHECKING, Any

from .. import defaults
from ..errors import InputError, printable
from ..files import is_stdout
from .args import add_device_arg, add_network_args, add_output_args, add_sweep_args, store_path
from .argtypes import MAX_COUNT, MAX_TOKENS, MAX_WIDTH, distinct_outputs, int_range, plot_file, store_files

if TYPE_CHECKING:
    import argparse

NAME = "probe-n"
D = defaults.PROBE


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    probe = sub.add_parser("probe-n", help="separation rank against N (the conjecture on N)", description=(
        "Exact separation rank for N = 2, 4, ... of a network on token inputs (vocabulary embedding of rank r, "
        "optional positional embedding of rank R) or on continuous inputs, until it has been constant for "
        "--patience steps (and equals the N-independent limit where one is known) or N reaches --max-tokens. "
        "Compares with Corollary 1's lower bound and the conjectured scale r L / log3 r "
        "(wies2021_vocabulary_bottleneck.md, section 4 and B.2.2)."))
    add_network_args(probe, D, tokens_required=False)
    probe.add_argument("--vocab", type=int_range("--vocab", 1, MAX_COUNT, "the vocabulary size"), default=None,
                       help="vocabulary size V")
    probe.add_argument("--rank", type=int_range("--rank", 1, MAX_WIDTH), default=None, help="embedding rank r")
    probe.add_argument("--pos-rank", type=int_range("--pos-rank", 0, MAX_WIDTH), default=D.positional_rank,
                       help="positional embedding rank (default 0: none)")
    probe.add_argument("--max-tokens", type=int_range("--max-tokens", 2, MAX_TOKENS), default=D.max_tokens,
                       help=f"largest N (default {D.max_tokens})")
    probe.add_argument("--patience", type=int_range("--patience", 1, 10**6), default=D.patience,
                       help=f"stop once the rank has been constant for this many steps (default {D.patience})")
    probe.add_argument("--continuous", action="store_true",
                       help="continuous inputs (no embedding): coefficient route per N, reduced-route limit")
    probe.add_argument("--plot", default=None, metavar="FILE.png", help="draw rank against N with the bounds (- : on "
        "stdout, the table then on stderr)")
    probe.add_argument("--dry-run", action="store_true",
                       help="print the plan (each N, its estimated memory, what is stored) and compute nothing")
    add_device_arg(probe, D.device, "the --continuous limit's eliminations (the reduced route)",
                   "The token routes rank on the CPU: they refuse gpu, and auto is the CPU for them")
    add_sweep_args(probe)
    add_output_args(probe)


def run(args: argparse.Namespace) -> int:
    from .. import api
    from ..report import formats
    from ..report.plan_text import plan_text

    if args.tokens is not None:
        raise InputError("probe-n chooses N itself; drop --tokens and set --max-tokens")
    store = store_path(args)
    if not args.dry_run:
        distinct_outputs([("--plot", args.plot), ("--json", "-" if args.json else None), *store_files(store)])
    plot_file(args.plot, "--plot")  # also matplotlib, before any work (--attn-dim is priced by the engine)
    data = api.probe_n(args.depth, args.width, args.heads, args.vocab, args.rank, args.pos_rank, args.continuous,
                       args.max_tokens, args.patience, args.field, args.seed, args.attn_dim, args.output,
                       args.residual, args.weight_range, args.max_memory_gib, store, args.scheduler,
                       args.workers, not (args.json or args.quiet), args.dry_run, args.device)
    if args.dry_run:
        print(json.dumps(data) if args.json else plan_text(data) + data["note"] + "\n",
              end="\n" if args.json else "")
        return 0
    shown = sys.stderr if is_stdout(args.plot) else sys.stdout  # a plot on stdout has stdout to itself
    if args.json:
        print(json.dumps(data))
    else:
        capped = data["mode"] == "tokens"
        labelled = any("label" in row for row in data["ranks"])
        print(f"{'N':>4}  rank" + ("  count_cap" if capped else "") + ("  label (eq. 7.4 bound)" if labelled else ""),
              file=shown)
        for row in data["ranks"]:
            note = "  (cap decides)" if row.get("cap_decides") else ""
            label = f"  {row['label_text']}" if "label" in row else ""
            print(f"{row['tokens']:>4}  {row['rank']}" + (f"  {row['count_cap']}{note}" if capped else "") + label,
                  file=shown)
        print("\n" + probe_summary(data), file=shown)
    shown.flush()
    if args.plot:
        formats.plot_probe(data, args.plot, field=data["field"], seed=args.seed)
        if not args.json:
            print(f"plot: {printable(args.plot)}", file=shown)
    return 0


def probe_summary(data: dict[Any, Any]) -> str:
    """The probe's findings in whole sentences (``verify.report.probe_summary``)."""
    from ..report.probe_summary import probe_summary as summary

    return summary(data)
