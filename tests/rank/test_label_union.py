"""A probabilistic label's probability is the union over every offer on the row's menu, met or not
(docs/mathematics.md §7, "A label's union"), never the smallest offer the rank happens to meet: which offers a
rank meets is read off the same draw."""

from fractions import Fraction

from verify.rank.labels import row_certainty


def _is_the_sum_rounded_up(printed: float, *terms: float) -> bool:
    exact = sum((Fraction(t) for t in terms), Fraction(0))
    return exact <= Fraction(printed) <= exact + Fraction(1, 10**15)


def test_a_row_meeting_two_offers_prints_their_union_not_the_smaller():
    """Rank 40 meets both eq. 7.4 at the positions (0.01) and every sequence kept (0.02), below the proven 50:
    the label is probabilistic with 0.01 + 0.02 = 0.03 (rounded up), not 0.01."""
    label, probability, aim = row_certainty(40, 50, 40, 0.01, [(40, 0.02)])
    assert (label, aim) == ("probabilistic", 40)
    assert _is_the_sum_rounded_up(probability, 0.01, 0.02) and probability > 0.02


def test_an_offer_on_the_menu_counts_even_where_it_is_not_met():
    """Rank 40 meets the computed limit (0.004) but not eq. 7.4 at the positions (45, 0.001): the menu, fixed
    before the draw, holds both, so 0.005."""
    label, probability, _ = row_certainty(40, 50, 45, 0.001, [(40, 0.004)])
    assert label == "probabilistic" and _is_the_sum_rounded_up(probability, 0.001, 0.004)


def test_the_union_is_capped_at_one_and_a_single_offer_is_printed_as_is():
    assert row_certainty(40, 50, 40, 0.7, [(40, 0.6)])[1] == 1.0
    assert row_certainty(40, 50, 40, 0.00337) == ("probabilistic", 0.00337, 40)
    assert row_certainty(50, 50, 55, 0.01, [(55, 0.02)]) == ("certified exact", 0.0, 50)
    assert row_certainty(30, 50, 40, 0.01, [(45, 0.02)]) == ("lower bound", None, 40)
