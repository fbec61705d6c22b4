"""``verify sep``: the separation rank of y_p^i, repeated until certified (``verify.api.separation_rank``)."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from .. import defaults
from ..errors import InputError
from .args import add_device_arg, add_network_args, add_output_args, pairs_table, spec_of
from .argtypes import MAX_COUNT, int_range

if TYPE_CHECKING:
    import argparse

NAME = "sep"
D = defaults.SEP


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    sep = sub.add_parser("sep", help="separation rank of y_p^i", description=(
        "Separation rank of the output y_p^i of a linearised self-attention network at seeded integer "
        "weights. Methods: reduced (N-independent, valid for N >= 2(d_x+1); default when --tokens is "
        "omitted or at least that), coefficients (matricise the exact polynomial), grid (grid tensor "
        "over template vectors)."))
    add_network_args(sep, D, field_help=(
        f"qq (exact rationals) or gf:P for a prime P (every run in GF(P) and the primes below). "
        f"Default, reduced route: one run in GF({defaults.FAST_PRIME}) with the float64 BLAS elimination "
        f"(certified exact if it meets the upper bound), then runs in GF(2^63-25) and below, or GF(2^40-87) and "
        f"below where the float elimination reaches the target sooner, until the target; other routes: gf:2^63-25"),
        weight_help="weights uniform in [-R, R] (default: uniform over GF(p), all p residues; 2^31 over qq)")
    sep.add_argument("--method", choices=["auto", *defaults.METHODS], default=D.method,
                     help="route (default auto: reduced where it is exact, else coefficients)")
    sep.add_argument("--partition", default=None, help="positions in A, e.g. 0,1 (default the first N/2)")
    sep.add_argument("--all-partitions", action="store_true",
                     help="every balanced partition (Claim 1: the rank should not change)")
    sep.add_argument("--templates", type=int_range("--templates", 1, MAX_COUNT), default=D.templates,
                     help="grid: templates per position (default binom(3^L+d_x, d_x), exact)")
    sep.add_argument("--max-evaluations", type=int_range("--max-evaluations", 1, 10**12), default=D.max_evaluations,
                     help=f"grid: refuse grids with more evaluations (default {D.max_evaluations:,})")
    add_device_arg(sep, D.device)
    sep.add_argument("--dry-run", action="store_true",
                     help="reduced route: print the block plan of the first run (each degree block's shape, slice, "
                          "kernel, device, leaf route, bytes and estimated seconds) and compute nothing")
    sep.add_argument("--store", default=None, metavar="PATH",
                     help="reduced route: keep each finished degree block in this results store, so that a killed "
                          "run resumes where it stopped with the same command (on either device)")
    sep.add_argument("--scheduler", default=None, metavar="ADDRESS",
                     help="reduced route: rank each degree block as a task on the Dask cluster at tcp://HOST:PORT, "
                          "on a worker whose MEMORY resource (bytes, dask worker --resources MEMORY=...) can "
                          "hold it, the largest first; with --dry-run, each block's memory and the workers that "
                          "could take it")
    add_output_args(sep)
    sep.add_argument("--target-probability", type=float, default=D.target_probability,
                     help=f"repeat with independent weights and primes until the bound on missing the generic "
                          f"rank is at most this (default {D.target_probability:g}); a rank meeting the proven upper "
                          f"bound stops at once")
    sep.add_argument("--max-runs", type=int, default=D.max_runs, help=f"at most this many runs (default {D.max_runs})")


def run(args: argparse.Namespace) -> int:
    from .. import api  # where it is used: the command line may import the API lazily

    spec = spec_of(args)
    if args.scheduler is None:
        return _stored(args, spec, None)
    with api.block_cluster(args.scheduler) as cluster:
        return _stored(args, spec, cluster)


def _stored(args: argparse.Namespace, spec, cluster) -> int:
    from .. import api

    if args.dry_run:
        return _dry_run(args, spec, cluster)
    if args.store is None:
        return _run(args, spec, None, cluster)
    if not args.store.strip():
        raise InputError(f"--store {args.store!r} is an empty path; give the store's file path, or drop --store")
    try:
        with api.block_store(args.store, spec) as resume:
            try:
                return _run(args, spec, resume, cluster)
            except KeyboardInterrupt as stop:  # Ctrl-C, SIGTERM, SIGHUP: say what is kept and how to resume
                stop.kept_blocks = (args.store, resume.kept)
                raise
    except InputError as exc:  # the store's messages offer the sweeps' --no-store, which sep does not have
        text = str(exc)
        if "--no-store" not in text:
            raise
        raise InputError(text.replace("use --no-store", "drop --store").replace("--no-store", "drop --store")) from None


def _run(args: argparse.Namespace, spec, resume, cluster) -> int:
    from .. import api
    from ..report import formats

    result = api.separation_rank(
        spec, method=args.method, field=args.field, seed=args.seed, partition=args.partition,
        all_partitions=args.all_partitions, templates=args.templates, weight_range=args.weight_range,
        max_memory_gib=args.max_memory_gib, max_evaluations=args.max_evaluations,
        target_probability=args.target_probability, max_runs=args.max_runs, device=args.device, resume=resume,
        cluster=cluster, progress=api.progress_bars(not (args.json or args.quiet)))
    out = result.as_dict()
    if args.json:
        out["probability_bound_text"] = formats.probability_text(out["probability_bound"], out["field"] != "qq")
        print(json.dumps(formats.stamp(out, "sep")))
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
    print(pairs_table(rows))
    return 0


def _dry_run(args: argparse.Namespace, spec, cluster) -> int:
    """``--dry-run``: the plan (``api.plan_separation_rank``; with ``--scheduler`` each block's task memory and the
    workers that can hold it, ``BlockCluster.plan``), printed; nothing computed, nothing stored."""
    from .. import api

    if cluster is None:
        plan = api.plan_separation_rank(spec, method=args.method, field=args.field, device=args.device,
                                        max_memory_gib=args.max_memory_gib).as_dict()
    else:
        plan = cluster.plan(spec, method=args.method, field=args.field, device=args.device,
                            max_memory_gib=args.max_memory_gib)
    if args.json:
        print(json.dumps(plan))
        return 0
    print(f"plan of the first run over {plan['field']} on the {plan['device']}: {len(plan['blocks'])} degree blocks, "
          f"ranked from block {plan['turn']} outward until one is full; the largest slice holds "
          f"{plan['bytes'] / 2**30:.3g} GiB{_held(plan.get('memory'))}; at most {plan['seconds']:,.1f} s "
          f"(every block's price added up)")
    names = {}
    if cluster is not None:
        names = {address: f"w{i + 1}" for i, address in enumerate(plan["workers"])}
        print(f"on the Dask cluster at {plan['scheduler']}, each block a task on a worker whose MEMORY holds it: "
              + ", ".join(f"{names[a]} = {a} (MEMORY {'not declared' if m is None else f'{m / 2**30:.3g} GiB'})"
                          for a, m in plan["workers"].items()))
    print(f"{'a':>4} {'rows':>10} {'cols':>10} {'slice':>17} {'kernel':>18} {'device':>6} {'leaf':>6} "
          f"{'GiB':>8} {'seconds':>9}" + (f" {'task GiB':>9}  workers" if cluster is not None else ""))
    for b in plan["blocks"]:
        line = (f"{b['degree']:>4} {b['rows']:>10,} {b['cols']:>10,} {b['slice'][0]:>8,}x{b['slice'][1]:<8,} "
                f"{b['kernel']:>18} {b['device']:>6} {b['leaf'] or '-':>6} {b['bytes'] / 2**30:>8.3g} "
                f"{b['seconds']:>9.2f}")
        if cluster is not None:
            line += f" {b['memory'] / 2**30:>9.3g}  {','.join(names[a] for a in b['workers']) or 'none'}"
        print(line)
    homeless = [b for b in plan["blocks"] if cluster is not None and not b["workers"]]
    if homeless:
        most = max(b["memory"] for b in homeless)
        print(f"{len(homeless)} block{'s' if len(homeless) != 1 else ''} fit no worker, so the run would refuse "
              f"before ranking any: start workers with --resources MEMORY={most} ({most / 2**30:.3g} GiB) or more")
    return 0


def _held(memory: dict[str, Any] | None) -> str:
    """The dry run's one memory figure: what --max-memory-gib is compared with, part by part (the slice priced as
    the estimate prices it: the largest shorter side plus 32 columns, at least the planned slice)."""
    if memory is None:
        return ""
    return (f"; --max-memory-gib is compared with about {memory['total'] / 2**30:.3g} GiB held at once: at most "
            f"{memory['slice'] / 2**30:.3g} GiB for a slice, {memory['q'] / 2**30:.3g} GiB for q's terms and a fixed "
            f"{memory['fixed'] / 2**30:.3g} GiB of gather chunks and product tiles")


def certainty_rows(out: dict[str, Any]) -> list[tuple[str, object]]:
    """The lines ``verify sep`` prints about what the number certifies."""
    from .. import api
    from ..report import formats

    if out.get("certified_exact"):
        rows = [("certified", f"exact: meets the derivative-space upper bound {out['upper_bound']:,}"),
                ("P(below generic)", "0")]
    else:
        over = "" if out["field"] == "qq" else " over GF(p)"
        rows = [("certified", "lower bound on the generic rank" if out["certified_lower_bound"] else "no"),
                ("upper bound", f"{out['upper_bound']:,} (derivative-space count, {out.get('upper_bound_kind')})"),
                (f"P(below generic{over})", f"<= {api.format_bound(out['probability_bound'])}"
                 + ("" if out["field"] == "qq" else f"; generic over Q {formats.PRIME_CONDITION}")
                 if out["probability_bound"] is not None else "not claimed")]
    if "runs" in out:
        primes = ", ".join(map(str, out["primes"])) or "none (qq)"
        rows.append(("runs", f"{out['runs']} ({out['runs_at_rank']} at this rank); primes {primes}; "
                             f"elimination {out['elimination']}"))
    return rows
