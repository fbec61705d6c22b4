"""The proof of Claim 2 of the revised supplement, step by step: the count of r x r minors and the criterion
'f = sum_i f_i^2 vanishes at theta iff rank A(theta) < r', which the proof applies at a point of F^K, F = R or C."""

import random
from functools import lru_cache
from itertools import combinations, product
from math import comb

import sympy as sp

from verify.authoring import Cases, Claim, shifted

from ._common import REVISED, Source

#: (rows, cols, r) smallest first.
SHAPES = [(m, c, r) for m in range(1, 4) for c in range(1, 4) if m * c <= 6 for r in range(1, min(m, c) + 1)]


def _minors(a, r):
    return [a.extract(list(rows), list(cols)).det() for rows in combinations(range(a.rows), r)
            for cols in combinations(range(a.cols), r)]


def _count(m, c, r, extra=0):
    got = len(_minors(sp.zeros(m, c), r))
    return got == comb(m, r) * comb(c, r) + extra, f"{m}x{c}, r={r}: {got} minors"


def _entries(complex_entries):
    return (0, 1, -1, sp.I, -sp.I) if complex_entries else (0, 1, -1, 2)


@lru_cache(maxsize=None)
def _criterion(m, c, r, complex_entries=False, modulus=False, shift=0):
    """f(theta) = sum_i f_i(theta)^2 (or sum_i |f_i(theta)|^2) is 0 exactly when rank A(theta) < r, over every matrix
    with entries in {0, +-1, +-i} (complex) or {0, +-1, 2} (real); at most 120 matrices per shape, seeded."""
    values = _entries(complex_entries)
    cells = m * c
    if len(values) ** cells <= 120:
        grids = list(product(values, repeat=cells))
    else:
        rng = random.Random(f"claim2:{m}:{c}:{r}:{complex_entries}")
        grids = [tuple(rng.choice(values) for _ in range(cells)) for _ in range(120)]
    for grid in grids:
        a = sp.Matrix(m, c, list(grid))
        minors = _minors(a, r)
        f = sp.expand(sum((x * sp.conjugate(x)) if modulus else x**2 for x in minors))
        if (f == 0) != (a.rank() < r + shift):
            return False, f"{m}x{c}, r={r}: A = {a.tolist()} has rank {a.rank()} but f = {f}", \
                {"A": str(a.tolist()), "r": r, "rank": int(a.rank()), "f": str(f)}
    return True, f"{m}x{c}, r={r}: criterion holds on {len(grids)} matrices"


CLAIM = Claim(
    id="levine2020_revised_claim2_minors",
    source=Source(REVISED, "B.1.3", "proof of Claim 2 (minors and f = sum of their squares)"),
    statement="A has c = binom(M, r) binom(N, r) minors of order r; f(theta) = sum_i f_i(theta)^2 = 0 iff "
              "rank A(theta) < r, used at a point theta in F^K with F = R or C.",
    domain="shapes with at most 6 entries, every r; entries in {0, +-1, 2} (real) or {0, +-1, +-i} (complex), "
           "exhaustive up to 120 matrices per shape, else 120 seeded ones",
    reading="The criterion is needed at the point theta in F^K where rank A(theta) >= r is assumed; the "
            "lower-bound proof uses F = C (weights with the imaginary unit).",
    checks=[Cases(SHAPES, _count, name="number of minors",
                  perturb={"count + 1": shifted(_count, extra=1)}),
            Cases(SHAPES, _criterion, name="criterion over the reals"),
            Cases(SHAPES, lambda m, c, r: _criterion(m, c, r, complex_entries=True),
                  name="criterion over the complex numbers")],
    expected="erratum",
    corrected_statement="Over C, sum_i f_i(theta)^2 can vanish at full rank (A = [1, i], r = 1: 1 + i^2 = 0), so the "
                        "proof's step fails for F = C; the claim itself stands with sum_i |f_i(theta)|^2, or directly: "
                        "a minor with f_i(theta) != 0 is not the zero polynomial, and a non-zero real polynomial "
                        "vanishes on a null set of R^K.",
    corrected_checks=[Cases(SHAPES, _criterion, name="criterion over the reals"),
                      Cases(SHAPES, lambda m, c, r: _criterion(m, c, r, complex_entries=True, modulus=True),
                            name="sum |f_i|^2 criterion over the complex numbers",
                            perturb={"the index shifted: sum |f_i|^2 = 0 iff rank A < r + 1":
                                     shifted(_criterion, given=dict(complex_entries=True, modulus=True), shift=1)})],
)
