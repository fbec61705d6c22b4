"""The public entry point: the separation rank of y_p^i, repeated until certified, with its meaning.

This is ``verify sep``'s whole policy, so the command line and Python return the same result:

* the route (``auto``: reduced where its value is exact, N >= 2(d_x + 1) or N not given, and no
  partition asked for; else coefficients), and the closed-form refusals of ``routes.ROUTES``;
* the weights: uniform over GF(p) (one full residue system, Schwartz-Zippel sample p) unless a
  range is given, 2^31 over Q;
* the runs (``repeated_ranks``): fresh weights and primes until a run meets the proven upper bound
  (certified exact) or the bound on missing the generic rank is at most ``target_probability``.
  Without a field the reduced route runs first over GF(1,048,573) with the float64 elimination,
  then over GF(2^63 - 25) and the primes below (``repeat.escalating_primes``), or, for the block-level
  runs, over GF(2^40 - 87) and below when that reaches the target for less time (``repeat.later_family``).

``routes.rank_once`` is one run by one route; ``SEP`` holds the defaults the command line reads.
"""

from __future__ import annotations

from dataclasses import replace
from math import comb
from typing import TYPE_CHECKING, Any

from ..defaults import SEP, SepDefaults
from ..errors import InputError
from ..exact.fields import DEFAULT_PRIME, FAST_PRIME, Field, as_field
from ..model.partitions import balanced_partitions, parse_partition
from ..model.spec import DEFAULT_WEIGHT_RANGE, NetworkSpec
from ..validate import integer

if TYPE_CHECKING:
    from collections.abc import Callable

    from ..exact.device import Device
    from .block_plan import Placement
    from .block_tasks import BlockRunner
    from .blocks import BlockKeeper
from .block_plan import Placement, RunPlan, plan_run
from .certainty import Certainty
from .grid import DEFAULT_MAX_EVALUATIONS
from .memory import DEFAULT_MEMORY_GIB
from .repeat import (
    DEFAULT_MAX_RUNS,
    DEFAULT_TARGET,
    Repeated,
    bad_prime_note,
    escalating_primes,
    field_weight_range,
    repeat_until,
)
from .result import SepResult
from .routes import METHODS, ROUTES, rank_once, weights_size

__all__ = ["SepResult", "SepDefaults", "SEP", "separation_rank", "plan_separation_rank", "device_for", "repeated_ranks",
           "combined", "choose_method", "weight_range_for", "cluster_refusals", "CLUSTER_ON_GPU", "METHODS",
           "MAX_PARTITIONS"]

#: Balanced partitions ``all_partitions`` may visit.
MAX_PARTITIONS = 10**4


def choose_method(spec: NetworkSpec, method: str, explicit_partition: bool) -> tuple[str, list[str]]:
    """The route to run and the notes saying why; refuses (InputError) a combination no route serves."""
    from .reduced import tokens_threshold

    if method != "auto" and method not in METHODS:
        raise InputError(f"unknown method {method!r}; use auto or one of {', '.join(METHODS)}")
    notes = []
    threshold = tokens_threshold(spec)
    if method == "auto":
        method = "reduced" if (spec.tokens is None or spec.tokens >= threshold) and not explicit_partition \
            else "coefficients"
    elif method == "reduced" and spec.tokens is not None and spec.tokens < threshold:
        method = "coefficients"
        notes.append(f"--tokens {spec.tokens} is below {threshold} = 2(d_x+1), where the reduced value is "
                     f"exact; fell back to the coefficient route")
    if not ROUTES[method].needs_tokens and explicit_partition:
        raise InputError(f"the {method} route is partition-independent; drop --partition/--all-partitions "
                         "or choose --method coefficients")
    if ROUTES[method].needs_tokens and spec.tokens is None:
        if explicit_partition:  # --method reduced would refuse the partition: one fix only, no loop
            raise InputError("a partition splits the N positions, so --partition/--all-partitions needs --tokens N; "
                             "give it, e.g. --tokens 4")
        raise InputError(f"the {method} route needs --tokens N; give it, or use --method reduced")
    return method, notes


def weight_range_for(given: int | None, field: Field) -> int:
    """The given range, or one full residue system of GF(p) (Schwartz-Zippel sample p), or 2^31 over Q."""
    if given is not None:
        return given
    return field_weight_range(field) or DEFAULT_WEIGHT_RANGE


