"""Issue 39 item 9: the claims' corrected sentences, each pinned against the computation it reports.

The expected values come from the paper's tables or closed forms written here, never from the sentences."""

import re
from pathlib import Path

import sympy as sp

from verify.authoring import compare
from verify.claims.record import load_claims

ROOT = Path(__file__).resolve().parents[2]


def test_eq7_gap_at_l9_is_every_even_width_14_to_24_with_da_2():
    """At d_a = 2 (H = d_x/2) eq. 7 is L(d_x/4 - 1) - d_x - (d_x/2) log3(d_x/4) and the construction reaches no
    column (log3 rank 0): positive, a gap, at L = 9 exactly for even d_x in 14..34, zero at d_x = 12 and 36."""
    from proofs._common import ABOVE_THRESHOLD
    from proofs._reach import EQ7_GAP, gap_cases
    from proofs.levine2020_theorem2_lower import BOUND

    assert gap_cases(BOUND, ABOVE_THRESHOLD, depths=[9], widths=range(2, 25), heads_min=2) == [
        (width, 9, width // 2) for width in range(14, 25, 2)]
    from proofs._common import H, L, d_x
    for width in (12, 36):  # exact ties: log3 3 = 1, log3 9 = 2
        assert sp.simplify(BOUND.subs({d_x: width, H: width // 2, L: 9})) == 0
    assert "at L = 9, there at every even d_x from 14 to 24 with H = d_x/2" in EQ7_GAP
    assert "(d_x, H) = (12, 6) and (36, 18)" in EQ7_GAP


def test_chain_step_first_failures_are_the_ones_the_reading_states():
    """Step 1->2 of the chain after Theorem 4 holds at d_x = first failure - 1 and fails there, L = 2..5 (an
    mpmath search to d_x = 1,200 found these, each failing from there on), and holds just past 3^L."""
    from proofs._common import L as depth_sym
    from proofs._common import d_x as width_sym
    from proofs.levine2020_supp1_theorem4_chain import CLAIM, FIRST_FAILURES, STEPS

    def holds(depth, width):
        return compare(STEPS[1], STEPS[2], "<=", {depth_sym: depth, width_sym: width}) is True

    assert {depth: FIRST_FAILURES[depth] for depth in range(2, 6)} == {2: 12, 3: 36, 4: 108, 5: 323}
    for depth, first in FIRST_FAILURES.items():
        assert not holds(depth, first) and (first == 3 or holds(depth, first - 1)), depth
    assert all(holds(2, w) for w in (9, 11)) and all(holds(3, w) for w in (27, 35))
    assert "fails at every d_x from 12, 36, 108, 323 on for L = 2..5" in CLAIM.reading
    assert "from the threshold 3^L = d_x down" not in CLAIM.reading


def test_loss_stability_states_the_smallest_std_of_the_tables():
    """Table 4's first row prints 5.1 * 10^-4 (the smallest); Table 5's last 3.1 * 10^-3 (the largest)."""
    from proofs.wies2021_loss_stability import CLAIM

    assert "the tables' own stds of 5.1e-4 to 3.1e-3 illustrate" in CLAIM.reading


def test_claims_md_counts_the_left_out_claims():
    """docs/claims.md's rule-2 paragraph: the number of claims with a left_out, and of covered ones, as the
    registry has them."""
    claims = load_claims()
    left_out = sum(1 for c in claims if c.left_out)
    text = " ".join((ROOT / "docs" / "claims.md").read_text().split())
    found = re.search(r"(\d+) claims reach them \(`covered`\), (\d+) say what they leave out", text)
    assert found, "the rule-2 paragraph's counts"
    assert (int(found.group(1)), int(found.group(2))) == (len(claims) - left_out, left_out)


def test_every_claim_stating_lemma3s_display_is_in_its_group_or_names_it():
    """Lemma 3's display ((n over k)) <= (2e(n + k)/n)^n: every claim whose statement prints it shares the passage
    key or names each claim of the passage in its reading (one label per display, or the reason it differs)."""
    display = "<=(2e(n+k)/n)^n"  # the upper bound (Lemma 4 of the vocabulary paper prints it reversed: an erratum)
    claims = load_claims()
    stating = [c for c in claims if display in c.statement.replace(" ", "")]
    group = [c for c in claims if c.passage_key == "levine2020_lemma3_multiset_upper"]
    assert len(stating) >= 4 and {c.id for c in group} <= {c.id for c in stating}
    for claim in stating:
        if claim.passage_key != "levine2020_lemma3_multiset_upper":
            missing = [c.id for c in group if c.id not in claim.reading]
            assert not missing, f"{claim.id} states Lemma 3's display outside its group without naming {missing}"
            assert all(claim.id in c.reading for c in group), f"the group does not name {claim.id}"


def test_the_counting_floor_is_linear_in_l_at_fixed_r_as_the_docs_now_say():
    """docs/conjecture_n.md: the floor 2 ceil(log_V bound) is 6, 8, 10 at (r, L) = (8, 5), (10, 5), (12, 5) and 6 at
    (12, 4) (not 2 * 3^(L-2) * log_V d: 28.5, 32.5, 35.0, 11.7), and at most 2 ceil((d - 1) log_V(3^(L-2) + 1))."""
    import math

    from verify.rank.bound import lemma7_lower_bound
    from verify.rank.token.positional_bound import counting_floor

    floors = {}
    for r, depth in [(8, 5), (10, 5), (12, 5), (12, 4)]:
        bound, d = lemma7_lower_bound(depth, r, 1), (r - 2) // 2
        assert bound == comb_multiset(d, 3 ** (depth - 2))
        half = next(n for n in range(1, 60) if r**n >= bound)  # the least V^(N/2) >= bound, by integers
        floors[(r, depth)] = counting_floor(r, bound, True)
        assert floors[(r, depth)] == 2 * half
        assert floors[(r, depth)] <= 2 * math.ceil((d - 1) * math.log(3 ** (depth - 2) + 1, r) - 1e-12)
    assert floors == {(8, 5): 6, (10, 5): 8, (12, 5): 10, (12, 4): 6}
    text = " ".join((ROOT / "docs" / "conjecture_n.md").read_text().split())
    assert "exact floors 6, 8, 10 at (r, L) = (8, 5), (10, 5), (12, 5) and 6 at (12, 4)" in text


def comb_multiset(n: int, k: int) -> int:
    from math import comb

    return comb(n + k - 1, k)
