"""Claim 3 of the first supplement (B.1.3) and its proof: the minors, f = sum_i f_i^2, real and complex points."""

import random
from itertools import combinations
from math import comb

import sympy as sp

from verify.authoring import Cases, Claim, Property, neighbour

from ._common import MAIN, Source

T1, T2 = sp.symbols("theta1 theta2")
#: Polynomial matrices over K = 2 variables (entries with real coefficients) and r.
MATRICES = [
    (sp.Matrix([[T1, T2]]), 1),
    (sp.Matrix([[T1, T2], [T2, -T1]]), 2),
    (sp.Matrix([[T1, 1, T2], [T2, T1, 0]]), 2),
    (sp.Matrix([[T1**2, T1 * T2], [T1 * T2, T2**2], [T1, T2]]), 2),
]


def _minors(a, r):
    return [a.extract(list(rows), list(cols)).det() for rows in combinations(range(a.rows), r)
            for cols in combinations(range(a.cols), r)]


def _count():
    for m in range(1, 5):
        for n in range(1, 5):
            for r in range(1, min(m, n) + 1):
                found = len(_minors(sp.ones(m, n), r))
                if found != comb(m, r) * comb(n, r):
                    return False, f"{m} x {n}, r = {r}: {found} minors", {"M": m, "N": n, "r": r}
    return True, "c = binom(M, r) binom(N, r) minors for every M, N <= 4, 1 <= r <= min(M, N)", None


def _iff(points):
    """f(theta) = 0 iff rank A(theta) < r, at the given points (pairs of sympy numbers)."""
    def per_case(index):
        a, r = MATRICES[index]
        f = sp.expand(sum(g**2 for g in _minors(a, r)))
        for p in points(index):
            at = a.subs({T1: p[0], T2: p[1]})
            zero = sp.simplify(f.subs({T1: p[0], T2: p[1]})) == 0
            if zero != (at.rank(simplify=True) < r):
                return False, f"A_{index} at theta = {p}: f = 0 is {zero}, rank {at.rank()} (r = {r})", \
                    {"matrix": str(a.tolist()), "theta": [str(x) for x in p], "r": r, "rank": at.rank()}
        return True, f"A_{index}: f = 0 iff rank < {r} at every point tried"
    return per_case


def _real_points(index):
    rng = random.Random(index)
    return [(0, 0), (1, 0), (0, 1)] + [(sp.Rational(rng.randint(-9, 9), rng.randint(1, 5)),
                                        sp.Rational(rng.randint(-9, 9), rng.randint(1, 5))) for _ in range(20)]


def _complex_points(index):
    return [(1, sp.I), (sp.I, 1), (1 + sp.I, 1 - sp.I), (2, 3)]


def _nonzero_f():
    """Claim 3's conclusion by the corrected route: a minor non-zero at some complex theta is a non-zero
    polynomial with real coefficients, so f = sum f_i^2 is a non-zero real polynomial."""
    for index, (a, r) in enumerate(MATRICES):
        f = sp.Poly(sp.expand(sum(g**2 for g in _minors(a, r))), T1, T2)
        full = [p for p in _complex_points(index) if a.subs({T1: p[0], T2: p[1]}).rank(simplify=True) >= r]
        if full and f.is_zero:
            return False, f"A_{index}: f is the zero polynomial", {"matrix": index}
    return True, "f is a non-zero real polynomial for every matrix with a complex point of rank >= r", None


CLAIM = Claim(
    id="levine2020_supp1_claim3_minors",
    source=Source(MAIN, "supplement B.1.3", "proof of Claim 3: c = binom(M,r) binom(N,r) minors, f = sum_i f_i^2, "
                                            "'f(theta) = 0 iff rank A(theta) < r', theta in F^K with F = R or C"),
    statement="A has c = binom(M, r) binom(N, r) minors of size r; f(theta) = sum_i f_i(theta)^2 = 0 iff rank A(theta) "
              "< r, for theta in F^K, F = R or C (the point of Claim 3 may be complex).",
    domain="minor counts for M, N <= 4; four 1x2 .. 3x2 polynomial matrices in K = 2 variables at 23 rational and 4 "
           "complex points",
    reading="Claim 3 allows the witness point theta in C^K; the proof's 'f(theta) = 0 iff rank < r' is read for that "
            "theta as well.",
    checks=[Property(_count, name="number of minors",
                     perturb={"binom(M, r)^2 minors": neighbour(lambda: (all(len(_minors(sp.ones(m, n), 1)) == m * m
                                                                     for m in range(1, 4) for n in range(1, 4)),
                                                                 "", None))}),
            Cases(list(range(len(MATRICES))), _iff(_complex_points), name="f = 0 iff rank < r at complex points")],
    expected="erratum",
    corrected_statement="f(theta) = 0 iff rank A(theta) < r holds for real theta only: at theta = (1, i), A = [theta1, "
                        "theta2] (r = 1) has rank 1 but f = theta1^2 + theta2^2 = 0.  Claim 3 still holds: a minor "
                        "that is non-zero at the complex witness is a non-zero polynomial with real coefficients, so f "
                        "is a non-zero real polynomial and its real zero set has measure zero.",
    corrected_checks=[Cases(list(range(len(MATRICES))), _iff(_real_points), name="f = 0 iff rank < r at real points",
                            perturb={"f = 0 iff rank < r at complex points":
                                     neighbour(_iff, factory=True, claim=_real_points, points=_complex_points)}),
                      Property(_nonzero_f, name="f is a non-zero real polynomial")],
)
