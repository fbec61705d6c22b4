"""The Omega-matrix of the lower-bound proofs (first supplement B.2; vocabulary paper Lemma 8).

Rows of V are indexed by the compositions q of lambda into d parts, v^(q) = (Omega^q_1, ..., Omega^q_d)
(before l2 normalisation, which scales rows and cannot change rank).  The proof shows
(V V^T)^{.lambda} has full rank ((d over lambda)) by factoring it through the square matrix
A[q, k] = Omega^{<q, k>} (q, k compositions of lambda) and finding a strictly largest term of
det A (Lemma 5 with Lemma 6).  Here det A is computed exactly as a polynomial in Omega, so the
finite set of bad Omega is its set of roots.
"""

from __future__ import annotations

from typing import Any

import flint

from ..exact.compositions import compositions

__all__ = ["omega_rows", "hadamard_gram", "exponent_matrix", "determinant_polynomial", "bad_omegas"]


def omega_rows(d: int, lam: int, omega: int) -> list[list[int]]:
    """The unnormalised V: one row (omega^q_1, ..., omega^q_d) per composition q of lam into d parts."""
    return [[omega**e for e in q] for q in compositions(lam, d).tolist()]


def hadamard_gram(rows: list[list[int]], lam: int) -> flint.fmpz_mat:
    """(V V^T)^{.lam} exactly over Z."""
    return flint.fmpz_mat([[sum(a * b for a, b in zip(x, y, strict=False)) ** lam for y in rows] for x in rows])


def exponent_matrix(d: int, lam: int) -> list[list[int]]:
    """E[q, k] = <q, k>: A = Omega^E entrywise (the proof's matrix of the a^(k) vectors)."""
    comps = compositions(lam, d).tolist()
    return [[sum(a * b for a, b in zip(q, k, strict=False)) for k in comps] for q in comps]


def determinant_polynomial(d: int, lam: int) -> flint.fmpz_poly:
    """det A as an integer polynomial in Omega, by exact interpolation at deg + 1 integer points.

    deg det A <= max over permutations of sum_q <q, sigma(q)> = sum_q |q|^2 (Lemma 6), so that many
    + 1 evaluations determine it.
    """
    exps = exponent_matrix(d, lam)
    degree = sum(exps[i][i] for i in range(len(exps)))
    xs = list(range(2, degree + 3))
    values = [flint.fmpz_mat([[x**e for e in row] for row in exps]).det() for x in xs]
    return _interpolate(xs, values)


def _interpolate(xs, ys) -> flint.fmpz_poly:
    """Exact Lagrange interpolation over Q, returned as an integer polynomial (checked integral)."""
    result = flint.fmpq_poly([0])
    for i, xi in enumerate(xs):
        term = flint.fmpq_poly([1])
        denom = flint.fmpq(1)
        for j, xj in enumerate(xs):
            if j != i:
                term *= flint.fmpq_poly([-xj, 1])
                denom *= xi - xj
        result += term * (flint.fmpq(ys[i]) / denom)
    coeffs = [c for c in result.coeffs()]
    if any(c.q != 1 for c in coeffs):
        raise ArithmeticError("determinant interpolation is not integral")
    return flint.fmpz_poly([int(c.p) for c in coeffs])


def bad_omegas(d: int, lam: int) -> dict[Any, Any]:
    """The Omega for which (V V^T)^{.lam} loses rank: the real roots of det A, exactly.

    Returns the degree of det A, its leading coefficient, the integer roots, and the real roots
    as certified balls (strings); every real Omega outside them gives full rank ((d over lam)).
    """
    poly = determinant_polynomial(d, lam)
    integer_roots = sorted({int(-f.coeffs()[0]) for f, _ in poly.factor()[1]
                            if f.degree() == 1 and f.coeffs()[1] == 1})
    real = [root.real.str(10) for root, _ in poly.complex_roots() if root.imag.is_zero()]
    return {"degree": poly.degree(), "leading": int(poly.coeffs()[-1]), "integer_roots": integer_roots,
            "real_roots": real}
