"""The registry's rules over every claim (issue 20; docs/claims.md, "Rules"), checked on the claims as
data, without running them (test_claims.py runs each claim and checks rules 1 and 6 on its results):

* rule 1: a claim expected ``verified`` has a check able to refute a strengthened statement (a bound
  or chain, which strengthen themselves, a QuotedNumber, or a Property/Cases with a ``perturb`` that
  is a declared one-step change of its own function); and every ``perturb`` of the registry is
  declared (``scaled``, ``shifted``, ``converse``, ``neighbour``) and free of the defects
  ``verify.claims.perturb.defects`` finds mechanically (see there for what it guarantees and what
  it cannot);
* rule 3: claims deciding one passage (a shared ``passage`` key) expect one outcome, and the known
  pairs printed in the first and the revised supplement do share their key;
* rule 6: every erratum has a corrected statement and corrected checks of which at least one can
  refute a strengthening of the corrected statement.
"""

from collections import defaultdict

import pytest

from verify.claims.checks import Cases, InequalityChain, Property, QuotedNumber, RankBound
from verify.claims.perturb import (  # noqa: F401
    as_dict,
    converse,
    defects,
    neighbour,
    scaled,
    shifted,
    stated,
    strict,
    trivial_description,
)
from verify.claims.record import load_claims

CLAIMS = load_claims()

#: Displays printed in two documents, decided by two claims (issue 20, "one label per passage").
KNOWN_PAIRS = [("levine2020_supp1_theorem4_expansion", "levine2020_revised_theorem2_expansion"),
               ("levine2020_supp1_lemma2_steps", "levine2020_revised_lemma3_equality_case"),
               ("levine2020_claim1_partition_invariance", "levine2020_supp1_claim4_partition_invariance")]


def _own_function(check):
    return check.function if isinstance(check, Property) else check.per_case


def _all_checks(claim) -> list:
    return (claim.checks + claim.corrected_checks + claim.gap_checks
            + [c for cs in claim.readings.values() for c in cs])


def perturbation_defects(check) -> dict:
    """``description -> defects`` for every perturbation of a Property or Cases (empty lists when sound)."""
    return {text: defects(p, _own_function(check), text) for text, p in as_dict(check.perturb).items()}


def can_refute_a_strengthening(check) -> bool:
    """Whether ``check`` states a strengthened statement it could refute and that would count: a
    Property/Cases needs a declared perturbation without defects that is not a stated scaled/shifted/strict
    (information only, ``verify.claims.perturb.attach``)."""
    if isinstance(check, (RankBound, InequalityChain, QuotedNumber)):
        return True  # x3 / /3 / +-1, each step tightened by one, the printed value +1
    if isinstance(check, (Property, Cases)):
        return any(not problems and not (stated(p) and p.kind in ("scaled", "shifted", "strict"))
                   for (text, problems), p in zip(perturbation_defects(check).items(), as_dict(check.perturb).values(),
                                                  strict=False))
    return True  # a check kind this test does not know: judged by its results in test_claims.py


def test_every_perturbation_of_the_registry_is_declared_and_one_step():
    """Rule 1, semantically: each perturb= of every claim (printed, corrected, gap and reading checks) is
    declared by kind and is the check's own computation with one argument moved one step (or a stated
    converse/neighbour sharing its computation); ``verify.claims.perturb.defects`` lists the rest."""
    found = {f"{claim.id} / {check.name} / {text}": problems
             for claim in CLAIMS for check in _all_checks(claim) if isinstance(check, (Property, Cases))
             for text, problems in perturbation_defects(check).items() if problems}
    assert not found, "perturbations that are not a declared one-step change:\n" + "\n".join(
        f"{where}: {'; '.join(problems)}" for where, problems in found.items())


def _unexplained_splits(claims) -> dict:
    """Passages whose claims expect different outcomes where some claim's ``reading`` does not name every claim of
    the passage with another outcome (one label per display, or the reason it differs, issue 34)."""
    by_passage = defaultdict(list)
    for claim in claims:
        by_passage[claim.passage_key].append(claim)
    return {key: {c.id: c.expected for c in group} for key, group in by_passage.items()
            if any(other.expected != c.expected and other.id not in c.reading for c in group for other in group)}


def test_claims_deciding_one_passage_expect_one_outcome():
    split = _unexplained_splits(CLAIMS)
    assert not split, f"one passage, several labels, no stated reason: {split}"


