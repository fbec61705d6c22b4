"""Appendix B.2 (sentence before Lemma 4): log ((floor((r-H)/2) over 3^(L-2))) = Omega~(L (min{r, d_x} - H)),
through the bound Lemma 4's proof gives, with n = floor((r-H)/2) for both parities of r - H; and footnote 3's
parity condition for Corollary 2's d = (r-1-H)/2."""

import sympy as sp

from verify.authoring import Claim, InequalityChain, Property, shifted

from ._common import WIES, H, L, Source, log3, multichoose, r

NN = sp.floor((r - H) / 2)
KK = 3 ** (L - 2)
#: From the small end: (n-1)(L-2-log3(n-1)) <= (n-1) log3((n+k-1)/(n-1)) <= log3 ((n over k)), n >= 2, L >= 2.
STEPS = [(NN - 1) * (L - 2 - log3(NN - 1)), (NN - 1) * log3((NN + KK - 1) / (NN - 1)), log3(multichoose(NN, KK))]


def _parity(loss: int = 1):
    """Footnote 3: d = (r-1-H)/2 is a natural number iff r - H is odd; otherwise floor(d) = (r-H)/2 - loss
    with loss = 1, so Corollary 2's d is Corollary 1's floor((r-H)/2) or one less."""
    for rank in range(2, 40):
        for heads in range(1, rank):
            odd = (rank - heads) % 2 == 1
            natural = (rank - 1 - heads) % 2 == 0 and rank - 1 - heads >= 0
            if natural != odd:
                return False, f"r={rank} H={heads}: d natural {natural}, r - H odd {odd}", {"r": rank, "H": heads}
            floor_d, cor1 = (rank - 1 - heads) // 2, (rank - heads) // 2
            if floor_d != (cor1 if odd else cor1 - loss):
                return False, f"r={rank} H={heads}: floor(d) = {floor_d}, floor((r-H)/2) = {cor1}", {"r": rank,
                                                                                                     "H": heads}
    return True, "2 <= r < 40, 1 <= H < r: d in N iff r - H odd; floor(d) = floor((r-H)/2) (odd) or one less " \
                 "(even)", None


CLAIM = Claim(
    id="wies2021_lower_bound_growth",
    source=Source(WIES, "appendix B.2 and B.2.2", "log of Corollary 1's bound is Omega~(L (min{r,d_x} - H)) by Lemma "
                                                  "4; footnote 3"),
    statement="With n = floor((r-H)/2) >= 2 and k = 3^(L-2): log3 ((n over k)) >= (n-1) log3((n+k-1)/(n-1)) >= "
              "(n-1)(L - 2 - log3(n-1)), which is Omega~(L (r - H)) = Omega~(L (min{r, d_x} - H)) as r <= d_x; and "
              "Corollary 2's d = (r-1-H)/2 is natural iff r - H is odd.",
    formulas={f"step{i}": s for i, s in enumerate(STEPS)},
    domain="r = 3..30, H = 1..r-1 with floor((r-H)/2) >= 2 (both parities of r - H, H = r - 4 and r - 5 the smallest), "
           "L = 2..7; 40 searched points up to r = 400, L = 12",
    reading="Lemma 4 as printed is false (wies2021_lemma4_multiset_lower); the growth statement is checked through the "
            "bound its proof derives (wies2021_lemma4_proof_steps).  n = 1 gives ((1 over k)) = 1, log 0, and is "
            "outside the chain.",
    checks=[InequalityChain(STEPS, ["<=", "<="],
                            grid={r: list(range(3, 31)), H: list(range(1, 29)), L: list(range(2, 8))},
                            condition=lambda p: p[H] < p[r] and (p[r] - p[H]) // 2 >= 2, search=40,
                            search_ranges={r: (5, 400), H: (1, 50), L: (2, 12)}, name="Lemma 4's bound -> Omega~"),
            Property(_parity, name="footnote 3: parity of r - H", perturb={"floor(d) = floor((r-H)/2) also for even r "
                "- H (no loss)": shifted(_parity, loss=0)})],
)