def _partition(text_or_tuple, tokens: int) -> tuple[int, ...]:
    """A partition given as positions or as ``0,1,..`` text, each position once (``0,0`` is a typo)."""
    if not isinstance(text_or_tuple, str):
        try:
            items = list(text_or_tuple)
        except TypeError:
            items = None
        if items is None or not all(isinstance(p, int) and not isinstance(p, bool) for p in items):
            raise InputError(f"partition must be positions (a tuple of int) or text like '0,1', got "
                             f"{text_or_tuple!r}; e.g. partition=(0, 1)")
        text_or_tuple = ",".join(map(str, items))
    if any(not p.strip() for p in text_or_tuple.split(",")):
        raise InputError(f"--partition {text_or_tuple!r} has an empty position (two commas, or one at an end); "
                         f"list the positions of A separated by single commas, e.g. --partition 0,1")
    items = [p.strip() for p in text_or_tuple.split(",") if p.strip()]
    repeated = sorted({p for p in items if items.count(p) > 1})
    if repeated:
        raise InputError(f"--partition {text_or_tuple!r} lists position {repeated[0]} more than once; list each "
                         f"position of A once, e.g. --partition 0,1")
    return parse_partition(text_or_tuple, tokens)


def repeated_ranks(spec: NetworkSpec, method: str, field: Field | None = None, seed: int = 0,
                   weight_range: int | None = None, target: float = DEFAULT_TARGET,
                   max_runs: int = DEFAULT_MAX_RUNS, partition: tuple[Any, ...] | None = None,
                   templates: int | list[Any] | None = None,
                   max_memory_gib: float = DEFAULT_MEMORY_GIB, max_evaluations: int = DEFAULT_MAX_EVALUATIONS,
                   progress: Callable[[int, int], object] | None = None,
                   placement: Placement | Device | None = None,
                   resume: Callable[[str, int, int], BlockKeeper] | None = None) -> Repeated:
    """Runs of ``method`` with fresh weights and primes until certified (``repeat.repeat_until``).

    The one repeat loop of the engine: ``verify sep``, ``verify.separation_rank``, the table's tasks
    (one run each) and ``benchmarks/reach.py`` go through it.  ``field`` None: escalating primes
    for the reduced route (a fast prime first), GF(2^63 - 25) and below otherwise.  ``placement``: a
    ``verify.rank.block_plan.Placement`` (where the reduced route's eliminations run; each run's block plan
    is made from it for that run's field; default the CPU); ``resume``: the
    reduced route's keeper of finished degree blocks (``reduced.reduced_separation_rank``).
    """
    if not 0 < target < 1:
        raise InputError(f"--target-probability must be between 0 and 1, got {target}; e.g. 1e-9")
    if max_runs < 1:
        raise InputError(f"--max-runs must be at least 1, got {max_runs}; e.g. --max-runs 8")
    escalate = field is None and method == "reduced" and spec.layer_degree < FAST_PRIME
    first = field or Field(DEFAULT_PRIME)

    def run(seed, here):  # one run at fresh weights in the field ``here``
        return rank_once(spec, method, field=here, seed=seed, partition=partition, templates=templates,
                         weight_range=weight_range_for(weight_range, here), max_memory_gib=max_memory_gib,
                         max_evaluations=max_evaluations, progress=progress, placement=placement, resume=resume)

    def run_blocks(seed, here, degrees):  # a later run of the block-level repeats: these degree blocks only
        from .reduced import reduced_separation_rank

        return reduced_separation_rank(spec, here, seed, weight_range_for(weight_range, here), max_memory_gib,
                                       progress, only_blocks=degrees, placement=placement, resume=resume)

    return repeat_until(run, first, seed, target, max_runs, escalating_primes() if escalate else None,
                        rank_blocks=run_blocks if method == "reduced" else None, choose_family=escalate)


def combined(repeated: Repeated) -> SepResult:
    """The best run with the runs' combined certainty: its JSON adds the primes, runs and elimination."""
    best, target = repeated.best, repeated.target
    notes = list(best.notes)
    note = bad_prime_note(repeated)
    if note:
        notes.append(note)
    if not repeated.certified_exact and (repeated.probability_bound is None or repeated.probability_bound > target):
        notes.append(f"target probability {target:g} not reached: {repeated.stopped}")
    certainty = Certainty(best.certainty.certified_lower_bound, repeated.probability_bound,
                          best.certainty.explanation, repeated.certified_exact)
    return replace(best, certainty=certainty, notes=notes, seconds=sum(r.seconds for r in repeated.runs),
                   extra={**best.extra, **repeated.as_dict()})


