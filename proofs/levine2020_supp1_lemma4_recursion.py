"""The exponent recursion in the proof of Lemma 4 (first supplement B.3, eqs. 31-42), exactly.

Layer 2 gives y^(2) = N^1 ||v~||^0 sum_h <v~h, v~h> v^(h) (eq. 31: alpha_2 = 1, beta_2 = 0); eq. 35
gives alpha_3 = 4, beta_3 = 2; eqs. 37-39 give alpha_{l+1} = 3 alpha_l + 1 and beta_{l+1} =
3 beta_l + 2 (eq. 40) with closed forms alpha_l = (3^(l-1) - 1)/2, beta_l = 3^(l-2) - 1; eq. 42
absorbs the last sum_h <v~h, v~h> = ||v~||^2 (eq. 36) into ||v~||^(2 3^(L-2)).
"""

import random
from fractions import Fraction

import sympy as sp
from hypothesis import strategies as st

from verify.authoring import Cases, Claim, Property, neighbour

from ._common import MAIN, Source

DEPTHS = list(range(2, 26))


def _recursion(depth, alpha_closed=lambda l: (3 ** (l - 1) - 1) // 2, beta_closed=lambda l: 3 ** (l - 2) - 1):
    """Iterate eq. 40 from layer 2 (eq. 31) and compare with the closed forms and eq. 35's start."""
    alpha, beta = 1, 0
    for layer in range(2, depth):
        alpha, beta = 3 * alpha + 1, 3 * beta + 2
        if layer + 1 == 3 and (alpha, beta) != (4, 2):
            return False, f"layer 3 from eq. 31: alpha={alpha}, beta={beta}, eq. 35 has 4, 2"
    final = 2 * beta + 2  # eq. 41 -> 42: ||v~||^(2 beta_L) sum_h <v~h, v~h> = ||v~||^(2 beta_L + 2)
    holds = alpha == alpha_closed(depth) and beta == beta_closed(depth) and final == 2 * 3 ** (depth - 2)
    return holds, f"L={depth}: alpha={alpha}, beta={beta}, ||v~|| exponent {final}"


def _symbolic_step():
    """Eqs. 37-39: N (N^a ||v||^(2b) S)^2 N^a ||v||^(2b) S_h with S = ||v||^2 equals N^(3a+1) ||v||^(2(3b+2)) S_h."""
    nn, v, a, b, s_h = sp.symbols("N v alpha beta S_h", positive=True)
    eq37 = nn * (nn**a * v ** (2 * b) * v**2) ** 2 * nn**a * v ** (2 * b) * s_h
    eq39 = nn ** (3 * a + 1) * v ** (2 * (3 * b + 2)) * s_h
    holds = sp.simplify(sp.powsimp(eq37 / eq39, force=True)) == 1
    rng = random.Random(0)  # eq. 36: disjoint head segments make the cross terms vanish
    for _ in range(50):
        heads, d_a = rng.randint(1, 4), rng.randint(3, 7)
        vec = [Fraction(rng.randint(-5, 5), rng.randint(1, 4)) for _ in range(heads * d_a)]
        seg = [[x if h * d_a <= k < h * d_a + (d_a - 1) // 2 else 0 for k, x in enumerate(vec)] for h in range(heads)]
        total = [sum(col) for col in zip(*seg, strict=False)]
        if sum(x * x for x in total) != sum(sum(x * x for x in s) for s in seg):
            return False, f"eq. 36 fails for H={heads}, d_a={d_a}", {"H": heads, "d_a": d_a}
    return holds, "eq. 37 = eq. 39 symbolically (sympy); eq. 36 exact on 50 random vectors", None


def _step_perturbed():
    """N exponent 3 alpha (the +1 of the layer's own N dropped)"""
    nn, v, a, b = sp.symbols("N v alpha beta", positive=True)
    eq37 = nn * (nn**a * v ** (2 * b) * v**2) ** 2 * nn**a * v ** (2 * b)
    return sp.simplify(sp.powsimp(eq37 / (nn ** (3 * a) * v ** (2 * (3 * b + 2))), force=True)) == 1, "", None


CLAIM = Claim(
    id="levine2020_supp1_lemma4_recursion",
    source=Source(MAIN, "supplement B.3", "proof of Lemma 4, eqs. 36-42 (recursion eq. 40 and its closed form)"),
    statement="alpha_{l+1} = 3 alpha_l + 1, beta_{l+1} = 3 beta_l + 2 with alpha_3 = 4, beta_3 = 2 give alpha_l = "
              "(3^(l-1) - 1)/2, beta_l = 3^(l-2) - 1, and ||v~||^(2 beta_L) sum_h <v~h, v~h> = ||v~||^(2 3^(L-2)).",
    domain="L = 2..25 (L = 2 is eq. 31, the recursion's start) and a hypothesis search of 20 L up to 80, exact "
           "integers; eqs. 37-39 symbolically",
    reading="Eq. 41-42 print the exponent with a lower-case l (3^(l-2)); read as L, the last layer.  The factor c = "
            "(d_a - 1)/2 that eq. 34 drops is claim levine2020_supp1_lemma4_constant; it does not change the "
            "exponents.",
    checks=[Cases(DEPTHS, _recursion, name="recursion from eq. 31 against the closed forms",
                  strategy=st.integers(2, 80), search=20,
                  perturb={"alpha_l = (3^(l-1) + 1)/2":
                           neighbour(_recursion, alpha_closed=lambda l: (3 ** (l - 1) + 1) // 2),
                           "beta_l = 3^(l-2)": neighbour(_recursion, beta_closed=lambda l: 3 ** (l - 2))}),
            Property(_symbolic_step, name="eqs. 36-39")],
)
