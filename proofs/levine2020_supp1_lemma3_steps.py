"""The proof of Lemma 3 (first supplement A.4) step by step: ((n over k)) = binom(n+k-1, n-1), the
quoted inequality binom(N, K) <= (eN/K)^K, and the chain through it to (2e(n+k)/n)^n."""

import sympy as sp

from verify.authoring import Claim, InequalityChain

from ._common import MAIN, Source, k, multichoose, n

E = sp.E
#: n >= 2: the quoted inequality applies with K = n - 1 >= 1.
CHAIN = [multichoose(n, k), sp.binomial(n + k - 1, n - 1), (E * (n + k - 1) / (n - 1)) ** (n - 1),
         (2 * E * (n + k) / n) ** n]
#: n = 1, the edge: ((1 over k)) = binom(k, 0) = 1 and the quoted inequality is not needed.
EDGE = [multichoose(n, k), sp.binomial(n + k - 1, n - 1), (2 * E * (n + k) / n) ** n]
QUOTED = [sp.binomial(n, k), (E * n / k) ** k]

CLAIM = Claim(
    id="levine2020_supp1_lemma3_steps",
    source=Source(MAIN, "supplement A.4", "proof of Lemma 3"),
    statement="binom(n, k) <= (en/k)^k for 1 <= k <= n; ((n over k)) = binom(n + k - 1, n - 1) "
              "<= (e(n+k-1)/(n-1))^(n-1) <= (2e(n + k)/n)^n.",
    formulas={f"step{i}": s for i, s in enumerate(CHAIN)},
    domain="chain: n = 2..12, k = 0..20, and n = 1 with k = 0..30; quoted inequality: 1 <= k <= n <= 15; plus 40 "
           "seeded points each up to n = 500, k = 5000 (2000 for the quoted inequality)",
    passage="levine2020_lemma3_multiset_upper",
    reading="One display with claim levine2020_supp1_lemma3_multiset_upper (the same passage, not-decided): that claim "
            "decides the display ((n over k)) <= (2e(n+k)/n)^n alone, which refutes no strengthening; this one decides "
            "the proof's chain, verified only through the +1 neighbour of the definition ((n over k)) = binom(n+k-1, "
            "n-1) (an equality step), so its verdict is about the steps, not the display; claim "
            "levine2020_revised_lower_bound_steps reprints the display among other steps (issue 39).  "
            "The proof names only the quoted inequality; the intermediate term applies it with N = n + k - 1, "
            "K = n - 1, which needs n >= 2; n = 1 is checked without it.",
    checks=[InequalityChain(QUOTED, ["<="], grid={n: list(range(1, 16)), k: list(range(1, 16))},
                            condition=lambda p: p[k] <= p[n], search=40,
                            search_ranges={n: (1, 2000), k: (1, 2000)}, name="binom(n, k) <= (en/k)^k"),
            InequalityChain(CHAIN, ["=", "<=", "<="], grid={n: list(range(2, 13)), k: list(range(0, 21))},
                            search=40, search_ranges={n: (2, 500), k: (0, 5000)}, name="chain, n >= 2"),
            InequalityChain(EDGE, ["=", "<="], grid={n: [1], k: list(range(0, 31))}, search=0,
                            name="chain at n = 1")],
)
