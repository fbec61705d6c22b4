"""The Omega-matrix of the lower-bound proof (first supplement B.2)."""

from math import comb

from verify.authoring import Cases, Claim, neighbour
from verify.authoring.constructions import bad_omegas, exponent_matrix, hadamard_gram, omega_rows

from ._common import MAIN, Source

CASES = [(1, 1), (1, 3), (2, 1), (2, 2), (2, 3), (3, 2), (3, 3), (4, 2), (2, 4), (5, 2)]  # d = 1: the edge


def _case(d, lam, omegas=(2, 3, 7)):
    size = comb(d + lam - 1, lam)
    found = bad_omegas(d, lam)
    diagonal = sum(e[i] for i, e in enumerate(exponent_matrix(d, lam)))
    ranks = {hadamard_gram(omega_rows(d, lam, omega), lam).rank() for omega in omegas}
    natural_bad = [w for w in found["integer_roots"] if w >= 0]
    holds = ranks == {size} and found["degree"] == diagonal and found["leading"] == 1 and max(natural_bad) <= 1
    return holds, (f"d={d} lambda={lam}: rank {sorted(ranks)} of (({d} over {lam}))={size}, det A of degree "
                   f"{found['degree']} (identity term {diagonal}), natural bad Omega {natural_bad}")


CLAIM = Claim(
    id="levine2020_supp1_omega_matrix",
    source=Source(MAIN, "supplement B.2", "proof of the lower bounds (V with rows Omega^q, eqs. 17-19, Lemmas 5-6)"),
    statement="For V whose rows are Omega^(q_1..q_d) over the compositions q of lambda into d parts, "
              "rank((V V^T)^{.lambda}) = ((d over lambda)) for all Omega but a finite set.",
    reading="Rows are left unnormalised: l2 normalisation scales rows and cannot change rank.  det A is "
            "computed exactly as a polynomial in Omega; its degree is the identity permutation's "
            "sum_q |q|^2 with leading coefficient 1 (Lemmas 5 and 6), and its real roots are the bad Omega.",
    checks=[Cases(CASES, _case, name="exact ranks at Omega = 2, 3, 7 and the determinant polynomial",
                  perturb={"full rank at every Omega (Omega = 1 included)": neighbour(_case, omegas=(1, 2, 3, 7))})],
)
