"""Lemma 5 and the proof of Theorem 4 of the revised supplement: the residual network is X plus terms with
j = 1..C(L) factors M, and the j-sum costs at most a factor C(L) plus one over eq. 8."""

from itertools import product
from math import comb

import flint
from hypothesis import strategies as st

from verify.authoring import Cases, Claim, shifted
from verify.authoring.network import Field, NetworkSpec, draw_weights, output_polynomial, variable_index
from verify.authoring.ranks import default_specs, exact_rank

from ._common import REVISED, Source


def _c(depth):
    return (3**depth - 1) // 2


def _lemma5_polynomial(depth, width, heads, tokens, top=0):
    """The exact residual y_p^i: every monomial is x^i times j products x^(j')_a x^(j')_b (the M factors), so it has
    degree 2j + 1 with 0 <= j <= C(L), x^i appears to an odd and every other position to an even degree; the j = 0
    part is exactly x^i_p (the X of eq. 11); and j = C(L) occurs."""
    spec = NetworkSpec(depth=depth, width=width, heads=heads, residual=True, tokens=tokens)
    poly = output_polynomial(spec, draw_weights(spec, seed=depth * 10 + width), Field(None))
    js, bad = set(), []
    linear = {}
    for exps, coeff in zip(poly.monoms(), poly.coeffs(), strict=False):
        degree = sum(exps)
        per_position = [sum(exps[variable_index(spec, j, a)] for a in range(width)) for j in range(tokens)]
        parity_ok = all((deg % 2 == 1) == (j == spec.position) for j, deg in enumerate(per_position))
        if degree % 2 == 0 or not parity_ok or (degree - 1) // 2 > _c(depth) - top:
            bad.append(exps)
        js.add((degree - 1) // 2)
        if degree == 1:
            linear[exps] = int(coeff)
    x_ip = tuple(int(v == variable_index(spec, spec.position, spec.output)) for v in range(tokens * width))
    ok = not bad and linear == {x_ip: 1} and max(js) == _c(depth) - top
    name = f"L={depth} d_x={width} H={heads} N={tokens}"
    return ok, f"{name}: {len(poly)} monomials, j in {sorted(js)}, degree-1 part " + \
        ("x^i_p" if linear == {x_ip: 1} else str(linear)) + (f", {len(bad)} monomials off the form" if bad else ""), \
        None if ok else {"spec": name, "off_form": [list(b) for b in bad[:3]]}


def _lemma5_induction(depth, top=0):
    """E, F, G in {X (j = 0), terms with j in [C(L)]}: 2^3 = 8 kinds of term; j' = j_E + j_F + j_G + 1 covers
    exactly [1, C(L+1)], C(L+1) = 3 C(L) + 1."""
    single = set(range(_c(depth) + 1))
    pairs = {a + b for a in single for b in single}
    reach = {p + g + 1 for p in pairs for g in single}
    kinds = len(list(product(("X", "Y-X"), repeat=3)))
    ok = reach == set(range(1, _c(depth + 1) + 1 - top)) and kinds == 8
    return ok, f"L={depth}->{depth + 1}: j' in [{min(reach)}, {max(reach)}], C(L+1) = {_c(depth + 1)}, {kinds} kinds"


def eq8(width, factors):
    """Eq. 8 with C replaced by the number of factors j: d_x (j+1) ((d_x over 2j)) (2j/d_x + 1)^d_x (exact)."""
    return width * (factors + 1) * comb(width + 2 * factors - 1, 2 * factors) * \
        (flint.fmpq(2 * factors, width) + 1) ** width


def _theorem4_sum(width, depth, drop=0):
    """sum_{j=1}^{C} eq8(j) + 1 <= C eq8(C) + 1 <= (C+1) eq8(C) (Theorem 4's bound); ``drop`` lowers the factor
    C+1 by that much, compared with the sum itself (not through the middle step)."""
    c = _c(depth)
    total = sum(eq8(width, j) for j in range(1, c + 1)) + 1
    monotone = all(eq8(width, j) <= eq8(width, j + 1) for j in range(1, c))
    ok = monotone and total <= c * eq8(width, c) + 1 <= (c + 1) * eq8(width, c) and total <= (c + 1 - drop) * eq8(width,
                                                                                                                  c)
    return ok, f"d_x={width} L={depth}: sum_j eq8(j) + 1 <= {c + 1 - drop} times eq8(C)" + \
        ("" if ok else " fails")


def _ranks(spec):
    """The exact residual ranks obey what the proof establishes, sum_j eq8(j) + 1 (tighter than Theorem 4)."""
    bound = sum(eq8(spec.width, j) for j in range(1, _c(spec.depth) + 1)) + 1
    rank = exact_rank(spec)
    return rank <= bound, f"L={spec.depth} d_x={spec.width} H={spec.heads}: sep {rank} <= {bound}"


CLAIM = Claim(
    id="levine2020_revised_residual_structure",
    source=Source(REVISED, "A.4-A.5", "Lemma 5 (eq. 11) and the proof of Theorem 4"),
    statement="A depth-L residual network is Y = X + sum_{j=1}^{C(L)} sum_alpha sum_h B^T M^(1)...M^(j) A X; in the "
              "induction each of the 8 terms over E, F, G in {X, Y - X} has this form with j <= 3C(L) + 1 = C(L+1); "
              "so the j-sum multiplies eq. 8 by at most C(L) and X adds at most 1: sep <= (C+1) eq. 8.",
    domain="exact residual polynomials at (L, d_x, H, N) = (1, 2, 1, 3), (1, 3, 3, 2), (2, 2, 1, 3), (2, 2, 2, 2), "
           "(3, 2, 1, 2); induction L = 1..6; sums d_x = 1..8, L = 1..3; the residual default specs",
    reading="The term with j factors M is a homogeneous polynomial of degree 2j + 1, so Theorem 2's argument bounds it "
            "by eq. 8 with C replaced by j.",
    checks=[Cases([(1, 2, 1, 3), (1, 3, 3, 2), (2, 2, 1, 3), (2, 2, 2, 2), (3, 2, 1, 2)], _lemma5_polynomial,
                  name="exact residual polynomial has the form of eq. 11",
                  perturb={"j <= C(L) - 1": shifted(_lemma5_polynomial, top=1)}),
            Cases(list(range(1, 7)), _lemma5_induction, name="the 8 terms of the induction land in j in [1, C(L+1)]",
                  perturb={"j' <= C(L+1) - 1": shifted(_lemma5_induction, top=1)}),
            Cases([(w, d) for w in range(1, 9) for d in (1, 2, 3)], _theorem4_sum,
                  name="sum over j and the X term within (C+1) times eq. 8",
                  strategy=st.tuples(st.integers(1, 40), st.integers(1, 4)), search=30,
                  perturb={"within C times eq. 8 (factor C+1 -> C)": shifted(_theorem4_sum, drop=1)}),
            Cases(default_specs(residual=True), _ranks, name="exact residual ranks within sum_j eq8(j) + 1")],
)
