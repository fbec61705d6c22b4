"""The engine's entry points: the public functions and the one call each command of ``verify`` makes.

Every decision (route, estimates and refusals, repeats, primes, stores) is taken in the engine;
these functions wire it and return plain data, and ``verify.cli`` only parses, calls one of them
and prints.  The command line reads its defaults from the same objects as the signatures here
(``SEP``, ``PROBE``, ``TABLE``), so the two cannot drift apart.  ``verify`` re-exports the public
ones (``separation_rank``, ``list_claims``, ``run_claims``, ``reviewers_table``, ``probe_n``).
"""

from __future__ import annotations

import time
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from . import defaults
from .defaults import MONOMIALS
from .errors import InputError
from .exact.fields import DEFAULT_PRIME, FAST_PRIME, as_field, parse_field
from .model.spec import NetworkSpec
from .rank.certainty import format_bound
from .rank.routes import METHODS
from .rank.sep import SEP, plan_separation_rank, separation_rank
from .report.formats import ReviewersTable
from .sweeps.block_rows import BLOCK_KIND
from .sweeps.executor import SweepInterrupted
from .sweeps.probe import PROBE
from .sweeps.probe_sweep import probe_sweep
from .sweeps.progress import Progress, close_all
from .sweeps.store import default_store_path
from .sweeps.table import MAX_DEPTH, TABLE, table_sweep
from .sweeps.tasks import TASK_KINDS
from .validate import MAX_COUNT, MAX_TOKENS, MAX_WIDTH, memory_gib, sweep_options
from .validate import integer as validate_integer

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Iterator

    from .claims.record import Claim, ClaimResult
    from .claims.registry import Registry, RegistrySource
    from .sweeps.block_rows import BlockRows

#: What a results-store row can be: a task kind, or a ``verify sep --store`` run's finished degree block.
RESULT_KINDS = (*TASK_KINDS, BLOCK_KIND)

#: The front door: what this module defines, and the defaults and types the command line shares with it.
#: Output formats and prose are ``verify.report`` (``formats``, ``plan_text``, ``probe_summary``) and the
#: argument checks ``verify.validate``, which the command line imports directly (issue 42).
__all__ = ["separation_rank", "plan_separation_rank", "list_claims", "run_claims", "reviewers_table", "probe_n",
           # what the command line calls besides
           "monomials", "certify", "check_certificate_file", "run_registry", "coverage", "stored_results",
           "block_store", "progress_bars", "close_all",
           # shared defaults, limits and types
           "SEP", "PROBE", "TABLE", "MONOMIALS", "METHODS", "RESULT_KINDS", "MAX_DEPTH", "MAX_CERTIFICATE_BYTES",
           "DEFAULT_PRIME", "FAST_PRIME", "NetworkSpec", "SweepInterrupted", "parse_field", "default_store_path",
           "format_bound"]


assert RESULT_KINDS == defaults.RESULT_KINDS, "verify.defaults.RESULT_KINDS and the registered task kinds disagree"

#: Certificate files above this size are refused before they are read.
MAX_CERTIFICATE_BYTES = 256 * 2**20


def list_claims(registry: RegistrySource = None) -> list[Claim]:
    """Every claim of the registry, in file order.

    Parameters
    ----------
    registry : str, path or module, optional
        The package holding one module per claim: an entry-point name of ``verify.registries``, a
        module name or a package folder (default: ``$VERIFY_REGISTRY``, else the one installed
        entry point; see ``verify.claims.registry``).

    Returns
    -------
    list of verify.claims.record.Claim
        Each has ``id``, ``source`` (document, section, equation), ``statement``, ``expected``
        (the outcome the registry expects) and ``checks``.

    Examples
    --------
    >>> import verify
    >>> registry = verify.list_claims()
    >>> theorem = next(c for c in registry if c.id == "levine2020_theorem2_upper")
    >>> theorem.source.section
    '§4.2'
    """
    from .claims.record import load_claims

    return load_claims(registry)


