"""Lemma R (docs/mathematics.md §7): independent repeats multiply, over the prefix of runs that meet.

Tested as an argument, not only as a number: the product refuses runs from one seed; the printed number is the
exact product rounded up; the engine's repeat loop, fed every sequence of scripted run outcomes with their
probabilities, prints statements that are wrong with at most the probability they print (a loop that counted every
run that met, or multiplied one run twice, fails it); the limit's repeats use distinct seeds and primes, and their
bound is the product of the per-run unions recomputed here from the formula.
"""

from __future__ import annotations

import itertools
from fractions import Fraction
from math import comb

import pytest
import sympy

from verify.model.embeddings import VocabularyEmbedding
from verify.model.spec import NetworkSpec, draw_weights
from verify.rank.certainty import REPEAT_TARGET, RunBound, format_bound, independent_product
from verify.rank.token import limit as limit_module
from verify.sweeps.atlas import repeats as repeats_module

SPEC = NetworkSpec(depth=2, width=3, heads=2, attn_dim=1)


def test_runs_from_one_seed_are_refused():
    with pytest.raises(ValueError, match="repeat a seed"):
        independent_product("e", [RunBound(3, 7, Fraction(1, 10)), RunBound(3, 5, Fraction(1, 10))], "")


def test_the_product_is_exact_and_printed_rounded_up():
    runs = [RunBound(s, 7, Fraction(1, 3)) for s in range(5)]
    bound = independent_product("e", runs, "")
    assert bound.bound == Fraction(1, 243)
    assert Fraction(bound.value) >= Fraction(1, 243)
    assert Fraction(format_bound(bound.value)) >= Fraction(1, 243)
    assert format_bound(bound.value) == "0.00412"  # 1/243 = 0.004115226..., rounded up, never down
    assert independent_product("e", [RunBound(0, 7, Fraction(3, 2))], "").bound == 1  # a bound above 1 counts as 1


def _script(monkeypatch, outcomes):
    """repeat_row's later runs return ``outcomes`` in order: (rank, evaluations, met kinds)."""
    queue = list(outcomes)
    monkeypatch.setattr(repeats_module, "row_run", lambda *args, **kw: queue.pop(0))


def _repeat(first, left=10**9, target=Fraction(1, 1000)):
    return repeats_module.repeat_row(SPEC, 2, 1, 6, 0, 2**31 - 1, 99, None, 10**6, first, "at_positions",
                                     {"left": left}, 1e-6, target)


def test_the_engine_loop_prints_only_what_it_proves(monkeypatch):
    """Every sequence of outcomes of three runs, with its probability: each run's event E (prob e) makes it low and
    meet its bound; otherwise it is low without meeting (a lower bound, prob mu) or exact.  For every printed beta,
    Pr[R < g and printed <= beta] <= beta (Lemma R).  A loop that skipped a run that did not meet and went on
    counting the ones that did would print e^2 on sequences (E, L, E), and fail here."""
    e, mu, g = Fraction(1, 10), Fraction(7, 10), 50
    kinds = {"E": (g - 1, Fraction(0), {"at_positions": e}), "L": (g - 1, 0, {}), "G": (g, 0, {"at_positions": e})}
    prob = {"E": e, "L": mu, "G": 1 - e - mu}
    outcomes = []
    for seq in itertools.product("ELG", repeat=3):
        if seq[0] == "L":
            continue  # a first run that met no bound is not repeated
        _script(monkeypatch, [kinds[s] for s in seq[1:]])
        best, kind, bound, _ = _repeat((kinds[seq[0]][0], 0, kinds[seq[0]][2]))
        weight = prob[seq[0]] * prob[seq[1]] * prob[seq[2]]
        outcomes.append((best < g, bound, weight))
    for beta in {bound for _, bound, _ in outcomes}:
        wrong = sum(w for bad, bound, w in outcomes if bad and bound <= beta)
        assert wrong <= beta, (beta, wrong)


def test_a_run_that_does_not_meet_ends_the_product(monkeypatch):
    e = Fraction(1, 10)
    _script(monkeypatch, [(49, 0, {}), (49, 0, {"at_positions": e})])
    best, kind, bound, note = _repeat((49, 0, {"at_positions": e}))
    assert bound == e and "met no bound of its kind" in note and note.startswith("1 runs")


def test_a_seed_used_twice_is_refused_not_multiplied(monkeypatch):
    """A planted bug that gives every repeat the first run's seed (the same draws, the same event) is caught."""
    e = Fraction(1, 10)
    _script(monkeypatch, [(49, 0, {"at_positions": e})] * 3)
    monkeypatch.setattr(repeats_module, "repeat_seed", lambda seed, run: seed)
    with pytest.raises(ValueError, match="repeat a seed"):
        _repeat((49, 0, {"at_positions": e}))


def test_a_row_beyond_the_budget_says_why(monkeypatch):
    e = Fraction(1, 10)
    best, kind, bound, note = _repeat((49, 5_000, {"at_positions": e}), left=4_999)
    assert bound == e and "budget: one run costs 5,000 evaluations of F" in note


def test_a_run_at_a_proven_bound_certifies_the_row(monkeypatch):
    e = Fraction(1, 10)
    _script(monkeypatch, [(50, 0, {"certified": Fraction(0)})])
    best, kind, bound, _ = _repeat((49, 0, {"at_positions": e}))
    assert (best, kind, bound) == (50, "certified", 0)


