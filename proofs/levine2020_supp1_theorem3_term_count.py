"""The term count of the proof of Theorem 3 (first supplement A.2), by enumeration and exactly."""

from collections import Counter
from math import comb

from hypothesis import strategies as st

from verify.authoring import Cases, Claim, neighbour

from ._common import MAIN, C, H, Source, d_a
from ._swaps import betas, sequences

#: C(L) for L = 1, 2, 3 (1, 4, 13) and every C up to 8, so that small and real cases are both counted.
CS = sorted(set(range(1, 9)) | {1, 4, 13})


def _count(c, count=comb):
    """2^C side sequences; binom(C, b) of them have b swaps; sum over sequences of d_a^b = (d_a + 1)^C."""
    seqs = list(sequences(c))
    by_b = Counter(len(betas(s)) - 2 for s in seqs)
    printed = {b: count(c, b) for b in range(0, c + 1)}
    ok = len(seqs) == 2**c and all(by_b.get(b, 0) == printed[b] for b in printed)
    for da in range(1, 6):
        terms = sum(da ** (len(betas(s)) - 2) for s in seqs)
        ok = ok and terms == sum(comb(c, b) * da**b for b in range(c + 1)) == (da + 1) ** c
        ok = ok and all(h**c * terms == (h * (da + 1)) ** c for h in range(1, 5))
    literal = sum(comb(c + b - 1, b) for b in range(c + 1))  # 0 < beta_b <= ... <= beta_1 <= C as typeset
    line = (f"C={c}: {len(seqs)} sequences, by swaps {dict(sorted(by_b.items()))}; "
            "H^C (d_a+1)^C = (H(d_a+1))^C terms for d_a = 1..5, H = 1..4; the index set typeset with <= between betas "
            f"would count {literal}")
    return ok, line, None if ok else {"C": c, "by_swaps": dict(by_b)}


CLAIM = Claim(
    id="levine2020_supp1_theorem3_term_count",
    source=Source(MAIN, "supplement A.2", "proof of Theorem 3: side sequences, swap sets and the sum before eq. 13"),
    statement="The 2^C(L) side sequences (i in P) regroup by their b swaps, binom(C, b) sequences having b swaps; "
              "each leaves d_a^b free r indices, so sum_h sum_b sum_beta sum_r 1 = H^C sum_b binom(C, b) d_a^b "
              "= H^C (d_a + 1)^C = (H(d_a + 1))^C.",
    formulas={"closed": (H * (d_a + 1)) ** C},
    domain="C = 1..8 and C(3) = 13 enumerated (2^C sequences), d_a = 1..5, H = 1..4, exact integers; a hypothesis "
           "search of 15 C in 1..11",
    reading="The beta sums are typeset with <= between consecutive betas (beta_b <= beta_{b-1} ... <= beta_1); "
            "swap indices are distinct by their definition (beta in [C] with P_beta != P_beta+1), which is the "
            "reading checked; the typeset <= would count multisets, ((C over b)) instead of binom(C, b) "
            "(shown in the evidence).  beta_1 = C is allowed (a swap between M^(C) and the query's P).",
    checks=[Cases(CS, _count, name="side sequences, swaps and terms enumerated",
                  strategy=st.integers(1, 11), search=15,
                  perturb={"binom(C - 1, b) sequences have b swaps (beta_1 < C strictly)":
                           neighbour(_count, count=lambda m, b: comb(m - 1, b)),
                           "((C over b)) sequences have b swaps (<= between betas as typeset)":
                           neighbour(_count, count=lambda m, b: comb(m + b - 1, b))})],
)
