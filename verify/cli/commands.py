"""The registry's subcommands: ``verify claims`` and ``verify run``."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

from ..errors import InputError
from .checks import MAX_COUNT, MAX_DEPTH, MAX_TOKENS, MAX_WIDTH, int_range, writable_dir, writable_file
from ..sweeps.progress import Progress
from .sweep_commands import COMMANDS as SWEEP_COMMANDS
from .sweep_commands import add_sweep_args, open_store
from .sweep_commands import register as sweep_register
from .coverage_command import COMMANDS as COVERAGE_COMMANDS
from .coverage_command import register as coverage_register

__all__ = ["register", "COMMANDS"]


def register(sub, add_network_args, add_output_args) -> None:
    claims = sub.add_parser("claims", help="list the claims registry", description=(
        "List every claim of the registry (proofs/): id, source, expected outcome, statement."))
    add_output_args(claims)

    run = sub.add_parser("run", help="check every claim of the papers (the default job)", description=(
        "Run the claims registry: each stated bound and identity of the papers checked against exact "
        "ranks and certified arithmetic. Prints a table, writes report.md and report.json into --out, "
        "exits 0 when every claim has its expected outcome and 1 otherwise."))
    run.add_argument("--claim", action="append", default=None, metavar="ID",
                     help="run only this claim (repeatable)")
    run.add_argument("--out", default="verify-report", help="directory for report.md and report.json "
                     "(default verify-report/; with --claim they go to its partial/ folder)")
    run.add_argument("--dry-run", action="store_true",
                     help="print the plan (exact ranks to compute or reuse, claims to check) and compute nothing")
    run.add_argument("--extended", action="store_true",
                     help="add the slow spec depth 5 width 2 (about 3 minutes) to the bound checks")
    add_sweep_args(run)
    add_output_args(run)

    cert = sub.add_parser("certify", help="write a certificate for the lower bound of Theorems 1-2",
                          description=(
        "Write a JSON certificate (integer weights, templates, prime, claimed rank, determinant) proving "
        "sep >= ((floor((d_x - H)/2) over 3^(L-2))) almost everywhere, for d_x > 3^L. "
        "'verify check-certificate FILE' re-checks it from its own numbers."))
    cert.add_argument("--depth", type=int_range("--depth", 2, MAX_DEPTH), required=True, help="number of layers L >= 2")
    cert.add_argument("--width", type=int_range("--width", 2, MAX_WIDTH), required=True, help="embedding dimension d_x > 3^L")
    cert.add_argument("--heads", type=int_range("--heads", 1, MAX_WIDTH), default=1, help="attention heads H < d_x (default 1)")
    cert.add_argument("--seed", type=int_range("--seed", 0), default=0, help="seed of weights and templates (default 0)")
    cert.add_argument("--out", default=None, help="certificate file (default: stdout)")
    add_output_args(cert)

    check = sub.add_parser("check-certificate", help="re-check a certificate; exit 0 only if it holds",
                           description="Rebuild the certificate's grid matrix from its stored weights and "
                                       "templates with an independent eq. 3 forward pass, recompute the "
                                       "determinant mod p and the bound; exit 0 only if everything agrees.")
    check.add_argument("file", help="certificate JSON file")
    add_output_args(check)

    probe = sub.add_parser("probe-n", help="separation rank against N (the conjecture on N)", description=(
        "Exact separation rank for N = 2, 4, ... of a network on token inputs (vocabulary embedding of rank r, "
        "optional positional embedding of rank R) or on continuous inputs, until it has been constant for "
        "--patience steps (and equals the N-independent limit where one is known) or N reaches --max-tokens. "
        "Compares with Corollary 1's lower bound and the conjectured scale r L / log3 r "
        "(wies2021_vocabulary_bottleneck.md, section 4 and B.2.2)."))
    add_network_args(probe, tokens_required=False)
    probe.add_argument("--vocab", type=int_range("--vocab", 1, MAX_COUNT, "the vocabulary size"), default=None, help="vocabulary size V")
    probe.add_argument("--rank", type=int_range("--rank", 1, MAX_WIDTH), default=None, help="embedding rank r")
    probe.add_argument("--pos-rank", type=int_range("--pos-rank", 0, MAX_WIDTH), default=0, help="positional embedding rank (default 0: none)")
    probe.add_argument("--max-tokens", type=int_range("--max-tokens", 2, MAX_TOKENS), default=40, help="largest N (default 40)")
    probe.add_argument("--patience", type=int_range("--patience", 1, 10**6), default=4,
                       help="stop once the rank has been constant for this many steps (default 4)")
    probe.add_argument("--continuous", action="store_true",
                       help="continuous inputs (no embedding): coefficient route per N, reduced-route limit")
    probe.add_argument("--plot", default=None, metavar="FILE.png", help="draw rank against N with the bounds")
    probe.add_argument("--dry-run", action="store_true",
                       help="print the plan (each N, its estimated memory, what is stored) and compute nothing")
    add_sweep_args(probe)
    add_output_args(probe)

    sweep_register(sub, add_output_args)
    coverage_register(sub, add_output_args)


def cmd_claims(args) -> int:
    from ..claims.record import load_claims

    found = load_claims()
    if args.json:
        print(json.dumps({"claims": [{"id": c.id, "source": str(c.source), "expected": c.expected,
                                      "statement": c.statement} for c in found], "count": len(found)}))
        return 0
    width = max(len(c.id) for c in found)
    for c in found:
        print(f"{c.id:<{width}}  {c.expected:<14}  {c.source}")
    print(f"\n{len(found)} claims")
    return 0


def cmd_run(args) -> int:
    from ..version import __version__
    from ..claims import specsets
    from ..claims.record import load_claims, run_claim
    from ..claims.report import summary, table, write_reports

    if not args.dry_run:
        writable_dir(args.out, "--out")  # before any work: a typo must not cost a finished run
    found = load_claims()
    if args.claim:
        known = {c.id for c in found}
        unknown = [c for c in args.claim if c not in known]
        if unknown:
            raise InputError(f"unknown claim {unknown[0]!r}; 'verify claims' lists the ids")
        found = [c for c in found if c.id in set(args.claim)]
    specsets.EXTENDED = args.extended
    show = not (args.json or args.quiet)
    if args.dry_run:
        return _run_plan(args, found)
    start = time.perf_counter()  # the reported time includes the exact ranks computed up front
    if not args.claim or any(type(c).__name__ == "RankBound" for claim in found for c in claim.checks):
        _prefetch_ranks(args, show)
    progress = Progress("claims", show, unit="claim")
    records = []
    # --claim writes beside the full report, never over it
    out_dir = Path(args.out) / "partial" if args.claim else Path(args.out)
    header = {"version": __version__, "claims": len(found), "seconds": 0.0,
              "spec_set": "extended" if args.extended else "default"}
    if args.claim:
        header["partial"] = sorted(set(args.claim))
    for i, claim in enumerate(found):
        records.append(run_claim(claim).as_dict())
        header["seconds"] = time.perf_counter() - start
        write_reports(out_dir, records, header)  # atomically, after every claim: an interrupt loses nothing
        progress(i + 1, len(found))
    surprises = [r["id"] for r in records if not r["as_expected"]]
    if args.json:
        print(json.dumps({"header": header, "claims": records, "all_as_expected": not surprises}, default=str))
    else:
        print(table(records))
        print(f"\n{len(records)} claims in {header['seconds']:.1f}s: " + summary(records) +
              (f"; UNEXPECTED: {', '.join(surprises)}" if surprises else "; every outcome as expected") +
              f"\nreports: {out_dir / 'report.md'}, {out_dir / 'report.json'}")
    return 1 if surprises else 0


def _prefetch_tasks():
    """The exact ranks every bound check reads: (specs, sweep tasks)."""
    from ..claims import specsets
    from ..exact.fields import DEFAULT_PRIME
    from ..rank.memory import DEFAULT_MEMORY_GIB
    from ..sweeps.table import sep_task

    specs = specsets.default_specs(False) + specsets.default_specs(True)
    return specs, [sep_task(spec, f"gf:{DEFAULT_PRIME}", 0, DEFAULT_MEMORY_GIB) for spec in specs]


def _run_plan(args, found) -> int:
    """``verify run --dry-run``: the claims it would check and the exact ranks it would compute."""
    from ..rank.reduced import estimate_block_bytes
    from ..sweeps.plan import plan_text, sweep_plan
    from ..sweeps.table import sep_cost

    _, tasks = _prefetch_tasks()
    with open_store(args) as store:
        plan = sweep_plan(tasks, store, sep_cost, lambda t: estimate_block_bytes(t.spec))
    plan["claims"] = [c.id for c in found]
    plan["out"] = str(Path(args.out) / "partial" if args.claim else Path(args.out))
    if args.json:
        print(json.dumps(plan))
    else:
        print(plan_text(plan) + f"Then {len(found)} claims would be checked, reports written to {plan['out']}.")
    return 0


def _prefetch_ranks(args, show: bool) -> None:
    """Compute (or read from the store) the exact ranks of every default spec through the sweep
    executor, so the bound checks find them computed."""
    from ..claims import specsets
    from ..sweeps.progress import SweepProgress
    from ..sweeps.executor import run_sweep
    from ..sweeps.table import sep_cost

    specs, tasks = _prefetch_tasks()
    with open_store(args) as store:
        values, _ = run_sweep(tasks, store, args.scheduler, args.workers, SweepProgress("exact ranks", show),
                              cost=sep_cost)
    for spec, value in zip(specs, values):
        if value is not None:  # a refused spec is left to the checks, which report it
            specsets.remember(spec, 0, value["rank"])


def cmd_probe(args) -> int:
    from ..exact.fields import parse_field
    from ..sweeps.probe import probe_tokens
    from ..model.spec import NetworkSpec

    if args.tokens is not None:
        raise InputError("probe-n chooses N itself; drop --tokens and set --max-tokens")
    spec = NetworkSpec(depth=args.depth, width=args.width, heads=args.heads, attn_dim=args.attn_dim,
                       output=args.output, residual=args.residual)
    if args.plot and not args.plot.lower().endswith(".png"):
        raise InputError(f"plot file {args.plot!r} must end in .png; use e.g. --plot probe.png")
    writable_file(args.plot, "--plot")
    from ..sweeps.store import Task
    from ..sweeps.executor import cpu_count, run_sweep

    field = parse_field(args.field)
    options = {"vocab": args.vocab, "rank": args.rank, "positional_rank": args.pos_rank,
               "continuous": args.continuous, "weight_range": args.weight_range}
    limits = (("max_memory_gib", args.max_memory_gib),)
    method = "coefficients" if args.continuous else "tokens"
    batch = 1 if args.workers == 1 else (args.workers or (4 if args.scheduler else cpu_count()))

    def task(n):
        return Task("probe_step", spec, method, field.name, args.seed, tuple(sorted({**options, "tokens": n}.items())),
                    limits)

    with open_store(args) as store:
        if args.dry_run:
            from ..sweeps.plan import plan_text, sweep_plan
            from ..sweeps.probe import probe_plan

            plan = sweep_plan([task(n) for n in range(2, args.max_tokens + 1, 2)], store,
                              **probe_plan(spec, args.max_memory_gib, **options))
            plan["note"] = "the probe stops early once the rank is steady; these are the most it would compute"
            print(json.dumps(plan) if args.json else plan_text(plan) + plan["note"] + "\n", end="\n" if args.json else "")
            return 0

        def run_batch(token_counts):
            values, stats = run_sweep([task(n) for n in token_counts], store, args.scheduler, args.workers)
            if stats.refused:  # the smallest N refused decides (larger N only need more)
                first = min(stats.refused, key=lambda item: dict(item["task"].params)["tokens"])
                raise InputError(first["reason"])
            return values

        result = probe_tokens(spec, field, args.seed, args.max_tokens, args.patience,
                              progress=Progress("probe-n", not (args.json or args.quiet), unit="N step"),
                              run_batch=run_batch, batch=batch, max_memory_gib=args.max_memory_gib, **options)
    data = result.as_dict()
    data.update(field=field.name, seed=args.seed)
    if args.json:
        print(json.dumps(data))
    else:
        capped = data["mode"] == "tokens"
        print(f"{'N':>4}  rank" + ("  count_cap" if capped else ""))
        for row in data["ranks"]:
            note = "  (cap decides)" if row.get("cap_decides") else ""
            print(f"{row['tokens']:>4}  {row['rank']}" + (f"  {row['count_cap']}{note}" if capped else ""))
        print("\n" + probe_summary(data))
    sys.stdout.flush()
    if args.plot:
        from ..sweeps.plot import plot_probe
        plot_probe(data, args.plot, field=field.name, seed=args.seed)
        if not args.json:
            print(f"plot: {args.plot}")
    return 0


def probe_summary(data: dict) -> str:
    """The probe's findings in whole sentences (``verify.sweeps.probe.probe_summary``)."""
    from ..sweeps.probe import probe_summary as summary

    return summary(data)


