"""Claim runs leave flint's arb precision as they found it (issue 23, point 5): the checks scope it
with ``verify.exact.arbexpr.precision``, and so do the registry's helpers."""

import flint

import verify
from verify.exact.arbexpr import precision

#: Quick claims that reach every arb path: QuotedNumber (256 bits), InequalityChain (64 bits, then
#: compare's escalation), and arb helpers of the claim files themselves.
ARB_CLAIMS = ["levine2020_lth_1000", "levine2020_corollary1_example_widths", "levine2020_response_transition_point",
              "levine2020_corollary1_growth"]


def test_a_claim_run_leaves_the_precision_unchanged():
    for start in (flint.ctx.prec, 90):
        with precision(start):
            results = verify.run_claims(ARB_CLAIMS)
            assert flint.ctx.prec == start
    assert all(r.as_expected for r in results)


def test_the_registry_helpers_scope_their_precision():
    from seprank_proofs._conjecture_n import even_at_least  # log3 r irrational: decided at 200 bits

    with precision(70):
        assert even_at_least(1, 7, 3) == 2 * (int(7 * 3 * 1.0986122886681098 / 1.9459101090932196 / 2) + 1)
        assert flint.ctx.prec == 70
