"""Eqs. 17-19 of the first supplement (B.2): the multinomial expansion of (V V^T)^{.lambda}, its factorisation
through the vectors a^(k), the normalisation factor of the Omega rows, and the diagonal-scaling remark,
in exact integers (rows left unnormalised where a square root would enter, squared where it is checked)."""

from fractions import Fraction
from math import comb, factorial, prod

import flint

from verify.authoring import Cases, Claim, neighbour
from verify.authoring.constructions import omega_rows
from verify.authoring.network import compositions

from ._common import MAIN, Source

#: (d, lambda, Omega): d = 1 and lambda = 1 are the edges.
CASES = [(1, 1, 2), (1, 3, 2), (2, 1, 2), (2, 2, 3), (2, 3, 2), (3, 2, 2), (3, 3, 3), (4, 2, 2)]


def _multinomial(lam, ks):
    return factorial(lam) // prod(factorial(k) for k in ks)


def _case(d, lam, omega, coefficient=_multinomial):
    comps = [tuple(c) for c in compositions(lam, d).tolist()]
    rows = omega_rows(d, lam, omega)
    size = comb(d + lam - 1, lam)
    gram = [[sum(a * b for a, b in zip(x, y, strict=False)) ** lam for y in rows] for x in rows]  # eq. 18
    # a^(k)_alpha, unnormalised
    a = [[prod(v**k for v, k in zip(row, ks, strict=False)) for ks in comps] for row in rows]
    expansion = [[sum(coefficient(lam, ks) * a[i][c] * a[j][c] for c, ks in enumerate(comps)) for j in range(size)]
                 for i in range(size)]  # eq. 19 / eq. 17
    if gram != expansion:
        return False, f"d={d} lambda={lam}: eq. 19 differs from (V V^T)^(.lambda)", {"d": d, "lambda": lam}
    # a^(k) = Omega^<q,k>; normalised rows v/||v||: (prod_r v_r^k_r)^2 = (sum Omega^2q)^(-lambda) Omega^(2<q,k>)
    for i, q in enumerate(comps):
        norm2 = sum(omega ** (2 * e) for e in q)
        for c, ks in enumerate(comps):
            if a[i][c] != omega ** sum(x * y for x, y in zip(q, ks, strict=False)):
                return False, f"a^(k) != Omega^<q,k> at q={q}, k={ks}", {"q": list(q), "k": list(ks)}
            normalised_sq = prod(Fraction(omega ** (2 * x), norm2) ** y for x, y in zip(q, ks, strict=False))
            if normalised_sq != Fraction(omega ** (2 * sum(x * y for x, y in zip(q, ks, strict=False))), norm2**lam):
                return False, f"normalisation factor at q={q}, k={ks}", {"q": list(q), "k": list(ks)}
    rank_a = flint.fmpz_mat(a).rank()
    scaled = flint.fmpz_mat([[gram[i][j] * (i + 2) * (j + 2) for j in range(size)] for i in range(size)]).rank()
    ok = rank_a == size == flint.fmpz_mat(gram).rank() == scaled
    return ok, f"d={d} lambda={lam} Omega={omega}: eq. 19 exact, {size} x {size} A of rank {rank_a}, D G D rank " \
               f"{scaled}", \
        None if ok else {"d": d, "lambda": lam, "rank_A": rank_a}


CLAIM = Claim(
    id="levine2020_supp1_eq19_multinomial",
    source=Source(MAIN, "supplement B.2", "eqs. 17-19, the rows v^(alpha) = Omega^q / sqrt(sum Omega^2q), a^(k) and "
                                          "the normalisation remark"),
    statement="((V V^T)^{.lambda})_{ab} = sum_{k_1+..+k_d = lambda} multinomial(lambda; k) prod_r (v^a_r)^k_r prod_r "
              "(v^b_r)^k_r = sum_k a^(k) (x) b^(k); for the Omega rows a^(k)_alpha = (sum_r' "
              "Omega^(2q_r'))^(-lambda/2) Omega^<q,k>, and the row normalisation (a non-singular diagonal) does not "
              "change the rank ((d over lambda)).",
    domain="d = 1..4, lambda = 1..3, Omega = 2, 3, exact integers and rationals (normalisation checked squared)",
    reading="The multinomial weight is carried by one side (b^(k) = multinomial(lambda; k) a^(k)); the rank of A and "
            "of the Gram Hadamard power is ((d over lambda)) at these Omega (claim levine2020_supp1_omega_matrix "
            "covers every Omega but the roots of det A).",
    checks=[Cases(CASES, _case, name="eqs. 17-19 exactly",
                  perturb={"multinomial coefficients dropped (all 1)": neighbour(_case, coefficient=lambda l, k: 1)})],
)