def cmd_certify(args) -> int:
    from ..constructions.certificate import certify
    from ..files import write_atomic
    from ..model.spec import NetworkSpec

    writable_file(args.out, "--out")  # before the work, which can take minutes
    spec = NetworkSpec(depth=args.depth, width=args.width, heads=args.heads)
    if spec.width <= 3**spec.depth:
        raise InputError(f"certificates need width > 3^depth = {3**spec.depth}; e.g. --depth 2 --width 10 "
                         f"or --depth 3 --width 28")
    start = time.perf_counter()
    data = certify(spec, seed=args.seed, progress=Progress("certificate matrix", not (args.json or args.quiet),
                                                           unit="row"))
    seconds = time.perf_counter() - start
    text = json.dumps(data)
    if args.out:
        write_atomic(Path(args.out), text + "\n")
    if args.json or not args.out:
        print(text if not args.out else json.dumps({"file": args.out, "claimed_rank": data["claimed_rank"],
                                                     "seconds": round(seconds, 3)}))
    else:
        print(f"certificate for sep >= {data['claimed_rank']} (depth {spec.depth}, width {spec.width}, "
              f"heads {spec.heads}) written to {args.out} in {seconds:.1f}s")
    return 0


#: Certificate files above this size are refused before they are read.
MAX_CERTIFICATE_BYTES = 256 * 2**20


