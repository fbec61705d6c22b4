"""Appendix A.2, after Theorem 3: Theorem 1's upper bound follows from eq. 9 by Lemma 3 with r_e = 1.
The derivation is not printed; its steps are written out and each is checked."""

import sympy as sp

from verify.authoring import Claim, InequalityChain

from ._common import WIES, L, Source, log3, multichoose, r

E = sp.E
T = 3**L
R = r + 1  # r + r_e with r_e = 1
STEPS = [
    # eq. 9 with r_e = 1
    log3(multichoose(R, T) * multichoose(4, T) * (T + 1) ** R),
    # Lemma 3 on ((r+1 over 3^L)) and on ((4 over 3^L))
    R * log3(2 * E * (R + T) / R) + 4 * log3(2 * E * (4 + T) / 4) + R * log3(T + 1),
    # (R + T)/R <= 2T, (4 + T)/4 <= T, T + 1 <= 2T for T = 3^L >= 3
    R * (L + log3(4 * E)) + 4 * (L + log3(2 * E)) + R * (L + log3(2)),
    (2 * r + 6) * L + (r + 1) * log3(8 * E) + 4 * log3(2 * E),
    # an explicit O(L r): (2r + 6)L + 2.82(r + 1) + 6.1 <= 20 L r for L, r >= 1
    20 * L * r,
]

CLAIM = Claim(
    id="wies2021_theorem1_from_theorem3",
    source=Source(WIES, "appendix A.2", "sentence after Theorem 3's proof: Theorem 1 by Lemma 3 with r_e = 1"),
    statement="With r_e = 1, log3 of eq. 9 <= (r+1) log3(2e(r+1+3^L)/(r+1)) + 4 log3(2e(4+3^L)/4) + (r+1) log3(3^L+1) "
              "<= (2r+6)L + (r+1) log3(8e) + 4 log3(2e) <= 20 L r, i.e. log sep = O(L r) = O(L min{r, d_x}) (r <= d_x "
              "by eq. 3).",
    formulas={f"step{i}": s for i, s in enumerate(STEPS)},
    domain="L = 1..8, r = 1..40 (r = 1 included), plus 40 searched points up to L = 12, r = 400",
    reading="The paper states only that Theorem 1 follows 'by lemma 3 with r_e = 1'.  The intermediate steps are the "
            "shortest route: Lemma 3 on both multiset coefficients, then 3^L-sized terms bounded by 3^L; the constant "
            "20 of the last step is ours, any constant shows the O(L r).",
    checks=[InequalityChain(STEPS, ["<=", "<=", "=", "<="], grid={L: list(range(1, 9)), r: list(range(1, 41))},
                            search=40, search_ranges={L: (1, 12), r: (1, 400)}, name="eq. 9 -> Theorem 1")],
)