def run_claims(ids: list[str] | None = None, registry: RegistrySource = None) -> list[ClaimResult]:
    """Run the checks of the given claims (all when ``ids`` is None) and return their results.

    Exact ranks a bound check needs are computed in this process (no sweep, no store); the command
    ``verify run`` (``run_registry``) computes them first through the sweep executor and the store.

    Parameters
    ----------
    ids : list of str, optional
        Claim ids (see ``list_claims()``); an unknown id raises ``InputError``.
    registry : str, path or module, optional
        The registry, as ``list_claims`` takes it.

    Returns
    -------
    list of verify.claims.record.ClaimResult
        Each has ``outcome``, ``expected``, ``as_expected`` and ``as_dict()`` (what report.json holds).

    Examples
    --------
    >>> import verify
    >>> [result] = verify.run_claims(["levine2020_supp1_lemma1_composition_tree"])
    >>> result.outcome, result.as_expected
    ('verified', True)
    """
    from .claims.record import run_claims_with
    from .sweeps.claim_run import select_claims

    return run_claims_with(select_claims(list_claims(registry), ids))  # one rank source for the call


def run_registry(ids: list[str] | None = None, out: str = "verify-report", extended: bool = False,
                 dry_run: bool = False, store: str | None = None, scheduler: str | None = None,
                 workers: int | None = None, progress: bool = False, registry: RegistrySource = None) -> dict[str, Any]:
    """``verify run``: see ``verify.sweeps.claim_run.run_registry``."""
    from .sweeps.claim_run import run_registry as run

    return run(ids, out, extended, dry_run, store, scheduler, workers, progress, registry)


def reviewers_table(depths: str | Iterable[int], widths: str | Iterable[int], heads: str = TABLE.heads,
                    field: str = TABLE.field, seed: int = TABLE.seed, max_memory_gib: float = TABLE.max_memory_gib,
                    workers: int | None = 1, store: str | None = None, scheduler: str | None = None,
                    real: bool = False, templates: int = TABLE.templates, real_tokens: int = TABLE.real_tokens,
                    progress: bool = False, on_skipped: Callable[[list[dict[str, Any]]], object] | None = None,
                    dry_run: bool = False, registry: RegistrySource = None, device: str = TABLE.device
                    ) -> dict[Any, Any]:
    """The reviewers' table: per (depth, width, heads) the exact rank beside every applicable bound.

    The same computation as ``verify table`` (``verify.sweeps.table.table_sweep``): one
    reduced-route rank per spec through the sweep executor, then every ``RankBound`` of the
    registry whose regime holds, decided with arb.

    Parameters
    ----------
    depths, widths : iterable of int, or text such as ``"1-3"``
        The grid; specs are every (depth, width, heads) with heads dividing the width.
    heads : {"all", "1"}
        Every divisor of the width, or single-head networks only.
    field : str
        ``gf:P`` or ``qq`` (default ``gf:2^63-25``).
    seed : int
        Seed of the integer weights.
    max_memory_gib : float
        Specs whose estimate exceeds it are listed under ``skipped`` (default 16).
    workers : int, optional
        Local worker processes; 1 (the default here) runs in this process, None one per CPU.
    store : str, optional
        Path of an SQLite results store to read and write; None (the default here) keeps nothing.
    scheduler : str, optional
        A Dask scheduler address instead of local processes.
    real, templates, real_tokens
        Add the numerical rank of a seeded BERT network (eqs. 1-2) over this grid.
    registry : str, path or module, optional
        Where the bound columns come from, as for ``list_claims`` (None: the installed registry).
    device : {"auto", "cpu", "gpu"}
        Where each cell's eliminations run (``verify.exact.device``); the ranks do not depend on it.

    Returns
    -------
    ReviewersTable
        A dict: ``rows`` (``depth``, ``width``, ``heads``, ``sep_rank``, ``log3_sep``, ``regime``,
        ``bounds``, ...), ``skipped`` and ``sweep`` (counts and seconds), as ``verify table --json``;
        a notebook shows it as the table (``_repr_markdown_``, ``_repr_html_``).

    Examples
    --------
    >>> import verify

    One layer of width 2: n = 3 entries of S, F of degree 1, so the catalecticant has a 1x6 and
    a 3x2 degree block, and the rank is at most 1 + 2 = 3 (reached at generic weights):

    >>> table = verify.reviewers_table(depths=[1], widths=[2])
    >>> [(row["depth"], row["width"], row["heads"], row["sep_rank"]) for row in table["rows"]]
    [(1, 2, 1, 3), (1, 2, 2, 3)]
    """
    validate_integer(seed, "seed", 0)
    memory_gib(max_memory_gib)
    sweep_options(workers, real=real, progress=progress, dry_run=dry_run)
    if real:
        validate_integer(templates, "templates", 1, MAX_COUNT)
        validate_integer(real_tokens, "real_tokens", 2, MAX_TOKENS)
    data = table_sweep(depths, widths, heads, real, templates, real_tokens, field, seed, max_memory_gib, store,
                       scheduler, workers, progress, on_skipped, dry_run, registry, device)
    return data if dry_run else ReviewersTable(data, registry)  # a dict, shown as the table in a notebook


