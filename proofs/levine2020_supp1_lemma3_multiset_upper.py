import sympy as sp

from verify.authoring import Claim, InequalityChain

from ._common import MAIN, Source, k, multichoose, n

STEPS = [multichoose(n, k), (2 * sp.E * (n + k) / n) ** n]

CLAIM = Claim(
    id="levine2020_supp1_lemma3_multiset_upper",
    source=Source(MAIN, "supplement A.4", "Lemma 3"),
    statement="((n over k)) <= (2e(n + k)/n)^n.",
    formulas={"lhs": STEPS[0], "rhs": STEPS[1]},
    expected="not-decided",  # rule 1 (issue 20): no strengthening refuted on the specs in reach
    checks=[InequalityChain(STEPS, ["<="], grid={n: list(range(1, 41)), k: list(range(0, 81))},
                            search=300, search_ranges={n: (1, 500), k: (0, 5000)})],
)
