"""The Python entry points behind the command line: the claims registry and the two sweeps.

These are thin: each wires the engine's modules together the way the matching command does, and
returns plain data instead of printing.  ``separation_rank`` and ``NetworkSpec`` (re-exported by
``verify``) are the other half of the public surface.
"""

from __future__ import annotations

from .errors import InputError
from .exact.fields import DEFAULT_PRIME, as_field
from .model.spec import NetworkSpec

__all__ = ["list_claims", "run_claims", "reviewers_table", "probe_n"]


def list_claims(package: str = "proofs") -> list:
    """Every claim of the registry, in file order.

    Parameters
    ----------
    package : str
        The package holding one module per claim (default ``proofs``, the papers' registry).

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

    return load_claims(package)


def run_claims(ids: list[str] | None = None, package: str = "proofs") -> list:
    """Run the checks of the given claims (all when ``ids`` is None) and return their results.

    Exact ranks a bound check needs are computed in this process (no sweep, no store); the command
    ``verify run`` computes them first through the sweep executor and the results store instead.

    Parameters
    ----------
    ids : list of str, optional
        Claim ids (see ``list_claims()``); an unknown id raises ``InputError``.
    package : str
        The registry package (default ``proofs``).

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
    from .claims.record import run_claim

    registry = list_claims(package)
    if ids is not None:
        known = {claim.id: claim for claim in registry}
        missing = [i for i in ids if i not in known]
        if missing:
            raise InputError(f"unknown claim id {missing[0]!r}; list the ids with verify.list_claims() or `verify claims`")
        registry = [known[i] for i in ids]
    return [run_claim(claim) for claim in registry]


def reviewers_table(depths, widths, heads: str = "all", field: str | None = None, seed: int = 0,
                    max_memory_gib: float | None = None, workers: int | None = 1, store: str | None = None,
                    scheduler: str | None = None) -> dict:
    """The reviewers' table: per (depth, width, heads) the exact rank beside every applicable bound.

    The same computation as ``verify table``: one reduced-route rank per spec through the sweep
    executor, then every ``RankBound`` of the registry whose regime holds, decided with arb.

    Parameters
    ----------
    depths, widths : iterable of int
        The grid; specs are every (depth, width, heads) with heads dividing the width.
    heads : {"all", "1"}
        Every divisor of the width, or single-head networks only.
    field : str, optional
        ``gf:P`` or ``qq`` (default ``gf:2^63-25``).
    seed : int
        Seed of the integer weights.
    max_memory_gib : float, optional
        Specs whose estimate exceeds it are listed under ``skipped`` (default 16).
    workers : int, optional
        Local worker processes; 1 (the default here) runs in this process, None one per CPU.
    store : str, optional
        Path of an SQLite results store to read and write; None keeps nothing.
    scheduler : str, optional
        A Dask scheduler address instead of local processes.

    Returns
    -------
    dict
        ``rows`` (``depth``, ``width``, ``heads``, ``sep_rank``, ``log3_sep``, ``regime``,
        ``bounds``, ...), ``skipped`` and ``sweep`` (counts and seconds), as ``verify table --json``.

    Examples
    --------
    >>> import verify

    One layer of width 2: n = 3 entries of S, F of degree 1, so the catalecticant has a 1x6 and
    a 3x2 degree block, and the rank is at most 1 + 2 = 3 (reached at generic weights):

    >>> table = verify.reviewers_table(depths=[1], widths=[2])
    >>> [(row["depth"], row["width"], row["heads"], row["sep_rank"]) for row in table["rows"]]
    [(1, 2, 1, 3), (1, 2, 2, 3)]
    """
    from .rank.memory import DEFAULT_MEMORY_GIB
    from .sweeps.executor import run_sweep
    from .sweeps.store import Store
    from .sweeps.table import bound_columns, build_rows, fitting_specs, sep_cost, sep_task, table_specs

    field_name = as_field(field or f"gf:{DEFAULT_PRIME}").name
    memory = DEFAULT_MEMORY_GIB if max_memory_gib is None else max_memory_gib
    specs, skipped = fitting_specs(table_specs(list(depths), list(widths), heads), memory)
    tasks = [sep_task(spec, field_name, seed, memory) for spec in specs]
    with Store(store) as results:
        values, stats = run_sweep(tasks, results, scheduler, workers, None, cost=sep_cost)
    rows = build_rows(specs, values, None, bound_columns())
    return {"rows": rows, "skipped": skipped, "field": field_name, "seed": seed, "sweep": stats.as_dict()}


def probe_n(depth: int, width: int, heads: int = 1, vocab: int | None = None, rank: int | None = None,
            positional_rank: int = 0, continuous: bool = False, max_tokens: int = 40, patience: int = 3,
            field: str | None = None, seed: int = 0) -> dict:
    """The exact separation rank for N = 2, 4, ... on token inputs, until it saturates.

    The probe of the conjecture on the sequence length N (``verify probe-n``), run in this process.

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
        Stop at this N, or after ``patience`` equal steps.
    field : str, optional
        ``gf:P`` or ``qq`` (default ``gf:2^63-25``).
    seed : int
        Seed of the weights and the embedding.

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
    from .sweeps.probe import probe_tokens

    spec = NetworkSpec(depth=depth, width=width, heads=heads)
    result = probe_tokens(spec, as_field(field or f"gf:{DEFAULT_PRIME}"), seed, max_tokens, patience,
                          vocab=vocab, rank=rank, positional_rank=positional_rank, continuous=continuous)
    return result.as_dict()