@contextmanager
def block_store(path: str, spec: NetworkSpec) -> Iterator[BlockRows]:
    """``resume`` for ``separation_rank`` (``verify sep --store PATH``): each finished degree block kept
    as a row of the results store at ``path`` (``verify.sweeps.block_rows``), so a killed run resumes
    with the same call; the store is closed on leaving the ``with``."""
    from .sweeps.block_rows import BlockRows
    from .sweeps.store import Store, identify

    identify(Path(path))  # a folder or another application's file refused now; nothing is created yet
    rows = BlockRows(lambda: Store(path), spec)  # opened at the first block: a refused run leaves no file
    try:
        yield rows
    finally:
        rows.close()


def block_cluster(scheduler: str):
    """``cluster`` for ``separation_rank`` (``verify sep --scheduler ADDRESS``): the Dask cluster at ``scheduler``,
    each degree block a task there (``verify.sweeps.sep_cluster``), closed on leaving the ``with``.  Wiring
    for the command line, as ``block_store`` is; not in ``__all__``, which is at its 30 names."""
    from .sweeps.sep_cluster import block_cluster as connect

    return connect(scheduler)


def probe_n(depth: int, width: int, heads: int = 1, vocab: int | None = None, rank: int | None = None,
            positional_rank: int = PROBE.positional_rank, continuous: bool = False,
            max_tokens: int = PROBE.max_tokens, patience: int = PROBE.patience, field: str = PROBE.field,
            seed: int = PROBE.seed, attn_dim: int | None = None, output: int = 0, residual: bool = False,
            weight_range: int = PROBE.weight_range, max_memory_gib: float = PROBE.max_memory_gib,
            store: str | None = None, scheduler: str | None = None, workers: int | None = 1,
            progress: bool = False, dry_run: bool = False, device: str = PROBE.device) -> dict[Any, Any]:
    """The exact separation rank for N = 2, 4, ... on token inputs, until it saturates.

    The probe of the conjecture on the sequence length N (``verify probe-n``,
    ``verify.sweeps.probe.probe_sweep``); by default in this process, keeping nothing.

    Parameters
    ----------
    depth, width, heads : int
        The network (linearised self-attention, eq. 3).
    vocab, rank : int
        Vocabulary size V and embedding rank r of the token inputs x^j = P Q e_{w_j}.
    positional_rank : int
        Rank of an added positional embedding (0: none).
    continuous : bool
        Probe continuous inputs instead (coefficient route); then ``vocab`` and ``rank`` stay None.
    max_tokens, patience : int
        Stop at this N, or after ``patience`` equal steps (default 4, as ``verify probe-n``).
    field : str
        ``gf:P`` or ``qq`` (default ``gf:2^63-25``).
    seed : int
        Seed of the weights and the embedding.
    store, scheduler, workers, dry_run
        As for ``reviewers_table``; ``dry_run`` returns the plan instead.
    device : {"auto", "cpu", "gpu"}
        Where the ``continuous`` limit's reduced route eliminates (``verify.exact.device``); the token
        routes rank on the CPU (FLINT, or the float64 PLUQ from 256 a side), so ``gpu`` is refused for them
        (InputError).

    Returns
    -------
    dict
        ``ranks`` (a list of ``{tokens, rank}``), ``saturation_tokens``, ``saturated_rank``,
        ``lower_bound`` (Corollary 1 of Wies et al.), ``stopped``, ... as ``verify probe-n --json``.

    Examples
    --------
    >>> import verify

    With two tokens the B-side counts satisfy c_1 + c_2 = N/2, so a one-layer network (F linear
    in S) has rank 2 from the first N on:

    >>> probe = verify.probe_n(depth=1, width=2, vocab=2, rank=2, max_tokens=8, patience=2)
    >>> probe["stopped"], probe["saturated_rank"], [step["rank"] for step in probe["ranks"]]
    ('saturated', 2, [2, 2, 2])
    """
    spec = NetworkSpec(depth=depth, width=width, heads=heads, attn_dim=attn_dim, output=output, residual=residual)
    for name, value, low, high in (("vocab", vocab, 1, MAX_COUNT), ("rank", rank, 1, MAX_WIDTH)):
        if value is not None:
            validate_integer(value, name, low, high)
    validate_integer(positional_rank, "positional_rank", 0, MAX_WIDTH)
    validate_integer(max_tokens, "max_tokens", 2, MAX_TOKENS)  # as --max-tokens: refused before any allocation
    validate_integer(patience, "patience", 1, 10**6)
    validate_integer(seed, "seed", 0)
    validate_integer(weight_range, "weight_range", 1, 2**62)
    memory_gib(max_memory_gib)
    sweep_options(workers, continuous=continuous, progress=progress, dry_run=dry_run)
    if not continuous and as_field(field).modulus is None:
        raise InputError("the token route ranks modulo a prime below 2^31 (its Gram matrices are 64-bit words), so "
                         "--field qq cannot apply to token inputs; give --field gf:P (P < 2^31 is used as is), "
                         "or --continuous for exact rationals")
    if not continuous:
        from .sweeps.probe_sweep import check_token_prime

        check_token_prime(spec, as_field(field), vocab, rank, positional_rank, weight_range)
    return probe_sweep(spec, as_field(field), seed, max_tokens, patience, vocab, rank,
                       positional_rank, continuous, weight_range, max_memory_gib, store, scheduler, workers,
                       progress, dry_run, device)


