"""Author response, lines 11-12: 'the symmetry of n - 1 and k in the definition of ((n over k))'."""

from functools import lru_cache
from math import comb

from hypothesis import strategies as st

from verify.authoring import Cases, Claim, shifted

from ._common import RESPONSE, Source

CASES = [(n_, k_) for n_ in range(1, 13) for k_ in range(0, 13)]


@lru_cache(maxsize=None)
def multiset(n_: int, k_: int) -> int:
    """((n over k)): the number of size-k multisets from n kinds, counted by listing exponent vectors."""
    if n_ == 1:
        return 1
    return sum(multiset(n_ - 1, k_ - j) for j in range(k_ + 1))


def _case(n_, k_, shift=0):
    """((n over k)) = ((k + 1 over n - 1)), with the binomial form C(n + k - 1, k) as a second route."""
    left, right = multiset(n_, k_), multiset(k_ + 1 + shift, n_ - 1)
    holds = left == right == comb(n_ + k_ - 1, k_)
    return holds, f"(({n_} over {k_}))={left}, (({k_ + 1 + shift} over {n_ - 1}))={right}", \
        None if holds else {"n": n_, "k": k_, "left": left, "right": right}


CLAIM = Claim(
    id="levine2020_response_multiset_symmetry",
    source=Source(RESPONSE, "lines 11-12", "symmetry of n - 1 and k in the multiset coefficient"),
    statement="((n over k)) = ((k + 1 over n - 1)) (n - 1 and k play symmetric roles).",
    domain="n = 1..12, k = 0..12 (n = 1 and k = 0 included), and 50 pairs up to 40 from a derandomised "
           "hypothesis search",
    reading="Multisets counted by a recursion over the multiplicity of one kind (independent of the binomial "
            "formula), compared with each other and with C(n + k - 1, k).",
    checks=[Cases(CASES, _case, name="both sides, every (n, k)",
                  strategy=st.tuples(st.integers(1, 40), st.integers(0, 40)), search=50,
                  perturb={"((n over k)) = ((k + 2 over n - 1))": shifted(_case, shift=1)})],
)
