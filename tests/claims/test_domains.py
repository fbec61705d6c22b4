"""Rule 2 of issue 20, "whole domains", over the registry as data (docs/claims.md, "Whole domains").

A statement's domain includes its boundary: equalities, H = d_x, L at the threshold, the smallest N,
both ends of an index range, a display's closing line.  Each claim was read against its checks and
its verdict is recorded in ``AUDITED``:

* ``covered``: its checks (case lists, grids, spec sets) reach the boundary of the stated domain.
  Large values are necessarily sampled; "covered" is about the edges, not about every value;
* ``left_out``: part of the boundary is out of reach; the claim's ``left_out`` names it and why,
  and the report lists it (``verify.report.run_report.markdown``, "Parts of a stated domain no check
  reaches"; report.json's ``left_out``);
* ``not-audited``: not read for rule 2 (a kind kept for a claim added before its audit; since the third
  round, which read the response and formerly ambiguous claims, no entry has it).

What this test guarantees: every claim of the registry has an entry (a new claim must be audited or
marked not-audited); each entry agrees with the claim (``covered`` has no ``left_out``, ``left_out``
has a non-empty one); every audited claim with a ``RankBound`` check also checks its bound at N = 2 and 4 (the reduced
route's ranks hold only from N = 2(d_x + 1) on) and says in ``left_out`` which N it still leaves out.
What it cannot guarantee: that the audit itself was right.  Whether a case list really reaches a
statement's boundary is a reading of the paper, recorded here by a person; the test keeps that
record and the claims from drifting apart, it does not redo the reading.
"""

import pytest

from verify.claims.bounds import RankBound
from verify.claims.record import load_claims

CLAIMS = {claim.id: claim for claim in load_claims()}
KINDS = ("covered", "left_out", "not-audited")

