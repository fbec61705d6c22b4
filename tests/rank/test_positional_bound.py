"""The positional bound (eq. 7.4) against exact ranks of every sequence, a hand closed form at L = 2, and a
brute-force Hilbert function."""

from itertools import product
from math import comb

import flint
import numpy as np
import pytest

from verify import NetworkSpec, draw_weights
from verify.model.embeddings import VocabularyEmbedding
from verify.rank.token.gram import TOKEN_PRIME, GramModel
from verify.rank.token.positional_bound import (
    certified_hilbert,
    exact_hilbert,
    hilbert_caps,
    positional_bound,
    side_points,
)
from verify.rank.token.route import sequence_rank

P = TOKEN_PRIME


def _model(depth, vocab, pos_rank, tokens, seed=0):
    width = vocab + 1
    spec = NetworkSpec(depth=depth, width=width, heads=1, attn_dim=width, tokens=tokens)
    embedding = VocabularyEmbedding(width, vocab, vocab, pos_rank, seed)
    return GramModel(spec, draw_weights(spec, seed), embedding, P)


def _every_sequence_rank(model, tokens):
    vocab = model.embedding.vocab
    rank, every, _ = sequence_rank(model, tokens, vocab ** (tokens // 2))
    assert every
    return rank


def _exact(model, depth, tokens):
    degree, vocab = (3**depth - 1) // 2, model.embedding.vocab
    pis = [model.position_vector(j) for j in range(tokens)]
    h_b = exact_hilbert(side_points(vocab, pis[tokens // 2:]), degree, P)
    h_a = exact_hilbert(side_points(vocab, pis[1:tokens // 2]), degree, P)
    return positional_bound(depth, vocab, model.embedding.positional_rank, tokens, h_b, h_a)


# The rank of the full matrix over every sequence (seed 0, mod 2^31 - 1) against the bound: below it always,
# equal to the bound with H at these positions everywhere checked, and equal to the certified caps' bound at
# L = 2 and where it is the counting cap; at L = 3, V = 2 the caps are not tight (52 < 64 at N = 12).
@pytest.mark.parametrize("depth,vocab,pos_rank,tokens,caps_tight", [
    (2, 3, 1, 2, True), (2, 3, 2, 8, True), (2, 3, 4, 8, True), (2, 4, 1, 6, True), (2, 5, 2, 6, True),
    (2, 5, 6, 6, True), (3, 3, 1, 6, True), (3, 2, 1, 10, True), (3, 2, 1, 12, False), (3, 2, 1, 16, False),
    (3, 2, 2, 16, False)])
def test_bound_holds_and_is_met_by_every_sequence_rank(depth, vocab, pos_rank, tokens, caps_tight):
    model = _model(depth, vocab, pos_rank, tokens)
    rank = _every_sequence_rank(model, tokens)
    certified = positional_bound(depth, vocab, pos_rank, tokens)
    at_positions = _exact(model, depth, tokens)
    assert rank == at_positions.value <= certified.value
    assert (rank == certified.value) == caps_tight


def test_exceptions_at_depth_three_are_the_bound_at_these_positions():
    # docs/conjecture_n.md's table: L = 3, V = 2, R = 1 ranks 52, 64, 70, 74 at N = 12..18 and R = 2: 231 at
    # N = 16, all below the caps' bound; the bound with H at the positions (seed 0) is each exactly
    for pos_rank, tokens, rank in [(1, 12, 52), (1, 14, 64), (1, 16, 70), (1, 18, 74), (2, 16, 231)]:
        assert _exact(_model(3, 2, pos_rank, tokens), 3, tokens).value == rank


def test_exceptions_of_the_docs_table_are_the_bound():
    # docs/conjecture_n.md's exception table, rank < min(cap, limit), each equal to the certified bound
    for depth, vocab, pos_rank, tokens, rank in [(2, 3, 4, 8, 54), (2, 4, 5, 8, 107), (2, 5, 2, 6, 106),
                                                 (2, 5, 6, 6, 106), (2, 6, 2, 6, 157), (2, 6, 7, 6, 157)]:
        assert positional_bound(depth, vocab, pos_rank, tokens).value == rank


@pytest.mark.parametrize("vocab", [5, 6, 7, 9, 12])
@pytest.mark.parametrize("pos_rank", [2, 3])
def test_closed_form_at_depth_two_and_six_tokens(vocab, pos_rank):
    # by hand: C = 4, |B| = 3, |A'| = 2; k = 3 gives cap (a) 1 + 3(V-1) + 3(V-1)^2 plus V (1 + 2(V-1)),
    # = 5V^2 - 4V + 1, below V^3 for V >= 5; cap (b) binom(2 + 3(V-1), 2) >= cap (a) for R >= 2; other k larger
    assert positional_bound(2, vocab, pos_rank, 6).value == 5 * vocab**2 - 4 * vocab + 1


@pytest.mark.parametrize("vocab", [3, 5, 8])
def test_closed_form_at_depth_two_with_one_positional_direction(vocab):
    # R = 1: m = 2(V-1); k = 3: binom(2 + m, 2) + V (1 + 2(V-1)) once cap (b) is the smaller at j = 2
    m = 2 * (vocab - 1)
    value = min(comb(2 + m, 2), 1 + 3 * (vocab - 1) + 3 * (vocab - 1) ** 2) + vocab * (2 * vocab - 1)
    assert positional_bound(2, vocab, 1, 6).value == min(value, vocab**3)


def test_two_tokens_need_the_last_k():
    # N = 2: A' is empty, so H_A' = 1 and k = C + 1 gives H_B(C) = V (one B token); k = C would give 2V
    for depth in (1, 2, 3):
        assert positional_bound(depth, 4, 1, 2).value == 4


def test_min_over_k_uses_both_ends():
    # hand-made H lists (C = 4 at L = 2): k = 0 is the unique best when H_A' is tiny, k = C + 1 when H_B is
    assert positional_bound(2, 3, 1, 6, h_b=[1, 50, 60, 70, 80], h_a=[1, 1, 1, 1, 1]).value == 3
    assert positional_bound(2, 3, 1, 6, h_b=[1, 1, 1, 1, 1], h_a=[1, 50, 60, 70, 80]).value == 1
    assert positional_bound(2, 3, 1, 6, h_b=[1, 9, 9, 9, 9], h_a=[1, 1, 1, 1, 9]).value == 1 + 3 * 1  # k = 1


def test_caps_by_hand():
    assert hilbert_caps(3, 2, 5, 2) == (1 + 12 + 48, comb(14, 12), 125)
    assert hilbert_caps(2, 1, 5, 2) == (9, 13, 25)
    assert hilbert_caps(4, 0, 3, 1) == (1, 1, 81)
    assert hilbert_caps(4, -1, 3, 1) == (0, 0, 0)
    assert hilbert_caps(2, 5, 3, 1) == (9, comb(9, 4), 9)  # degree past the size: every function


def _monomial_rank(z, degree):
    """rank mod p of [z^alpha : |alpha| <= degree] over all coordinates (no reduction to free ones)."""
    n, dim = z.shape
    columns = []
    for alpha in product(range(degree + 1), repeat=dim):
        if sum(alpha) <= degree:
            col = np.ones(n, dtype=object)
            for t, e in enumerate(alpha):
                col = col * z[:, t].astype(object) ** e
            columns.append([int(v) % P for v in col])
    return flint.nmod_mat([list(r) for r in zip(*columns, strict=False)], P).rank()


@pytest.mark.parametrize("vocab,pos_rank,size", [(2, 1, 3), (3, 1, 2), (2, 2, 3), (3, 2, 2)])
def test_exact_hilbert_against_every_monomial(vocab, pos_rank, size):
    model = _model(2, vocab, pos_rank, 2 * size)
    positions = list(range(size, 2 * size))
    z = np.zeros((vocab**size, model.dim), dtype=np.int64)
    for i, seq in enumerate(product(range(vocab), repeat=size)):
        for j, w in zip(positions, seq, strict=False):
            z[i, w] += 1
            for k, x in enumerate(model.position_vector(j)):
                z[i, vocab + w * pos_rank + k] += x
    pis = [model.position_vector(j) for j in positions]
    dims = exact_hilbert(side_points(vocab, pis), 4, P)
    for degree in range(5):
        assert dims[degree] == _monomial_rank(z, degree) <= certified_hilbert(size, degree, vocab, pos_rank)


def test_probe_rows_carry_one_label_each():
    from verify import Field
    from verify.sweeps.probe import probe_tokens

    spec = NetworkSpec(depth=3, width=3, heads=1, attn_dim=3)
    found = probe_tokens(spec, Field(P), 0, 14, 4, vocab=2, rank=2, positional_rank=1)
    labels = {row["tokens"]: row["label"] for row in found.ranks}
    # N <= 10: the rank is the counting cap 2^(N/2) (proven); N = 12, 14: 52 and 64 (enumerated over every
    # sequence) meet only the bound with H at these positions, below the caps' bound and the cap
    assert [row["rank"] for row in found.ranks] == [2, 4, 8, 16, 32, 52, 64]
    assert labels == {2: "certified exact", 4: "certified exact", 6: "certified exact", 8: "certified exact",
                      10: "certified exact", 12: "probabilistic", 14: "probabilistic"}
    # Lemma P's union over every j (issue 39; the old two-term sum printed 0.000367 and 0.000411); at N = 12 every
    # sequence was kept, so the menu also holds the every-sequence offer, 64 * 132 / (2^21 + 1) (the cap 2^6 the
    # minor's size): the label's probability is the union of both offers, met or not (docs/mathematics.md §7, "A
    # label's union"), never the smaller one alone
    from fractions import Fraction

    from verify.rank.token.positional_bound import exact_bound_probability

    printed = {row["tokens"]: row["probability"] for row in found.ranks if row["label"] == "probabilistic"}
    union = Fraction(exact_bound_probability(3, 2, 1, 12, 2 * 2**20 + 1)) + Fraction(64 * 132, 2**21 + 1)
    assert Fraction(printed[12]) >= union and printed[12] - float(union) < 1e-15
    # N = 14: the probe sampled this time, but its budget lets it keep all 2^7 sequences a side, so the every-sequence
    # offer is on the menu, fixed before the draw (docs/mathematics.md §7, Lemma C), its minor of size 75 (the
    # limit's bound there, the smallest proven): Lemma P's 0.00472 + 75 * 132 / (2^21 + 1) = 0.00944
    at_14 = Fraction(exact_bound_probability(3, 2, 1, 14, 2 * 2**20 + 1)) + Fraction(75 * 132, 2**21 + 1)
    assert Fraction(printed[14]) >= at_14 and printed[14] - float(at_14) < 1e-15
    assert all(row["short_by"] == 0 for row in found.ranks)


def test_row_certainty_lower_bound_says_how_far_short():
    from verify.rank.labels import row_certainty

    assert row_certainty(50, 64, 52, 1e-4) == ("lower bound", None, 52)
    assert row_certainty(52, 64, 52, 1e-4) == ("probabilistic", 1e-4, 52)
    assert row_certainty(64, 64, None, None) == ("certified exact", 0.0, 64)
    with pytest.raises(AssertionError):
        row_certainty(53, 64, 52, 1e-4)


def test_the_sample_draws_on_past_a_stalled_rank_to_its_budget():
    # L = 2, V = 3, R = 1, N = 10: 243 sequences a side, rank 30 (the limit); aimed at 60, rows against every
    # column (issue 39): 76 rows stall at 30, doubled to 152 still 30, and the sample must still draw on to every
    # row (within the budget), each entry evaluated once ...
    model = _model(2, 3, 1, 10)
    rank, every, evaluations = sequence_rank(model, 10, 60)
    assert (rank, every, evaluations) == (30, True, 243 * 243)
    # ... but not past a budget: with room for the first doubling only it stops there, short of its aim
    rank, every, evaluations = sequence_rank(model, 10, 60, budget=152 * 243)
    assert (rank, every, evaluations) == (30, False, 152 * 243)
    # where 76 rows against every column pass the budget, rows first (issue 49 item 3): r = (budget - 76^2) // 243
    # = 52 rows against every column, whose rank (at most 30 < 52: dependent rows) ends the draw there
    rank, every, evaluations = sequence_rank(model, 10, 60, budget=76 * 243 - 1)
    assert (every, evaluations) == (False, 52 * 243) and rank <= 30
    # where not one row fits beside the square, square samples (76^2; the doubling to 152^2 would pass the budget)
    rank, every, evaluations = sequence_rank(model, 10, 60, budget=76**2 + 242)
    assert (every, evaluations) == (False, 76**2) and rank <= 30


def test_rows_against_every_column_reach_the_rank_a_square_sample_misses():
    # L = 3, V = 2, R = 1, N = 16: 256 sequences a side, rank 70 over every sequence.  Aimed at 70, 86 rows against
    # all 256 columns give 70 and stop there; an 86 x 86 square (forced by a budget with no room for one row
    # beside it) gives 57.  Between the two (issue 49 item 3), 57 rows against every column come first (their rank,
    # 57, independent rows but below the aim), then the square: the larger of the two ranks, both samples' work.
    model = _model(3, 2, 1, 16)
    assert sequence_rank(model, 16, 10**6)[:2] == (70, True)
    assert sequence_rank(model, 16, 70) == (70, False, 86 * 256)
    assert sequence_rank(model, 16, 70, budget=86**2 + 255) == (57, False, 86**2)
    rank, every, evaluations = sequence_rank(model, 16, 70, budget=86 * 256 - 1)
    assert (every, evaluations) == (False, 57 * 256 + 86**2) and 57 <= rank < 70


def test_the_counting_floor_where_the_cap_equals_the_bound_exactly():
    # a cap equal to the bound already reaches it: the floor is that N, not the next (enumerated sides)
    from itertools import product as sequences

    from verify.rank.token.positional_bound import counting_floor

    for vocab, bound, positional in [(2, 4, True), (3, 9, True), (3, 6, False), (2, 3, False), (4, 10, False)]:
        floor = next(n for n in range(2, 40, 2) if len({s if positional else tuple(sorted(s))
                                                       for s in sequences(range(vocab), repeat=n // 2)}) >= bound)
        assert counting_floor(vocab, bound, positional) == floor
        assert len({s if positional else tuple(sorted(s)) for s in sequences(range(vocab), repeat=floor // 2)}) == bound


def test_a_row_at_a_certified_limit_is_certified_and_at_a_computed_one_probabilistic():
    # the shared rule of the probe and the atlas: a certified limit is a proven bound, a computed one is an
    # offer with its probability; below every bound a row is a lower bound, short of the smallest
    from verify import NetworkSpec
    from verify.rank.labels import positional_label

    spec, bounds = NetworkSpec(depth=2, width=3), {"at_positions": None, "probability": None}
    common = dict(bounds=bounds, spec=spec, every=False, weight_range=2**16, modulus=2**31 - 1)
    assert positional_label(5, 9, limit_rank=5, **common) == ("certified exact", 0.0, 5)
    assert positional_label(5, 9, limit_rank=5, limit_certified=False, limit_probability=0.01, **common) == (
        "probabilistic", 0.01, 5)
    assert positional_label(4, 9, limit_rank=5, **common) == ("lower bound", None, 5)
    assert positional_label(9, 9, **common) == ("certified exact", 0.0, 9)


def test_an_every_sequence_offer_on_the_menu_but_not_met_bounds_nothing():
    """Lemma C's fixed menu where eq. 7.4 at the positions was not computed: the every-sequence offer (value None,
    every sequence not kept this time) stands second on the menu; it must neither be compared with the rank (the
    atlas's regeneration raised a TypeError there) nor lower the aim, and its probability joins a met offer's."""
    from fractions import Fraction

    from verify import NetworkSpec
    from verify.rank.labels import every_sequence_probability, positional_label

    spec, bounds = NetworkSpec(depth=2, width=3), {"at_positions": None, "probability": None}
    common = dict(bounds=bounds, spec=spec, every=False, weight_range=2**16, modulus=2**31 - 1, every_possible=True)
    assert positional_label(5, 9, **common) == ("lower bound", None, 9)
    label, probability, aim = positional_label(5, 9, limit_rank=5, limit_certified=False, limit_probability=0.01,
                                               **common)
    every = Fraction(every_sequence_probability(5, 9, spec, 2**16, 2**31 - 1))
    assert (label, aim) == ("probabilistic", 5) and Fraction(probability) >= Fraction(0.01) + every > Fraction(0.01)
