"""The steps of the revised supplement's lower-bound argument (B.1.1, B.2) and Lemma 4's proof (A.5), each
checked exactly: the matricization index map, the Hadamard-power rank bound, the binomial lower bounds
with their equality cases, the multinomial expansion of eqs. 15-16 and the row-normalisation factor."""

import random
from fractions import Fraction
from itertools import combinations, product
from math import comb, factorial, prod

import flint
import sympy as sp
from hypothesis import strategies as st

from verify.authoring import Cases, Claim, InequalityChain, converse, shifted, strict

from ._common import REVISED, Source, k, multichoose, n


def _matricization(m, tokens, shift=0):
    """Row 1 + sum_t (d_{i_t} - 1) M^(N/2 - t), column likewise: a bijection of [M]^N onto [M^(N/2)]^2 for every
    balanced partition (I, J) (``shift`` raises every power by one: the perturbed map)."""
    half = tokens // 2
    for part in combinations(range(tokens), half):
        rest = [t for t in range(tokens) if t not in part]
        seen = set()
        for d in product(range(1, m + 1), repeat=tokens):
            row = 1 + sum((d[part[t - 1]] - 1) * m ** (half - t + shift) for t in range(1, half + 1))
            col = 1 + sum((d[rest[t - 1]] - 1) * m ** (half - t + shift) for t in range(1, half + 1))
            if not (1 <= row <= m**half and 1 <= col <= m**half):
                return False, f"M={m} N={tokens} I={part}: index ({row}, {col}) outside [{m ** half}]^2"
            seen.add((row, col))
        if len(seen) != m**tokens:
            return False, f"M={m} N={tokens} I={part}: {len(seen)} of {m ** tokens} cells hit"
    return True, f"M={m} N={tokens}: bijection onto [{m ** half}]^2 for all {comb(tokens, half)} partitions"


def _hadamard_rank(r, p, drop=0):
    """rank((U W^T)^{.p}) <= ((r over p)) for U, W of r columns (random integers), reached generically."""
    rng = random.Random(f"hadamard:{r}:{p}")
    size = comb(r + p - 1, p) + 2
    u = [[rng.randint(-9, 9) for _ in range(r)] for _ in range(size)]
    w = [[rng.randint(-9, 9) for _ in range(r)] for _ in range(size)]
    mat = flint.fmpz_mat([[sum(a * b for a, b in zip(x, y, strict=False)) ** p for y in w] for x in u])
    rank, bound = mat.rank(), comb(r + p - 1, p) - drop
    return rank <= bound, f"r={r} p={p}: rank {rank}, ((r over p)) - {drop} = {bound}"


def _binomial_max(nn, kk, strict=False):
    """((n over k)) = binom(n+k-1, k) = binom(n+k-1, n-1) >= max{((n-1)/k + 1)^k, (k/(n-1) + 1)^(n-1)}, with equality
    exactly when k = 1 or n = 2 (n = 1: only the first term is defined, and equals 1)."""
    mc = comb(nn + kk - 1, kk)
    ok = mc == comb(nn + kk - 1, nn - 1) if nn >= 1 else False
    first = Fraction(nn - 1, kk) + 1
    terms = [first**kk] + ([(Fraction(kk, nn - 1) + 1) ** (nn - 1)] if nn >= 2 else [])
    top = max(terms)
    ok = ok and (mc > top if strict else mc >= top)
    equality = mc == top
    ok = ok and (equality == (kk == 1 or nn <= 2))
    return ok, f"n={nn} k={kk}: (({nn} over {kk})) = {mc} vs max {float(top):.4g}" + (" (equal)" if equality else "")


def _applied(width, heads, depth):
    """The same with n = floor((d_x - H)/2) >= 1 and k = 3^(L-2), for odd and even d_x - H."""
    nn, kk = (width - heads) // 2, 3 ** (depth - 2)
    ok, line = _binomial_max(nn, kk)
    return ok, f"d_x={width} H={heads} L={depth} (d_x - H {'odd' if (width - heads) % 2 else 'even'}): " + line