def cmd_check_certificate(args) -> int:
    from ..constructions.certificate import check_certificate

    path = Path(args.file)
    fix = "give the path 'verify certify --out' wrote"
    if not path.exists():
        raise InputError(f"certificate file {args.file!r} does not exist; {fix}")
    if path.is_dir():
        raise InputError(f"certificate file {args.file!r} is a folder; {fix}")
    try:
        size = path.stat().st_size
        if size > MAX_CERTIFICATE_BYTES:
            raise InputError(f"certificate file {args.file!r} has {size / 2**20:.0f} MiB, over the "
                             f"{MAX_CERTIFICATE_BYTES // 2**20} MiB a certificate can have; {fix}")
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise InputError(f"cannot read certificate file {args.file!r} ({exc.strerror or exc}); {fix}") from None
    except UnicodeDecodeError:
        raise InputError(f"{args.file!r} is not a text file; give a file written by 'verify certify'") from None
    except json.JSONDecodeError as exc:
        raise InputError(f"{args.file!r} is not JSON ({exc.msg}); give a file written by 'verify certify'") from None
    except RecursionError:
        raise InputError(f"{args.file!r} nests too deeply to be a certificate; give a file written by "
                         f"'verify certify'") from None
    holds, reason = check_certificate(data, progress=Progress("certificate matrix", not (args.json or args.quiet),
                                                              unit="row"))
    if args.json:
        print(json.dumps({"holds": holds, "reason": reason}))
    else:
        print(("HOLDS: " if holds else "FAILS: ") + reason)
    return 0 if holds else 1


COMMANDS = {"claims": cmd_claims, "run": cmd_run, "probe-n": cmd_probe, "certify": cmd_certify,
            "check-certificate": cmd_check_certificate, **SWEEP_COMMANDS, **COVERAGE_COMMANDS}
