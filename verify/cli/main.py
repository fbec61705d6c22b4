"""The ``verify`` command line: one subcommand per job, ``--json`` for scripts.

Every bad input ends in one line ``verify: error: <problem>; <fix>`` on stderr and exit status 2.
"""

from __future__ import annotations

import argparse
import json
import sys

from ..version import __version__
from ..errors import InputError
from ..exact.fields import DEFAULT_PRIME, FAST_PRIME, parse_field
from .checks import MAX_COUNT, MAX_DEPTH, MAX_TOKENS, MAX_WIDTH, field_text, int_range, memory_limit, route_size
from ..rank.grid import DEFAULT_MAX_EVALUATIONS
from ..rank.memory import DEFAULT_MEMORY_GIB
from .sep_repeat import add_repeat_args, certainty_rows, repeated_sep, weight_range_for
from ..sweeps.progress import Progress
from ..model.spec import DEFAULT_WEIGHT_RANGE, NetworkSpec

__all__ = ["main", "build_parser"]


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # one line, exit 2, no usage dump
        raise InputError(f"{message} (see '{self.prog} --help')")


def _add_network_args(p, tokens_required=False):
    g = p.add_argument_group("network (eq. 3)")
    g.add_argument("--depth", type=int_range("--depth", 1, MAX_DEPTH), required=True, help="number of layers L >= 1")
    g.add_argument("--width", type=int_range("--width", 1, MAX_WIDTH), required=True, help="embedding dimension d_x")
    g.add_argument("--heads", type=int_range("--heads", 1, MAX_WIDTH), default=1, help="attention heads H per layer (default 1)")
    g.add_argument("--attn-dim", type=int_range("--attn-dim", 1, MAX_WIDTH), default=None, help="attention dimension d_a (default d_x/H)")
    g.add_argument("--tokens", type=int_range("--tokens", 1, MAX_TOKENS), required=tokens_required, default=None,
                   help="sequence length N" + ("" if tokens_required else
                                               " (omit for the N-independent value of the reduced route)"))
    g.add_argument("--output", type=int_range("--output", 0, MAX_WIDTH), default=0, help="output coordinate p (default 0)")
    g.add_argument("--position", type=int_range("--position", 0, MAX_COUNT), default=0, help="output position i (default 0)")
    g.add_argument("--residual", action="store_true", help="residual connections: each layer is I + T_l")
    g.add_argument("--seed", type=int_range("--seed", 0), default=0, help="seed of the integer weights (default 0)")
    g.add_argument("--weight-range", type=int_range("--weight-range", 1, 2**62), default=DEFAULT_WEIGHT_RANGE,
                   help="weights uniform in [-R, R] (default 2^31)")
    g.add_argument("--field", type=field_text, default=f"gf:{DEFAULT_PRIME}",
                   help="qq (exact rationals) or gf:P for a prime P (default gf:2^63-25)")
    g.add_argument("--max-memory-gib", type=memory_limit, default=DEFAULT_MEMORY_GIB,
                   help=f"refuse work estimated above this (default {DEFAULT_MEMORY_GIB:g})")


