"""Issue 39 items 1 and 43's PB survivors: the probability printed beside eq. 7.4 at the positions is Lemma P's
union over every j on both sides (docs/mathematics.md §7), recomputed here independently; the edges of
``bounds_at`` and the every-sequence offer of the labels."""

from fractions import Fraction
from math import comb, nextafter

import pytest

from verify.model.embeddings import EMBEDDING_RANGE
from verify.rank.certainty import format_bound, residue_sample_size
from verify.rank.labels import positional_label
from verify.rank.token.limit import entry_degree
from verify.rank.token.positional_bound import bounds_at, eq74_probability, exact_bound_probability

S = 2 * 2**20 + 1  # pi drawn from [-2^20, 2^20], distinct mod 2^31 - 1
P = 2**31 - 1


def _cap(size, j, vocab, pos_rank):
    """The three caps on H_X(j) written out again: functions of <= j positions, monomials of an affine space of
    dimension (V - 1)(1 + R), all functions on [V]^|X|."""
    few = sum(comb(size, i) * (vocab - 1) ** i for i in range(min(j, size) + 1))
    m = (vocab - 1) * (1 + pos_rank)
    return min(few, comb(j + m, m), vocab**size)


def _union(depth, vocab, pos_rank, tokens):
    degree = (3**depth - 1) // 2
    sides = [size for size in (tokens // 2, tokens // 2 - 1) if size > 0]
    return Fraction(sum(j * _cap(size, j, vocab, pos_rank) for size in sides for j in range(1, degree + 1)), S)


# issue 39's table (its figures rounded to nearest; the printed bound is rounded up)
@pytest.mark.parametrize("row,table", [((3, 3, 1, 12), 0.0324), ((3, 2, 1, 12), 0.00336), ((3, 2, 1, 14), 0.00472),
                                       ((4, 2, 1, 16), 0.134), ((4, 2, 1, 18), 0.232)])
def test_the_union_over_every_j_reproduces_issue_39s_table(row, table):
    exact = _union(*row)
    assert eq74_probability(*row, S).bound == exact
    assert exact_bound_probability(*row, S) == nextafter(float(exact), 1.0)
    assert abs(float(exact) - table) < 0.0005 * max(1.0, table * 100)
    assert float(format_bound(exact_bound_probability(*row, S))) >= float(exact)


def test_the_printed_figures_of_the_old_two_term_sum_were_below_the_bound():
    """0.00312, 0.000367, 0.0048 were the two-term sums at the k found; the union is about ten times larger."""
    assert exact_bound_probability(3, 3, 1, 12, S) > 10 * 0.00312
    assert exact_bound_probability(3, 2, 1, 12, S) > 9 * 0.000367
    assert exact_bound_probability(4, 2, 1, 16, S) > 27 * 0.0048


def test_degree_one_terms_and_both_sides_count():
    """At L = 1 (C = 1) only j = 1 enters: 1 * cap_B(1) + 1 * cap_A'(1); at N = 2 A' is empty (H = 1 always)."""
    assert eq74_probability(1, 3, 1, 6, S).bound == Fraction(_cap(3, 1, 3, 1) + _cap(2, 1, 3, 1), S)
    assert eq74_probability(1, 3, 1, 2, S).bound == Fraction(_cap(1, 1, 3, 1), S)
    assert eq74_probability(1, 3, 1, 6, S).bound == Fraction(5 + 5, S)  # binom(1 + 4, 4) = 5 below 1 + 3*2 and 1 + 2*2


def test_bounds_at_computes_h_up_to_its_point_limit_and_not_past_it():
    """``max_points`` is the most sequences a side for which H is computed at the positions: at exactly that many
    the bound at the positions is given, one fewer allowed and it is not (the 729-point edge)."""
    positions = [[3], [11], [-7], [5], [13], [2]]
    at = bounds_at(2, 2, positions, 6, P, S, max_points=8)
    assert at["at_positions"] is not None and at["probability"] == exact_bound_probability(2, 2, 1, 6, S)
    assert bounds_at(2, 2, positions, 6, P, S, max_points=7)["at_positions"] is None


@pytest.mark.parametrize("depth,vocab,pos_rank,tokens,rank", [(3, 2, 1, 12, 52), (2, 5, 2, 6, 106)])
def test_bounds_at_positions_is_the_rank_over_every_sequence_where_they_meet(depth, vocab, pos_rank, tokens, rank):
    """The rank over every sequence (docs/conjecture_n.md: 52 at L = 3, V = 2, R = 1, N = 12; 106 = 61 + 5 * 9 at
    L = 2, V = 5, N = 6) is eq. 7.4 with H at the row's own sides (A' = positions 1..N/2 - 1, B = N/2..N - 1); at
    V = 5 H_A'(1) = 9 of the two positions of A' decides it (three positions would give 13: 61 + 65 > 125)."""
    from verify import NetworkSpec, draw_weights
    from verify.model.embeddings import VocabularyEmbedding
    from verify.rank.token.gram import GramModel
    from verify.rank.token.tokens import positional_bounds

    width = vocab + 1
    spec = NetworkSpec(depth=depth, width=width, heads=1, attn_dim=width, tokens=tokens)
    model = GramModel(spec, draw_weights(spec, 0), VocabularyEmbedding(width, vocab, vocab, pos_rank, 0), P)
    assert positional_bounds(model, tokens)["at_positions"] == rank


def test_every_sequence_offer_uses_the_smaller_sample():
    """Every sequence kept: the rank is generic unless a minor of degree <= proven * entry_degree vanishes, the
    weights drawn from 2 * 2^31 + 1 integers (effective (2^32 + 1)/3 mod 2^31 - 1), the embedding from 2^21 + 1:
    Schwartz-Zippel needs the smaller."""
    from verify import NetworkSpec

    spec = NetworkSpec(depth=3, width=4, heads=1, attn_dim=4)
    label, probability, _ = positional_label(645, 705, {"at_positions": None, "probability": None}, spec, True,
                                             2**31, P, 705, True, 0.0)
    smaller = min(residue_sample_size(2 * 2**31 + 1, P), Fraction(2 * EMBEDDING_RANGE + 1))
    assert smaller == S
    assert label == "probabilistic" and probability == nextafter(float(Fraction(705 * entry_degree(spec), S)), 1.0)
    assert format_bound(probability) == "0.0444"  # 705 * 132 / (2^21 + 1), docs/conjecture_n.md's N = 14 row


def test_the_limits_probability_runs_over_every_doubling_k():
    """The doubling stops at a k read off the same draws: the union over k = 8, 16, ..., 512, 706 at u = 705, each
    a minor of size min(k, u) (8 + 16 + ... + 512 + 705 = 1,721), not u alone at the k found."""
    from verify.rank.token.limit import limit_probability

    degree, sample = 132, Fraction(S)
    expected = sum(Fraction(min(k, 705) * degree) / sample + Fraction(min(k, 705), P)
                   for k in (8, 16, 32, 64, 128, 256, 512, 706))
    assert sum(min(k, 705) for k in (8, 16, 32, 64, 128, 256, 512, 706)) == 1721
    assert limit_probability(705, degree, sample, P).bound == expected
    assert limit_probability(7, degree, sample, P).bound == 7 * (Fraction(degree) / sample + Fraction(1, P))  # k = 8
