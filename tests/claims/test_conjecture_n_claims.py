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


def test_the_derived_claim_covers_every_positional_bound_cell_up_to_bound_1000():
    # issue 49: every (r, L, H, R) of the atlas's positional bound cells whose bound
    # binom(3^(L-2) + d - 1, d - 1), d = floor((r - 1 - H)/2), is at most 1,000: all but the three L = 5 cells
    # with bound 4,060 or 31,465, each at R = 1 and 2
    from itertools import product
    from math import comb

    left_out = {(10, 5, 1), (12, 5, 2), (12, 5, 1)}
    assert all(comb(3 ** (depth - 2) + (r - 1 - h) // 2 - 1, (r - 1 - h) // 2 - 1) > 1000 for r, depth, h in left_out)
    expected = {(r, depth, h, big_r) for r, depth, h, big_r in product((8, 10, 12), (3, 4, 5), (1, 2), (1, 2))
                if (r, depth, h) not in left_out}
    assert len(expected) == 30 and set(derived.CELLS) == expected
