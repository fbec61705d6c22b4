"""Probabilities read off the draws (docs/mathematics.md §7, "the adaptive case", Lemma C, "A headline's union").

A printed probability P that depends on the draws bounds its event W in the sense Pr[W and P <= b] <= b for every b
(validity).  Tested as an argument, exactly, on finite distributions: the engine's own label and headline rules
print P on every outcome, and the excess max_b (Pr[W and P <= b] - b) is computed in rationals.  The planted
distributions are the counterexamples of the section: a menu read off the draw (the every-sequence offer only where
every sequence was kept) beside the repeated limit's product, and a headline that adds bounds read off the draws;
the old rules exceed their printed bound there, the repaired ones do not.  The repaired menu rests on
``every_sequence_possible``: checked against the sampler itself, every sequence is never kept where it says no.
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import numpy as np
import pytest

from verify.model.embeddings import VocabularyEmbedding
from verify.model.spec import NetworkSpec, draw_weights
from verify.rank.labels import every_sequence_possible, every_sequence_probability, positional_label
from verify.rank.token.gram import TOKEN_PRIME, GramModel
from verify.rank.token.route import sequence_rank
from verify.sweeps.headline import Step, all_equal, first_reaching

SPEC = NetworkSpec(depth=2, width=3, heads=1, attn_dim=3)
INF = math.inf


def excess(outcomes) -> Fraction:
    """max over b of Pr[W and P <= b] - b over ``outcomes`` [(probability, W, P)] (P = inf: nothing printed); the
    maximum is at a printed value.  Valid iff <= 0."""
    worst = Fraction(-1)
    for beta in {p for _, _, p in outcomes if p != INF}:
        wrong = sum((w for w, bad, p in outcomes if bad and p <= beta), Fraction(0))
        worst = max(worst, wrong - Fraction(beta))
    return worst


def test_the_excess_is_zero_for_a_fixed_bound_and_positive_for_the_smallest_offer_met():
    """The yardstick: a P fixed before the draw is valid iff Pr[W] <= P; printing the smallest offer met is not
    (two offers, each wrong where it alone is met: Pr = 2e at P = e)."""
    e = Fraction(1, 100)
    assert excess([(e, True, 0.02), (1 - e, False, 0.02)]) <= 0
    assert excess([(e, True, float(e)), (e, True, float(e)), (1 - 2 * e, False, INF)]) == pytest.approx(e)


def _row(q_limit, every_kept, meets_at, every_possible, limit_rank=45):
    """The label's probability of a positional row by the engine's rule (``positional_label``): rank 40 below the
    proven bound 50, Lemma P's offer (eq. 7.4 at the positions: 40, met, or 45) at 0.001, the computed limit
    ``limit_rank`` with its repeated product ``q_limit``, and the every-sequence offer where every sequence was kept
    (or, ``every_possible``, may be); inf where the label is not probabilistic."""
    bounds = {"at_positions": 40 if meets_at else 45, "probability": 0.001}
    label, probability, _ = positional_label(40, 50, bounds, SPEC, every_kept, 2**31, TOKEN_PRIME, limit_rank, False,
                                             q_limit, every_possible)
    return probability if label == "probabilistic" else INF


@pytest.mark.parametrize("fixed_menu", [False, True])
def test_a_menu_read_off_the_draw_beside_the_limits_product_is_no_bound(fixed_menu):
    """Lemma C (ii).  e = the every-sequence offer (50 * 42 / (2^21 + 1) = 0.001), x = 0.004.  Outcomes, each with
    the row's rank low: the every-sequence event (prob e: every sequence kept; the limit, 45, not met, its product
    tiny); the limit's event (prob x: a sample met the limit, 40, which is low, and whose repeated product printed x:
    Pr[W_lim and Q <= t] <= t holds); Lemma P's event (prob 0.001: the rank meets eq. 7.4 at the positions).  With
    the every-sequence offer on the menu only where it was kept, the row prints 0.001 + x where the limit is wrong,
    yet Pr[W and P <= 0.001 + x] = 0.001 + e + x: the excess is e.  On the menu fixed before the draw it is valid."""
    e = every_sequence_probability(40, 50, SPEC, 2**31, TOKEN_PRIME)
    assert e == pytest.approx(50 * 42 / (2**21 + 1))
    x, tiny = 0.004, 1e-9
    possible = True if fixed_menu else None
    outcomes = [(Fraction(e), True, _row(tiny, True, False, possible)),
                (Fraction(x), True, _row(x, False, False, possible, limit_rank=40)),
                (Fraction(1, 1000), True, _row(tiny, False, True, possible))]
    outcomes.append((1 - sum(w for w, _, _ in outcomes), False, _row(1.0, False, False, possible)))
    if fixed_menu:
        assert excess(outcomes) <= 0
    else:
        assert excess(outcomes) == pytest.approx(Fraction(e), rel=1e-6) and excess(outcomes) > 0


def test_lemma_c_on_every_scripted_row():
    """Lemma C (i) and its proof, exhaustively: a row of kind "every sequence kept" (Lemma R over runs of bound e)
    against a single branch that met the computed limit (valid product q).  Every outcome of three runs with its
    probability; the single branch prints the fixed menu's union e + q (e on it although not met) or, the old rule,
    q alone.  Only the fixed menu is valid; the old one exceeds its bound."""
    e, q = Fraction(1, 20), Fraction(1, 50)

    def outcomes(with_kind_term):
        out = []
        # run 0: 'E' met the kind and its event occurred (prob e), 'G' met it, exact (prob 1/2); 'S' did not meet
        # it (every sequence not kept): the sample met the limit, whose event W_lim (prob q) prints q
        for first in "EGS":
            if first == "S":
                rest = 1 - e - Fraction(1, 2)
                single = float(e + q) if with_kind_term else float(q)
                out += [(q, True, single), (rest - q, False, single)]
                continue
            for later in itertools.product("EGL", repeat=2):  # L: a later run missed its kind (low, no bound)
                weight = (e if first == "E" else Fraction(1, 2))
                product, runs, low = e, 1, first == "E"
                for outcome in later:
                    weight *= {"E": e, "G": Fraction(1, 2), "L": Fraction(1, 2) - e}[outcome]
                for outcome in later:  # the loop: stop at the first run that does not meet
                    if outcome == "L":
                        break
                    product, runs = product * e, runs + 1
                    low = low and outcome == "E"
                out.append((weight, low, float(product)))
        return out

    assert sum(w for w, _, _ in outcomes(True)) == 1
    assert excess(outcomes(True)) <= 0
    assert excess(outcomes(False)) > 0


def test_a_headline_that_adds_bounds_read_off_the_draws_is_no_bound():
    """Two steps, each probabilistic (bound b, wrong with probability b) on the draws where the other is certified:
    the sum prints b on both, but the headline is wrong with probability 2b.  M max (M = 2 possible events, fixed
    before the draw) prints 2b and is valid (docs/mathematics.md §7, "A headline's union")."""
    b = 0.01
    draws = [([Step(2, 1, None, b), Step(4, 1, None, 0.0)], Fraction(b), True),
             ([Step(2, 1, None, 0.0), Step(4, 1, None, b)], Fraction(b), True),
             ([Step(2, 1, None, b), Step(4, 1, None, 0.0)], 1 - 2 * Fraction(b), False)]
    summed = [(w, bad, sum(s.probability for s in steps)) for steps, w, bad in draws]
    assert excess(summed) == pytest.approx(b)
    repaired = [(w, bad, all_equal(steps).probability) for steps, w, bad in draws]
    assert all(p == pytest.approx(2 * b) for _, _, p in repaired) and excess(repaired) <= 0


def _repeated_step(levels, offset, e, miss, certified):
    """A step's Lemma R product over the runs made: run i's event (low, meets) where its uniform level lies in
    [offset, offset + e) mod 1, a miss (low, ends the product) in the next ``miss``, a run meeting a proven bound
    (certified: 0, exact) in the next ``certified``, else exact (met, not low).  Returns (every run made low, the
    bound printed)."""
    product, low = Fraction(1), True
    for level in levels:
        where = (level - offset) % 1
        if where < e:
            product *= e
        elif where < e + miss:
            break
        elif where < e + miss + certified:
            return False, Fraction(0)
        else:  # met its bound, exact: it counts in the product (Lemma R counts every run that met)
            product *= e
            low = False
    return low, product


def test_m_times_the_largest_is_valid_on_random_repeated_steps():
    """Brute force of the headline lemma: three steps, each a Lemma R product over up to three runs, run i of every
    step decided by one shared uniform level (so the steps' events overlap or exclude each other as their offsets
    fall; a run meeting a proven bound prints 0).  Over every outcome (the cells the cut points make), M max_j P_j
    (M = 3) is valid; the plain sum is exceeded on some instance (steps whose events exclude each other)."""
    rng = np.random.default_rng(7)
    sum_exceeded = False
    for _ in range(25):
        steps = [(Fraction(int(rng.integers(0, 100)), 100), Fraction(int(rng.integers(1, 20)), 100),
                  Fraction(int(rng.integers(0, 30)), 100), Fraction(int(rng.integers(0, 40)), 100)) for _ in range(3)]
        cuts = {Fraction(0), Fraction(1)}
        for offset, e, miss, certified in steps:
            cuts |= {offset, (offset + e) % 1, (offset + e + miss) % 1, (offset + e + miss + certified) % 1}
        cuts = sorted(cuts)
        cells = list(zip(cuts, cuts[1:], strict=False))
        bonferroni, summed = [], []
        for path in itertools.product(cells, repeat=3):
            weight = math.prod((hi - lo for lo, hi in path), start=Fraction(1))
            found = [_repeated_step([lo for lo, _ in path], *step) for step in steps]
            bad = any(low for low, _ in found)
            printed = [Step(2 * j + 2, 1, None, float(product)) for j, (_, product) in enumerate(found)]
            bonferroni.append((weight, bad, all_equal(printed, 3).probability))
            summed.append((weight, bad, min(1.0, math.fsum(float(p) for _, p in found))))
        assert excess(bonferroni) <= Fraction(1, 10**12)
        sum_exceeded |= excess(summed) > Fraction(1, 10**12)
    assert sum_exceeded


def test_first_reaching_counts_every_possible_step_and_the_limit():
    steps = [Step(2, 3, 3, 0.0), Step(4, 7, 9, 0.01), Step(6, 9, 27, 0.0)]
    first, head = first_reaching(steps, 9, 0.02, possible=10)
    assert first == 6 and head.union_over == (4,) and head.limit_event
    assert head.probability == pytest.approx(10 * 0.02)


@pytest.mark.parametrize("tokens,vocab", [(12, 2), (8, 3)])
def test_every_sequence_is_kept_only_where_the_rule_says_it_may_be(tokens, vocab):
    """``every_sequence_possible`` against ``token.route.sequence_rank`` itself: over aims and budgets (rows against
    every column, square samples, the first sample the whole matrix, a doubling to every row), a sample that kept
    every sequence is always one the rule allowed before the draw, so the menu it fixes holds every offer a row
    can meet."""
    spec = NetworkSpec(depth=2, width=vocab + 1, heads=1, attn_dim=vocab + 1)
    embedding = VocabularyEmbedding(vocab + 1, vocab, vocab, 1, 0)
    model = GramModel(spec, draw_weights(spec, 0), embedding, TOKEN_PRIME)
    count = vocab ** (tokens // 2)
    whole = sequence_rank(model, tokens, count, seed=3, budget=count * count)
    assert whole[1]  # aimed at the cap: the whole matrix
    kept, refused = set(), 0
    for aim in (1, whole[0] + 2, count - 20, count - 16, count):
        for budget in (count, 8 * count, count * count - 1, count * count):
            found, every, _ = sequence_rank(model, tokens, aim, seed=3, budget=budget)
            possible = every_sequence_possible(count, aim, budget)
            assert not every or possible, (aim, budget, found)
            if every:
                kept.add("first sample" if count <= aim + 16 else "doubled")
            refused += not possible
    assert kept == {"first sample", "doubled"} and refused


def test_the_atlas_row_label_carries_the_every_sequence_offer_its_budget_allows():
    """``grid.row_label_parts`` (the atlas's rule) at (L, V, R) = (2, 3, full), N = 10, as committed: a sample of 76
    rows met the computed limit 60 (its repeated product 8.44e-08), eq. 7.4 at the positions is on offer (Lemma P,
    0.000927); 243^2 = 59,049 evaluations fit the step budget, so the every-sequence offer, 78 * 42 / (2^21 + 1)
    (78: eq. 7.4's caps, the smallest proven bound), is on the menu though every sequence was not kept; one
    evaluation less of budget and no draw could have kept them, and it is not."""
    from types import SimpleNamespace

    from verify.sweeps.atlas.grid import row_label_parts

    spec = NetworkSpec(depth=2, width=4, heads=1, attn_dim=4)
    limit = SimpleNamespace(rank=60, certified_exact=False, probability_bound=8.44e-08)
    bounds = {"certified": 78, "at_positions": 78, "probability": 0.000927}
    every = Fraction(78 * 42, 2**21 + 1)
    text, probability, offer = row_label_parts(60, False, 243, 99, bounds, limit, spec, 1_500_000)
    assert offer == "computed_limit" and text.startswith("probabilistic(")
    assert Fraction(probability) >= Fraction(0.000927) + Fraction(8.44e-08) + every
    assert probability < 0.000927 + 8.44e-08 + float(every) + 1e-15
    _, without, _ = row_label_parts(60, False, 243, 99, bounds, limit, spec, 243 * 243 - 1)
    assert without == pytest.approx(0.000927 + 8.44e-08, rel=1e-12)


def test_the_recheck_decides_the_menu_from_what_the_file_shows():
    """``recheck.tokens._every_on_menu``: kept, or a first sample that is the whole matrix (V^(N/2) <= the smallest
    proven bound + 16): on the menu; a square sample (the budget below V^N, shown): off it; rows against every column:
    the budget decides, which the file does not record (None).  ``token_files._square_sample`` reads the shapes."""
    from verify.recheck.token_files import _square_sample
    from verify.recheck.tokens import Cell, _every_on_menu

    cell = Cell(2, 6, 1, 6, 5, 5, 6, 0, 2**31, 2**31 - 1, 285, False, 285)
    assert [_every_on_menu(cell, 12, False, square) for square in (True, False)] == [False, None]
    assert _every_on_menu(cell, 12, True, False) is True and _every_on_menu(cell, 4, False, True) is True
    flat = Cell(2, 6, 1, 6, 5, 5, 0, 0, 2**31, 2**31 - 1, 285, False, 285)
    assert _every_on_menu(flat, 12, False, False) is False  # no positions: no such offer
    shapes = {"ranks_sampled": "6:125x125 8:194x625 10:282x3125 12:90x15625+301x301 14:301x301"}
    assert _square_sample(shapes, 5) == {6: False, 8: False, 10: False, 12: True, 14: True}
