"""The registry's rules over every claim (issue 20; docs/claims.md, "Rules"), checked on the claims as
data, without running them (test_claims.py runs each claim and checks rules 1 and 6 on its results):

* rule 1: a claim expected ``verified`` has a check able to refute a strengthened statement (a bound
  or chain, which strengthen themselves, or a Property/Cases/QuotedNumber with a ``perturb``);
* rule 3: claims deciding one passage (a shared ``passage`` key) expect one outcome, and the known
  pairs printed in the first and the revised supplement do share their key;
* rule 6: every erratum has a corrected statement and corrected checks of which at least one can
  refute a strengthening of the corrected statement.
"""

from collections import defaultdict

import pytest

from verify.claims.checks import Cases, InequalityChain, Property, QuotedNumber, RankBound
from verify.claims.record import load_claims

CLAIMS = load_claims()

#: Displays printed in two documents, decided by two claims (issue 20, "one label per passage").
KNOWN_PAIRS = [("levine2020_supp1_theorem4_expansion", "levine2020_revised_theorem2_expansion"),
               ("levine2020_supp1_lemma2_steps", "levine2020_revised_lemma3_equality_case"),
               ("levine2020_claim1_partition_invariance", "levine2020_supp1_claim4_partition_invariance")]


def can_refute_a_strengthening(check) -> bool:
    """Whether ``check`` states any strengthened statement it could refute."""
    if isinstance(check, (RankBound, InequalityChain, QuotedNumber)):
        return True  # x3 / /3 / +-1, each step tightened by one, the printed value +1
    if isinstance(check, (Property, Cases)):
        return check.perturb is not None
    return True  # a check kind this test does not know: judged by its results in test_claims.py


def test_claims_deciding_one_passage_expect_one_outcome():
    by_passage = defaultdict(list)
    for claim in CLAIMS:
        by_passage[claim.passage_key].append(claim)
    split = {key: {c.id: c.expected for c in group} for key, group in by_passage.items()
             if len({c.expected for c in group}) > 1}
    assert not split, f"one passage, several labels: {split}"


@pytest.mark.parametrize("first,second", KNOWN_PAIRS)
def test_the_known_reprinted_displays_share_their_passage(first, second):
    claims = {c.id: c for c in CLAIMS}
    assert claims[first].passage and claims[first].passage_key == claims[second].passage_key
    assert claims[first].also_at and claims[second].also_at


@pytest.mark.parametrize("claim", [c for c in CLAIMS if c.expected == "erratum"], ids=lambda c: c.id)
def test_every_erratum_has_a_correction_that_could_fail(claim):
    assert claim.corrected_statement, "an erratum names its corrected statement"
    assert claim.corrected_checks, "an erratum checks its corrected statement"
    assert any(can_refute_a_strengthening(c) for c in claim.corrected_checks), \
        "no corrected check states a strengthening it could refute (give one a perturb=)"


@pytest.mark.parametrize("claim", [c for c in CLAIMS if c.expected == "verified"], ids=lambda c: c.id)
def test_every_verified_claim_has_a_check_that_could_refute_a_strengthening(claim):
    assert any(can_refute_a_strengthening(c) for c in claim.checks + [c for cs in claim.readings.values() for c in cs])


def test_a_proof_gap_names_its_part_and_its_gap_checks():
    for claim in CLAIMS:
        if claim.expected == "gap":
            assert claim.gap and claim.gap_checks, claim.id
