"""Appendix A.1: the number of compositions of k into n non-negative parts is the multiset coefficient
((n over k)) = binom(n + k - 1, k), counted by enumeration."""

from itertools import product
from math import comb

from verify.authoring import Claim, Property, shifted

from ._common import WIES, Source


def _count(n: int, k: int) -> int:
    return sum(1 for a in product(range(k + 1), repeat=n) if sum(a) == k)


def _check(shift: int = 0):
    """The count equals binom(n + k - 1 + shift, k); shift = 0 is the statement."""
    cases = [(n, k) for n in range(1, 7) for k in range(0, 9)]
    for n, k in cases:
        counted, formula = _count(n, k), comb(n + k - 1 + shift, k)
        if counted != formula:
            return False, f"n={n} k={k}: {counted} compositions, formula {formula}", {"n": n, "k": k}
    return True, (f"enumerated compositions equal binom(n+k-1, k) for n = 1..6, k = 0..8 ({len(cases)} cases, k = 0 "
                  "included)"), None


CLAIM = Claim(
    id="wies2021_multiset_identity",
    source=Source(WIES, "appendix A.1", "preliminaries: |{a in Z>=0^n : sum a = k}| = ((n over k))"),
    statement="|{a_1, ..., a_n >= 0 : a_1 + ... + a_n = k}| = ((n over k)) = binom(n + k - 1, k).",
    domain="n = 1..6, k = 0..8, by enumeration",
    checks=[Property(_check, name="enumeration against binom(n+k-1, k)",
                     perturb={"count = binom(n + k, k) (off by one)": shifted(_check, shift=1)})],
)