def monomials(spec: NetworkSpec, seed: int = MONOMIALS.seed, weight_range: int = MONOMIALS.weight_range,
              field: str = MONOMIALS.field, max_memory_gib: float = MONOMIALS.max_memory_gib) -> dict[Any, Any]:
    """``verify monomials``: degree and monomial count of y_p^i beside the closed-form count."""
    from .model.polynomial import monomial_report
    from .model.spec import draw_weights
    from .rank.coefficients import estimate_coefficient_bytes
    from .rank.memory import guard
    from .rank.routes import coefficient_size, weights_size

    chosen = as_field(field)
    weights_size(spec, max_memory_gib)  # --attn-dim priced before any weight is drawn
    coefficient_size(spec, max_memory_gib)  # closed form first: absurd sizes at once
    guard(estimate_coefficient_bytes(spec, chosen), max_memory_gib,
          f"the polynomial for depth {spec.depth}, width {spec.width}, {spec.tokens} tokens", "use fewer --tokens")
    report = monomial_report(spec, draw_weights(spec, seed, weight_range), chosen)
    report.update(depth=spec.depth, width=spec.width, heads=spec.heads, tokens=spec.tokens,
                  residual=spec.residual, seed=seed, field=chosen.name,
                  matches=report["count"] == report["expected_count"])
    return report


