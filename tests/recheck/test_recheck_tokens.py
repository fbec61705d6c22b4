"""The offers a token rank's label may rest on (docs/mathematics.md §7), case by case."""

from __future__ import annotations

from fractions import Fraction

from verify.recheck import tokens

P = 2**31 - 1


def _cell(**limit):
    return tokens.Cell(3, 3, 1, 3, 2, 2, 1, **limit)


def test_every_sequence_kept_offers_its_schwartz_zippel_bound():
    # L = 3, V = 2, R = 1, N = 12: proven = min(cap 64, eq. 7.4's caps 64, derivative bound 75) = 64, entry degree
    # 2 * 26 + 6 * 13 + 2 = 132, |S| = 2^21 + 1
    offers = tokens._offers(_cell(), 12, 60, None, True)
    assert offers == [(Fraction(64 * 132, 2**21 + 1), "every sequence kept")]
    assert tokens._offers(_cell(), 12, 60, None, False) == []


def test_the_positions_offer_needs_the_rank_to_meet_eq74_at_the_positions():
    union = Fraction(783, 233017)  # issue 39 item 1 at L = 3, V = 2, R = 1, N = 12
    assert (tokens._offers(_cell(), 12, 52, 52, False)
            == [(union, "eq. 7.4 with H at the positions (union over every j)")])
    assert tokens._offers(_cell(), 12, 51, 52, False) == []


def test_a_computed_limit_offers_its_own_probability_and_a_certified_one_is_proven():
    computed = _cell(limit=70, limit_certified=False, limit_upper=75)
    (value, what), = tokens._offers(computed, 16, 70, None, False)
    # the union over the doubling's k = 8, 16, 32, 64, 76 (each term with min(k, upper = 75))
    assert what == "the computed limit"
    assert value == sum(Fraction(k * 132, 2**21 + 1) + Fraction(k, P) for k in (8, 16, 32, 64, 75))
    assert _cell(limit=70, limit_certified=True).proven(16) == (70, "the certified limit")