#: claim id -> its rule-2 audit (see the module docstring).
AUDITED = {
    "derived_block_size_upper_bound": "left_out",
    "derived_one_slot_lower_bound": "left_out",
    "derived_positional_bound": "covered",
    "derived_conjecture_n_counting_floor": "covered",
    "levine2020_claim1_partition_invariance": "covered",
    "levine2020_corollary1_example_regime": "covered",
    "levine2020_corollary1_example_widths": "covered",
    "levine2020_corollary1_growth": "left_out",
    "levine2020_corollary2_regimes": "covered",
    "levine2020_layer_three_copies": "covered",
    "levine2020_lth_1000": "covered",
    "levine2020_parameter_count": "covered",
    "levine2020_residual_in_output_matrix": "covered",
    "levine2020_response_corrected_chain": "covered",
    "levine2020_response_multiset_symmetry": "covered",
    "levine2020_response_n_independence": "left_out",
    "levine2020_response_residual_factor": "left_out",
    "levine2020_response_theorem1_explicit": "left_out",
    "levine2020_response_theorem1_vs_main": "left_out",
    "levine2020_response_theorem2_explicit": "left_out",
    "levine2020_response_theorem2_tightness": "covered",
    "levine2020_response_transition_point": "covered",
    "levine2020_revised_claim2_generic_rank": "covered",
    "levine2020_revised_claim2_minors": "covered",
    "levine2020_revised_lemma2_layer_bound": "left_out",
    "levine2020_revised_lemma2_term_count": "covered",
    "levine2020_revised_lemma3_equality_case": "covered",
    "levine2020_revised_lemma6_steps": "covered",
    "levine2020_revised_lower_bound_steps": "covered",
    "levine2020_revised_residual_small_n": "covered",
    "levine2020_revised_residual_structure": "covered",
    "levine2020_revised_structure_counts": "covered",
    "levine2020_revised_theorem2_chain": "covered",
    "levine2020_revised_theorem2_expansion": "left_out",
    "levine2020_revised_theorem3_derivation": "covered",
    "levine2020_revised_theorem3_residual": "left_out",
    "levine2020_revised_theorem4_residual": "left_out",
    "levine2020_revised_training_sizes": "covered",
    "levine2020_revised_training_tables": "covered",
    "levine2020_single_layer_linear": "covered",
    "levine2020_supp1_b2_multichoose_lower": "covered",
    "levine2020_supp1_b2_theorem2_step": "covered",
    "levine2020_supp1_claim2_grid_lower_bound": "covered",
    "levine2020_supp1_claim3_minors": "covered",
    "levine2020_supp1_claim4_partition_invariance": "covered",
    "levine2020_supp1_eq19_multinomial": "covered",
    "levine2020_supp1_eq47_equality_clause": "covered",
    "levine2020_supp1_eq7_identity": "covered",
    "levine2020_supp1_hadamard_rank": "covered",
    "levine2020_supp1_lemma1_composition_tree": "covered",
    "levine2020_supp1_lemma1_steps": "covered",
    "levine2020_supp1_lemma2_multiset_amgm": "covered",
    "levine2020_supp1_lemma2_steps": "covered",
    "levine2020_supp1_lemma3_multiset_upper": "covered",
    "levine2020_supp1_lemma3_steps": "covered",
    "levine2020_supp1_lemma4_constant": "covered",
    "levine2020_supp1_lemma4_construction": "covered",
    "levine2020_supp1_lemma4_recursion": "covered",
    "levine2020_supp1_lemma5_dominant_term": "covered",
    "levine2020_supp1_lemma6_rearrangement": "covered",
    "levine2020_supp1_lower_bound_certificate": "covered",
    "levine2020_supp1_lower_bound_depth3_certificate": "covered",
    "levine2020_supp1_lower_quantity_construction": "covered",
    "levine2020_supp1_matricization_index": "covered",
    "levine2020_supp1_omega_matrix": "covered",
    "levine2020_supp1_theorem3_blocks": "covered",
    "levine2020_supp1_theorem3_term_count": "covered",
    "levine2020_supp1_theorem3_upper": "left_out",
    "levine2020_supp1_theorem4_chain": "covered",
    "levine2020_supp1_theorem4_counts": "covered",
    "levine2020_supp1_theorem4_expansion": "covered",
    "levine2020_supp1_theorem4_upper": "left_out",
    "levine2020_table1_min_depth": "covered",
    "levine2020_theorem1_lower": "left_out",
    "levine2020_theorem1_lower_construction": "covered",
    "levine2020_theorem1_positivity_note": "covered",
    "levine2020_theorem1_tightness": "left_out",
    "levine2020_theorem1_upper": "left_out",
    "levine2020_theorem1_upper_from_theorem3": "covered",
    "levine2020_theorem2_correction_orders": "covered",
    "levine2020_theorem2_lower": "left_out",
    "levine2020_theorem2_lower_construction": "covered",
    "levine2020_theorem2_sketch_degree": "covered",
    "levine2020_theorem2_upper": "left_out",
    "levine2020_theorem2_upper_from_corrected_chain": "covered",
    "wies2021_bound_form": "covered",
    "wies2021_conjecture_n_main_text": "covered",
    "wies2021_conjecture_n_positional": "left_out",
    "wies2021_conv_index_maps": "covered",
    "wies2021_corollary1_construction": "left_out",
    "wies2021_corollary1_lower": "left_out",
    "wies2021_corollary1_tokens": "covered",
    "wies2021_experiment_tables": "covered",
    "wies2021_lemma1_eq8_indices": "left_out",
    "wies2021_lemma3_proof_steps": "covered",
    "wies2021_lemma4_multiset_lower": "covered",
    "wies2021_lemma4_proof_steps": "covered",
    "wies2021_lemma5_convolution_embedding": "covered",
    "wies2021_lemma5_step2": "left_out",
    "wies2021_lemma6_vocabulary_embedding": "covered",
    "wies2021_lemma7_large_n_first_layer": "covered",
    "wies2021_lemma7_segment_index": "covered",
    "wies2021_lemma8_hadamard_rank": "covered",
    "wies2021_lemma8_proof_steps": "covered",
    "wies2021_loss_stability": "covered",
    "wies2021_lower_bound_growth": "covered",
    "wies2021_matricization_index": "covered",
    "wies2021_mid_bottleneck": "covered",
    "wies2021_multiset_identity": "covered",
    "wies2021_quoted_numbers": "covered",
    "wies2021_rank_range": "covered",
    "wies2021_rerun_count": "covered",
    "wies2021_sketch_monomials": "covered",
    "wies2021_theorem1_from_theorem3": "covered",
    "wies2021_theorem1_upper": "left_out",
    "wies2021_theorem2_lower": "left_out",
    "wies2021_theorem2_practical_depth": "covered",
    "wies2021_theorem3_counting": "covered",
    "wies2021_theorem3_grouping_ranges": "covered",
    "wies2021_theorem3_positional": "covered",
    "wies2021_theorem3_rank_sweep": "covered",
    "wies2021_theorem3_upper": "left_out",
    "wies2021_theorem4_conv_sweep": "covered",
    "wies2021_theorem4_upper": "left_out",
    "wies2021_trillion_width": "covered",
    "wies2021_width_capped_by_rank": "covered",
}


def test_every_claim_is_audited_and_nothing_else():
    assert sorted(set(CLAIMS) - set(AUDITED)) == [], "claims with no rule-2 audit entry in AUDITED"
    assert sorted(set(AUDITED) - set(CLAIMS)) == [], "AUDITED names claims the registry does not have"
    assert {kind for kind in AUDITED.values()} <= set(KINDS)


@pytest.mark.parametrize("claim_id", sorted(k for k, v in AUDITED.items() if v != "not-audited"))
def test_audit_entry_matches_the_claim(claim_id):
    claim = CLAIMS[claim_id]
    if AUDITED[claim_id] == "left_out":
        assert claim.left_out.strip(), f"{claim_id}: audited as leaving part of its domain out, but left_out is empty"
    else:
        assert not claim.left_out, f"{claim_id}: audited as covering its domain, but it sets left_out"


