"""The closing display of Lemma 3's proof (revised supplement A.5): the bound is attained when k divides M."""

from fractions import Fraction
from math import comb, factorial, prod

from hypothesis import strategies as st

from verify.authoring import Cases, Claim, shifted

from ._common import REVISED, Source

#: (n, k, M/k), smallest first; n = 1 (empty products) and M = 0 included.
CASES = sorted(((nn, kk, q) for nn in range(1, 7) for kk in range(1, 5) for q in range(0, 6)),
               key=lambda c: (sum(c), c))


def _phi(nn, kk, q):
    """phi(q, ..., q) = prod_j ((n over q)) = ((n over q))^k (k equal arguments)."""
    return comb(nn + q - 1, q) ** kk


def _lines(nn, kk, q):
    """The display's three right-hand sides: prod_t f_t / ((n-1)!)^k, prod_t (q+t)^k / ((n-1)!)^k, (prod_t (q+t))^k."""
    f = [prod(q + t for _ in range(kk)) for t in range(1, nn)]
    den = factorial(nn - 1) ** kk
    return [Fraction(prod(f), den), Fraction(prod((q + t) ** kk for t in range(1, nn)), den),
            Fraction(prod(q + t for t in range(1, nn)) ** kk)]


def _printed(nn, kk, q):
    phi, lines = _phi(nn, kk, q), _lines(nn, kk, q)
    ok = all(value == phi for value in lines)
    return ok, f"n={nn} k={kk} M/k={q}: phi = {phi}, lines {[str(v) for v in lines]}", \
        None if ok else {"n": nn, "k": kk, "M/k": q, "phi": phi, "last line": str(lines[-1])}


def _corrected(nn, kk, q, extra=0):
    """phi(M/k, ..., M/k) = (prod_t (M/k + t))^k / ((n-1)!)^k: Lemma 3's bound is attained."""
    phi = _phi(nn, kk, q)
    bound = Fraction(prod(q + t for t in range(1, nn)) ** kk, factorial(nn - 1) ** kk)
    return phi == bound + extra, f"n={nn} k={kk} M/k={q}: phi = {phi}, bound = {bound}"


CLAIM = Claim(
    id="levine2020_revised_lemma3_equality_case",
    passage="levine2020_multiset_equality_case",
    also_at=("levine2020_limits_to_depth_efficiencies.md supplement, Lemma 2, closing display",),
    source=Source(REVISED, "A.5", "Lemma 3, closing display of the proof (the equality case)"),
    statement="When k divides M: phi(M/k, ..., M/k) = prod_t f_t / ((n-1)!)^k = prod_t (M/k + t)^k / ((n-1)!)^k = "
              "(prod_{t=1}^{n-1} (M/k + t))^k.",
    domain="n = 1..6, k = 1..4, M/k = 0..5, exact rationals",
    reading="f_t = prod_j (r_j + t) with every r_j = M/k.  (The proof's 'for all t in [k]' ranges over t in [n-1]; "
            "the AM-GM step holds for every t, so the range does not matter.)",
    checks=[Cases(CASES, _printed, name="the printed equalities")],
    expected="erratum",
    corrected_statement="The last equality drops the denominator: phi(M/k, ..., M/k) = (prod_{t=1}^{n-1} (M/k + t))^k "
                        "/ ((n-1)!)^k, so Lemma 3's bound is attained (as 'hence the name' intends); the printed form "
                        "is off by ((n-1)!)^k, already at n = 3, k = 1, M = 0 (1 against 2).",
    corrected_checks=[Cases(CASES, _corrected, name="the bound is attained",
                            strategy=st.tuples(st.integers(1, 15), st.integers(1, 8), st.integers(0, 30)), search=50,
                            perturb={"bound + 1": shifted(_corrected, extra=1)})],
)
