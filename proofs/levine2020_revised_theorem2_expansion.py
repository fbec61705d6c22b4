"""The coordinate expansion opening the proof of Theorem 2 (revised supplement A.3): y_p^i written over
alpha_1..alpha_{C+1}, beta_1..beta_C in [d_x] with the coefficient tensor T."""

import random
from itertools import product

from verify.authoring import Cases, Claim, shifted

from ._common import REVISED, Source

#: (C, d_a, d_x, N), smallest first.
CASES = [(1, 1, 2, 2), (1, 2, 2, 2), (2, 2, 2, 2), (1, 2, 3, 3), (2, 1, 3, 2)]


def _expand(factors, d_a, width, tokens, b_index):
    """Matrix product of eq. 2 (one head) against the printed expansion, with B^(c) read at row r_{c + b_index}."""
    rng = random.Random(f"expansion:{factors}:{d_a}:{width}:{tokens}")
    mat = lambda r, c: [[rng.randint(-3, 3) for _ in range(c)] for _ in range(r)]  # noqa: E731
    a = [mat(d_a, width) for _ in range(factors + 1)]
    b = [mat(d_a, width) for _ in range(factors + 1)]
    x = [[rng.randint(-3, 3) for _ in range(width)] for _ in range(tokens)]
    for i, p in product(range(tokens), range(width)):
        row = [b[0][r][p] for r in range(d_a)]
        for c in range(1, factors + 1):
            m = [[sum(sum(a[c][r1][u] * x[j][u] for u in range(width))
                      * sum(b[c][r2][u] * x[j][u] for u in range(width))
                      for j in range(tokens)) for r2 in range(d_a)] for r1 in range(d_a)]
            row = [sum(row[s] * m[s][t] for s in range(d_a)) for t in range(d_a)]
        target = sum(row[r] * sum(a[0][r][u] * x[i][u] for u in range(width)) for r in range(d_a))
        total = 0
        for alphas in product(range(width), repeat=factors + 1):
            for betas in product(range(width), repeat=factors):
                tensor = 0  # T_{alpha, beta}: the coefficients, summed over r_1..r_{C+1}
                for rs in product(range(d_a), repeat=factors + 1):
                    term = b[0][rs[0]][p] * a[0][rs[factors]][alphas[factors]]
                    for c in range(factors):
                        term *= a[c + 1][rs[c]][alphas[c]] * b[c + 1][rs[c + b_index]][betas[c]]
                    tensor += term
                if tensor:
                    monomials = sum(
                        x[i][alphas[factors]] * _prod(x[js[c]][alphas[c]] * x[js[c]][betas[c]] for c in range(factors))
                        for js in product(range(tokens), repeat=factors))
                    total += tensor * monomials
        if total != target:
            return False, f"C={factors} d_a={d_a} d_x={width} N={tokens}: expansion {total} != eq. 2 {target} at " \
                          f"i={i} p={p}", {"C": factors, "d_a": d_a, "d_x": width, "N": tokens, "i": i, "p": p}
    return True, f"C={factors} d_a={d_a} d_x={width} N={tokens}: expansion = eq. 2 at every (i, p)"


def _prod(values):
    out = 1
    for v in values:
        out *= v
    return out


CLAIM = Claim(
    id="levine2020_revised_theorem2_expansion",
    passage="levine2020_expansion_B_index",
    also_at=("levine2020_limits_to_depth_efficiencies.md supplement, Theorem 4's expansion",),
    source=Source(REVISED, "A.3", "proof of Theorem 2, coordinate expansion and the tensor T"),
    statement="y_p^i = sum_{alpha, beta in [d_x]} T_{alpha_1..alpha_{C+1}, beta_1..beta_C} sum_{j_1..j_C} "
              "x^(i)_{alpha_{C+1}} prod_c x^(j_c)_{alpha_c} x^(j_c)_{beta_c}, with T = sum_h sum_r B^(0)_{r_1 p} "
              "A^(0)_{r_{C+1} alpha_{C+1}} prod_c A^(c)_{r_c alpha_c} B^(c)_{r_c beta_c} (as printed).",
    domain="(C, d_a, d_x, N) in (1,1,2,2), (1,2,2,2), (2,2,2,2), (1,2,3,3), (2,1,3,2); one head; random integer "
           "A^(c), B^(c) and inputs; exact integers",
    reading="The line before (and Corollary 1) pairs <A^(c)_{r_c}, x^(j_c)> with <B^(c)_{r_{c+1}}, x^(j_c)>; the "
            "expansion prints B^(c)_{r_c, beta_c}.  With d_a = 1 the two coincide, so the defect shows only for d_a >= "
            "2.",
    left_out="H >= 2: every case has one head; the printed index defect (B^(c) indexed by r_c) sits inside one "
             "head's term, so further heads repeat the same term and add no case the check could catch.",
    checks=[Cases(CASES, lambda *c: _expand(*c, 0), name="printed index B^(c)_{r_c, beta_c}")],
    expected="erratum",
    corrected_statement="With B^(c)_{r_{c+1}, beta_c} (as in Corollary 1 and the line before) the expansion equals eq. "
                        "2 exactly; the proof's counting argument uses only the form T times monomials, so its bound "
                        "is unaffected.",
    corrected_checks=[Cases(CASES, lambda *c: _expand(*c, 1), name="index B^(c)_{r_{c+1}, beta_c}",
                            perturb={"index r_c": shifted(_expand, claim=1, b_index=0)})],
)
