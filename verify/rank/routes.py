"""The rank routes, registered: each declares in one place its up-front size check, its rank (one
run at seeded weights) and what that rank certifies.

Routes (``docs/mathematics.md`` §2): ``coefficients`` (matricise the exact polynomial), ``grid``
(the papers' grid tensor over template vectors) and ``reduced`` (the derivative space of
F(S)^T e_p, independent of N) on continuous inputs, and ``tokens`` (``token.tokens.token_rank``, §4 and §7)
on token inputs.  The command line's ``--method`` choices (``METHODS``: the routes on continuous inputs)
and the up-front checks of ``verify sep`` are read from ``ROUTES``; ``rank_once`` is one run by any of
those; the probe runs the token route as ``ROUTES["tokens"].rank``.  Adding a route: a module with its
rank, and one ``register_route`` call here (docs/extending.md).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from math import comb, log2
from typing import TYPE_CHECKING, Any, Callable

from .. import defaults
from ..errors import InputError
from ..exact.fields import DEFAULT_PRIME, Field
from ..model.partitions import default_partition
from ..model.spec import DEFAULT_WEIGHT_RANGE, NetworkSpec, draw_weights
from .bound import derivative_bound
from .certainty import BAD_PRIME_NOTE, Certainty, against_upper_bound, residue_sample_size
from .grid import DEFAULT_MAX_EVALUATIONS, default_template_count, draw_templates, grid_rank
from .memory import DEFAULT_MEMORY_GIB, guard, guard_log2, log2_multichoose
from .result import SepResult

if TYPE_CHECKING:
    from ..exact.device import Device
    from ..model.embeddings import VocabularyEmbedding
    from .block_plan import Placement
    from .blocks import BlockKeeper

__all__ = ["Route", "ROUTES", "METHODS", "register_route", "rank_once", "coefficient_size", "weights_size",
           "WEIGHT_BYTES"]


@dataclass(frozen=True)
class Route:
    """One route to the separation rank.

    Attributes
    ----------
    name : str
        What ``--method`` and results call it.
    needs_tokens : bool
        The route ranks one sequence length N (``spec.tokens`` required) and one partition; else
        it is N- and partition-independent.
    check : callable (spec, templates, max_evaluations, max_memory_gib) -> None
        Closed-form refusal (InputError) before anything is built, on the log scale so absurd
        sizes answer at once; a route that prices itself per field at run time checks nothing here.
    rank : callable (spec, field, seed, partition, templates, weight_range, max_memory_gib,
        max_evaluations, progress) -> SepResult
        One run at seeded integer weights, with its ``Certainty``; on token inputs
        (spec, weights, embedding, field, part_a, **options) -> ``TokenRank`` (``token_rank``'s signature).
    inputs : {"vectors", "tokens"}
        What the network reads: continuous vectors (a ``--method`` of ``verify sep``, in ``METHODS``) or
        tokens through a vocabulary embedding (the probe's route).
    """

    name: str
    needs_tokens: bool
    check: Callable[..., Any]
    rank: Callable[..., Any]
    inputs: str = "vectors"


#: The registered routes, in registration order (the order ``--method`` lists them).
ROUTES: dict[str, Route] = {}


def register_route(route: Route) -> Route:
    ROUTES[route.name] = route
    return route


#: Bytes one drawn weight costs: a Python int (28-32 bytes) in a tuple (8), and the products the
#: routes form from them; 24 million weights (depth 2, width 3, d_a 10^6) measured 1.37 GB peak.
WEIGHT_BYTES = 64


def weights_size(spec: NetworkSpec, max_memory_gib: float) -> None:
    """Refuse (InputError), before any weight is drawn, weights estimated above the memory limit:
    4 L H d_a d_x integers (W^Q, W^K, W^V, W^O per head and layer, eq. 3) at ``WEIGHT_BYTES`` each.
    ``--attn-dim`` enters only here (no route's estimate depends on it); every route, the probe
    and ``monomials`` check it first."""
    count = 4 * spec.depth * spec.heads * spec.attn_dim * spec.width
    default = spec.width % spec.heads == 0 and spec.attn_dim == spec.width // spec.heads
    guard(count * WEIGHT_BYTES, max_memory_gib,
          f"the {count:,} weights of depth {spec.depth}, width {spec.width}, heads {spec.heads}, d_a {spec.attn_dim}",
          "use a smaller --width or --depth" if default else "use a smaller --attn-dim (default d_x/H)")


def coefficient_size(spec: NetworkSpec, max_memory_gib: float) -> None:
    """Refuse (InputError) an exact polynomial y_p^i that could not be expanded.

    y_p^i has at least binom(C + m - 1, C) monomials, m = (N - 1) d_x (x^i_p times the square of
    any degree-C(L) monomial in the other positions), at >= 500 bytes a term.
    """
    n = spec.tokens
    log2_c = spec.depth * log2(3) - 1  # C(L) = (3^L - 1)/2
    what = f"the exact polynomial for depth {spec.depth}, width {spec.width}, {n} tokens"
    fix = "use --method reduced (sep) or fewer --tokens"
    guard_log2(log2_multichoose(log2_c, (n - 1) * spec.width - 1) + log2(500), max_memory_gib, what, fix)
    if spec.depth > 20 or ((3**spec.depth + 1) // 2) ** 2 * n > 10**8:
        raise InputError(f"{what} has degree 3^L = 3^{spec.depth}, beyond what the coefficient route can expand; "
                         f"{fix}")


def _coefficient_check(spec: NetworkSpec, templates, max_evaluations: int, max_memory_gib: float) -> None:
    coefficient_size(spec, max_memory_gib)


def _grid_check(spec: NetworkSpec, templates, max_evaluations: int, max_memory_gib: float) -> None:
    """M^N evaluations for M templates per position, against ``max_evaluations``."""
    n = spec.tokens
    if templates is None:  # binom(3^L + d_x, d_x), on the log scale
        log2_m = log2_multichoose(spec.depth * log2(3), spec.width)
        if log2_m < 60:
            log2_m = log2(comb(3**spec.depth + spec.width, spec.width))
    else:
        log2_m = log2(templates)
    if n * log2_m > log2(max_evaluations) + 1e-9:
        raise InputError(f"the grid needs about 2^{n * log2_m:,.0f} network evaluations (N = {n} positions), "
                         f"over the limit of {max_evaluations:,}; use --method coefficients or reduced, fewer "
                         f"--templates or --tokens, or raise --max-evaluations")


def _no_check(spec: NetworkSpec, templates, max_evaluations: int, max_memory_gib: float) -> None:
    """The reduced route prices its degree blocks per field when it runs (``reduced.check_memory``); the token
    route prices its matrix when it runs (``token.tokens.token_rank``, by ``token.caps.gram_log2_bytes``)."""


def _coefficient_rank(spec: NetworkSpec, field, seed, part_a: tuple[int, ...], templates, weight_range: int,
                      max_memory_gib: float, max_evaluations: int,
                      progress: Callable[[int, int], object] | None):
    from .coefficients import coefficient_rank

    weights = draw_weights(spec, seed, weight_range)
    sample = residue_sample_size(2 * weight_range + 1, field.modulus)  # weights as read in the field
    upper = derivative_bound(spec).total
    prime_note = "" if field.modulus is None else "; " + BAD_PRIME_NOTE
    found = coefficient_rank(spec, weights, field, part_a, max_memory_gib, progress)
    exact, bound = against_upper_bound(found.rank, upper, spec.weight_degree, sample)
    certainty = Certainty(
        True, bound,
        "rank of the exact coefficient matrix at integer weights: a certified lower bound on the "
        "generic separation rank, " + (
            f"meeting the derivative-space upper bound {upper}, so it is the generic rank exactly" if exact else
            f"equal to it unless the weights hit the zero set of a minor of size at most the derivative-space "
            f"upper bound {upper} (Schwartz-Zippel bound in probability_bound){prime_note}"), exact)
    return found.rank, found.blocks, certainty, []


def _grid_rank(spec: NetworkSpec, field, seed, part_a: tuple[int, ...], templates, weight_range: int,
               max_memory_gib: float, max_evaluations: int, progress: Callable[[int, int], object] | None):
    weights = draw_weights(spec, seed, weight_range)
    sample = residue_sample_size(2 * weight_range + 1, field.modulus)
    upper = derivative_bound(spec).total
    prime_note = "" if field.modulus is None else "; " + BAD_PRIME_NOTE
    notes = []
    if templates is None:
        templates = default_template_count(spec)
    chosen = draw_templates(spec, templates, seed, weight_range) if isinstance(templates, int) else templates
    block = grid_rank(spec, weights, field, part_a, chosen, max_memory_gib, max_evaluations, progress)
    full_grid = len(chosen) >= default_template_count(spec)
    exact, bound = against_upper_bound(block.rank, upper, spec.weight_degree + spec.degree, sample)
    if exact:
        meaning = ("grid-tensor rank at integer weights and templates: a certified lower bound on the "
                   f"generic separation rank meeting the derivative-space upper bound {upper}, so it is the "
                   "generic rank exactly")
    elif full_grid:
        meaning = ("grid-tensor rank at integer weights and templates: a certified lower bound on the "
                   "generic separation rank; the grid has enough templates to be exact, so it equals "
                   "the generic rank unless the random draw hits the zero set of a minor of size at most "
                   f"the derivative-space upper bound {upper}{prime_note}")
    else:
        bound = None
        meaning = (f"grid-tensor rank with {len(chosen)} templates, fewer than the "
                   f"{default_template_count(spec)} that make the grid exact: a certified lower bound only")
        notes.append("grid smaller than exact size; the value is a lower bound only")
    return block.rank, [block], Certainty(True, bound, meaning, exact), notes


def _partitioned(name: str, rank_with_partition):
    """A route of one N and one partition as a ``Route.rank``: default partition, timing, upper bound."""
    def rank(spec: NetworkSpec, field, seed, partition, templates, weight_range: int, max_memory_gib: float,
             max_evaluations: int, progress: Callable[[int, int], object] | None,
             placement=None, resume=None):  # these routes rank on the CPU (small matrices, or FLINT's), in one piece
        part_a = default_partition(spec.tokens) if partition is None else tuple(partition)
        start = time.perf_counter()
        found, blocks, certainty, notes = rank_with_partition(spec, field, seed, part_a, templates, weight_range,
                                                              max_memory_gib, max_evaluations, progress)
        bound = derivative_bound(spec)
        return SepResult(found, name, field.name, spec, seed, part_a, certainty, blocks, notes,
                         time.perf_counter() - start, {"upper_bound": bound.total, "upper_bound_kind": bound.kind})
    return rank


def _reduced_rank(spec: NetworkSpec, field, seed, partition, templates, weight_range: int, max_memory_gib: float,
                  max_evaluations: int,
                  progress: Callable[[int, int], object] | None, placement=None, resume=None):
    from .reduced import reduced_separation_rank

    return reduced_separation_rank(spec, field=field, seed=seed, weight_range=weight_range,
                                   max_memory_gib=max_memory_gib, progress=progress, placement=placement, resume=resume)


register_route(Route("coefficients", True, _coefficient_check, _partitioned("coefficients", _coefficient_rank)))
register_route(Route("grid", True, _grid_check, _partitioned("grid", _grid_rank)))


def _token_rank(spec: NetworkSpec, weights, embedding: VocabularyEmbedding, field, part_a: tuple[int, ...], **options):
    from .token.tokens import token_rank

    return token_rank(spec, weights, embedding, field, part_a, **options)


register_route(Route("reduced", False, _no_check, _reduced_rank))
register_route(Route("tokens", True, _no_check, _token_rank, inputs="tokens"))

#: ``rank_once``'s default field, GF(DEFAULT_PRIME) (one instance, as the default argument was).
DEFAULT_FIELD = Field(DEFAULT_PRIME)

#: The names of the routes on continuous inputs, for messages and ``--method`` (registration order).
METHODS = tuple(name for name, route in ROUTES.items() if route.inputs == "vectors")
assert METHODS == defaults.METHODS, "verify.defaults.METHODS and the registered routes disagree"


def rank_once(spec: NetworkSpec, method: str = "coefficients", field: Field = DEFAULT_FIELD,
              seed: int = 0, partition: tuple[Any, ...] | None = None, templates: int | list[Any] | None = None,
              weight_range: int = DEFAULT_WEIGHT_RANGE, max_memory_gib: float = DEFAULT_MEMORY_GIB,
              max_evaluations: int = DEFAULT_MAX_EVALUATIONS, progress: Callable[[int, int], object] | None = None,
              placement: Placement | Device | None = None,
              resume: Callable[[str, int, int], BlockKeeper] | None = None) -> SepResult:
    """One run: the separation rank of y_p^i for ``spec`` at seeded integer weights, by ``method``.

    ``verify.separation_rank`` repeats this with fresh weights and primes until the result is
    certified; a claim that compares ranks at fixed weights calls this.

    Parameters
    ----------
    spec : NetworkSpec
        ``spec.tokens`` is required by ``coefficients`` and ``grid``.
    method : {"coefficients", "grid", "reduced"}
        A name in ``ROUTES``.
    field : Field
        GF(p) (default, p = 2^63 - 25) or Q.
    seed : int
        Seeds the weights (and the templates of the grid route).
    partition : tuple of int, optional
        Positions in A; default the first N/2 (N must then be even).
    templates : int or list of template vectors, optional
        Grid route only: how many random templates per position (default
        ``default_template_count(spec)``, which makes the grid exact) or the templates themselves.
    placement : verify.rank.block_plan.Placement, optional
        Where the reduced route's eliminations run (its device and leaf route, from which each run's
        block plan is made; default the CPU); the other routes run on the CPU.
    resume : callable, optional
        Reduced route: keeps each finished degree block (``reduced.reduced_separation_rank``).

    Returns
    -------
    SepResult

    Examples
    --------
    >>> spec = NetworkSpec(depth=1, width=2, heads=1, tokens=2)
    >>> rank_once(spec).rank
    3
    """
    if method not in METHODS:
        raise InputError(f"unknown method {method!r}; use one of {', '.join(METHODS)}")
    route = ROUTES[method]
    if route.needs_tokens and spec.tokens is None:
        raise InputError(f"the {method} route needs --tokens N; give it, or use --method reduced")
    return route.rank(spec, field, seed, partition, templates, weight_range, max_memory_gib, max_evaluations,
                      progress, placement=placement, resume=resume)
