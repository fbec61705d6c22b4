"""Separation rank by the grid tensor (``docs/mathematics.md`` §2, route 2; the papers' tool).

The network is evaluated at every assignment of template vectors to positions; the resulting
tensor, matricised w.r.t. (A, B), has rank <= sep (first supplement, Claim 2).  With M generic
templates per position, M at least the number of monomials of degree <= 3^L in d_x variables,
the per-position evaluation matrices have full column rank and the grid rank equals sep.
"""

from __future__ import annotations

import random
from itertools import product
from math import comb
from typing import TYPE_CHECKING

from ..defaults import DEFAULT_MAX_EVALUATIONS
from ..errors import InputError
from ..exact.fields import Field
from ..model.network import output_coordinate
from ..model.spec import DEFAULT_WEIGHT_RANGE, NetworkSpec, Weights
from .blocks import Block, rank_dense
from .memory import guard

if TYPE_CHECKING:
    from collections.abc import Callable

__all__ = ["default_template_count", "draw_templates", "grid_rank", "DEFAULT_MAX_EVALUATIONS"]


def default_template_count(spec: NetworkSpec) -> int:
    """binom(3^L + d_x, d_x): monomials of degree <= 3^L in d_x variables.

    >>> default_template_count(NetworkSpec(depth=1, width=2))
    10
    """
    return comb(spec.degree + spec.width, spec.width)


def draw_templates(spec: NetworkSpec, count: int, seed: int = 0,
                   value_range: int = DEFAULT_WEIGHT_RANGE) -> list[tuple[int, ...]]:
    """``count`` integer template vectors, entries uniform in [-value_range, value_range]."""
    rng = random.Random(f"verify-templates:{seed}")
    return [tuple(rng.randint(-value_range, value_range) for _ in range(spec.width)) for _ in range(count)]


def grid_rank(spec: NetworkSpec, weights: Weights, field: Field, part_a: tuple[int, ...],
              templates: list[tuple[int, ...]], max_memory_gib: float,
              max_evaluations: int = DEFAULT_MAX_EVALUATIONS, progress: Callable[[int, int],
              object] | None = None) -> Block:
    """Rank over ``field`` of the grid matrix M[(t_j)_{j in A}, (t_j)_{j in B}] = y_p^i(t).

    Notes
    -----
    M^N network evaluations (M templates, N positions), each a forward pass with field scalars.
    """
    m, n = len(templates), spec.tokens
    part_b = tuple(j for j in range(n) if j not in part_a)
    evaluations = m**n
    if evaluations > max_evaluations:
        raise InputError(f"the grid needs {evaluations:,} network evaluations ({m} templates per position, "
                         f"{n} positions), over the limit of {max_evaluations:,}; use --method coefficients, "
                         f"fewer --templates or --tokens, or raise --max-evaluations")
    guard(evaluations * (8 if field.modulus else 16 * (spec.weight_degree + spec.degree)),
          max_memory_gib, f"the {m**len(part_a):,} x {m**len(part_b):,} grid matrix", "use fewer --templates")
    scalars = [[field.scalar(v) for v in t] for t in templates]
    rows = list(product(range(m), repeat=len(part_a)))
    cols = list(product(range(m), repeat=len(part_b)))
    matrix = []
    for r, row_choice in enumerate(rows):
        line = []
        inputs = [None] * n
        for j, t in zip(part_a, row_choice, strict=False):
            inputs[j] = scalars[t]
        for col_choice in cols:
            for j, t in zip(part_b, col_choice, strict=False):
                inputs[j] = scalars[t]
            line.append(int(output_coordinate(spec, weights, inputs)))
        matrix.append(line)
        if progress is not None:
            progress(r + 1, len(rows))
    return rank_dense(field, matrix, len(rows), len(cols))