def _add_output_args(p):
    p.add_argument("--json", action="store_true", help="print one JSON object on stdout")
    p.add_argument("--quiet", action="store_true", help="no progress on stderr")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="verify", description="Exact verification of the separation-rank theory of "
                     "self-attention (Levine et al. 2020; Wies et al. 2021).")
    parser.add_argument("--version", action="version", version=f"verify {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    sep = sub.add_parser("sep", help="separation rank of y_p^i", description=(
        "Separation rank of the output y_p^i of a linearised self-attention network at seeded integer "
        "weights. Methods: reduced (N-independent, valid for N >= 2(d_x+1); default when --tokens is "
        "omitted or at least that), coefficients (matricise the exact polynomial), grid (grid tensor "
        "over template vectors)."))
    _add_network_args(sep)
    sep.add_argument("--method", choices=["auto", "coefficients", "grid", "reduced"], default="auto",
                     help="route (default auto: reduced where it is exact, else coefficients)")
    sep.add_argument("--partition", default=None, help="positions in A, e.g. 0,1 (default the first N/2)")
    sep.add_argument("--all-partitions", action="store_true",
                     help="every balanced partition (Claim 1: the rank should not change)")
    sep.add_argument("--templates", type=int_range("--templates", 1, MAX_COUNT), default=None,
                     help="grid: templates per position (default binom(3^L+d_x, d_x), exact)")
    sep.add_argument("--max-evaluations", type=int_range("--max-evaluations", 1, 10**12), default=DEFAULT_MAX_EVALUATIONS,
                     help=f"grid: refuse grids with more evaluations (default {DEFAULT_MAX_EVALUATIONS:,})")
    _add_output_args(sep)
    add_repeat_args(sep)

    mono = sub.add_parser("monomials", help="monomials of y_p^i against the closed form", description=(
        "Degree and monomial count of the exact polynomial y_p^i, beside the closed-form count "
        "a generic network must have."))
    _add_network_args(mono, tokens_required=True)
    _add_output_args(mono)

    from .commands import register
    register(sub, _add_network_args, _add_output_args)
    return parser


def _spec(args) -> NetworkSpec:
    return NetworkSpec(depth=args.depth, width=args.width, heads=args.heads, attn_dim=args.attn_dim,
                       tokens=args.tokens, output=args.output, position=args.position, residual=args.residual)


def _table(pairs: list[tuple[str, object]]) -> str:
    width = max(len(k) for k, _ in pairs)
    return "\n".join(f"{k.ljust(width)}  {v}" for k, v in pairs)


def _distinct(text: str) -> str:
    """``--partition`` lists each position once: ``0,0`` is a typo, not the partition {0}."""
    items = [p.strip() for p in text.split(",") if p.strip()]
    repeated = sorted({p for p in items if items.count(p) > 1})
    if repeated:
        raise InputError(f"--partition {text!r} lists position {repeated[0]} more than once; list each position "
                         f"of A once, e.g. --partition 0,1")
    return text