def _union_by_hand(upper: int, degree: int, p: int) -> Fraction:
    """docs/mathematics.md §7: sum over k = 8, 16, ..., upper + 1 of min(k, upper) (D / s + 1 / p), s = 2^21 + 1
    (the embedding's range; the weights' 2^32 + 1 values read mod p < 2^31 are more)."""
    total, k = Fraction(0), min(8, upper + 1)
    while True:
        total += min(k, upper) * (Fraction(degree, 2 * 2**20 + 1) + Fraction(1, p))
        if k >= upper + 1:
            return total
        k = min(2 * k, upper + 1)


def test_the_repeated_limit_is_the_product_of_independent_runs():
    """(L, V, H, R) = (2, 2, 2, 2): one run bounds 0.000842; two runs at seeds 0 and 1,000,003 and primes 2^31 - 1
    and the next prime below bring it under 1e-6."""
    spec = NetworkSpec(depth=2, width=3, heads=2, attn_dim=1)
    embedding = VocabularyEmbedding(3, 2, 2, 2, 0)
    out = limit_module.repeated_limit(spec, embedding, 2**31 - 1, 0, repeat_evaluations=10**8)
    seeds, primes = [r["seed"] for r in out.runs], [r["prime"] for r in out.runs]
    assert seeds == [0, 1_000_003] and len(set(primes)) == 2
    assert primes == [2**31 - 1, sympy.prevprime(2**31 - 1)]
    upper, degree = out.upper_bound, 2 * (3**2 - 1) + 6 * 4 + 2
    assert upper == 18 and out.rank == max(r["rank"] for r in out.runs) == 17
    expected = _union_by_hand(upper, degree, primes[0]) * _union_by_hand(upper, degree, primes[1])
    assert out.exact_bound == expected <= REPEAT_TARGET
    assert Fraction(out.probability_bound) >= expected
    weights = [draw_weights(spec, s) for s in seeds]
    assert weights[0] != weights[1]  # the runs' draws differ


def test_an_atlas_row_repeats_to_one_in_a_million():
    """(3, 2, 1, R = 1): N = 12 meets eq. 7.4 at its positions (Lemma P, recomputed here from the caps) and is
    repeated three times; the printed product is Lemma P's cube, rounded up."""
    from verify.sweeps.atlas.plan import parse_cell
    from verify.sweeps.atlas.run import compute_cell

    row = compute_cell(parse_cell("3,2,1,1"))
    labels = dict(item.split(":") for item in row["ranks_labels"].split())
    assert "12:3 runs" in row["repeats"].split(" | ")

    def cap(size, j):
        m = 2
        return min(sum(comb(size, i) for i in range(min(j, size) + 1)), comb(j + m, m), 2**size)

    lemma_p = sum(Fraction(j * cap(size, j), 2 * 2**20 + 1) for size in (6, 5) for j in range(1, 14))
    assert labels["12"] == f"probabilistic({format_bound(float(lemma_p**3) * (1 + 1e-12))})"
    assert lemma_p**3 <= REPEAT_TARGET < lemma_p**2


def _fake_limit(rank: int, evaluations: int = 100) -> limit_module.TokenLimit:
    return limit_module.TokenLimit(rank, 20, False, 0.1, 8, evaluations, 0.0, 2**31 - 1,
                                   exact_bound=Fraction(1, 10))


def test_the_repeated_limit_is_the_largest_rank_over_its_runs(monkeypatch):
    """Scripted runs of ranks 10 (the first), 12, 11 at bound 1/10 each: three runs reach 1/1000, the value is 12."""
    queue = [_fake_limit(12), _fake_limit(11)]
    monkeypatch.setattr(limit_module, "token_limit", lambda *args, **kw: queue.pop(0))
    out = limit_module.repeated_limit(SPEC, VocabularyEmbedding(3, 2, 2, 2, 0), 2**31 - 1, 0,
                                      repeat_evaluations=10**6, target=Fraction(1, 1000), first=_fake_limit(10))
    assert out.rank == 12 and [r["rank"] for r in out.runs] == [10, 12, 11]
    assert out.exact_bound == Fraction(1, 1000)


def test_a_limit_beyond_its_repeat_budget_says_why(monkeypatch):
    monkeypatch.setattr(limit_module, "token_limit", lambda *args, **kw: _fake_limit(12))
    out = limit_module.repeated_limit(SPEC, VocabularyEmbedding(3, 2, 2, 2, 0), 2**31 - 1, 0,
                                      repeat_evaluations=150, target=Fraction(1, 1000), first=_fake_limit(10))
    assert len(out.runs) == 2 and out.exact_bound == Fraction(1, 100)  # the second run fits, a third would not
    assert out.repeats_note.startswith("budget: one run costs 100 evaluations of F")


def test_the_cell_repeat_budget_is_spent_by_the_limit(monkeypatch):
    """Bound 1/10 a run: six runs reach 1e-6; the five repeats' 5 x 30 evaluations leave the cell's budget."""
    queue = [_fake_limit(12, 30) for _ in range(5)]
    monkeypatch.setattr(limit_module, "token_limit", lambda *args, **kw: queue.pop(0))
    repeats = {"left": 1_000, "notes": []}
    out = repeats_module.repeat_cell_limit(_fake_limit(10), SPEC, VocabularyEmbedding(3, 2, 2, 2, 0), 0, 10**6,
                                           repeats, 1e-6)
    assert len(out.runs) == 6 and repeats["left"] == 1_000 - 150 and repeats["notes"] == ["limit:6 runs"]


def test_the_repeats_column_states_each_runs_prime_condition():
    """A product over runs holds unless some run's own prime divides every witness minor: the n_atlas column
    dictionary says so beside the repeats it describes (the CSV's meaning of the column)."""
    from verify.rank.certainty import REPEATS_PRIME_CONDITION
    from verify.schema import load

    assert REPEATS_PRIME_CONDITION in load("n_atlas")["properties"]["repeats"]["description"]
