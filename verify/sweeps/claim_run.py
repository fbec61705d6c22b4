"""``verify run``: the claims registry checked against exact ranks computed first through the sweep
executor and the results store, with the reports rewritten after every claim."""

from __future__ import annotations

import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..errors import InputError

if TYPE_CHECKING:
    from ..claims.registry import Registry, RegistrySource
    from ..claims.specsets import RankSource
    from ..model.spec import NetworkSpec
    from .store import Task

__all__ = ["select_claims", "prefetch_tasks", "bound_specs", "run_registry", "rank_plot"]


def select_claims(registry: list[Any], ids: list[str] | str | None) -> list[Any]:
    """The claims of ``registry`` with these ids, in registry order (all when ``ids`` is None; a str
    is one id)."""
    if ids is None:
        return registry
    if isinstance(ids, str):
        ids = [ids]
    try:
        ids = list(ids)
    except TypeError:
        raise InputError(f"claim ids must be a list of ids or one id, got {type(ids).__name__}; e.g. "
                         f"run_claims(['levine2020_theorem2_upper'])") from None
    if not all(isinstance(i, str) for i in ids):
        raise InputError("every claim id must be a str; 'verify claims' or verify.list_claims() lists the ids")
    known = {claim.id for claim in registry}
    unknown = [i for i in ids if i not in known]
    if unknown:
        raise InputError(f"unknown claim {unknown[0]!r}; 'verify claims' or verify.list_claims() lists the ids")
    wanted = set(ids)
    return [claim for claim in registry if claim.id in wanted]


def prefetch_tasks(extended: bool = False) -> tuple[list[NetworkSpec], list[Task]]:
    """The exact ranks every bound check reads: (specs, sweep tasks); ``extended`` adds the slow specs."""
    from ..claims import specsets
    from ..exact.fields import DEFAULT_PRIME
    from ..rank.memory import DEFAULT_MEMORY_GIB
    from .table import sep_task

    specs = specsets.default_specs(False, extended) + specsets.default_specs(True, extended)
    return specs, [sep_task(spec, f"gf:{DEFAULT_PRIME}", 0, DEFAULT_MEMORY_GIB) for spec in specs]


def bound_specs(claims: list[Any], extended: bool = False) -> list[Any]:
    """The specs whose exact ranks the ``RankBound`` checks of ``claims`` read (their own ``specs``,
    else the default set, where their ``condition`` holds), each once, in order."""
    from ..claims import specsets
    from ..claims.bounds import RankBound

    found = {}
    for claim in claims:
        checks = list(claim.checks) + list(claim.corrected_checks) + list(claim.gap_checks)
        checks += [c for extra in claim.readings.values() for c in extra]
        for check in checks:
            if not isinstance(check, RankBound):
                continue
            specs = check.specs if check.specs is not None else specsets.default_specs(check.residual, extended)
            for spec in specs:
                if check.condition is None or check.condition(spec):
                    found.setdefault(spec, None)
    return list(found)


def _prefetch_ranks(source, store: str | None, scheduler: str | None, workers, show: bool,
                    specs=None) -> list[tuple[Any, ...]]:
    """Compute (or read from the store) the exact ranks of ``specs`` (None: every default spec)
    through the sweep executor into the rank source ``source``, so the checks find them computed;
    returns the (spec, value) pairs computed (each value with its certainty, probability bound, seed
    and primes)."""
    from ..exact.fields import DEFAULT_PRIME
    from ..rank.memory import DEFAULT_MEMORY_GIB
    from .executor import run_sweep
    from .progress import SweepProgress
    from .store import Store
    from .table import sep_cost, sep_task

    if specs is None:
        specs = prefetch_tasks(source.extended)[0]
    specs = [spec for spec in specs if (spec.depth, spec.width, spec.heads, spec.attn_dim, spec.residual, 0)
             not in source.known]
    if not specs:
        return []
    tasks = [sep_task(spec, f"gf:{DEFAULT_PRIME}", 0, DEFAULT_MEMORY_GIB) for spec in specs]
    with Store(store) as results:
        values, _ = run_sweep(tasks, results, scheduler, workers, SweepProgress("exact ranks", show), cost=sep_cost)
    for spec, value in zip(specs, values, strict=False):
        if value is not None:  # a refused spec is left to the checks, which report it
            source.remember(spec, 0, value["rank"])
    return [(spec, value) for spec, value in zip(specs, values, strict=False) if value is not None]