def test_a_passage_split_without_a_reason_is_caught():
    """Plant: the Lemma 3 display's claims with their readings blanked (the state issue 34 found)."""
    import dataclasses

    group = [c for c in CLAIMS if c.passage_key == "levine2020_lemma3_multiset_upper"]
    assert len(group) == 3 and len({c.expected for c in group}) == 2
    assert _unexplained_splits(group) == {}
    assert _unexplained_splits([dataclasses.replace(c, reading="") for c in group])


#: Displays stated by several claims (issue 34): each group shares one passage key.
SHARED_DISPLAYS = [
    ("levine2020_theorem1_lower", "levine2020_response_theorem1_explicit"),
    ("levine2020_theorem2_lower", "levine2020_response_theorem2_explicit"),
    ("levine2020_theorem2_lower_construction", "levine2020_supp1_b2_theorem2_step"),
    ("levine2020_supp1_lemma3_multiset_upper", "levine2020_supp1_lemma3_steps", "wies2021_lemma3_proof_steps"),
    ("wies2021_theorem2_lower", "wies2021_corollary1_lower", "wies2021_corollary1_tokens"),
]


@pytest.mark.parametrize("group", SHARED_DISPLAYS, ids=[g[0] for g in SHARED_DISPLAYS])
def test_displays_stated_twice_share_a_passage(group):
    by_id = {c.id: c for c in CLAIMS}
    assert len({by_id[i].passage_key for i in group}) == 1, {i: by_id[i].passage_key for i in group}


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


def _bound_case(n, scale=1, shift=0):
    """A toy lower bound: the n-th triangular number is >= scale * n + shift (tight at n = 1)."""
    holds = n * (n + 1) // 2 >= scale * n + shift
    return holds, f"n={n}: {n * (n + 1) // 2} >= {scale * n + shift}"


def _trivial(n, above=1):
    """the bound is trivial (<= 1): a statement about the bound alone, as in the registry's history"""
    return n <= above, f"bound {n}"


@pytest.mark.parametrize("perturbation,reason", [
    (_trivial, "undeclared"),
    (scaled(_trivial, "the bound is trivial"), "trivial bound"),  # stated, and its description states a trivial bound
    (shifted(_bound_case, "sep <= 1", shift=1), "trivial bound"),
    (converse(_bound_case, "the bound made strict", scale=3), "declare it with strict"),
    (strict(_bound_case, scale=3), "is not False -> True"),
    (neighbour(_trivial, "the bound is trivial"), "shares no computation"),
    (shifted(_trivial, above=0), "not the check's own computation"),
    (shifted(_bound_case, shift=0), "moves by 0"),
    (shifted(_bound_case, shift=2), "moves by 2"),
    (scaled(_bound_case, scale=2), "not 3 x"),
    (neighbour(_bound_case, scale=1), "nothing changed"),
    (shifted(_bound_case, scale=3, shift=1), "changes 2 arguments"),
])
def test_defects_reject_what_is_not_a_one_step_change_of_the_checks_function(perturbation, reason):
    """Each planted perturbation (the history's "bound is trivial", a shift of 0, a factor 2, ...) is
    rejected by the registry test's rule, and, when declared, is recorded by the engine but never counted."""
    check = Cases([1, 2, 3], _bound_case, perturb={"planted": perturbation})
    problems = perturbation_defects(check)["planted"]
    assert any(reason in p for p in problems) if reason else not problems, problems
    assert not can_refute_a_strengthening(check)
    result = check.run()
    assert result.status == "pass"
    if perturbation is not _trivial:  # a bare callable still counts in the engine (hand-written checks)
        assert not result.could_fail and not any(p["counted"] for p in result.perturbations)


def test_a_stated_scaled_perturbation_sharing_the_computation_is_information_only():
    stated_x3 = scaled(lambda n: _bound_case(n, scale=3), "bound x3, stated")
    check = Cases([1, 2, 3], lambda n: _bound_case(n), perturb={"x3": stated_x3})
    assert perturbation_defects(check) == {"x3": []} and not can_refute_a_strengthening(check)
    result = check.run()
    assert result.perturbations[0]["refuted"] and not result.could_fail


@pytest.mark.parametrize("perturbation", [scaled(_bound_case, "bound x3", scale=3),
                                          shifted(_bound_case, "bound + 1", shift=1)])
def test_a_derived_one_step_strengthening_is_sound_and_counts(perturbation):
    check = Cases([1, 2, 3], _bound_case, perturb={"strengthened": perturbation})
    assert perturbation_defects(check) == {"strengthened": []} and can_refute_a_strengthening(check)
    result = check.run()
    assert (result.could_fail and result.perturbations[0]["counted"]
            and result.perturbations[0]["kind"] == perturbation.kind)