def _all_partitions(spec: NetworkSpec, common, progress) -> SepResult:
    """Every balanced partition at the same weights (Claim 1: the rank should not change)."""
    parts = balanced_partitions(spec.tokens)
    tick = progress("partitions", "partition") if progress else None
    results = []
    for k, part in enumerate(parts):
        results.append(rank_once(spec, partition=part, **common))
        if tick:
            tick(k + 1, len(parts))
    ranks = {r.rank for r in results}
    first = results[0]
    extra = {**first.extra, "partitions": [{"partition": list(r.partition), "rank": r.rank} for r in results],
             "invariant": len(ranks) == 1, "rank": first.rank if len(ranks) == 1 else None}
    return replace(first, partition=None, seconds=sum(r.seconds for r in results), extra=extra)


def device_for(spec: NetworkSpec, method: str, device: str | Device | None, field: Field | None) -> Device:
    """The ``Device`` of this call (``verify.exact.device.resolve_device``), priced by the reduced route's
    memory estimate before anything is allocated; only the reduced route uses one."""
    from ..exact.device import resolve_device
    from .reduced_memory import estimate_block_bytes, largest_slice_short

    if device in (None, "cpu") or not isinstance(device, str):
        return resolve_device(device)
    if method != "reduced":
        if device == "gpu":  # said whether or not a GPU is present: installing cupy would not help
            raise InputError(f"--device gpu serves the reduced route only, not the {method} route; "
                             "use --method reduced (no --tokens below the threshold), or --device cpu")
        return resolve_device("cpu")
    need = estimate_block_bytes(spec, field or Field(FAST_PRIME))
    side = None
    if spec.depth <= 600 and not spec.residual:
        side = largest_slice_short(spec.width * (spec.width + 1) // 2, spec.layer_degree, spec.width)
    return resolve_device(device, need, side, "the largest degree-block slice")


def _check_resume_and_templates(resume, templates, method: str) -> None:
    """Refused up front, before any work: a ``resume`` that is not the callable ``separation_rank`` takes,
    or one on a route with no degree blocks to keep; ``templates`` not a count or a list, or given to a
    route other than the grid (which alone uses them), so neither is silently ignored."""
    if resume is not None:
        if not callable(resume):
            raise TypeError(f"resume must be a callable (field name, seed, weight range) -> rows, such as "
                            f"verify.sweeps.block_rows.BlockRows, or None; got {type(resume).__name__}")
        if method != "reduced":
            raise InputError(f"--store keeps the reduced route's degree blocks, and the {method} route has none; "
                             f"drop --store, or use --method reduced (no --tokens, or --tokens at least 2(d_x + 1))")
    if templates is None:
        return
    if isinstance(templates, bool) or not isinstance(templates, (int, list, tuple)):
        raise TypeError(f"templates must be a count (int) or a list of template vectors, got "
                        f"{type(templates).__name__}")
    if method != "grid":
        raise InputError(f"--templates applies to the grid route only, not the {method} route; drop it, or use "
                         f"--method grid")


#: ``--device gpu`` with a cluster, refused: the plan is made for the workers' CPUs.
CLUSTER_ON_GPU = ("--scheduler ranks the degree blocks on the workers' CPUs; drop --device gpu (or use --device "
                  "cpu), or drop --scheduler to rank on this machine's GPU")


def cluster_refusals(spec: NetworkSpec, method: str, explicit_partition: bool) -> None:
    """What a cluster (``--scheduler``) refuses before any work besides ``CLUSTER_ON_GPU``: a route or network
    with no degree blocks."""
    method = choose_method(spec, method, explicit_partition)[0]
    if method != "reduced" or spec.residual:
        what = "a residual network" if method == "reduced" else f"the {method} route"
        raise InputError(f"--scheduler ranks the reduced route's degree blocks on the cluster, and {what} has none; "
                         f"drop --scheduler, or use --method reduced on a network without --residual")


def _admit_cluster(cluster, spec: NetworkSpec, chosen: Field | None, max_memory_gib: float) -> None:
    """The cluster's own refusal (``BlockRunner.admit``): a first-run block that no worker can hold, priced
    on the workers' CPUs after the local estimate's refusals."""
    from .block_tasks import plan_tasks
    from .reduced import check_memory

    weights_size(spec, max_memory_gib)
    first = chosen or (Field(FAST_PRIME) if spec.layer_degree < FAST_PRIME else Field(DEFAULT_PRIME))
    check_memory(spec, max_memory_gib, first)
    cluster.admit(plan_tasks(plan_run(spec, first), spec))


def plan_separation_rank(spec: NetworkSpec, method: str = SEP.method, field: Field | str | None = SEP.field,
                         device: str = SEP.device, max_memory_gib: float = SEP.max_memory_gib,
                         leaf: str | None = None) -> RunPlan:
    """The block plan of the first run ``separation_rank`` would make by the reduced route (``verify sep
    --dry-run``): each degree block's shape, slice, kernel, device, leaf route, bytes and estimated seconds,
    without computing anything (closed form; refusals as the run's).  Later runs use other primes on the
    same device (``repeat``): their plans differ only where a prime changes the kernel.

    >>> plan = plan_separation_rank(NetworkSpec(depth=2, width=2), device="cpu")  # block a: C(a+2, 2) x 2 C(6-a, 2)
    >>> [(b.rows, b.cols, b.kernel.name) for b in plan.blocks][:2], plan.field.name
    ([(1, 30, 'flint'), (3, 20, 'flint')], 'gf:1048573')
    """
    from .reduced import check_memory
    from .reduced_memory import memory_parts

    if not isinstance(spec, NetworkSpec):
        raise InputError(f"spec must be a NetworkSpec, got {type(spec).__name__}; e.g. NetworkSpec(depth=2, width=3)")
    if choose_method(spec, method, False)[0] != "reduced":
        raise InputError(f"a plan is made for the reduced route only (its degree blocks): give --tokens of at least "
                         f"{2 * (spec.width + 1)} or none, and --method auto or reduced; or drop --dry-run")
    chosen = None if field is None else as_field(field)
    first = chosen or (Field(FAST_PRIME) if spec.layer_degree < FAST_PRIME else Field(DEFAULT_PRIME))
    weights_size(spec, max_memory_gib)
    check_memory(spec, max_memory_gib, first)
    on = device_for(spec, "reduced", device, chosen)
    plan = plan_run(spec, first, on, leaf)
    plan.memory = memory_parts(spec, first)  # the figure check_memory compared with the limit, part by part
    return plan


# over 80 lines: 59 of them are the numpydoc docstring of the public entry point; its code is 31
def separation_rank(spec: NetworkSpec, method: str = SEP.method, field: Field | str | None = SEP.field,
                    seed: int = SEP.seed, partition: tuple[Any, ...] | str | None = None, all_partitions: bool = False,
                    templates: int | list[Any] | None = SEP.templates, weight_range: int | None = SEP.weight_range,
                    max_memory_gib: float = SEP.max_memory_gib, max_evaluations: int = SEP.max_evaluations,
                    target_probability: float = SEP.target_probability, max_runs: int = SEP.max_runs,
                    progress: Callable[[str, str], Callable[[int, int], object]] | None = None,
                    device: str = SEP.device, resume: Callable[[str, int, int], BlockKeeper] | None = None,
                    cluster: BlockRunner | None = None) -> SepResult:
    """Separation rank of y_p^i for ``spec``, repeated with fresh weights and primes until certified.

    The same result as ``verify sep --json`` (``as_dict()`` is its JSON).  ``max_runs=1`` gives one
    run; ``verify.rank.routes.rank_once`` one run with a route's own defaults.

    Parameters
    ----------
    spec : NetworkSpec
        ``spec.tokens`` is required by ``coefficients`` and ``grid``; without it the reduced
        route gives the value for every N >= 2(d_x + 1).
    method : {"auto", "coefficients", "grid", "reduced"}
        ``auto``: reduced where its value is exact and no partition is asked for, else coefficients.
    field : Field or str, optional
        GF(p) or Q, or its text as ``--field`` takes it (``"qq"``, ``"gf:P"``, ``"gf:2^61-1"``); runs
        after the first use the primes below p.  None: see the
        module notes.
    seed : int
        Seeds the first run's weights; run i uses seed + i.
    partition : tuple of int or str, optional
        Positions in A (coefficient and grid routes); default the first N/2.
    all_partitions : bool
        Rank every balanced partition at the same weights; ``extra["invariant"]`` says whether they agree.
    weight_range : int, optional
        Weights uniform in [-R, R]; default uniform over GF(p), 2^31 over Q.
    target_probability, max_runs : float, int
        Stop once the bound on missing the generic rank is at most this, or after this many runs.
    progress : callable (label, unit) -> callable (done, total), optional
        Makes the progress display of a run (``verify.sweeps.progress.Progress`` fits).
    device : {"auto", "cpu", "gpu"}
        Where the reduced route's eliminations run (``verify.exact.device``): ``gpu`` needs cupy and a
        CUDA device (else InputError naming the extra to install) and the estimate to fit its memory;
        ``auto`` takes the GPU only when present and the largest slice is large enough to pay.  The
        rank and its certainty do not depend on the device.
    resume : callable (field name, seed, weight range) -> object with get(a) and put(a, value, seconds), optional
        Reduced route: keeps each finished degree block, so a killed run resumes where it stopped
        (``verify.sweeps.block_rows.BlockRows`` keeps them as rows of the results store; ``verify sep
        --store PATH``).  The result is the same as an uninterrupted run's.
    cluster : verify.rank.block_tasks.BlockRunner, optional
        Reduced route: rank each degree block as a standalone task there (a Dask cluster:
        ``verify.sweeps.sep_cluster.block_cluster(address)``; ``verify sep --scheduler``), on the CPU of a
        worker that can hold it, the largest first; the result is the same as a local run's.

    Returns
    -------
    SepResult
        The best run, its ``certainty`` the combined one; ``as_dict()`` adds ``runs``, ``primes``,
        ``elimination``, ``probability_bound`` and ``run_details``.

    Examples
    --------
    Two layers of width 2: the degree-block count of the catalecticant is 18, met at the first run,
    so the rank is certified exact:

    >>> result = separation_rank(NetworkSpec(depth=2, width=2, heads=1))
    >>> result.rank, result.certainty.label, result.as_dict()["runs"]
    (18, 'certified', 1)
    """
    if not isinstance(spec, NetworkSpec):
        raise InputError(f"spec must be a NetworkSpec, got {type(spec).__name__}; e.g. NetworkSpec(depth=2, width=3)")
    chosen = None if field is None else as_field(field)  # a Field or its text; anything else is an InputError
    integer(seed, "seed", 0)
    if partition is not None and spec.tokens is not None:
        partition = _partition(partition, spec.tokens)  # a tuple is checked as its text would be
    explicit_partition = partition is not None or all_partitions
    method, notes = choose_method(spec, method, explicit_partition)
    _check_resume_and_templates(resume, templates, method)
    n = spec.tokens
    weights_size(spec, max_memory_gib)  # --attn-dim priced before any weight is drawn
    if all_partitions and n is not None and comb(n - 1, n // 2 - 1) > MAX_PARTITIONS:
        count = comb(n - 1, n // 2 - 1)  # exact integer: printed by its digits, never through a float
        raise InputError(f"--all-partitions at N = {n} visits about 10^{len(str(count)) - 1} balanced partitions, "
                         f"over {MAX_PARTITIONS:,}; use fewer --tokens or one --partition")
    ROUTES[method].check(spec, templates, max_evaluations, max_memory_gib)
    if cluster is not None:
        cluster_refusals(spec, method, explicit_partition)
        if device == "gpu":
            raise InputError(CLUSTER_ON_GPU)
        _admit_cluster(cluster, spec, chosen, max_memory_gib)
        device = "cpu"  # the workers'; a GPU here would plan kernels they do not have
    on = device_for(spec, method, device, chosen)
    common = dict(method=method, templates=templates, max_memory_gib=max_memory_gib, max_evaluations=max_evaluations)
    if all_partitions:
        here = chosen or Field(DEFAULT_PRIME)
        result = _all_partitions(spec, {**common, "field": here, "seed": seed,
                                        "weight_range": weight_range_for(weight_range, here)}, progress)
    else:
        part = _partition(partition, n) if partition is not None else None
        tick = progress(f"{method} route", "step") if progress else None
        result = combined(repeated_ranks(spec, field=chosen, seed=seed, weight_range=weight_range,
                                         target=target_probability, max_runs=max_runs, partition=part,
                                         progress=tick, placement=Placement(on, runner=cluster), resume=resume,
                                         **common))
    result.notes = notes + result.notes
    if cluster is not None:
        result.notes.append(f"degree blocks ranked as tasks on {cluster.describe()}")
    if on.is_gpu:
        result.notes.append(f"degree-block eliminations on the {on.describe()}")
    return result