def cmd_sep(args) -> int:
    from ..model.partitions import balanced_partitions, parse_partition
    from ..rank.reduced import tokens_threshold
    from ..rank.sep import separation_rank

    spec = _spec(args)
    field = parse_field(args.field or f"gf:{DEFAULT_PRIME}")
    method = args.method
    notes = []
    threshold = tokens_threshold(spec)
    explicit_partition = args.partition is not None or args.all_partitions
    if method == "auto":
        method = "reduced" if (spec.tokens is None or spec.tokens >= threshold) and not explicit_partition \
            else "coefficients"
    elif method == "reduced" and spec.tokens is not None and spec.tokens < threshold:
        method = "coefficients"
        notes.append(f"--tokens {spec.tokens} is below {threshold} = 2(d_x+1), where the reduced value is "
                     f"exact; fell back to the coefficient route")
    if method == "reduced" and explicit_partition:
        raise InputError("the reduced route is partition-independent; drop --partition/--all-partitions "
                         "or choose --method coefficients")
    if method != "reduced" and spec.tokens is None:
        raise InputError(f"the {method} route needs --tokens N; give it, or use --method reduced")
    route_size(spec, method, args.templates, args.max_evaluations, args.max_memory_gib, args.all_partitions)
    show = not (args.json or args.quiet)
    common = dict(method=method, field=field, seed=args.seed, weight_range=weight_range_for(args.weight_range, field),
                  max_memory_gib=args.max_memory_gib, max_evaluations=args.max_evaluations,
                  templates=args.templates)
    if args.all_partitions:
        results = []
        parts = balanced_partitions(spec.tokens)
        progress = Progress("partitions", show, unit="partition")
        for k, part in enumerate(parts):
            results.append(separation_rank(spec, partition=part, **common))
            progress(k + 1, len(parts))
        ranks = {r.rank for r in results}
        out = results[0].as_dict()
        out.update(partitions=[{"partition": list(r.partition), "rank": r.rank} for r in results],
                   invariant=len(ranks) == 1, rank=results[0].rank if len(ranks) == 1 else None,
                   partition=None, seconds=round(sum(r.seconds for r in results), 3))
    else:
        partition = parse_partition(_distinct(args.partition), spec.tokens) if args.partition else None
        progress = Progress(f"{method} route", show)

        def run(seed, here):  # one run at fresh weights in the field ``here`` (verify.rank.repeat)
            return separation_rank(spec, partition=partition, progress=progress, **{
                **common, "field": here, "seed": seed, "weight_range": weight_range_for(args.weight_range, here)})
        # no --field: a fast first run (certified exact when it meets the bound), then large primes
        escalate = args.field is None and method == "reduced" and spec.layer_degree < FAST_PRIME
        out = repeated_sep(run, field, args.seed, args.target_probability, args.max_runs, escalate)
    out["notes"] = notes + out["notes"]
    if args.json:
        print(json.dumps(out))
        return 0
    rows = [("rank", out["rank"] if out["rank"] is not None else "NOT invariant: " +
             ", ".join(f"{p['partition']}:{p['rank']}" for p in out["partitions"])),
            ("method", out["method"]), ("field", out["field"]),
            ("network", f"depth {spec.depth}, width {spec.width}, heads {spec.heads}, d_a {spec.attn_dim}"
                        + (", residual" if spec.residual else "")),
            ("tokens", f"every N >= {out['valid_from_tokens']}" if out["method"] == "reduced" else out["tokens"]),
            ("output", f"y_{spec.output}^{spec.position}"), ("seed", out["seed"])]
    if args.all_partitions:
        rows.append(("partitions", f"{len(out['partitions'])} balanced, invariant: {out['invariant']}"))
    elif out["partition"] is not None:
        rows.append(("partition A", ",".join(map(str, out["partition"]))))
    rows += certainty_rows(out) + [("blocks", len(out["blocks"])), ("seconds", out["seconds"])]
    rows += [("note", n) for n in out["notes"]]
    print(_table(rows))
    return 0


def cmd_monomials(args) -> int:
    from ..model.polynomial import monomial_report
    from ..rank.coefficients import estimate_coefficient_bytes
    from ..rank.memory import guard
    from ..model.spec import draw_weights

    spec = _spec(args)
    field = parse_field(args.field)
    route_size(spec, "monomials", None, 1, args.max_memory_gib)  # closed form first: absurd sizes at once
    guard(estimate_coefficient_bytes(spec, field), args.max_memory_gib,
          f"the polynomial for depth {spec.depth}, width {spec.width}, {spec.tokens} tokens", "use fewer --tokens")
    report = monomial_report(spec, draw_weights(spec, args.seed, args.weight_range), field)
    report.update(depth=spec.depth, width=spec.width, heads=spec.heads, tokens=spec.tokens,
                  residual=spec.residual, seed=args.seed, field=field.name,
                  matches=report["count"] == report["expected_count"])
    if args.json:
        print(json.dumps(report))
    else:
        print(_table([("monomials", f"{report['count']:,}"),
                      ("closed form", f"{report['expected_count']:,} (generic network)"),
                      ("matches", report["matches"]),
                      ("degree", f"{report['degree']} (expected {report['expected_degree']})")]))
    return 0


COMMANDS = {"sep": cmd_sep, "monomials": cmd_monomials}


def main(argv: list[str] | None = None) -> int:
    from .faults import run_guarded

    def dispatch(argv):
        args = build_parser().parse_args(argv)
        from .commands import COMMANDS as EXTRA
        handler = COMMANDS.get(args.command) or EXTRA[args.command]
        return handler(args)

    return run_guarded(dispatch, argv)


if __name__ == "__main__":
    sys.exit(main())
