"""Eq. 47 of the first supplement (B.3, Hardy-Littlewood-Polya Thm 368) and its equality clause, exhaustively on
small non-negative integer tuples: sum_i a_i a_sigma(i) <= sum_i a_i^2, 'with equality obtained only for sigma which
upholds sigma(i) = j <=> a_i = a_j'."""

from itertools import permutations, product

from verify.authoring import Cases, Claim, neighbour

from ._common import MAIN, Source

CASES = [(n, top) for n in (1, 2, 3, 4) for top in (1, 2)]


def _clause(kind):
    """kind 'iff': equality exactly when (sigma(i) = j iff a_i = a_j) for all i, j (as printed);
    'implies': equality exactly when sigma(i) = j implies a_i = a_j (sigma permutes within equal values);
    'strict': the inequality is always strict for sigma != identity (equality clause dropped)."""
    def per_case(n, top):
        for a in product(range(top + 1), repeat=n):
            diagonal = sum(x * x for x in a)
            for sigma in permutations(range(n)):
                cross = sum(a[i] * a[sigma[i]] for i in range(n))
                if cross > diagonal:
                    return False, f"a={a} sigma={sigma}: {cross} > {diagonal}", {"a": list(a), "sigma": list(sigma)}
                if kind == "iff":
                    clause = all((sigma[i] == j) == (a[i] == a[j]) for i in range(n) for j in range(n))
                elif kind == "implies":
                    clause = all(a[i] == a[sigma[i]] for i in range(n))
                else:
                    clause = list(sigma) == list(range(n))
                if (cross == diagonal) != clause:
                    return False, f"a={a} sigma={sigma}: equality {cross == diagonal}, clause {clause}", \
                        {"a": list(a), "sigma": list(sigma), "equality": cross == diagonal}
        return True, f"n={n}, entries 0..{top}: every tuple and permutation"
    return per_case


CLAIM = Claim(
    id="levine2020_supp1_eq47_equality_clause",
    source=Source(MAIN, "supplement B.3", "eq. 47 in the proof of Lemma 6, with its equality clause"),
    statement="For non-negative a_1..a_N and sigma in S_N: sum_i a_i a_sigma(i) <= sum_i a_i^2, with equality only for "
              "sigma with sigma(i) = j <=> a_i = a_j.",
    domain="N = 1..4, every tuple with entries 0..2 and every permutation, exact integers",
    reading="The equality clause is read as printed, a biconditional (sigma(i) = j exactly when a_i = a_j; a printed "
            "<=> is read as printed, issue 20 rule 4), which no permutation meets once two entries are equal (not "
            "even the identity, which gives equality).  'sigma(i) = j implies a_i = a_j' (sigma permutes within "
            "equal values), the theorem's condition, is the correction.  Lemma 6 itself uses only the vector form "
            "(claim levine2020_supp1_lemma6_rearrangement).",
    checks=[Cases(CASES, _clause("iff"), name="equality clause as printed (iff)")],
    expected="erratum",
    corrected_statement="Equality holds exactly when a_sigma(i) = a_i for every i (sigma permutes within equal "
                        "values); the printed biconditional fails already at a = (0, 0), sigma = identity.",
    corrected_checks=[Cases(CASES, _clause("implies"), name="equality iff sigma permutes within equal values",
                            perturb={"strict for every sigma != identity (clause dropped)":
                                     neighbour(_clause, factory=True, claim="implies", kind="strict")})],
)
