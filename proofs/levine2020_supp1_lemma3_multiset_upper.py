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
    passage="levine2020_lemma3_multiset_upper",
    reading="The display alone.  Claims levine2020_supp1_lemma3_steps and wies2021_lemma3_proof_steps state it as the "
            "last step of the proof's chain and are verified, but only through the chain's equality step (the +1 "
            "neighbour of the definition ((n over k)) = binom(n+k-1, n-1)); no inequality step of theirs refutes a "
            "strengthening either, so the display itself stays not-decided.  Claim "
            "levine2020_revised_lower_bound_steps reprints the display (the revised supplement's proof of Lemma 4) "
            "among other steps; its verdict is about those steps (issue 39).",
    checks=[InequalityChain(STEPS, ["<="], grid={n: list(range(1, 41)), k: list(range(0, 81))},
                            search=300, search_ranges={n: (1, 500), k: (0, 5000)})],
)
