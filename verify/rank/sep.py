"""The public entry point: the separation rank of y_p^i by a chosen route, with its meaning.

Routes (``../shared/MATH.md`` §2): ``coefficients`` (matricise the exact polynomial), ``grid``
(the papers' grid tensor over template vectors) and ``reduced`` (the derivative space of
F(S)^T e_p, independent of N).
"""

from __future__ import annotations

import time

from .certainty import Certainty, residue_sample_size, schwartz_zippel
from ..errors import InputError
from ..exact.fields import DEFAULT_PRIME, Field
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
    field : Field
        GF(p) (default, p = 2^63 - 25) or Q.
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
    if method == "coefficients":
        from .coefficients import coefficient_rank
        found = coefficient_rank(spec, weights, field, part_a, max_memory_gib, progress)
        rank, blocks = found.rank, found.blocks
        certainty = Certainty(
            True, schwartz_zippel(rank, spec.weight_degree, sample),
            "rank of the exact coefficient matrix at integer weights: a certified lower bound on the "
            "generic separation rank, equal to it unless the weights hit a minor's zero set "
            "(Schwartz-Zippel bound in probability_bound)")
    else:
        if templates is None:
            templates = default_template_count(spec)
        chosen = draw_templates(spec, templates, seed, weight_range) if isinstance(templates, int) else templates
        block = grid_rank(spec, weights, field, part_a, chosen, max_memory_gib, max_evaluations, progress)
        rank, blocks = block.rank, [block]
        exact = len(chosen) >= default_template_count(spec)
        if exact:
            bound = schwartz_zippel(rank, spec.weight_degree + spec.degree, sample)
            meaning = ("grid-tensor rank at integer weights and templates: a certified lower bound on the "
                       "generic separation rank; the grid has enough templates to be exact, so it equals "
                       "the generic rank unless the random draw hits a minor's zero set")
        else:
            bound = None
            meaning = (f"grid-tensor rank with {len(chosen)} templates, fewer than the "
                       f"{default_template_count(spec)} that make the grid exact: a certified lower bound only")
            notes.append("grid smaller than exact size; the value is a lower bound only")
        certainty = Certainty(True, bound, meaning)
    return SepResult(rank, method, field.name, spec, seed, part_a, certainty, blocks, notes,
                     time.perf_counter() - start)
