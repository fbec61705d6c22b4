"""The reviewers' table: exact generic separation ranks beside every applicable bound of both papers.

One row per spec (depth, width, heads): the exact separation rank by the reduced route (valid
for N >= 2(d_x+1), docs/mathematics.md §2), log3 of it, the regime (L against log3 d_x: main text §4.1
Theorem 1 below, §4.2 Theorem 2 above), and each bound of the claims registry that applies
(its regime and condition hold), on the log3 scale, with whether the exact rank obeys it
(decided with arb on the bound's own scale, ``arbexpr.compare``).  With ``real``, the numerical grid rank of the
seeded BERT network (eqs. 1-2) is added, labelled numeric.

The bounds are read from the claims registry (``verify.claims.registry``), so a bound added there appears here.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..defaults import AUTO, MAX_DEPTH, TABLE, TableDefaults
from ..errors import InputError
from ..exact.arbexpr import evaluate
from ..exact.fields import as_field
from ..model.spec import NetworkSpec, divisors
from ..rank.certainty import PRIME_CONDITION
from .provenance import certainty_label
from .store import Task

if TYPE_CHECKING:
    from ..claims.registry import Registry, RegistrySource

__all__ = ["TableDefaults", "TABLE", "table_sweep", "parse_range", "table_specs", "fitting_specs", "bound_columns",
           "sep_task", "real_task", "build_rows", "markdown", "regime"]


#: What ``sep_rank`` in the table means (its JSON says it beside the rows).
MEANING = ("sep_rank: exact rank at seeded integer weights over the field (field auto: the best of verify sep's runs, "
           "a fast prime first, then 2^63-25 and below or 2^40-87 and below by expected cost, block by block, until "
           "certified exact or the bound is at most 1e-9; the primes used are in each row), a certified lower bound on "
           "the generic rank (equal to it with probability >= 1 - probability_bound; certified_exact when it meets the "
           "derivative-space upper_bound, probability 0), valid for N >= 2(d_x+1); over GF(p) the probability is about "
           "the generic rank over GF(p), equal to the one over Q " + PRIME_CONDITION + " (docs/mathematics.md §3); "
           "bounds: log3_value the bound's log3 where value_state is 'value', null where it is 'nonpositive' (<= 0 on "
           "the sep scale); a bound outside its regime or condition is not listed; real_rank: numeric")


# over 80 lines: 8 of them the docstring; then every argument's check before any work (field, grid, pairs,
# memory, device), the tasks and the sweep, in that order
def table_sweep(depths: str | Iterable[int], widths: str | Iterable[int], heads: str = TABLE.heads, real: bool = False,
                templates: int = TABLE.templates,
                real_tokens: int = TABLE.real_tokens, field: str = TABLE.field, seed: int = TABLE.seed,
                max_memory_gib: float = TABLE.max_memory_gib, store: str | None = None, scheduler: str | None = None,
                workers: int | None = 1, progress: bool = False,
                on_skipped: Callable[[list[dict[str, Any]]], object] | None = None, dry_run: bool = False,
                registry: RegistrySource | Registry = None, device: str = TABLE.device) -> dict[str, Any]:
    """``verify table``: one reduced-route rank per spec through the sweep executor, then every ``RankBound`` of the
    registry whose regime holds (``registry`` as ``load_claims`` takes it).  ``depths``/``widths``: lists, or text
    like ``1-3``.  ``store``: path of the results store (None keeps nothing).  ``on_skipped(list)`` hears the specs
    the memory estimate refuses before any work.  Returns ``rows``, ``skipped``, ``sweep``, ... (``verify table
    --json``), or the plan with ``dry_run``.  ``device`` (auto, cpu, gpu): where each cell's eliminations run
    (``verify.exact.device``; gpu is refused up front without cupy and a CUDA device, or when the largest cell's
    estimate passes its free memory).  ``progress``: draw the bar on stderr.  On Ctrl-C, ``SweepInterrupted``
    carries ``rows`` and ``total`` of what was done."""
    from ..rank.numrank import check_grid
    from .executor import SweepInterrupted, run_sweep
    from .progress import SweepProgress
    from .store import Store

    field = AUTO if field is None or (isinstance(field, str) and field == AUTO) else as_field(field).name
    if real:
        check_grid(templates, real_tokens)
    from ..validate import grid_values

    # a range by its bounds, any other iterable taken at most MAX_PAIRS + 1 items far (never iterated whole)
    depths = parse_range(depths, "depths", MAX_DEPTH) if isinstance(depths, str) else \
        grid_values(depths, "--depths", MAX_DEPTH, MAX_PAIRS)
    widths = parse_range(widths, "widths", MAX_TABLE_WIDTH) if isinstance(widths, str) else \
        grid_values(widths, "--widths", MAX_TABLE_WIDTH, MAX_PAIRS, "2-4")
    if len(depths) * len(widths) > MAX_PAIRS:
        raise InputError(f"--depths {_shown(depths)} --widths {_shown(widths)} make {len(depths) * len(widths):,} "
                         f"(depth, width) pairs, over the {MAX_PAIRS:,} a table takes; narrow the ranges")
    specs, skipped = fitting_specs(table_specs(depths, widths, heads), max_memory_gib)
    if not specs:
        raise InputError(f"every spec was refused by the memory estimate ({skipped[0]['reason']})")
    if on_skipped is not None:
        on_skipped(skipped)
    if device == "gpu":  # refused before any work: no GPU, or the largest cell's estimate over its memory
        from ..exact.device import resolve_device
        from ..rank.reduced_memory import estimate_block_bytes as estimate

        resolve_device("gpu", max(estimate(spec) for spec in specs), None, "the largest cell")
    elif device not in ("auto", "cpu"):
        raise InputError(f"unknown device {device!r}; use --device auto, cpu or gpu")
    tasks = [sep_task(spec, field, seed, max_memory_gib, device) for spec in specs]
    if real:
        tasks += [real_task(spec, seed, templates, real_tokens) for spec in specs]
    cost = lambda t: sep_cost(t) if t.kind == "sep" else 1  # noqa: E731
    columns = bound_columns(registry=registry)

    def rows_done(values):
        done = [i for i, spec in enumerate(specs)
                if values[i] is not None and (not real or values[len(specs) + i] is not None)]
        return done, build_rows([specs[i] for i in done], [values[i] for i in done],
                                [values[len(specs) + i] for i in done] if real else None, columns)

    with Store(store, create=not dry_run) as results:  # a dry run creates nothing
        if dry_run:
            from ..rank.reduced import estimate_block_bytes
            from .plan import sweep_plan

            plan = sweep_plan(tasks, results, cost, lambda t: estimate_block_bytes(t.spec) if t.kind == "sep" else None)
            plan["skipped"] = skipped
            return plan
        store_path = None if results.path is None else str(results.path)
        try:
            values, stats = run_sweep(tasks, results, scheduler, workers, SweepProgress("table", progress), cost=cost)
        except SweepInterrupted as stop:  # the rows already computed go with the interruption
            stop.rows, stop.total = rows_done(stop.values)[1], len(specs)
            raise
    for item in stats.refused:  # refused by a worker's own estimate: listed like the up-front refusals
        spec = item["task"].spec
        skipped.append({"depth": spec.depth, "width": spec.width, "heads": spec.heads, "reason": item["reason"]})
    done, rows = rows_done(values)
    if not done:
        raise InputError(f"every spec was refused ({skipped[-1]['reason']})")
    from ..claims.registry import find_registry
    from ..schema import stamp
    from ..version import __version__

    return stamp({"rows": rows, "skipped": skipped, "field": field, "seed": seed, "sweep": stats.as_dict(),
                  "store": store_path, "meaning": MEANING, "registry": find_registry(registry).name,
                  "version": __version__}, "table")


#: Largest width of a table, and most (depth, width) pairs it takes.
MAX_TABLE_WIDTH = 1000
MAX_PAIRS = 2000


def _shown(values: list[int]) -> str:
    """A grid axis as text, by its ends when long."""
    return ",".join(map(str, values)) if len(values) <= 6 else f"{values[0]},...,{values[-1]} ({len(values):,} values)"


def parse_range(text: str, name: str, high: int = 10**4) -> list[int]:
    """``verify.validate.parse_range`` (the one validation of what a user gives lives there)."""
    from ..validate import parse_range as parse

    return parse(text, name, high)


def table_specs(depths: list[int], widths: list[int], heads: str = "all") -> list[NetworkSpec]:
    """Every (depth, width, heads) with heads each divisor of the width, or 1 only."""
    if heads not in ("all", "1"):
        raise InputError(f"--heads must be 'all' or '1', got {heads!r}")
    if min(widths) < 2:
        raise InputError("--widths must be at least 2 (width 1 has a single coordinate); use e.g. 2-4")
    return [NetworkSpec(depth=depth, width=width, heads=h)
            for width in widths for depth in depths
            for h in ([1] if heads == "1" else divisors(width))]


def fitting_specs(specs: list[NetworkSpec], max_memory_gib: float) -> tuple[list[NetworkSpec], list[dict[str, Any]]]:
    """Split ``specs`` into those the closed-form memory estimate admits and the refused ones.

    Returns the admitted specs and, per refused spec, ``{depth, width, heads, reason}``.
    """
    from ..rank.reduced import check_memory

    fitting, skipped = [], []
    for spec in specs:
        try:
            check_memory(spec, max_memory_gib)
            fitting.append(spec)
        except InputError as exc:
            skipped.append({"depth": spec.depth, "width": spec.width, "heads": spec.heads, "reason": str(exc)})
    return fitting, skipped


def regime(spec: NetworkSpec) -> str:
    """``"L < log3 d_x"`` (Theorem 1), ``"L > log3 d_x"`` (Theorem 2) or ``"L = log3 d_x"``, decided on integers."""
    power = 3**spec.depth
    return "L < log3 d_x" if power < spec.width else "L > log3 d_x" if power > spec.width else "L = log3 d_x"


@dataclass
class BoundColumn:
    """One bound of the registry: its label, claim, source and ``RankBound`` check."""

    label: str
    claim_id: str
    source: str
    check: object
    outcome: str  #: the claim's expected outcome in the registry
    number: int = 0  #: its place in the registry's bounds: B<number> is one bound in every table and report

    @property
    def erratum(self) -> bool:
        return self.outcome == "erratum"

    @property
    def id(self) -> str:
        return f"B{self.number}"

    @property
    def note(self) -> str:
        """The registry's finding as the table's note says it ('' when verified; only an erratum fails)."""
        return {"erratum": " (registry erratum: the printed statement fails somewhere)",
                "gap": " (registry proof gap: no computed value refutes the statement; its printed proof falls "
                       "short somewhere)",
                "ambiguous": " (registry ambiguous: two readings of the statement, with different outcomes)",
                "not-decided": " (registry not decided: no strengthening is refuted at a computable size)",
                }.get(self.outcome, "" if self.outcome == "verified" else f" (registry {self.outcome})")


def bound_columns(residual: bool = False, registry: RegistrySource | Registry = None) -> list[BoundColumn]:
    """Every ``RankBound`` of the registry (None: the installed one) for plain (or residual)
    networks, in claim order."""
    from ..claims.checks import RankBound
    from ..claims.record import load_claims

    columns = []
    for claim in load_claims(registry):
        for check in claim.checks:
            if isinstance(check, RankBound) and check.residual == residual:
                short = claim.id.replace("levine2020_", "L:").replace("wies2021_", "W:")
                label = short + ("" if short.endswith(check.kind) else f" ({check.kind})")
                columns.append(BoundColumn(label, claim.id, str(claim.source), check, claim.expected,
                                           len(columns) + 1))
    return columns


def sep_task(spec: NetworkSpec, field: str, seed: int, max_memory_gib: float, device: str = "cpu") -> Task:
    """One cell; ``device`` rides in ``limits`` (not the store's key: the value is the same on either device)."""
    limits = (("max_memory_gib", max_memory_gib),) + ((("device", device),) if device != "cpu" else ())
    return Task("sep", spec, "reduced", field, seed, limits=limits)


def real_task(spec: NetworkSpec, seed: int, templates: int, tokens: int) -> Task:
    return Task("real_rank", spec, "bert", "float64", seed, (("templates", templates), ("tokens", tokens)))


def sep_cost(task: Task) -> float:
    """Rough relative cost of a reduced-route rank, for ordering submissions (longest first).

    The catalecticant size grows with C(L) and the d_x(d_x+1)/2 variables; more heads (smaller
    d_a) make the middle degree blocks rank-deficient, which is what costs most (measured at depth
    3, width 4: 327 s, 508 s, 988 s for 1, 2, 4 heads), hence the factor ``heads``.
    """
    spec = task.spec
    nvars = spec.width * (spec.width + 1) // 2
    return math.comb(spec.layer_degree + nvars, nvars) * spec.width * spec.heads


def _float(value) -> float | None:
    try:
        return float(value.mid())
    except (ValueError, TypeError, AttributeError):  # pragma: no cover - arb failure
        return None


def build_rows(specs: list[NetworkSpec], sep_values: list[dict[str, Any]], real_values: list[dict[str, Any]] | None,
               columns: list[BoundColumn]) -> list[dict[str, Any]]:
    """Rows of the table (JSON-ready); bound values are on the log3 scale."""
    from ..claims.checks import spec_values

    rows = []
    for index, spec in enumerate(specs):
        rank = sep_values[index]["rank"]
        values = spec_values(spec)
        bounds = []
        for col in columns:
            check = col.check
            if not check.applies_to(spec, values):
                continue
            value = _float(evaluate(check.bound, values))
            if check.scale == "sep":
                value = math.log(value, 3) if value is not None and value > 0 else None
            bounds.append({"bound": col.label, "claim": col.claim_id, "source": col.source, "kind": check.kind,
                           "scale": check.scale, "value_state": "nonpositive" if value is None else "value",
                           "log3_value": value, "holds": check.holds_for(rank, values),
                           "erratum": col.erratum, "outcome": col.outcome})
        row = {"depth": spec.depth, "width": spec.width, "heads": spec.heads, "attn_dim": spec.attn_dim,
               "sep_rank": rank, "log3_sep": math.log(rank, 3) if rank > 0 else None,
               "regime": regime(spec), "certified_lower_bound": sep_values[index]["certified_lower_bound"],
               "probability_bound": sep_values[index]["probability_bound"],
               "certified_exact": sep_values[index].get("certified_exact"),
               "upper_bound": sep_values[index].get("upper_bound"),
               "seed": sep_values[index].get("seed"), "primes": sep_values[index].get("primes"),
               "runs": sep_values[index].get("runs"), "version": sep_values[index].get("version"),
               "certainty": certainty_label(sep_values[index]["certified_lower_bound"],
                                            sep_values[index]["probability_bound"]),
               "valid_from_tokens": 2 * (spec.width + 1), "bounds": bounds}  # N >= 2(d_x + 1)
        if real_values is not None:
            real = real_values[index]
            row["real_rank"] = real["rank"]
            row["real"] = real
        rows.append(row)
    return rows


def _cell(bound: dict[str, Any] | None) -> str:
    if bound is None:
        return "·"
    value = "<= 0 (sep)" if bound["log3_value"] is None else f"{bound['log3_value']:.2f}"
    return value + ("" if bound["holds"] is True else " ✗")


def _grid(rows: list[dict[str, Any]],
          columns: list[BoundColumn]) -> tuple[list[str], list[list[str]], list[BoundColumn]]:
    used = [c for c in columns if any(b["bound"] == c.label for r in rows for b in r["bounds"])]
    header = ["depth", "width", "heads", "sep", "log3 sep", "regime"]
    real = any("real_rank" in r for r in rows)
    if real:
        header.append("real rank (numeric)")
    header += [col.id for col in used]
    body = []
    for r in rows:
        line = [str(r["depth"]), str(r["width"]), str(r["heads"]), str(r["sep_rank"]),
                "-" if r["log3_sep"] is None else f"{r['log3_sep']:.3f}", r["regime"]]
        if real:
            extra = r["real"]
            line.append(f"{r['real_rank']} (gap {extra['gap_decades']:.1f} dec"
                        + (", at grid cap" if extra.get("at_cap") else "") + ")")
        by_label = {b["bound"]: b for b in r["bounds"]}
        line += [_cell(by_label.get(c.label)) for c in used]
        body.append(line)
    return header, body, used


def markdown(rows: list[dict[str, Any]], columns: list[BoundColumn]) -> str:
    header, body, used = _grid(rows, columns)
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    lines += ["| " + " | ".join(line) + " |" for line in body]
    lines.append("")
    lines.append("Bounds are on the log3 scale; ✗ marks a bound the exact rank violates; · not applicable "
                 "(outside the bound's regime or condition).")
    for col in used:
        lines.append(f"- {col.id}: {col.claim_id}, {col.check.kind} bound, {col.source}" + col.note)
    if any("real_rank" in r for r in rows):
        first = next(r["real"] for r in rows if "real" in r)
        lines.append(f"- real rank: NUMERIC grid rank of the seeded BERT network (eqs. 1-2), N = {first['tokens']}, "
                     f"{first['templates']} templates per position, cut at the largest singular-value gap "
                     f"(gap in decades); never certified.")
    return "\n".join(lines) + "\n"
