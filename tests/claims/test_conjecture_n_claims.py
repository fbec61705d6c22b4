"""Issue 39 item 7: the asymptotic conjecture on N is not decided by finitely many cells; what the cells prove,
N_min = the counting floor on each, is a derived claim verified by a strengthening that can fail."""

import proofs.derived_conjecture_n_counting_floor as derived
import proofs.wies2021_conjecture_n_positional as conjecture

from verify.claims.record import run_claim


def test_the_asymptotic_conjecture_is_not_decided():
    result = run_claim(conjecture.CLAIM)
    assert conjecture.CLAIM.expected == result.outcome == "not-decided"


def test_the_cells_prove_n_min_is_the_counting_floor_by_a_refutation_that_could_fail():
    result = run_claim(derived.CLAIM)
    assert result.outcome == "verified"
    refuted = [p["statement"] for r in result.checks for p in r.perturbations if p["refuted"]]
    assert refuted == ["first reached one step later (N = floor + 2)"]


def test_a_singular_minor_at_the_floor_leaves_the_derived_claim_unverified(monkeypatch):
    """The check can fail: with every sampled minor one short of the bound, neither N_min = floor nor its
    neighbour is shown, so the claim is not verified."""
    monkeypatch.setattr(derived, "sampled_minor_rank", lambda spec, w, e, tokens, k, *rest: k - 1)
    assert run_claim(derived.CLAIM).outcome != "verified"
