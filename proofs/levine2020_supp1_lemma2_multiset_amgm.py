"""Lemma 2 (first supplement): AM-GM for products of multiset coefficients, checked exactly."""

import random
from fractions import Fraction
from itertools import product
from math import comb, factorial

from verify.authoring import Claim, Property, strict

from ._common import MAIN, Source


def _holds(n, rs, strict=False):
    k, m = len(rs), sum(rs)
    lhs = 1
    for r in rs:
        lhs *= comb(n + r - 1, r)
    rhs = Fraction(1)
    for t in range(1, n):
        rhs *= Fraction(m, k) + t
    bound = rhs**k / factorial(n - 1) ** k
    return Fraction(lhs) < bound if strict else Fraction(lhs) <= bound


def _search(strict=False):
    cases = [(n, rs) for n in range(1, 7) for k in range(1, 4) for rs in product(range(7), repeat=k)]
    rng = random.Random(0)
    cases += [(rng.randint(1, 20), [rng.randint(0, 40) for _ in range(rng.randint(1, 6))]) for _ in range(2000)]
    for n, rs in cases:
        if not _holds(n, list(rs), strict):
            return False, f"fails at n={n}, r={list(rs)}", {"n": n, "r": list(rs)}
    return True, f"holds exactly (rational arithmetic) in {len(cases)} cases, exhaustive for n<=6, k<=3, r_j<=6", None


CLAIM = Claim(
    id="levine2020_supp1_lemma2_multiset_amgm",
    source=Source(MAIN, "supplement A.4", "Lemma 2"),
    statement="prod_j ((n over r_j)) <= (prod_{t=1}^{n-1} (M/k + t))^k / ((n-1)!)^k with M = sum_j r_j.",
    checks=[Property(_search, name="exact check, exhaustive small cases and 2000 random",
                     perturb={"the inequality strict": strict(_search, strict=True)})],
)
