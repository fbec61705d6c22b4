"""Numerical grid-tensor rank of a floating-point network (NUMERIC, never certified).

The grid matrix is the one of the papers' grid-tensor argument (first supplement, Claim 2):
rows are the assignments of M template vectors to the positions in A, columns those to the
positions in B, entries y_p^i.  Its numerical rank is read off the singular values at their
largest gap: r maximising sigma_r / sigma_{r+1}, every sigma clipped from below at the rounding
floor n * eps * sigma_1, which also stands in for sigma_{n+1} (so a matrix whose every singular value stands well above
rounding is reported as full rank).  The gap, in decades, is reported beside the rank: a gap of one decade
is a weak claim, ten decades a strong one.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from itertools import product
from math import comb
from typing import Any

import numpy as np

from ..defaults import DEFAULT_TEMPLATES
from ..errors import InputError
from ..model.bert import draw_real_weights, forward, forward_mp
from ..model.spec import NetworkSpec
from .memory import guard

__all__ = ["check_grid", "NumericRank", "numerical_rank", "grid_matrix", "real_grid_rank", "DEFAULT_TEMPLATES"]


@dataclass
class NumericRank:
    """A numerical rank with the singular-value gap that decides it (labelled numeric)."""

    rank: int
    gap_decades: float
    sigma_at_cut: float
    sigma_after_cut: float
    floor: float
    size: tuple[Any, ...]
    extra: dict[Any, Any] = field(default_factory=dict)

    def as_dict(self) -> dict[Any, Any]:
        return {"rank": self.rank, "gap_decades": round(self.gap_decades, 3),
                "sigma_at_cut": self.sigma_at_cut, "sigma_after_cut": self.sigma_after_cut,
                "floor": self.floor, "size": list(self.size), "certainty": "numeric (float64 SVD)",
                **self.extra}


def numerical_rank(matrix: np.ndarray) -> NumericRank:
    """Rank at the largest gap of the singular values, with the rounding floor as sigma_{n+1}.

    >>> numerical_rank(np.outer([1.0, 2.0, 3.0], [1.0, 1.0])).rank
    1
    """
    sigma = np.linalg.svd(np.asarray(matrix, dtype=np.float64), compute_uv=False)
    n = len(sigma)
    if n == 0 or sigma[0] == 0:
        return NumericRank(0, float("inf"), 0.0, 0.0, 0.0, matrix.shape)
    floor = max(matrix.shape) * np.finfo(np.float64).eps * sigma[0]
    padded = np.maximum(np.append(sigma, floor), floor)  # below the rounding floor is indistinguishable
    ratios = np.log10(padded[:-1]) - np.log10(padded[1:])
    cut = int(np.argmax(ratios))
    return NumericRank(cut + 1, float(ratios[cut]), float(padded[cut]), float(padded[cut + 1]), float(floor),
                       matrix.shape)


def _templates(width: int, count: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng([seed, width, count, 11])
    return rng.standard_normal((count, width))


def grid_matrix(run: Callable[[np.ndarray], np.ndarray], templates: np.ndarray, tokens: int, part_a: tuple[int, ...],
                position: int = 0, output: int = 0, max_memory_gib: float = 16.0) -> np.ndarray:
    """M[(t_j)_{j in A}, (t_j)_{j in B}] = y_output^position, with ``run`` a batched forward pass."""
    count, width = templates.shape
    part_b = tuple(j for j in range(tokens) if j not in part_a)
    total = count**tokens
    guard(total * tokens * width * 8 * 12, max_memory_gib, f"the grid of {total:,} sequences",
          "use fewer templates or tokens")
    choices = np.array(list(product(range(count), repeat=tokens)), dtype=np.int64).reshape(total, tokens)
    order = list(part_a) + list(part_b)
    x = np.empty((total, tokens, width))
    for column, j in enumerate(order):
        x[:, j, :] = templates[choices[:, column]]
    values = run(x)[:, position, output]
    return values.reshape(count ** len(part_a), count ** len(part_b))


def check_grid(templates: int, tokens: int) -> None:
    """Refuse a real-network grid that has no balanced partition or no templates."""
    if tokens < 2 or tokens % 2:
        raise InputError(f"--real-tokens must be even and >= 2 for a balanced partition, got {tokens}; use e.g. 4")
    if templates < 1:
        raise InputError(f"--templates must be >= 1, got {templates}")


def real_grid_rank(spec: NetworkSpec, seed: int = 0, templates: int = DEFAULT_TEMPLATES, tokens: int = 4,
                   real: bool = True, confirm: int = 8, dps: int = 40) -> NumericRank:
    """Numerical rank of the grid matrix of the seeded float64 network (real: eqs. 1-2; else eq. 3).

    ``confirm`` entries, chosen at random (seeded), are recomputed in mpmath at ``dps`` digits;
    the largest relative difference is reported as ``mp_max_rel_diff``.
    """
    check_grid(templates, tokens)
    weights = draw_real_weights(spec, seed)
    temps = _templates(spec.width, templates, seed)
    part_a = tuple(range(tokens // 2))
    matrix = grid_matrix(lambda x: forward(x, weights, real), temps, tokens, part_a,
                         spec.position, spec.output)
    found = numerical_rank(matrix)
    rng = random.Random(f"verify-confirm:{seed}")
    worst = 0.0
    half = tokens // 2
    for _ in range(confirm):
        row, col = rng.randrange(matrix.shape[0]), rng.randrange(matrix.shape[1])
        digits = np.unravel_index(row, (templates,) * half) + np.unravel_index(col, (templates,) * half)
        seq = [temps[int(t)].tolist() for t in digits]
        exact = forward_mp(seq, weights, real, dps)[spec.position][spec.output]
        scale = max(abs(float(exact)), 1e-300)
        worst = max(worst, abs(float(exact) - matrix[row, col]) / scale)
    # y^position is symmetric in the inputs at B's positions, so equal multisets give equal columns
    cap = min(templates**half, comb(templates + half - 1, half))
    found.extra = {"templates": templates, "tokens": tokens, "grid_cap": cap, "at_cap": found.rank >= cap,
                   "network": "BERT eqs. 1-2" if real else "eq. 3", "mp_dps": dps, "mp_confirmed_entries": confirm,
                   "mp_max_rel_diff": worst}
    return found
