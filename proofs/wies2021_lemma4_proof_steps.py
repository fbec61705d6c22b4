"""Appendix B.2, proof of Lemma 4, step by step: binom(n, k) >= (n/k)^k, and
((n over k)) = binom(n+k-1, n-1) >= ((n+k-1)/(n-1))^(n-1) -- what the proof derives (the printed
statement of Lemma 4 is wies2021_lemma4_multiset_lower's erratum)."""

import sympy as sp

from verify.authoring import Claim, InequalityChain

from ._common import WIES, Source, k, multichoose, n

#: The textbook inequality the proof cites, 1 <= k <= n; equality at k = 1 and k = n.
CITED = [(n / k) ** k, sp.binomial(n, k)]
#: The proof's chain, written from the small end; needs n >= 2 (equality at n = 2).
STEPS = [((n + k - 1) / (n - 1)) ** (n - 1), sp.binomial(n + k - 1, n - 1), multichoose(n, k)]

CLAIM = Claim(
    id="wies2021_lemma4_proof_steps",
    source=Source(WIES, "appendix B.2", "proof of Lemma 4"),
    statement="binom(n, k) >= (n/k)^k (1 <= k <= n), hence ((n over k)) = binom(n+k-1, n-1) >= ((n+k-1)/(n-1))^(n-1) "
              "for n >= 2.",
    formulas={f"step{i}": s for i, s in enumerate(STEPS)},
    domain="cited inequality: 1 <= k <= n <= 30; chain: n = 2..16, k = 0..40 (k = 0 included); 40 searched points each "
           "up to n = 300-400",
    checks=[InequalityChain(CITED, ["<="], grid={n: list(range(1, 31)), k: list(range(1, 31))},
                            condition=lambda p: p[k] <= p[n], search=40, search_ranges={n: (1, 400), k: (1, 400)},
                            name="binom(n, k) >= (n/k)^k"),
            InequalityChain(STEPS, ["<=", "="], grid={n: list(range(2, 17)), k: list(range(0, 41))},
                            search=40, search_ranges={n: (2, 300), k: (0, 3000)}, name="Lemma 4's chain")],
)