@pytest.mark.parametrize("claim_id", sorted(
    i for i, c in CLAIMS.items()
    if AUDITED.get(i) != "not-audited" and any(isinstance(x, RankBound) for x in c.checks)))
def test_rank_bound_claims_check_the_smallest_n_and_say_what_is_left(claim_id):
    """Reduced-route ranks hold from N = 2(d_x + 1) on (``verify.claims.specsets``), so a RankBound
    claim also checks its bound at N = 2 and 4 (``proofs/_small_n.py``) and names in ``left_out``
    the N it still leaves out.  (Not-audited claims would be skipped; none is left.)"""
    claim = CLAIMS[claim_id]
    assert "2(d_x + 1)" in claim.left_out, (f"{claim_id}: its RankBound ranks start at N = 2(d_x + 1); say so in "
                                            "left_out")
    assert any("smallest N" in getattr(c, "name", "") for c in claim.checks), \
        f"{claim_id}: no check of its bound at the smallest N (proofs/_small_n.py at_small_n)"


def test_audit_reports_its_own_gap():
    """No entry is left not-audited (the third round read the last 18); a new one is a visible gap."""
    missing = sorted(k for k, v in AUDITED.items() if v == "not-audited")
    assert missing == [], missing


def test_the_report_shows_each_left_out():
    """report.md lists every claim's left_out with its text, the terminal table names the claims."""
    from verify.report.run_report import markdown, table

    records = [{"id": "a_claim", "source": "doc §1, eq. 1", "outcome": "verified", "expected": "verified",
                "as_expected": True, "evidence": "e", "statement": "s", "left_out": "N = 2: too slow"},
               {"id": "b_claim", "source": "doc §2, eq. 2", "outcome": "verified", "expected": "verified",
                "as_expected": True, "evidence": "e", "statement": "s", "left_out": None}]
    md = markdown(records, {"version": "0", "claims": 2, "seconds": 1.0, "spec_set": "default"})
    assert "- **a_claim**: N = 2: too slow" in md and "**b_claim**:" not in md
    assert table(records).splitlines()[-1].endswith("in 1 claims: a_claim")


#: Boundary points a `covered` claim's stated domain includes, which one of its printed checks must reach
#: (issue 34: the positivity note excluded H = d_x, the one case where it fails, yet was marked covered).
BOUNDARIES = {
    "levine2020_theorem1_positivity_note": [{"L": 1, "d_x": 4, "H": 4}, {"L": 1, "d_x": 4, "H": 2}],
    "derived_one_slot_lower_bound": [{"L": 2, "d_x": 12, "H": 12}, {"L": 4, "d_x": 5, "H": 5}],
}


def _reaches(check, point: dict) -> bool:
    """Whether ``check`` examines ``point`` (symbol names as keys): an InequalityChain whose grid holds it, whose
    condition admits it and whose regime contains it; a Property that names it (its counterexample, or
    "L=.. d_x=.. H=.." in its evidence); a Cases whose case list holds it as (L, d_x, H)."""
    from verify.claims.checks import Cases, InequalityChain, Property, _in_regime

    if isinstance(check, InequalityChain):
        by_symbol = {s: point[str(s)] for s in check.grid}
        if set(map(str, check.grid)) != set(point) or any(v not in check.grid[s] for s, v in by_symbol.items()):
            return False
        return (check.condition is None or check.condition(by_symbol)) and _in_regime(check.regime, by_symbol)
    if isinstance(check, Cases):
        return (point["L"], point["d_x"], point["H"]) in [tuple(c) if isinstance(c, (list, tuple)) else c
                                                          for c in check.cases]
    if isinstance(check, Property):
        ok, evidence, counterexample = check.function()
        return counterexample == point or f"L={point['L']} d_x={point['d_x']} H={point['H']}" in evidence
    return False


@pytest.mark.parametrize("claim_id", sorted(BOUNDARIES))
def test_covered_claims_reach_their_boundary(claim_id):
    claim = CLAIMS[claim_id]
    for point in BOUNDARIES[claim_id]:
        assert any(_reaches(c, point) for c in claim.checks + claim.corrected_checks), \
            f"{claim_id}: no check reaches the boundary point {point} of its stated domain"


def test_an_excluded_boundary_is_caught():
    """Plant: the positivity note checked by its grid alone, whose condition H < d_x excludes the boundary H = d_x
    (the claim as it was before issue 34): the boundary test would fail on it."""
    from verify.claims.checks import InequalityChain

    chain = next(c for c in CLAIMS["levine2020_theorem1_positivity_note"].corrected_checks
                 if isinstance(c, InequalityChain))
    assert not _reaches(chain, {"L": 1, "d_x": 4, "H": 4})
    assert _reaches(chain, {"L": 1, "d_x": 4, "H": 2})
