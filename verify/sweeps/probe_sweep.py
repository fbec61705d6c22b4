"""``verify probe-n`` as a sweep: the probe's steps (``probe.probe_step``) as tasks of the executor,
stored and reused, ``batch`` N at a time on the workers, stopped as ``probe.probe_tokens`` decides."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..errors import InputError
from ..exact.fields import Field
from ..model.spec import NetworkSpec
from .plan import probe_plan
from .probe import PROBE, probe_tokens

if TYPE_CHECKING:
    from ..exact.device import Device
    from .store import Store, Task

__all__ = ["probe_sweep", "probe_device", "check_token_prime"]


def check_token_prime(spec: NetworkSpec, field: Field, vocab: int | None, rank: int | None, positional_rank: int,
                      weight_range: int) -> None:
    """Refuse, before any work, a token-route prime so small that a limit below its proven bound would be
    certified only 'unless an event of probability <= 1' (a bound of 1 or more proves nothing)."""
    from ..rank.token.gram import TOKEN_PRIME
    from ..rank.token.limit import limit_bound_below_one

    if vocab is None or rank is None or field.modulus is None or field.modulus >= 2**31:
        return  # the token route then ranks mod TOKEN_PRIME, 2^31 - 1
    if not limit_bound_below_one(spec, vocab, positional_rank, field.modulus, weight_range):
        raise InputError(f"--field gf:{field.modulus} is too small for the token route: there the N-independent "
                         f"limit, if below its proven bound, would hold only unless an event of probability 1 or more "
                         f"occurred, which proves nothing; use a larger prime, e.g. gf:{TOKEN_PRIME}")


def probe_device(spec: NetworkSpec, field: Field, continuous: bool, device: str | Device | None) -> Device:
    """The ``Device`` of a probe.  Only the --continuous limit (the reduced route, ``verify.rank.sep.device_for``,
    priced there before any allocation) can use a GPU; the token routes, their limit included, rank with
    FLINT on the CPU, so ``gpu`` is refused for them (saying so, never advising to install cupy for a route
    that would not use it) and ``auto`` is the CPU."""
    from ..exact.device import resolve_device
    from ..rank.sep import device_for

    if continuous:
        return device_for(spec, "reduced", device, field)
    if device == "gpu":
        raise InputError("--device gpu serves probe-n's --continuous limit (the reduced route) only: the token "
                         "routes rank on the CPU; use --device auto or cpu, or --continuous")
    return resolve_device("cpu" if device in (None, "auto") else device)


def check_stored(results: Store, tasks: list[tuple[int, Task]], tokens: tuple[int, int] | bool) -> None:
    """A stored probe step above the count cap V^(N/2) (sequences) or the multiset count (no positions) of its N is
    no rank the engine writes: the store is damaged (issue 43).  ``tokens``: (vocab, positional rank), or True for
    continuous inputs, which have no count cap."""
    if tokens is True:
        return
    from ..rank.token.caps import count_caps

    for n, task in tasks:
        found = results.get(task)
        cap = None if found is None else count_caps(tokens[0], n, tokens[1] > 0).cap
        if found is not None and found.get("rank", 0) > cap:
            raise InputError(f"the results store {results.path} is damaged (the probe step at N = {n}: rank "
                             f"{found['rank']} above the count cap {cap}); delete or move it, pass another "
                             f"--store PATH, or drop --store")


def probe_sweep(spec: NetworkSpec, field: Field, seed: int = PROBE.seed, max_tokens: int = PROBE.max_tokens,
                patience: int = PROBE.patience, vocab: int | None = None, rank: int | None = None,
                positional_rank: int = PROBE.positional_rank, continuous: bool = False,
                weight_range: int = PROBE.weight_range, max_memory_gib: float = PROBE.max_memory_gib,
                store: str | None = None, scheduler: str | None = None, workers: int | None = 1, progress: bool = False,
                dry_run: bool = False, device: str = PROBE.device) -> dict[Any, Any]:
    """The probe of ``spec`` through the executor (module notes); or, with ``dry_run``, the plan of
    the most it would compute.  ``store``: path of the results store (None keeps nothing); ``device``:
    ``probe_device``."""
    from ..rank.routes import weights_size
    from .executor import cpu_count, run_sweep
    from .progress import Progress
    from .store import Store, Task

    weights_size(spec, max_memory_gib)  # --attn-dim priced before any weight is drawn
    on = probe_device(spec, field, continuous, device)

    options = {"vocab": vocab, "rank": rank, "positional_rank": positional_rank, "continuous": continuous,
               "weight_range": weight_range}
    limits = (("max_memory_gib", max_memory_gib),)
    method = "coefficients" if continuous else "tokens"
    batch = 1 if workers == 1 else (workers or (4 if scheduler else cpu_count()))

    def task(n, **extra):
        return Task("probe_step", spec, method, field.name, seed,
                    tuple(sorted({**options, **extra, "tokens": n}.items())), limits)

    with Store(store, create=not dry_run) as results:  # a dry run creates nothing
        if dry_run:
            from .plan import sweep_plan

            plan = sweep_plan([task(n) for n in range(2, max_tokens + 1, 2)], results,
                              **probe_plan(spec, max_memory_gib, **options), limit_gib=max_memory_gib)
            if continuous:  # the N-independent limit runs first: priced as its refusal prices it
                from .plan import add_limit_row

                add_limit_row(plan, spec, field, seed, max_memory_gib)
                if plan["tasks"][0]["over_limit"]:
                    plan["note"] = ("the N-independent limit is computed first and is over --max-memory-gib: the run "
                                    "refuses at once, before any step")
            plan.setdefault("note", "the probe stops early once the rank is steady; these are the most it would "
                                    "compute")
            return plan

        def run_batch(token_counts, **extra):  # extra: the engine's ``likely`` (the computed limit, positions)
            check_stored(results, [(n, task(n, **extra)) for n in token_counts], continuous or (vocab, positional_rank))
            values, stats = run_sweep([task(n, **extra) for n in token_counts], results, scheduler, workers)
            if stats.refused:  # the smallest N refused decides (larger N only need more)
                first = min(stats.refused, key=lambda item: dict(item["task"].params)["tokens"])
                raise InputError(first["reason"])
            return values

        result = probe_tokens(spec, field, seed, max_tokens, patience, run_batch=run_batch,
                              progress=Progress("probe-n", progress, unit="N step"),
                              batch=batch, max_memory_gib=max_memory_gib, device=on, **options)
    data = result.as_dict()
    # provenance (issues 33, 39): the field the ranks were computed over (token ranks: the Gram route's prime, whatever
    # --field asked for), each row's certainty, and the export's: its weakest value's (the limit counts as one)
    from .provenance import row_certainty_fields, value_provenance, weakest_certainty

    modulus = data.get("modulus")
    computed = f"gf:{modulus}" if modulus else field.name
    data.update(field=computed, requested_field=field.name, seed=seed)
    limit = data.get("limit")
    items = []
    for row in data["ranks"]:
        row["certainty"], row["probability_bound"] = row_certainty_fields(row, limit, data["limit_rank"])
        items.append((row["certainty"], row["probability_bound"]))
    if limit is not None:
        items.append(row_certainty_fields({"rank": limit["rank"]}, limit, limit["rank"]))
    certainty, probability = weakest_certainty(items)
    primes = [modulus] if modulus else ([field.modulus] if field.modulus else None)
    data.update(value_provenance({"certified_lower_bound": data.get("certified_lower_bound"),
                                  "probability_bound": probability, "primes": primes}, computed, seed))
    assert data["certainty"] == certainty  # value_provenance labels the weakest value's probability the same way
    from ..schema import stamp
    from .headline import probe_headlines

    data.update(probe_headlines(data, max_tokens // 2))  # each headline's certainty, over every N it may rank
    return stamp(data, "probe-n")
