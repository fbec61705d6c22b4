"""The exact polynomial y_p^i in the N*d_x input coordinates, and its monomial counts.

Sources: ``levine2020_limits_to_depth_efficiencies.md`` §4.2 (y_p^i has degree 3^L; eq. 4 and
the supplement's eq. 11 give its form), ``docs/mathematics.md`` §1 (y^i = F(S) x^i, F homogeneous
of degree C(L) = (3^L - 1)/2 in S without residual connections).
"""

from __future__ import annotations

from math import comb
from typing import TYPE_CHECKING, Any

from ..exact.fields import Field
from .network import output_coordinate
from .spec import NetworkSpec, Weights

if TYPE_CHECKING:
    import flint

__all__ = ["output_polynomial", "variable_index", "expected_monomial_count", "monomial_report"]


def variable_index(spec: NetworkSpec, position: int, coordinate: int) -> int:
    """Index of the generator x^{position}_{coordinate} among the N*d_x inputs (position-major)."""
    return position * spec.width + coordinate


def output_polynomial(spec: NetworkSpec, weights: Weights, field: Field) -> flint.fmpz_mpoly | flint.nmod_mpoly:
    """y_p^i as an mpoly over Z (field ``qq``) or GF(p), in generators x0..x{N d_x - 1}.

    Generator ``variable_index(spec, j, a)`` is coordinate a of input position j.

    Notes
    -----
    Runs the literal forward pass of eq. 3 on symbolic inputs (``network.output_coordinate``);
    it does not use the reduced identity, so it is an independent route to the polynomial.
    """
    if spec.tokens is None:
        raise ValueError("output_polynomial needs spec.tokens")
    ctx = field.poly_context(("x", spec.tokens * spec.width))
    gens = ctx.gens()
    inputs = [[gens[variable_index(spec, j, a)] for a in range(spec.width)] for j in range(spec.tokens)]
    return output_coordinate(spec, weights, inputs)


def _times(a: list[int], b: list[int], degree: int) -> list[int]:
    """Product of two power series truncated after t^degree."""
    out = [0] * (degree + 1)
    for i, x in enumerate(a):
        if x:
            for j, y in enumerate(b[: degree + 1 - i]):
                out[i + j] += x * y
    return out


def expected_monomial_count(spec: NetworkSpec) -> int:
    """Number of monomials a generic network's y_p^i has (closed form).

    y_p^i = e_p^T F(S) x^i with S = sum_j x^j x^j^T: every monomial is a product of c entries
    of S (each of degree 2 in a single position) and one coordinate of x^i.  So position i
    appears to an odd degree, every other position to an even degree, and the total degree is
    2c + 1.  Without residual connections F is homogeneous and c = C(L); with them F has every
    degree 0 <= c <= C(L), and its constant term is exactly I (each factor is I + T_l with
    T_l(0) = 0), so the degree-1 part of y_p^i is the single monomial x^i_p.

    The count of degree 2c + 1 is the coefficient of t^c in O(t) E(t)^{N-1}, with
    E(t) = sum_k binom(2k + d - 1, d - 1) t^k (monomials of degree 2k in d variables) and
    O(t) = sum_k binom(2k + d, d - 1) t^k (degree 2k + 1).

    Examples
    --------
    Depth 1, width 1, two positions: x0^3 and x0 x1^2.

    >>> expected_monomial_count(NetworkSpec(depth=1, width=1, tokens=2))
    2
    >>> expected_monomial_count(NetworkSpec(depth=1, width=1, tokens=2, residual=True))
    3
    """
    c_max, d = spec.layer_degree, spec.width
    even = [comb(2 * k + d - 1, d - 1) for k in range(c_max + 1)]
    series = [comb(2 * k + d, d - 1) for k in range(c_max + 1)]
    for _ in range(spec.tokens - 1):
        series = _times(series, even, c_max)
    if spec.residual:
        return 1 + sum(series[1:])
    return series[c_max]


def monomial_report(spec: NetworkSpec, weights: Weights, field: Field) -> dict[Any, Any]:
    """Degree, monomial count and the closed-form count of y_p^i (issue: ``verify monomials``)."""
    poly = output_polynomial(spec, weights, field)
    return {
        "count": len(poly),
        "expected_count": expected_monomial_count(spec),
        "degree": int(poly.total_degree()),
        "expected_degree": spec.degree,
    }
