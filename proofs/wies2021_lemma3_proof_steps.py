"""Appendix A.1, proof of Lemma 3, step by step: binom(n, k) <= (en/k)^k, and
((n over k)) = binom(n+k-1, n-1) <= (e(n+k-1)/(n-1))^(n-1) <= (2e(n+k)/n)^n."""

import sympy as sp

from verify.authoring import Claim, InequalityChain

from ._common import WIES, Source, k, multichoose, n

E = sp.E
#: The textbook inequality the proof cites, for 1 <= k <= n (tight at k = 1 up to the factor e).
CITED = [sp.binomial(n, k), (E * n / k) ** k]
#: The proof's chain; the middle step applies CITED to binom(n+k-1, n-1) (needs n >= 2).
STEPS = [multichoose(n, k), sp.binomial(n + k - 1, n - 1), (E * (n + k - 1) / (n - 1)) ** (n - 1),
         (2 * E * (n + k) / n) ** n]

CLAIM = Claim(
    id="wies2021_lemma3_proof_steps",
    source=Source(WIES, "appendix A.1", "proof of Lemma 3"),
    statement="binom(n, k) <= (en/k)^k (1 <= k <= n), hence ((n over k)) = binom(n+k-1, n-1) <= "
              "(e(n+k-1)/(n-1))^(n-1) <= (2e(n+k)/n)^n for n >= 2.",
    formulas={f"step{i}": s for i, s in enumerate(STEPS)},
    domain="cited inequality: 1 <= k <= n <= 30; chain: n = 2..16, k = 0..40 (k = 0 included); 40 searched points each "
           "up to n = 300-400",
    passage="levine2020_lemma3_multiset_upper",
    reading="One display with claim levine2020_supp1_lemma3_multiset_upper (the same passage, not-decided): that claim "
            "decides the display ((n over k)) <= (2e(n+k)/n)^n alone, which refutes no strengthening; this one decides "
            "the proof's chain, verified only through the +1 neighbour of the definition ((n over k)) = binom(n+k-1, "
            "n-1) (an equality step), so its verdict is about the steps, not the display; claim "
            "levine2020_revised_lower_bound_steps reprints the display among other steps (issue 39).  "
            "The printed proof goes from binom(n+k-1, n-1) straight to (2e(n+k)/n)^n; the intermediate "
            "(e(n+k-1)/(n-1))^(n-1) is the cited inequality applied to binom(n+k-1, n-1).  n = 1 (binom(k, 0) = 1) "
            "is Lemma 3 itself, checked by levine2020_supp1_lemma3_multiset_upper.",
    checks=[InequalityChain(CITED, ["<="], grid={n: list(range(1, 31)), k: list(range(1, 31))},
                            condition=lambda p: p[k] <= p[n], search=40, search_ranges={n: (1, 400), k: (1, 400)},
                            name="binom(n, k) <= (en/k)^k"),
            InequalityChain(STEPS, ["=", "<=", "<="], grid={n: list(range(2, 17)), k: list(range(0, 41))},
                            search=40, search_ranges={n: (2, 300), k: (0, 3000)}, name="Lemma 3's chain")],
)