def rank_rows(pairs: list[tuple[Any, ...]]) -> list[dict[Any, Any]]:
    """One row per exact rank used: spec, rank, certainty, probability bound, seed, primes."""
    from .provenance import certainty_label

    return [{"depth": spec.depth, "width": spec.width, "heads": spec.heads, "residual": spec.residual,
             "rank": value["rank"], "certified_exact": value.get("certified_exact"),
             "certainty": certainty_label(value.get("certified_lower_bound"), value.get("probability_bound")),
             "probability_bound": value.get("probability_bound"), "seed": value.get("seed", 0),
             "primes": value.get("primes")} for spec, value in pairs]


def reviewers_grid(pairs: list[tuple[Any, ...]], registry: RegistrySource | Registry = None) -> dict[Any, Any] | None:
    """The reviewers' table of the plain specs among ``pairs`` (as ``verify table`` prints it: the
    exact rank beside every applicable bound of the registry, log3 scale), as cells for the HTML
    report: ``columns``, ``rows`` and ``notes`` (which claim each bound column B1, B2, ... is)."""
    from .table import _grid, bound_columns

    rows = _plain_rows(pairs, registry)
    if not rows:
        return None
    head, body, used = _grid(rows, bound_columns(registry=registry))
    notes = [f"{col.id}: {col.claim_id}, {col.check.kind} bound, {col.source}" + col.note for col in used]
    return {"columns": head, "rows": body, "notes": notes}


def _plain_rows(pairs: list[tuple[Any, ...]], registry: RegistrySource | Registry = None) -> list[dict[Any, Any]]:
    """The reviewers' table's rows of the plain specs among ``pairs``, by depth, width, heads."""
    from .table import bound_columns, build_rows

    plain = sorted(((spec, value) for spec, value in pairs if not spec.residual),
                   key=lambda pair: (pair[0].depth, pair[0].width, pair[0].heads))
    if not plain:
        return []
    return build_rows([s for s, _ in plain], [v for _, v in plain], None, bound_columns(registry=registry))


def rank_plot(pairs: list[tuple[Any, ...]], registry: RegistrySource | Registry = None) -> bytes | None:
    """The PNG of the plain specs' exact ranks with the main-text bounds (``verify table --plot``'s
    figure) for report.html; None when there is none or matplotlib cannot be imported (the ``plot`` extra)."""
    from ..errors import InputError
    from ..report.plot import table_png

    rows = _plain_rows(pairs, registry)
    if not rows:
        return None
    try:
        return table_png(rows, "the ranks of this run")
    except (InputError, ImportError):  # no matplotlib, or one that cannot be imported: the report says so
        return None


def provenance(source: RankSource, values: list[dict[str, Any]], registry: str) -> dict[str, Any]:
    """The report header's provenance (issues 33, 47): the registry, the field, seed and primes of the exact ranks,
    what they certify, and ``probability_bound``: the union bound on "some rank used is below its generic rank"
    (the claims rest on every rank at once: the number of ranks used times the largest bound, ``headline``, rounded
    up; 0 when every one is
    certified exact; None only when no rank was used), over the ranks that claim equality with the generic rank;
    ``ranks_lower_bound_only`` counts those that claim none (certified lower bounds only, outside the union);
    ``probability_bound_text`` the same printed with its event and condition (``formats.probability_text``)."""
    from .headline import Step, all_equal, probability_text

    claimed = [v for v in values if v.get("probability_bound") is not None]
    # every rank used may enter (a repeated rank's bound is read off its draws: M times the largest, ``headline``)
    union = all_equal([Step(i, 0, None, v["probability_bound"]) for i, v in enumerate(claimed)], len(values))
    bound = None if not values else (union.probability if union else 0.0)
    return {"registry": registry, "field": source.field, "seed": 0,
            "primes": sorted({p for v in values for p in (v.get("primes") or [])}),
            "certainty": source.certainty, "probability_bound": bound,
            "probability_bound_text": probability_text(bound, True, "some rank used is below its generic rank"),
            "ranks_certified_exact": sum(1 for v in values if v.get("certified_exact")), "ranks": len(values),
            "ranks_lower_bound_only": len(values) - len(claimed), "rank_table": values}


