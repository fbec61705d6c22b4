"""Lemma 1's matrices built explicitly (first supplement A.1) and the index pattern of the expansions
of Corollary 3 and Theorem 4 (A.3), evaluated in exact integers against the engine's forward pass.

Lemma 1's induction gives, for L = 2 and heads (h; h1, h2, h3), B^(0)T = W^{O,h} W^{V,h} W^{O,h1},
M^(1) = W^{V,h1} X X^T W^{K,h1}T, M^(2) = W^{Q,h1} X X^T W^{Q,h2}T, M^(3) = W^{K,h2} X X^T W^{V,h2}T G with
G = W^{O,h2}T W^{K,h}T W^{Q,h} W^{O,h3}, M^(4) = W^{V,h3} X X^T W^{K,h3}T, A^(0) = W^{Q,h3}: C(2) = 4 M's.
Corollary 3 indexes factor c by <A^(c)_{r_c}, x><B^(c)_{r_{c+1}}, x> (the chain's matrix product); the proof
of Theorem 4 prints B^(c)_{r_c, beta_c}, which makes every M^(c) diagonal in r.
"""

import random
from itertools import product

from verify.authoring import Cases, Claim, neighbour
from verify.authoring.network import NetworkSpec, draw_weights, output_coordinate

from ._common import MAIN, Source

#: (L, d_x, H): d_a = 1 first (H = d_x: one r value, both index patterns agree), then d_a = 2, 3.
CASES = [(1, 2, 2), (1, 2, 1), (1, 3, 1), (2, 2, 2), (2, 2, 1), (2, 4, 2)]


def _mat(a, b):
    return [[sum(x * y for x, y in zip(row, col, strict=False)) for col in zip(*b, strict=False)] for row in a]


def _t(a):
    return [list(r) for r in zip(*a, strict=False)]


def chains(weights, depth):
    """Lemma 1's terms: (b0 row of B^(0)T as a d_x x d_a matrix, [(A^(c), B^(c)T-side matrix) ...], A^(0))."""
    if depth == 1:
        layer = weights.layers[0]
        return [(o, [(v, k)], q) for q, k, v, o in zip(layer.query, layer.key, layer.value, layer.output, strict=False)]
    if depth != 2:
        raise ValueError("built for L <= 2")
    first, second = weights.layers
    heads = list(zip(first.query, first.key, first.value, first.output, strict=False))
    out = []
    for q, k, v, o in zip(second.query, second.key, second.value, second.output, strict=False):
        for (q1, k1, v1, o1), (q2, k2, v2, o2), (q3, k3, v3, o3) in product(heads, repeat=3):
            g = _mat(_mat(_mat(_t(o2), _t(k)), q), o3)  # d_a x d_a, absorbed into M^(3)'s B
            out.append((_mat(_mat(o, v), o1), [(v1, k1), (q1, q2), (k2, _mat(_t(g), v2)), (v3, k3)], q3))
    return out


def evaluate(terms, inputs, position, output, pattern):
    """y_p^i from Lemma 1's terms: ``pattern`` "chain" (B^(c) by r_{c+1}, Corollary 3) or "printed" (B^(c) by r_c)."""
    x = _t(inputs)
    gram = _mat(x, _t(x))
    xi = [[c] for c in inputs[position]]
    total = 0
    for b0t, ms, a0 in terms:
        mats = [_mat(_mat(a, gram), _t(b)) for a, b in ms]  # M = A X X^T B^T
        a0x = [r[0] for r in _mat(a0, xi)]
        row = b0t[output]
        if pattern == "chain":
            vec = [row]
            for m in mats:
                vec = _mat(vec, m)
            total += sum(p * q for p, q in zip(vec[0], a0x, strict=False))
        else:
            value = sum(row[r] * mats[0][r][r] for r in range(len(row)))
            for m in mats[1:]:
                value *= sum(m[r][r] for r in range(len(m)))
            total += value * sum(a0x)
    return total


def _case(pattern):
    def per_case(depth, width, heads):
        spec = NetworkSpec(depth=depth, width=width, heads=heads, tokens=3)
        w = draw_weights(spec, 0)
        rng = random.Random(f"thm4-expansion:{depth}:{width}:{heads}")
        inputs = [[rng.randint(-3, 3) for _ in range(width)] for _ in range(3)]
        terms = chains(w, depth)
        y = output_coordinate(spec, w, inputs)
        got = evaluate(terms, inputs, 0, 0, pattern)
        ok = got == y and len(terms) == heads ** ((3**depth - 1) // 2)
        same = "equals" if got == y else "differs from"
        return ok, f"L={depth} d_x={width} H={heads}: {len(terms)} terms, the expansion {same} y_p^i", \
            None if ok else {"L": depth, "d_x": width, "H": heads, "y": str(y), "expansion": str(got)}
    return per_case


CLAIM = Claim(
    id="levine2020_supp1_theorem4_expansion",
    source=Source(MAIN, "supplement A.3", "proof of Theorem 4, first display and the coefficients T (with Lemma 1 "
                                          "and Corollary 3's g^L, A.1)"),
    statement="y_p^i = sum_{alpha, beta} sum_j sum_h sum_r B^(0,h)_{r_1 p} A^(0,h)_{r_{C+1} alpha_{C+1}} "
              "x^i_{alpha_{C+1}} prod_c A^(c,h)_{r_c alpha_c} x^{j_c}_{alpha_c} B^(c,h)_{r_c beta_c} x^{j_c}_{beta_c}, "
              "as printed (B^(c) indexed by r_c).",
    domain="L = 1 and 2 (C = 1, 4), d_x = 2..4, H = 1..d_x, N = 3, seed-0 integer weights, random integer inputs",
    reading="The matrices A^(c,h), B^(c,h) are Lemma 1's, built by its induction (module docstring); the printed "
            "subscript alpha_{C(L)}+1 of A^(0,h) is read alpha_{C(L)+1}.  The subscript r_c of B^(c,h) is read as "
            "printed (twice, in the expansion and in T; a printed index is read as printed, issue 20 rule 4): false "
            "whenever d_a >= 2.  Reading it r_{c+1}, as Corollary 3's g^L that the display expands, is the "
            "correction.  The same display is the revised supplement's Theorem 2 expansion "
            "(levine2020_revised_theorem2_expansion): one passage, one label.",
    passage="levine2020_expansion_B_index",
    also_at=("levine2020_supplement_revised.txt B.1, Theorem 2's expansion",),
    checks=[Cases(CASES, _case("printed"), name="Theorem 4's expansion as printed")],
    expected="erratum",
    corrected_statement="With B^(c,h)_{r_{c+1}, beta_c} (Corollary 3's g^L, the matrix chain of eq. 10) the expansion "
                        "equals y_p^i, and Lemma 1's explicit matrices give eq. 10 with H^C(L) terms at L = 1, 2; as "
                        "printed it holds only when d_a = 1 (smallest failure: L = 1, d_x = 2, H = 1).  The count of "
                        "monomials that Theorem 4 needs does not depend on the r pattern, so its bound stands.",
    corrected_checks=[Cases(CASES, _case("chain"), name="Corollary 3's pattern B^(c)_{r_{c+1}}: Lemma 1's chain",
                            perturb={"B^(c) indexed by r_c (as printed)":
                                     neighbour(_case, factory=True, claim="chain", pattern="printed")})],
)
