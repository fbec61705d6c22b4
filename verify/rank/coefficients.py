"""Separation rank by the coefficient matricisation (``docs/mathematics.md`` §2, route 1).

Write f = sum c_{a,b} m_a(x_A) m_b(x_B); then sep(f; A, B) = rank [c_{a,b}]: "<=" is the
decomposition itself, ">=" because the monomials m_a (m_b) are linearly independent functions.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from ..exact.fields import Field
from ..model.polynomial import expected_monomial_count, output_polynomial, variable_index
from ..model.spec import NetworkSpec, Weights
from .blocks import BlockRank, rank_by_blocks
from .memory import guard

if TYPE_CHECKING:
    from collections.abc import Callable

    import flint

__all__ = ["coefficient_entries", "coefficient_rank", "estimate_coefficient_bytes"]


def estimate_coefficient_bytes(spec: NetworkSpec, field: Field) -> int:
    """Bytes the coefficient route needs: the generic monomial count times the cost per term.

    Per term: FLINT's packed exponents and coefficient, the Python exponent tuples, their numpy
    copy and the sorting copies of ``np.unique``, and over Q a coefficient of about
    (weight bits) * (weight degree) bits.
    """
    terms = expected_monomial_count(spec)
    nvars = spec.tokens * spec.width
    # measured peak: 1.5 KB/term at 24 variables (depth 2, width 3, N = 8), 20 GB for 11.4 M terms
    # at 40 variables: Python exponent tuples, their numpy copy and np.unique's sorting copies
    per_term = 40 * nvars + 500
    if field.modulus is None:
        per_term += 4 * spec.weight_degree * 4 + 3 * 8 * spec.width
    return terms * per_term


def coefficient_entries(poly: flint.fmpz_mpoly | flint.nmod_mpoly, spec: NetworkSpec,
                        part_a: tuple[int, ...]) -> tuple[np.ndarray, np.ndarray, list[int]]:
    """The coefficient matrix of ``poly`` w.r.t. (A, B) as sparse entries.

    Returns
    -------
    rows, cols : numpy int64 arrays, the index of the A-monomial and B-monomial of each term
    values : list of int, the coefficients
    """
    exps = np.array(poly.monoms(), dtype=np.int64).reshape(len(poly), spec.tokens * spec.width)
    a_vars = [variable_index(spec, j, k) for j in part_a for k in range(spec.width)]
    b_vars = [v for v in range(exps.shape[1]) if v not in set(a_vars)]
    _, rows = np.unique(exps[:, a_vars], axis=0, return_inverse=True)
    _, cols = np.unique(exps[:, b_vars], axis=0, return_inverse=True)
    values = [int(c) for c in poly.coeffs()]
    return rows.ravel().astype(np.int64), cols.ravel().astype(np.int64), values


def coefficient_rank(spec: NetworkSpec, weights: Weights, field: Field, part_a: tuple[int, ...],
                     max_memory_gib: float, progress: Callable[[int, int], object] | None = None,
                     poly: flint.fmpz_mpoly | flint.nmod_mpoly | None = None) -> BlockRank:
    """Exact rank over ``field`` of the coefficient matrix of y_p^i for the partition (A, B).

    Notes
    -----
    Builds y_p^i by the literal forward pass (``polynomial.output_polynomial``), matricises it,
    and ranks the connected blocks of its pattern.  Cost: dominated by the polynomial, whose
    size is ``expected_monomial_count(spec)`` terms for generic weights.
    """
    guard(estimate_coefficient_bytes(spec, field), max_memory_gib,
          f"the coefficient route for depth {spec.depth}, width {spec.width}, {spec.tokens} tokens "
          f"({expected_monomial_count(spec):,} monomials)",
          "use --method reduced or fewer --tokens")
    if poly is None:
        poly = output_polynomial(spec, weights, field)
    rows, cols, values = coefficient_entries(poly, spec, part_a)
    return rank_by_blocks(field, rows, cols, values, progress, max_memory_gib)