def certify(depth: int, width: int, heads: int = 1, seed: int = 0, progress: bool = False,
            layout: str = "seeded") -> tuple[dict[Any, Any], float]:
    """``verify certify``: a certificate for sep >= ((floor((d_x - H)/2) over 3^(L-2))), and its seconds;
    ``layout`` "one-slot": for sep >= ((floor((d_x - 1)/2) over 3^(L-2))) by the one-slot construction."""
    from .constructions.certificate import certify as find

    if isinstance(width, int) and isinstance(heads, int) and heads >= 1 and width % heads:
        from .model.spec import divisors  # certificates fix d_a = d_x / H: there is no --attn-dim to give

        raise InputError(f"width {width} is not divisible by heads {heads}, and a certificate's attention dimension "
                         f"is d_x/H; choose --heads among {divisors(width)}")
    spec = NetworkSpec(depth=depth, width=width, heads=heads)
    if layout == "one-slot":
        start = time.perf_counter()
        data = find(spec, seed=seed, progress=Progress("certificate matrix", progress, unit="row"), layout=layout)
        return data, time.perf_counter() - start
    if spec.width <= 3**spec.depth:
        raise InputError(f"certificates need width > 3^depth = {3**spec.depth}; e.g. --depth 2 --width 10 "
                         f"or --depth 3 --width 28")
    start = time.perf_counter()
    data = find(spec, seed=seed, progress=Progress("certificate matrix", progress, unit="row"))
    return data, time.perf_counter() - start


def check_certificate_file(file: str, progress: bool = False) -> tuple[bool, str]:
    """``verify check-certificate``: read a certificate file (refusing what cannot be one) and re-check it."""
    from .constructions.certificate import check_certificate, parse_certificate
    from .files import read_text

    fix = "give the path 'verify certify --out' wrote"
    text = read_text(file, MAX_CERTIFICATE_BYTES, "certificate file", fix)  # sized before it is read
    data = parse_certificate(text, file)
    return check_certificate(data, progress=Progress("certificate matrix", progress, unit="row"))


def coverage(directory: str | None = None, registry: RegistrySource = None) -> tuple[dict[Any, Any], list[Any]]:
    """``verify coverage``: the index's counts (``ok`` when complete) and its entries; ``directory``
    defaults to the registry's ``coverage/`` folder."""
    from .claims.coverage import default_directory, load_index, summarise

    parts, entries, problems = load_index(directory if directory is not None else default_directory(registry))
    data = summarise(parts, entries, {c.id for c in list_claims(registry)})
    data["format_problems"] = problems
    data["ok"] = not (data["neither"] or data["unknown_claims"] or problems)
    return data, entries


def stored_results(path: str | None = None, kind: str | None = None) -> tuple[str, list[dict[Any, Any]]]:
    """``verify results``: the store's path and its rows (of one task kind, or all)."""
    from .sweeps.store import Store
    from .sweeps.store_checks import require_store

    path = path or default_store_path()
    require_store(Path(path))  # nothing there, a link to nothing, a loop of links: each said so
    from .sweeps.provenance import store_row_provenance

    with Store(path, read_only=True) as store:  # listing writes nothing: a read-only store is listed
        rows = store.rows(kind)
    for row in rows:  # provenance (issue 33): certainty, probability bound and primes beside seed and version
        row.update({k: v for k, v in store_row_provenance(row).items() if k not in row})
    return str(path), rows


def progress_bars(show: bool) -> Callable[[str, str], Progress] | None:
    """The progress factory ``separation_rank`` takes: (label, unit) -> a bar on stderr, or None."""
    return (lambda label, unit: Progress(label, True, unit=unit)) if show else None


def registry_note(registry: RegistrySource | Registry = None) -> str | None:
    """With no registry given and several installed, the project's own is taken: the line saying so and naming
    the others (``verify.claims.registry.find_registry``); otherwise None."""
    if registry is not None:
        return None
    from .claims.registry import find_registry

    found = find_registry(None)
    return f"claims registry: {found.name} ({found.origin})" if found.others else None
