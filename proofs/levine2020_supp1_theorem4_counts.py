"""The counts in the proof of Theorem 4 (first supplement A.3), by enumeration in exact integers:
the multiset identity; the powers n_1 + ... + n_dx = 2C(L) of the monomials and the number
d_x ((d_x over 2C)) of chi's; the number of P/Q splits of each chi, prod_beta ((2 over n_beta)), against
the exact separation rank of chi; and Lemma 2's step prod_beta ((2 over n_beta)) <= (2C/d_x + 1)^d_x."""

from fractions import Fraction
from itertools import product
from math import comb, prod

import flint
from hypothesis import strategies as st

from verify.authoring import Cases, Claim, neighbour, shifted

from ._common import MAIN, Source

MULTISET = [(n, k) for n in range(1, 6) for k in range(0, 7)]
#: (d_x, C): C = C(1) = 1 and C(2) = 4; d_x = 1 (edge), 2, 3.
POWERS = [(1, 1), (2, 1), (3, 1), (1, 4), (2, 4), (3, 4)]
#: (d_x, C, N): chi's exact separation rank for P = first N/2 positions.
CHI = [(2, 1, 2), (2, 1, 4), (3, 1, 2), (2, 4, 2), (2, 4, 4)]


def _multiset(n, k, formula=lambda n, k: comb(n + k - 1, k)):
    count = sum(1 for a in product(range(k + 1), repeat=n) if sum(a) == k)
    return count == formula(n, k), f"n={n} k={k}: {count}"


def _powers(d_x, c, chis=lambda d, c: d * comb(d + 2 * c - 1, 2 * c)):
    """Every (alpha_1..alpha_C, beta_1..beta_C) in [d_x]^2C gives powers n with sum 2C; all compositions occur."""
    seen = set()
    for idx in product(range(d_x), repeat=2 * c):
        n = tuple(idx.count(m) for m in range(d_x))
        if sum(n) != 2 * c:
            return False, f"d_x={d_x} C={c}: powers {n} do not sum to 2C"
        seen.add(n)
    compositions = comb(d_x + 2 * c - 1, 2 * c)
    ok = len(seen) == compositions and d_x * len(seen) == chis(d_x, c)
    return ok, f"d_x={d_x} C={c}: {len(seen)} power vectors = ((d_x over 2C)), {d_x * len(seen)} chi's"


def _columns(n, width):
    """Exponent columns of one position: vectors <= n with an even sum (2 o_j) at most 2C."""
    return [v for v in product(*(range(x + 1) for x in n)) if sum(v) % 2 == 0]


def _side(n, positions):
    """Exponent matrices of one side, keyed by their row sums r (the side's share of n)."""
    out = {}
    for cols in product(_columns(n, len(n)), repeat=positions):
        r = tuple(map(sum, zip(*cols, strict=False)))
        if all(a <= b for a, b in zip(r, n, strict=False)):
            out.setdefault(r, []).append(cols)
    return out


def _chi(d_x, c, tokens, drop=0):
    """sep(chi_n) = rank of its coefficient matrix (P monomials x Q monomials) for every n; the printed count
    (C+1) prod ((2 over n_beta)); ``drop`` lowers the factor C+1 by that much."""

    def bound(c, n):
        return (c + 1 - drop) * prod(x + 1 for x in n)
    lines = []
    for n in product(range(2 * c + 1), repeat=d_x):
        if sum(n) != 2 * c:
            continue
        p_side, q_side = _side(n, tokens // 2), _side(n, tokens // 2)
        rows = [(r, m) for r, ms in p_side.items() for m in ms]
        cols = [(r, m) for r, ms in q_side.items() for m in ms]
        matrix = flint.fmpz_mat([[1 if all(a + b == x for a, b, x in zip(rp, rq, n, strict=False)) else 0
                                  for rq, _ in cols]
                                 for rp, _ in rows])
        rank = matrix.rank()
        lemma2 = prod(x + 1 for x in n) * d_x**d_x <= (2 * c + d_x) ** d_x  # prod ((2 over n)) <= (2C/d_x + 1)^d_x
        splits = prod(comb(1 + x, x) for x in n)  # ((2 over n_beta)) = n_beta + 1 splits r_P + r_Q = n_beta
        if not (rank <= bound(c, n) and lemma2 and splits == prod(x + 1 for x in n)):
            return False, f"d_x={d_x} C={c} N={tokens} n={n}: sep(chi) = {rank}, bound {bound(c, n)}", \
                {"d_x": d_x, "C": c, "N": tokens, "n": list(n), "sep_chi": rank}
        lines.append(rank)
    return True, f"d_x={d_x} C={c} N={tokens}: sep(chi) in {sorted(set(lines))} <= (C+1) prod(n+1); Lemma 2 step holds"


def _lemma2_strict(d_x, c, tokens):
    """Lemma 2's step strict: prod ((2 over n_beta)) < (2C/d_x + 1)^d_x"""
    for n in product(range(2 * c + 1), repeat=d_x):
        if sum(n) == 2 * c and not Fraction(prod(x + 1 for x in n)) < Fraction(2 * c + d_x, d_x) ** d_x:
            return False, f"equality at n={n}"
    return True, "strict everywhere"


CLAIM = Claim(
    id="levine2020_supp1_theorem4_counts",
    source=Source(MAIN, "supplement A.3", "proof of Theorem 4: multiset identity, powers n, chi's P/Q split, "
                                          "'at most d_x ((d_x over 2C)) different chi'"),
    statement="|{a in Z>=0^n: sum a = k}| = ((n over k)); the monomials group by alpha_{C+1} and powers n with sum 2C, "
              "d_x ((d_x over 2C)) chi's; sep(chi) <= (C+1) prod_beta ((2 over n_beta)) <= (C+1)(2C/d_x + 1)^d_x.",
    domain="multiset identity n = 1..5, k = 0..6 and a hypothesis search of 15 with k <= 7; powers at d_x = 1..3, C = "
           "1, 4 (L = 1, 2) by enumerating all "
           "(alpha, beta); sep(chi) exactly at d_x = 2, 3, C = 1 and d_x = 2, C = 4, N = 2, 4",
    reading="The printed product prod_beta ((2 over r_beta)) is read as ((2 over n_beta)) = n_beta + 1, the number of "
            "splits r_{beta,P} + r_{beta,Q} = n_beta (the r's are summed over).  chi's monomials have coefficient 1, "
            "so its coefficient matrix (P-side exponents x Q-side exponents) is 0/1; the factor x^i_alpha does not "
            "change its rank.",
    checks=[Cases(MULTISET, _multiset, name="multiset identity",
                  strategy=st.tuples(st.integers(1, 5), st.integers(0, 7)), search=15, perturb={"((n over k)) = "
                      "binom(n + k, k)": neighbour(_multiset, formula=lambda n, k: comb(n + k, k))}),
            Cases(POWERS, _powers, name="powers and number of chi",
                  perturb={"((d_x over 2C)) chi's (alpha_{C+1} not counted)":
                           neighbour(_powers, chis=lambda d, c: comb(d + 2 * c - 1, 2 * c))}),
            Cases(CHI, _chi, name="sep(chi) exactly and Lemma 2's step",
                  perturb={"sep(chi) <= C prod ((2 over n_beta)) (factor C+1 -> C)": shifted(_chi, drop=1)})],
)