def test_a_factory_made_perturbation_is_the_factorys_closure_with_one_argument_changed():
    def per_case_from(offset=0):
        def per_case(n):
            return n >= 1 + offset, f"n={n}"
        return per_case
    good = Cases([1, 2], per_case_from(), perturb={"+1": shifted(per_case_from, factory=True, offset=1)})
    other = Cases([1, 2], _bound_case, perturb={"+1": shifted(per_case_from, factory=True, offset=1)})
    assert perturbation_defects(good) == {"+1": []} and good.run().could_fail
    assert "not the check's own computation" in perturbation_defects(other)["+1"][0]


@pytest.mark.parametrize("description,trivial", [
    ("the bound is trivial (<= 1)", True), ("sep <= 1", True), ("rank >= 1", True), ("sep(chi) <= 1", True),
    ("Trivial bound (sep ≥ 1)", True), ("full rank at every Omega (Omega = 1 included)", False),
    ("sep(chi) <= C + 1", False), ("rank <= ((r over p)) - 1", False), ("bound <= 1/3 x", False),
    ("widening raises sep by >= 1", False), ("sep <= 10", False)])
def test_a_description_stating_a_trivial_bound_is_recognised(description, trivial):
    assert trivial_description(description) is trivial


def test_no_registry_description_states_a_trivial_bound():
    """Over the whole registry the description check raises no false alarm (and finds nothing)."""
    texts = [t for claim in CLAIMS for check in _all_checks(claim) if isinstance(check, (Property, Cases))
             for text, p in as_dict(check.perturb).items() for t in (text, getattr(p, "description", ""))]
    assert len(texts) > 100 and not [t for t in texts if trivial_description(t)]


def _strict_case(n, strict=False):
    """A toy bound with an equality at n = 1: n (n + 1) / 2 >= n (strict: >)."""
    return (n * (n + 1) // 2 > n) if strict else (n * (n + 1) // 2 >= n), f"n={n}"


def test_an_inequality_made_strict_is_declared_strict_and_counts():
    check = Cases([1, 2, 3], _strict_case, perturb={"strict": strict(_strict_case, strict=True)})
    assert perturbation_defects(check) == {"strict": []} and can_refute_a_strengthening(check)
    result = check.run()
    assert result.could_fail and result.perturbations[0]["kind"] == "strict"


def test_a_stated_strict_perturbation_is_information_only_and_cannot_make_a_claim_verified():
    """A strict relation written as a separate function (no argument of the check's own function turned)
    is refuted here but never counted: like a stated scaled or shifted bound it could state anything.
    Counting it made a claim with no other perturbation ``verified`` (issue 35)."""
    from verify.claims.record import Claim, Source, run_claim

    made_strict = strict(lambda n: _strict_case(n, strict=True), "made strict, stated")
    check = Cases([1, 2, 3], lambda n: _strict_case(n), perturb={"strict": made_strict})
    assert stated(made_strict) and not can_refute_a_strengthening(check)
    result = check.run()
    assert result.status == "pass" and result.perturbations[0]["refuted"]
    assert not result.perturbations[0]["counted"] and not result.could_fail
    claim = Claim("toy_claim", Source("levine2020_author_response.txt", "test", "test"), "n (n + 1) / 2 >= n",
                  [Cases([1, 2, 3], lambda n: _strict_case(n), perturb={"strict": made_strict})])
    assert run_claim(claim).outcome == "not-decided"


#: Perturbations an independent review found mis-declared (issue 20 rule 1): a negation declared as a
#: converse, a strict relation as a converse, multi-step bounds as neighbours.  Each is now a one-step
#: strengthening of this kind: (claim, check name) -> kind.
REVIEWED = {("wies2021_lower_bound_growth", "footnote 3: parity of r - H"): "shifted",
            ("levine2020_revised_structure_counts", "number of chi, splits per chi, lemma 3 at n = 2 with its "
                                                    "equality clause"): "strict",
            ("levine2020_revised_structure_counts", "rank of each printed chi across P/Q"): "shifted",
            ("levine2020_revised_residual_structure", "sum over j and the X term within (C+1) times eq. 8"): "shifted",
            ("levine2020_supp1_theorem4_counts", "sep(chi) exactly and Lemma 2's step"): "shifted"}


@pytest.mark.parametrize("key", list(REVIEWED), ids=lambda k: k[0])
def test_the_reviewed_perturbations_keep_their_one_step_kind(key):
    check = next(c for claim in CLAIMS if claim.id == key[0] for c in _all_checks(claim) if c.name == key[1])
    kinds = {getattr(p, "kind", "undeclared") for p in as_dict(check.perturb).values()}
    assert kinds == {REVIEWED[key]} and not any(perturbation_defects(check).values()), kinds