def _multinomial(d, lam, coefficient=True):
    """Eqs. 15-16: (sum_r u_r w_r)^lam = sum_{k1+..+kd=lam} lam!/(k1!..kd!) prod u_r^kr prod w_r^kr (exact)."""
    rng = random.Random(f"multinomial:{d}:{lam}")
    u = [rng.randint(-5, 5) for _ in range(d)]
    w = [rng.randint(-5, 5) for _ in range(d)]
    lhs = sum(a * b for a, b in zip(u, w, strict=False)) ** lam
    rhs = sum((factorial(lam) // prod(factorial(x) for x in ks) if coefficient else 1)
              * prod(a**x for a, x in zip(u, ks, strict=False)) * prod(b**x for b, x in zip(w, ks, strict=False))
              for ks in product(range(lam + 1), repeat=d) if sum(ks) == lam)
    return lhs == rhs, f"d={d} lambda={lam}: {lhs} {'=' if lhs == rhs else '!='} {rhs}"


def _row_factor(d, lam, omega, extra=0):
    """a^(k)_alpha = prod_r (Omega^q_r / sqrt(sum Omega^(2 q)))^k_r = (sum Omega^(2q))^(-lam/2) Omega^<q, k> for every
    composition q (a row) and k of lam (exact in sympy)."""
    comps = [c for c in product(range(lam + 1), repeat=d) if sum(c) == lam]
    w = sp.Integer(omega)
    for q in comps:
        norm = sp.sqrt(sum(w ** (2 * x) for x in q))
        for kk in comps:
            lhs = sp.Mul(*[(w**x / norm) ** y for x, y in zip(q, kk, strict=False)])
            rhs = (sum(w ** (2 * x) for x in q) ** sp.Rational(-(lam + extra), 2)
                   * w ** sum(x * y for x, y in zip(q, kk, strict=False)))
            if sp.simplify(lhs - rhs) != 0:
                return False, f"d={d} lambda={lam} Omega={omega}: q={q} k={kk} differ"
    return True, f"d={d} lambda={lam} Omega={omega}: all {len(comps)}^2 entries agree"


LEMMA4 = [multichoose(n, k), (sp.E * (n + k - 1) / (n - 1)) ** (n - 1), (2 * sp.E * (n + k) / n) ** n]

CLAIM = Claim(
    id="levine2020_revised_lower_bound_steps",
    source=Source(REVISED, "B.1.1, B.2 and A.5", "matricization, Hadamard-power rank, binomial bounds, eqs. 15-16, "
                  "the a^(k) factor, proof of Lemma 4"),
    statement="The matricization map is a bijection onto [M^(N/2)]^2; rank((A)^{.p}) <= ((r over p)) for rank-r A; "
              "((n over k)) = binom(n+k-1, n-1) >= max{((n-1)/k + 1)^k, (k/(n-1) + 1)^(n-1)}, in particular at "
              "n = (d_x - H)/2, k = 3^(L-2); (V V^T)^{.lam} expands by the multinomial identity (eqs. 15-16); "
              "a^(k)_alpha = (sum Omega^(2q))^(-lam/2) Omega^<q,k>; ((n over k)) <= (e(n+k-1)/(n-1))^(n-1) <= "
              "(2e(n+k)/n)^n (Lemma 4's proof).",
    domain="matricization M = 2, 3 and N = 2, 4 (M = 2, N = 6); Hadamard r = 1..4, p = 1..4; binomials n = 1..12, "
           "k = 1..12; applied d_x = 2..12, every H | d_x with d_x - H >= 2, L = 2..5; multinomial d = 1..4, "
           "lambda = 1..5; row factor (d, lambda) in {(2, 2), (3, 2), (2, 3)}, Omega = 2, 3; Lemma 4 n = 2..20, "
           "k = 1..20 and 40 seeded random points up to 300",
    reading="n = 1 (d_x - H = 2 or 3) leaves the second term of the max undefined (k/0); there only the first term is "
            "checked.  For odd d_x - H the quantity (d_x - H)/2 is read as floor((d_x - H)/2), as in the main text.  "
            "Its last display, ((n over k)) <= (e(n+k-1)/(n-1))^(n-1) <= (2e(n+k)/n)^n, reprints Lemma 3's (passage "
            "levine2020_lemma3_multiset_upper: claims levine2020_supp1_lemma3_multiset_upper, not-decided, "
            "levine2020_supp1_lemma3_steps and wies2021_lemma3_proof_steps); this claim's verdict comes from its other "
            "steps (matricization, Hadamard-power rank, binomial bounds refute strengthenings), and says nothing more "
            "about that display than the passage's claims do (issue 39).",
    checks=[Cases([(2, 2), (2, 4), (3, 2), (3, 4), (2, 6)], _matricization, name="matricization index map",
                  perturb={"powers M^(N/2 - t + 1)": shifted(_matricization, shift=1)}),
            Cases([(r, p) for r in range(1, 5) for p in range(1, 5)], _hadamard_rank,
                  name="Hadamard-power rank <= ((r over p))",
                  perturb={"rank <= ((r over p)) - 1": shifted(_hadamard_rank, drop=1)}),
            Cases([(a, b) for a in range(1, 13) for b in range(1, 13)], _binomial_max,
                  name="binomial lower bounds and their equality cases",
                  strategy=st.tuples(st.integers(1, 150), st.integers(1, 150)), search=40,
                  perturb={"strict inequality": strict(_binomial_max, strict=True)}),
            Cases([(w, h, depth) for w in range(2, 13) for h in range(1, w + 1) if w % h == 0 and w - h >= 2
                   for depth in range(2, 6)], _applied, name="applied at n = floor((d_x - H)/2), k = 3^(L-2)",
                  strategy=st.tuples(st.integers(1, 60), st.integers(1, 60), st.integers(2, 6)).map(
                      lambda t: (t[0] * t[1] + t[1] + 2, t[1], t[2])), search=30),
            Cases([(d, lam) for d in range(1, 5) for lam in range(1, 6)], _multinomial,
                  name="eqs. 15-16 multinomial expansion",
                  perturb={"without the multinomial coefficient": converse(_multinomial, coefficient=False)}),
            Cases([(2, 2, 2), (3, 2, 3), (2, 3, 2)], _row_factor, name="normalisation factor of a^(k)",
                  perturb={"exponent -(lambda+1)/2": shifted(_row_factor, extra=1)}),
            InequalityChain(LEMMA4, ["<=", "<="], grid={n: list(range(2, 21)), k: list(range(1, 21))}, search=40,
                            search_ranges={n: (2, 300), k: (1, 300)}, name="Lemma 4's proof, n >= 2")],
)
