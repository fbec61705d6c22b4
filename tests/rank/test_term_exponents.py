"""term_exponents (the fast read of q's exponents) against FLINT's own monoms()."""

import flint
import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from verify.exact.compositions import compositions
from verify.rank.reduced import MISSING_CAP, term_exponents


@st.composite
def polynomials(draw):
    nvars = draw(st.integers(1, 4))
    degree = draw(st.integers(0, 5))
    full = [tuple(int(v) for v in row) for row in compositions(degree, nvars)]
    keep = draw(st.lists(st.booleans(), min_size=len(full), max_size=len(full)))
    terms = {m: draw(st.integers(1, 6)) for m, k in zip(full, keep, strict=False) if k}
    if draw(st.booleans()):  # a term of another degree: not homogeneous
        terms[(0,) * (nvars - 1) + (degree + 1,)] = 1
    ordering = draw(st.sampled_from(["deglex", "deglex", "lex"]))
    return nvars, flint.nmod_mpoly_ctx.get(("s", nvars), modulus=7, ordering=ordering).from_dict(terms)


@settings(max_examples=300, deadline=None)
@given(polynomials())
def test_term_exponents_equal_monoms_for_any_subset_of_the_degree_c_monomials(case):
    nvars, poly = case
    want = np.array(poly.monoms(), dtype=np.int64).reshape(len(poly), nvars)
    assert (term_exponents(poly, nvars) == want).all()


def test_term_exponents_find_missing_monomials_at_both_ends_and_beyond_the_cap():
    ctx = flint.nmod_mpoly_ctx.get(("s", 3), modulus=7, ordering="deglex")
    full = [tuple(int(v) for v in row) for row in compositions(12, 3)]  # 91 monomials
    for drop in ({0}, {len(full) - 1}, {0, 1, 2, len(full) - 1}, set(range(0, len(full), 2)),
                 set(range(MISSING_CAP + 1))):
        poly = ctx.from_dict({m: 1 for i, m in enumerate(full) if i not in drop})
        want = np.array(poly.monoms(), dtype=np.int64).reshape(len(poly), 3)
        assert (term_exponents(poly, 3) == want).all(), drop
