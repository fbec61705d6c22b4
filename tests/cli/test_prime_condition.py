"""Issue 39 item 2: every probabilistic statement over GF(p) states the prime condition ("unless p divides the content
of every witness minor", docs/mathematics.md §3) on each route: sep, table/claims (the certainty label), probe-n and the
atlas (their label texts, tested beside them)."""

from verify.cli.sep import certainty_rows
from verify.rank.certainty import BAD_PRIME_NOTE, PRIME_CONDITION, WHP_LABEL, Certainty
from verify.sweeps.claim_run import rank_rows
from verify.sweeps.provenance import certainty_label


def test_the_condition_is_one_sentence_everywhere():
    assert PRIME_CONDITION == "unless p divides the content of every witness minor"
    assert PRIME_CONDITION in BAD_PRIME_NOTE and PRIME_CONDITION in WHP_LABEL


def test_sep_prints_it_beside_a_probability_over_gf_p_and_not_over_q():
    out = {"field": "gf:1048573", "certified_lower_bound": True, "upper_bound": 10, "upper_bound_kind": "B1",
           "probability_bound": 0.5}
    rows = dict(certainty_rows(out))
    assert rows["P(below generic over GF(p))"] == f"<= 0.5; generic over Q {PRIME_CONDITION}"
    assert PRIME_CONDITION not in dict(certainty_rows({**out, "field": "qq"}))["P(below generic)"]


def test_table_and_claims_labels_carry_it_where_a_probability_is_claimed():
    assert Certainty(True, 1e-9, "").label == WHP_LABEL == certainty_label(True, 1e-9)
    assert certainty_label(True, 0.0) == "certified" and certainty_label(True, None) == "certified lower bound"
    from verify import NetworkSpec

    (row,) = rank_rows([(NetworkSpec(depth=2, width=2), {"rank": 17, "certified_lower_bound": True,
                                                          "probability_bound": 1e-12, "primes": [7]})])
    assert PRIME_CONDITION in row["certainty"]
