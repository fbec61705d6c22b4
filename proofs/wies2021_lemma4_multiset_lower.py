import sympy as sp

from verify.authoring import Claim, InequalityChain

from ._common import WIES, Source, k, multichoose, n

PRINTED = [(2 * sp.E * (n + k) / n) ** n, multichoose(n, k)]
CORRECTED = [((n + k - 1) / (n - 1)) ** (n - 1), multichoose(n, k)]
GRID = {n: list(range(1, 21)), k: list(range(1, 41))}

CLAIM = Claim(
    id="wies2021_lemma4_multiset_lower",
    source=Source(WIES, "appendix B.2", "Lemma 4"),
    statement="((n over k)) >= (2e(n + k)/n)^n.",
    formulas={"printed_lower": PRINTED[0], "corrected_lower": CORRECTED[0]},
    checks=[InequalityChain(PRINTED, ["<="], grid=GRID, search=40, search_ranges={n: (1, 300), k: (1, 3000)})],
    expected="erratum",
    corrected_statement="((n over k)) >= ((n + k - 1)/(n - 1))^(n - 1) for n >= 2, the bound the lemma's own proof "
                        "derives; the printed right-hand side is Lemma 3's upper bound with the inequality reversed.",
    corrected_checks=[InequalityChain(CORRECTED, ["<="], grid=GRID, condition=lambda p: p[n] >= 2, search=40,
                                      search_ranges={n: (2, 300), k: (1, 3000)})],
)
