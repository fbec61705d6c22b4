"""The public entry point: the separation rank of y_p^i by a chosen route, with its meaning.

Routes (``docs/mathematics.md`` §2): ``coefficients`` (matricise the exact polynomial), ``grid``
(the papers' grid tensor over template vectors) and ``reduced`` (the derivative space of
F(S)^T e_p, independent of N).
"""

from __future__ import annotations

import time

from .bound import derivative_bound
from .certainty import BAD_PRIME_NOTE, Certainty, against_upper_bound, residue_sample_size
from ..errors import InputError
from ..exact.fields import DEFAULT_PRIME, Field, as_field
from .grid import DEFAULT_MAX_EVALUATIONS, default_template_count, draw_templates, grid_rank
from .memory import DEFAULT_MEMORY_GIB
from ..model.partitions import default_partition
from .result import SepResult
from ..model.spec import DEFAULT_WEIGHT_RANGE, NetworkSpec, draw_weights

__all__ = ["SepResult", "separation_rank", "METHODS"]

METHODS = ("coefficients", "grid", "reduced")


def separation_rank(spec: NetworkSpec, method: str = "coefficients", field: Field = Field(DEFAULT_PRIME),
                    seed: int = 0, partition: tuple | None = None, templates: int | list | None = None,
                    weight_range: int = DEFAULT_WEIGHT_RANGE, max_memory_gib: float = DEFAULT_MEMORY_GIB,
                    max_evaluations: int = DEFAULT_MAX_EVALUATIONS, progress=None) -> SepResult:
    """Separation rank of y_p^i for ``spec`` at seeded integer weights, by ``method``.

    Parameters
    ----------
    spec : NetworkSpec
        ``spec.tokens`` is required by ``coefficients`` and ``grid``.
    method : {"coefficients", "grid", "reduced"}
    field : Field or str
        GF(p) (default, p = 2^63 - 25) or Q, or its text as ``--field`` takes it (``"gf:2^61-1"``, ``"qq"``).
    seed : int
        Seeds the weights (and the templates of the grid route).
    partition : tuple of int, optional
        Positions in A; default the first N/2 (N must then be even).
    templates : int or list of template vectors, optional
        Grid route only: how many random templates per position (default
        ``default_template_count(spec)``, which makes the grid exact) or the templates themselves.

    Returns
    -------
    SepResult

    Examples
    --------
    >>> spec = NetworkSpec(depth=1, width=2, heads=1, tokens=2)
    >>> separation_rank(spec).rank
    3
    """
    field = as_field(field)  # a Field or its text ("gf:2^61-1", "qq"); anything else is an InputError
    if not isinstance(spec, NetworkSpec):
        raise InputError(f"spec must be a NetworkSpec, got {type(spec).__name__}; e.g. NetworkSpec(depth=2, width=3)")
    if method not in METHODS:
        raise InputError(f"unknown method {method!r}; use one of {', '.join(METHODS)}")
    if method == "reduced":
        from .reduced import reduced_separation_rank
        return reduced_separation_rank(spec, field=field, seed=seed, weight_range=weight_range,
                                       max_memory_gib=max_memory_gib, progress=progress)
    if spec.tokens is None:
        raise InputError(f"the {method} route needs --tokens N; give it, or use --method reduced")
    part_a = default_partition(spec.tokens) if partition is None else tuple(partition)
    weights = draw_weights(spec, seed, weight_range)
    start = time.perf_counter()
    notes = []
    sample = residue_sample_size(2 * weight_range + 1, field.modulus)  # weights as read in the field
    # sep <= the catalecticant rank of F(S)^T e_p <= the derivative-space bound, for every N and
    # partition (the Taylor expansion in S_B is a decomposition): the minor to bound is at most that big
    upper = derivative_bound(spec).total
    prime_note = "" if field.modulus is None else "; " + BAD_PRIME_NOTE
    if method == "coefficients":
        from .coefficients import coefficient_rank
        found = coefficient_rank(spec, weights, field, part_a, max_memory_gib, progress)
        rank, blocks = found.rank, found.blocks
        exact, bound = against_upper_bound(rank, upper, spec.weight_degree, sample)
        certainty = Certainty(
            True, bound,
            "rank of the exact coefficient matrix at integer weights: a certified lower bound on the "
            "generic separation rank, " + (
                f"meeting the derivative-space upper bound {upper}, so it is the generic rank exactly" if exact else
                f"equal to it unless the weights hit the zero set of a minor of size at most the derivative-space "
                f"upper bound {upper} (Schwartz-Zippel bound in probability_bound){prime_note}"), exact)
    else:
        if templates is None:
            templates = default_template_count(spec)
        chosen = draw_templates(spec, templates, seed, weight_range) if isinstance(templates, int) else templates
        block = grid_rank(spec, weights, field, part_a, chosen, max_memory_gib, max_evaluations, progress)
        rank, blocks = block.rank, [block]
        full_grid = len(chosen) >= default_template_count(spec)
        exact, bound = against_upper_bound(rank, upper, spec.weight_degree + spec.degree, sample)
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
        certainty = Certainty(True, bound, meaning, exact)
    return SepResult(rank, method, field.name, spec, seed, part_a, certainty, blocks, notes,
                     time.perf_counter() - start, {"upper_bound": upper, "upper_bound_kind": derivative_bound(spec).kind})