def run_registry(ids: list[str] | None = None, out: str = "verify-report", extended: bool = False,
                 dry_run: bool = False, store: str | None = None, scheduler: str | None = None,
                 workers: int | None = None, progress: bool = False,
                 registry: RegistrySource | Registry = None) -> dict[Any, Any]:
    """Check the claims (all, or ``ids``), writing ``report.md``/``report.json`` into ``out`` (its
    ``partial/`` folder with ``ids``) after every claim.  Returns ``header``, ``claims`` (the
    records), ``all_as_expected`` and ``out``; with ``dry_run`` the plan instead.  ``registry`` as
    ``verify.claims.registry.find_registry`` takes it (None: ``$VERIFY_REGISTRY`` or the installed one)."""
    from ..claims.record import load_claims, run_claims_with
    from ..claims.registry import find_registry
    from ..claims.specsets import RankSource
    from ..exact.fields import DEFAULT_PRIME
    from ..rank.memory import DEFAULT_MEMORY_GIB
    from ..report.citations import registry_citations
    from ..report.html_report import write_html
    from ..report.run_report import raised_checks, write_reports
    from ..version import __version__
    from .progress import Progress

    found = select_claims(load_claims(registry), ids)
    if not found and ids is not None:
        raise InputError("no claim id was given; give one or more ids ('verify claims' lists them), or none for all")
    if not found:
        where = find_registry(registry)
        raise InputError(f"registry {where.name!r} ({where.origin}) holds no claim file, so there is nothing to "
                         f"check and no report to write; add a claim file to {where.directory} "
                         f"(docs/extending.md) or give another registry")
    source = RankSource(f"gf:{DEFAULT_PRIME}", extended=extended)  # the field of prefetch_tasks
    out_dir = Path(out) / "partial" if ids else Path(out)  # --claim writes beside the full report, never over it
    if dry_run:
        from ..rank.reduced import estimate_block_bytes
        from .plan import sweep_plan
        from .store import Store
        from .table import sep_cost, sep_task

        tasks = [sep_task(spec, f"gf:{DEFAULT_PRIME}", 0, DEFAULT_MEMORY_GIB) for spec in bound_specs(found, extended)]
        with Store(store, create=False) as results:
            plan = sweep_plan(tasks, results, sep_cost, lambda t: estimate_block_bytes(t.spec))
        plan["claims"] = [c.id for c in found]
        plan["out"] = str(out_dir)
        return plan
    start = time.perf_counter()  # the reported time includes the exact ranks computed up front
    # the bound checks' specs up front; the rest of the default set (through the same sweep) only
    # when another check first asks for a rank, so a registry without ranks computes none
    pairs = _prefetch_ranks(source, store, scheduler, workers, progress, bound_specs(found, extended))
    grid = reviewers_grid(pairs, registry) if pairs else None
    figure = {"plot": rank_plot(pairs, registry), "ranks": len(pairs)}
    source.on_missing = lambda missing: pairs.extend(_prefetch_ranks(missing, store, scheduler, workers, progress))
    tick = Progress("claims", progress, unit="claim")
    records = []
    registry_name = find_registry(registry).name
    papers = registry_citations(registry)  # report.html cites the papers from the registry's coverage index
    header = {"version": __version__, "claims": len(found), "seconds": 0.0,
              "spec_set": "extended" if extended else "default",
              **provenance(source, rank_rows(pairs), registry_name), "reviewers_table": grid}
    if ids:
        header["partial"] = sorted(set(ids))

    def record(i, result) -> None:
        records.append(result.as_dict())
        header["seconds"] = time.perf_counter() - start
        if len(pairs) != header["ranks"]:  # ranks a check asked for after the start
            header.update(provenance(source, rank_rows(pairs), registry_name))
        if len(pairs) != figure["ranks"]:
            figure.update(plot=rank_plot(pairs, registry), ranks=len(pairs))
        write_reports(out_dir, records, header)  # atomically, after every claim: an interrupt loses nothing
        write_html(out_dir, records, header, figure["plot"], papers)
        tick(i + 1, len(found))

    run_claims_with(found, source, record)
    surprises = [r["id"] for r in records if not r["as_expected"]]
    # a check that raised decided nothing: an error, as the JUnit file and pytest --verify-claims count it
    errors = [r["id"] for r in records if raised_checks(r)]
    return {"header": header, "claims": records, "all_as_expected": not surprises, "unexpected": surprises,
            "errors": errors, "out": str(out_dir)}
