"""Repeat a rank with independent weights and primes until missing the generic rank is unlikely enough.

Each run draws its own weights (seed s, s + 1, ...) and works in its own prime field.  Its rank r_i is
a certified lower bound on the generic rank g whatever the prime (``docs/mathematics.md`` §3), and its
probability bound e_i bounds P(r_i < g) (Schwartz-Zippel with a proven upper bound on g, see
``certainty.against_upper_bound``).  The runs are independent, so the largest rank misses g only if
every run does:

    P(max_i r_i < g) <= prod_i e_i.

The loop stops as soon as that product is at most ``target``, or a run meets the upper bound
(certified exact: g is then known, with probability bound 0), or ``max_runs`` runs were made, or
the first run shows the target is out of reach in ``max_runs`` runs (``ceil(log target / log e)``
runs would be needed).  Over GF(p) each e_i is about missing the generic rank over GF(p_i), which
is the generic rank over Q unless p_i divides every g x g minor of the generic matrix (finitely
many such primes): the product is about the rank over Q when the primes used are not such primes,
and the result says so beside the number.

The rank function is a parameter (``rank_once(seed, field) -> SepResult``), so any kernel of
``verify.exact.kernels``, on any device, plugs in unchanged.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from dataclasses import field as dc_field
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Callable, Iterator

import flint

from ..defaults import DEFAULT_MAX_RUNS, DEFAULT_TARGET
from ..errors import InputError
from ..exact.fields import DEFAULT_PRIME, FAST_PRIME, MID_PRIME, Field
from ..exact.kernels import kernel_again
from .certainty import BAD_PRIME_NOTE, Certainty, format_bound
from .result import SepResult

if TYPE_CHECKING:
    from .blocks import Block

__all__ = ["RunRecord", "Repeated", "distinct_primes", "escalating_primes", "elimination_of", "field_weight_range",
           "repeat_until", "block_level_bound", "runs_needed", "later_family", "run_seconds", "FAMILIES",
           "DEFAULT_TARGET", "DEFAULT_MAX_RUNS"]


#: The first primes of the later runs' prime families (each followed by the primes below it), the
#: first preferred on ties: 2^63 - 25 for the smallest probability bound per run, 2^40 - 87 for the
#: cheapest exact elimination of large blocks.
FAMILIES = (DEFAULT_PRIME, MID_PRIME)


def run_seconds(blocks: list[Block], prime: int, first_prime: int) -> float:
    """Seconds one run at ``prime`` takes over ``blocks``: each block priced by the kernel that would
    rank it there (``verify.exact.kernels.kernel_again``, given the first run's kernel and prime), from
    that kernel's measured table.  Only ratios between the families matter to ``later_family``."""
    field = Field(prime)
    return sum(kernel_again(field, b.rows, b.cols, b.elimination, first_prime).seconds(b.rows, b.cols) for b in blocks)


def runs_needed(worst: float, prime: int, target: float) -> float:
    """Runs at primes near ``prime`` that bring (worst / prime)^k to ``target``, worst = max_a u_a D:
    ceil(log target / log(worst / prime)); infinite when one run bounds nothing (ratio >= 1).

    >>> runs_needed(2**20, 2**40, 2**-40)
    2
    >>> runs_needed(2**41, 2**40, 1e-9)
    inf
    """
    ratio = worst / prime
    if ratio >= 1:
        return math.inf
    return math.ceil(math.log(target) / math.log(ratio))


def later_family(blocks: list[Block], first_prime: int, target: float, runs_left: float = math.inf) -> int:
    """The first prime of the later runs' family (one of ``FAMILIES``), chosen by expected cost to reach
    ``target``: runs_needed x seconds per run (``run_seconds``: each kernel prices its blocks), the
    cheapest, the first family on ties and whenever another family would need more than ``runs_left``
    runs.  ``blocks`` are the first run's blocks below their upper bound; each one's u_a D is its bound
    e_a times ``first_prime`` (weights uniform over GF(p), so e_a = u_a D / p, plus a mixing term that
    only overestimates).  A bound capped at 1 says nothing about u_a D: the first family then.
    """
    if not blocks or any(b.probability_bound is None or b.probability_bound >= 1 for b in blocks):
        return FAMILIES[0]
    worst = max(b.probability_bound for b in blocks) * first_prime
    best = FAMILIES[0]
    cost = runs_needed(worst, best, target) * run_seconds(blocks, best, first_prime)
    for prime in FAMILIES[1:]:
        runs = runs_needed(worst, prime, target)
        if runs > runs_left:
            continue
        here = runs * run_seconds(blocks, prime, first_prime)
        if here < cost:
            best, cost = prime, here
    return best


def field_weight_range(field: Field) -> int | None:
    """The weight range that draws weights uniformly over GF(p): [-(p-1)/2, (p-1)/2] is one full
    residue system, so each residue has probability exactly 1/p and the Schwartz-Zippel sample is p.
    ``None`` over Q (no field to fill).

    >>> field_weight_range(Field(7))
    3
    """
    return None if field.modulus is None else (field.modulus - 1) // 2


def distinct_primes(first: int) -> Iterator[int]:
    """``first``, then the primes below it in decreasing order (independent fields for the runs).

    >>> from itertools import islice
    >>> list(islice(distinct_primes(31), 4))
    [31, 29, 23, 19]
    """
    p = first
    while p > 2:
        if flint.fmpz(p).is_prime():
            yield p
        p -= 1


def escalating_primes(fast: int = FAST_PRIME, large: int = DEFAULT_PRIME) -> Iterator[int]:
    """``fast`` (one float64 limb: the fastest exact elimination), then ``large`` and the primes below it.

    A rank that meets the proven upper bound is certified exact at any prime, so the first run is
    as cheap as possible; a rank below it needs a large field for a small Schwartz-Zippel bound
    (degree about g * 2(3^L - 1) over p), which the later runs give.

    >>> from itertools import islice
    >>> list(islice(escalating_primes(31, 29), 3))
    [31, 29, 23]
    """
    yield fast
    yield from distinct_primes(large)


@dataclass(frozen=True)
class RunRecord:
    """One run: its seed, prime (``None`` over Q), rank and what it certifies."""

    seed: int
    prime: int | None
    rank: int
    probability_bound: float | None
    certified_exact: bool
    seconds: float
    elimination: str = ""
    #: The degree blocks a block-level repeat ranked (empty: every block); ``rank`` is then their sum.
    blocks: tuple[Any, ...] = ()

    def as_dict(self) -> dict[Any, Any]:
        out = {"seed": self.seed, "prime": self.prime, "rank": self.rank,
               "probability_bound": self.probability_bound, "certified_exact": self.certified_exact,
               "seconds": round(self.seconds, 3), "elimination": self.elimination}
        if self.blocks:
            out["blocks"] = list(self.blocks)
        return out


def elimination_of(result: SepResult) -> str:
    """How a run's ranks were eliminated: the names its blocks record (``Block.elimination``), else
    the field's own elimination (the only one the other routes use)."""
    named = result.extra.get("elimination") or sorted(
        {getattr(b, "elimination", None) for b in result.blocks} - {None})
    if isinstance(named, list):
        named = " + ".join(named)
    return named or (Field(None) if result.field == "qq" else Field(FAST_PRIME)).elimination_detail


@dataclass
class Repeated:
    """The largest rank over the runs, the run that gave it, and the combined bound."""

    best: SepResult
    runs: list[Any] = dc_field(default_factory=list)
    probability_bound: float | None = None
    certified_exact: bool = False
    target: float = DEFAULT_TARGET
    stopped: str = ""

    @property
    def rank(self) -> int:
        return self.best.rank

    @property
    def elimination(self) -> str:
        """How the runs' ranks were eliminated, each name once, in run order (``elimination_of``)."""
        names = []
        for run in self.runs:
            for name in (run.elimination or elimination_of(self.best)).split(" + "):
                if name not in names:
                    names.append(name)
        return " + ".join(names)

    def as_dict(self) -> dict[Any, Any]:
        """Keys added to the best run's JSON: which elimination, primes and runs gave the number."""
        top = self.best.rank
        elimination = self.elimination
        primes = [r.prime for r in self.runs]
        return {"rank": top, "probability_bound": self.probability_bound, "certified_exact": self.certified_exact,
                "target_probability": self.target, "elimination": elimination,
                "primes": sorted(set(p for p in primes if p is not None), reverse=True),
                "runs": len(self.runs), "runs_at_rank": sum(1 for r in self.runs if r.rank == top),
                "repeat_stopped": self.stopped, "run_details": [r.as_dict() for r in self.runs]}


def _round_up(value: Fraction) -> float:
    """``value`` as a float never below it, capped at 1."""
    if value >= 1:
        return 1.0
    near = float(value)
    return near if Fraction(near) >= value else math.nextafter(near, 1.0)  # rounded up, never down


def _product(bounds: list[float]) -> float:
    value = Fraction(1)
    for b in bounds:
        value *= Fraction(b)
    return _round_up(value)


def block_level_bound(per_block: dict[int, list[float]], blocks: int) -> float:
    """M max_a prod_k min(1, e_(a,k)) over the blocks a still below their proven upper bound, M = ``blocks`` the
    number of degree blocks (fixed by the spec before the draw): R = sum_a max_k r_(a,k) misses g = sum_a g_a only
    if some block a (below its bound, so in the set) missed in every run, each e_(a,k) that block's Schwartz-Zippel
    bound in run k at independent weights.  Which blocks stay below their bound, and for how many runs, is read
    off the draws, so their products do not add: a block's product P_a is a bound only in the sense
    Pr[a missed in every run and P_a <= b] <= b (Lemma R), and Pr[R < g and M max_a P_a <= b] <=
    sum over the M blocks of Pr[a missed and P_a <= b / M] <= b (docs/mathematics.md §2, block-level repeats;
    the sum over the blocks below their bound is exceeded when two blocks miss in disjoint draws).  Exact
    rational arithmetic, rounded up.

    >>> block_level_bound({3: [1.0, 0.5, 0.25], 5: [0.125]}, 6)
    0.75
    >>> block_level_bound({}, 6)
    0.0
    """
    if len(per_block) > blocks:
        raise ValueError(f"{len(per_block)} blocks below their bound, but only {blocks} degree blocks")
    top = Fraction(0)
    for bounds in per_block.values():
        value = Fraction(1)
        for b in bounds:
            value *= min(Fraction(1), Fraction(b))
        top = max(top, value)
    total = min(Fraction(1), blocks * top)
    return 0.0 if total == 0 else _round_up(total)


def _by_blocks(first: SepResult, record: RunRecord, rank_blocks, fields, seed: int, target: float,
               max_runs: int) -> Repeated:
    """The block-level repeats after a first run that recorded per-block bounds (module notes): later
    runs rank only the blocks still below their proven upper bound; each block keeps its best run."""
    best = list(first.blocks)
    per_block = {a: [b.probability_bound] for a, b in enumerate(best) if b.rank < b.upper_bound}
    runs, stopped = [record], f"max_runs {max_runs} reached"
    for i in range(1, max_runs):
        per_block = {a: e for a, e in per_block.items() if best[a].rank < best[a].upper_bound}
        if not per_block:
            stopped = f"every degree block met its proven upper bound after {i} run(s): certified exact"
            break
        bound = block_level_bound(per_block, len(best))
        if bound <= target:
            stopped = f"block-level bound {format_bound(bound)} <= target {target:g} after {i} run(s)"
            break
        here = fields(i)
        try:
            result = rank_blocks(seed + i, here, sorted(per_block))
        except InputError as exc:
            stopped = f"run {i + 1} over GF({here.modulus}) refused: {exc}"
            break
        for a in per_block:
            block = result.blocks[a]
            per_block[a].append(block.probability_bound)
            if block.rank > best[a].rank:
                best[a] = block
        runs.append(RunRecord(seed + i, here.modulus, result.rank, None, False, result.seconds,
                              elimination_of(result), tuple(sorted(per_block))))
    per_block = {a: e for a, e in per_block.items() if best[a].rank < best[a].upper_bound}
    exact, bound = not per_block, block_level_bound(per_block, len(best))
    rank = sum(b.rank for b in best)
    meaning = (f"sum over the degree blocks of each block's largest rank in {len(runs)} run(s) with independent "
               f"weights and primes (later runs re-ranked only the blocks below their proven upper bound): a "
               f"certified lower bound on the generic separation rank")
    meaning += (", and every block meets its proven upper bound, so it is the generic separation rank exactly"
                if exact else f"; it is below the generic rank with probability at most M max_a prod_k e_(a,k) = "
                f"{format_bound(bound)}, the largest product over the {len(per_block)} block(s) below their upper "
                f"bound times the M = {len(best)} degree blocks (which blocks stay below is read off the draws, so "
                f"their products do not add; docs/mathematics.md, block-level repeats); " + BAD_PRIME_NOTE)
    combined = replace(first, rank=rank, blocks=best, certainty=Certainty(True, bound, meaning, certified_exact=exact),
                       seconds=sum(r.seconds for r in runs))
    return Repeated(combined, runs, bound, exact, target, stopped)


# over 80 lines: 27 of them are the numpydoc docstring of the public repeat loop; its code is 59
def repeat_until(rank_once: Callable[[int, Field], SepResult], field: Field, seed: int = 0,
                 target: float = DEFAULT_TARGET, max_runs: int = DEFAULT_MAX_RUNS,
                 primes: Iterator[int] | None = None,
                 rank_blocks: Callable[[int, Field, list[int]], SepResult] | None = None,
                 choose_family: bool = False) -> Repeated:
    """Run ``rank_once(seed + i, field_i)`` until the largest rank is certified exact or its bound
    is at most ``target`` (module notes).

    Parameters
    ----------
    rank_once : callable (seed, Field) -> SepResult
        One run at fresh weights in the given field; its ``certainty`` carries the per-run bound.
    field : Field
        The first run's field; later runs use the next primes below it (``distinct_primes``), or
        Q again over Q.
    primes : iterator of int, optional
        The primes to use instead, e.g. ``escalating_primes()``: a fast small prime first (certified
        exact when its rank meets the upper bound, whatever the prime), then large ones for the
        probability.  Runs then differ in size, so the first run does not predict how many are needed.
    rank_blocks : callable (seed, Field, degrees) -> SepResult, optional
        Block-level repeats (``block_level_bound``): when the first run records a proven upper bound
        and a probability bound for every block, later runs rank only the blocks still below their
        upper bound, and each block keeps its best run.
    choose_family : bool
        With ``rank_blocks`` and GF(p): the block-level runs use the prime family ``later_family``
        chooses (2^63 - 25 and below, or 2^40 - 87 and below) instead of ``primes``' next ones.
    """
    if max_runs < 1:
        raise ValueError("max_runs must be >= 1")
    uniform = primes is None  # every run in a prime of about the same size: one run predicts the rest
    if primes is None and field.modulus is not None:
        primes = distinct_primes(field.modulus)
    runs: list[RunRecord] = []
    best: SepResult | None = None
    bounds: list[float] = []
    stopped = ""
    for i in range(max_runs):
        here = field if primes is None else Field(next(primes))
        try:
            result = rank_once(seed + i, here)
        except InputError as exc:  # e.g. a later, larger prime's elimination would not fit: keep what is done
            if best is None:
                raise
            stopped = f"run {i + 1} over GF({here.modulus}) refused: {exc}"
            break
        c = result.certainty
        runs.append(RunRecord(seed + i, here.modulus, result.rank, c.probability_bound, c.certified_exact,
                              result.seconds, elimination_of(result)))
        if best is None or result.rank > best.rank:
            best = result
        if i == 0 and rank_blocks is not None and not c.certified_exact and result.blocks and all(
                b.upper_bound is not None and b.probability_bound is not None for b in result.blocks):
            later = primes
            if choose_family:  # the later runs' prime family by expected cost (``later_family``)
                deficient = [b for b in result.blocks if b.rank < b.upper_bound]
                family = later_family(deficient, here.modulus, target, max_runs - 1)
                if family != DEFAULT_PRIME:
                    later = distinct_primes(family)

            def fields(k, first=here, later=later):
                return first if later is None else Field(next(later))
            return _by_blocks(result, runs[0], rank_blocks, fields, seed, target, max_runs)
        if c.certified_exact:
            return Repeated(result, runs, 0.0, True, target,  # its rank is the upper bound: the largest
                            f"run {i + 1} met the proven upper bound: certified exact")
        if c.probability_bound is None:
            stopped = "the runs claim no equality with the generic rank (a lower bound only)"
            break
        bounds.append(c.probability_bound)
        combined = _product(bounds)
        if combined <= target:
            stopped = f"combined bound {format_bound(combined)} <= target {target:g} after {i + 1} run(s)"
            break
        if i == 0 and uniform:
            if c.probability_bound >= 1:
                stopped = "one run bounds nothing (bound 1): more runs cannot reach the target; use a larger prime"
                break
            needed = math.ceil(math.log(target) / math.log(c.probability_bound))
            if needed > max_runs:
                stopped = (f"the target needs about {needed} runs at this bound per run, more than max_runs "
                           f"{max_runs}; use a larger prime, weights over the whole field, or more runs")
                break
    else:
        stopped = f"max_runs {max_runs} reached"
    combined = None if not bounds or len(bounds) < len(runs) else _product(bounds)
    return Repeated(best, runs, combined, False, target, stopped)


def bad_prime_note(repeated: Repeated) -> str | None:
    """The caveat every GF(p) probability carries, or ``None`` when nothing probabilistic is claimed."""
    if repeated.certified_exact or repeated.probability_bound is None or repeated.runs[0].prime is None:
        return None
    return BAD_PRIME_NOTE
