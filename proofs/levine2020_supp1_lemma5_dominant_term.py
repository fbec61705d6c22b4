"""Lemma 5 of the first supplement (B.3): a strictly dominant permutation term makes det A a non-zero
polynomial of that degree, so A has full rank for all x but finitely many; exact in integer polynomials."""

import random
from itertools import permutations

import flint

from verify.authoring import Cases, Claim, converse

from ._common import MAIN, Source

CASES = [(n, seed) for n in (1, 2, 3, 4) for seed in range(6)]


def _matrix(n, seed, strict=True):
    """Entries of degree D_ij = random with a unique maximal permutation (the identity, by adding n to the
    diagonal when ``strict``) or with every entry of one degree (all permutations tie) when not."""
    rng = random.Random(f"lemma5:{n}:{seed}")
    degree = [[rng.randint(0, 3) + (n if strict and i == j else 0) for j in range(n)] for i in range(n)]
    if not strict:
        degree = [[1] * n for _ in range(n)]
    entries = [[flint.fmpz_poly([rng.randint(-3, 3) for _ in range(d)] + [rng.choice([1, 2, -1])]) for d in row]
               for row in degree]
    if not strict:
        entries = [[flint.fmpz_poly([0, 1])] * n for _ in range(n)]  # x in every entry: det = 0 for n >= 2
    return degree, entries


def _det(entries):
    n = len(entries)
    total = flint.fmpz_poly([0])
    for sigma in permutations(range(n)):
        sign = 1
        for i in range(n):
            for j in range(i + 1, n):
                if sigma[i] > sigma[j]:
                    sign = -sign
        term = flint.fmpz_poly([sign])
        for i in range(n):
            term *= entries[i][sigma[i]]
        total += term
    return total


def _case(n, seed, strict=True):
    degree, entries = _matrix(n, seed, strict)
    sums = sorted((sum(degree[i][s[i]] for i in range(n)), s) for s in permutations(range(n)))
    top, sigma = sums[-1]
    det = _det(entries)
    dominant = len(sums) == 1 or sums[-2][0] < top
    if not dominant:  # the hypothesis fails: Lemma 5 says nothing, the perturbed statement claims det != 0
        return (not det.is_zero()) if not strict else True, (f"n={n}: no dominant term, det "
                                                             f"{'0' if det.is_zero() else det.degree()}")
    ok = (not det.is_zero()) and det.degree() == top
    roots = len([r for r, _ in det.complex_roots()]) if det.degree() > 0 else 0
    return ok, f"n={n} seed={seed}: dominant degree {top}, det of degree {det.degree()}, {roots} roots " \
               f"(the finite set)", \
        None if ok else {"n": n, "seed": seed, "degree": top}


CLAIM = Claim(
    id="levine2020_supp1_lemma5_dominant_term",
    source=Source(MAIN, "supplement B.3", "Lemma 5 (from Levine et al. 2018a) and its proof"),
    statement="If deg p_sigma-bar > deg p_sigma for every sigma != sigma-bar (p_sigma = prod_i A_{i sigma(i)}(x)), "
              "then det A is a non-zero polynomial (of degree deg p_sigma-bar), so A has full rank for all x but a "
              "finite set.",
    domain="n = 1..4, six random integer polynomial matrices each with a unique maximal-degree permutation",
    checks=[Cases(CASES, _case, name="det of degree deg p_sigma-bar, non-zero",
                  perturb={"without a strictly dominant term det A is still non-zero": converse(_case, strict=False)})],
)
