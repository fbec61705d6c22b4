"""Independent runs until the bound on missing the generic rank meets a target (issue 14, items 3 and 7)."""

import json
import math
import random

import numpy as np
import sympy
from hypothesis import given
from hypothesis import strategies as st

from verify import Field, NetworkSpec
from verify.cli.main import main
from verify.rank import degree_blocks
from verify.rank.certainty import Certainty
from verify.rank.degree_blocks import degree_block_ranks
from verify.rank.moments import moment_table
from verify.rank.repeat import distinct_primes, repeat_until
from verify.rank.result import SepResult

SPEC = NetworkSpec(depth=1, width=2)


def _fake(ranks, bounds, exact_at=None):
    """rank_once returning planted ranks and per-run bounds, recording the fields it was given."""
    seen = []

    def run(seed, field):
        i = len(seen)
        seen.append((seed, field.modulus))
        exact = i == exact_at
        certainty = Certainty(True, 0.0 if exact else bounds[i], "planted", exact)
        return SepResult(ranks[i], "reduced", field.name, SPEC, seed, None, certainty)
    return run, seen


@given(st.integers(1, 40), st.integers(2, 60))
def test_runs_stop_at_the_first_count_whose_product_of_bounds_meets_the_target_or_at_once_if_out_of_reach(
        exponent, target_exponent):
    """Bounds 2^-e per run (exact in binary): the product first drops to 2^-t after ceil(t/e) runs."""
    run, seen = _fake([3] * 20, [2.0**-exponent] * 20)
    out = repeat_until(run, Field(2**61 - 1), 5, target=2.0**-target_exponent, max_runs=20)
    expected = math.ceil(target_exponent / exponent)
    if expected > 20:  # out of reach: known after the first run, not after twenty wasted ones
        assert len(out.runs) == 1 and "more than max_runs" in out.stopped
        return
    assert len(out.runs) == expected
    assert out.probability_bound <= 2.0**-target_exponent
    assert [s for s, _ in seen] == list(range(5, 5 + expected))  # independent weights: seed, seed + 1, ...


def test_the_largest_rank_is_reported_and_counted():
    run, _ = _fake([5, 7, 6], [0.125, 0.125, 0.125])
    out = repeat_until(run, Field(101), target=2.0**-9, max_runs=3)  # (1/8)^3 = 2^-9: three runs
    assert out.rank == 7 and len(out.runs) == 3
    assert out.as_dict()["runs_at_rank"] == 1
    assert out.as_dict()["primes"] == [101, 97, 89]  # each run in its own field


def test_a_certified_exact_run_stops_the_loop_with_bound_zero():
    run, seen = _fake([4, 9], [2.0**-4, 2.0**-4], exact_at=1)
    out = repeat_until(run, Field(101), target=1e-9, max_runs=8)
    assert out.certified_exact and out.probability_bound == 0 and out.rank == 9 and len(seen) == 2


def test_a_run_that_bounds_nothing_is_not_repeated():
    run, seen = _fake([4] * 8, [1.0] * 8)
    out = repeat_until(run, Field(101), max_runs=8)
    assert len(seen) == 1 and out.probability_bound == 1.0 and "bounds nothing" in out.stopped


def test_distinct_primes_are_the_primes_below_the_first_in_decreasing_order():
    from itertools import islice
    got = list(islice(distinct_primes(2**26 + 15), 5))  # 2^26 + 15 is prime
    expected = [2**26 + 15]
    while len(expected) < 5:
        expected.append(sympy.prevprime(expected[-1]))
    assert got == expected


def test_sep_repeats_over_small_primes_until_the_product_of_bounds_is_below_1e_9(capsys):
    """Depth 2, width 3, two heads of d_a = 1: rank 25 < 26 = the upper bound, so never certified exact.
    Only degree block 1 (6 x 168, rank 5 below its bound 6 = its row count) is short, so the later runs
    rank it alone (block-level repeats), and with weights uniform over GF(p) its bound per run is
    6 * 2(3^2 - 1)/p + 6/p = 102/p: at p near 10^6 three runs are needed (5 (102/p)^2 ~ 5.2e-8, M = 5 blocks)."""
    assert main(["sep", "--depth", "2", "--width", "3", "--heads", "2", "--attn-dim", "1", "--field", "gf:1000003",
                 "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    primes = [1000003, sympy.prevprime(1000003), sympy.prevprime(sympy.prevprime(1000003))]
    assert out["rank"] == 25 and out["runs"] == 3 and out["primes"] == primes
    assert [r.get("blocks") for r in out["run_details"]] == [None, [1], [1]]
    # M = 5 degree blocks (every term has degree 4: A-degrees 0..4) times the one short block's product
    expected = 5 * math.prod(102 / p for p in primes)
    assert len(json.loads(json.dumps(out["blocks"]))) == 5
    assert expected <= out["probability_bound"] <= expected * (1 + 1e-9)
    # the sentence names its event, the rule (M times the largest product, M fixed by the spec) and the prime condition
    meaning = out["meaning"]
    assert "below the generic rank with probability at most M max_a prod_k e_(a,k) = 5.31e-12" in meaning, meaning
    assert "over the 1 block(s) below their upper bound times the M = 5 degree blocks" in meaning, meaning
    assert "unless p divides the content of every witness minor" in meaning, meaning
    assert out["certified_exact"] is False and out["elimination"]
    assert any("GF(p)" in n for n in out["notes"])  # the bad-prime caveat beside the number


def test_sep_stops_after_one_run_when_the_rank_meets_the_upper_bound(capsys):
    assert main(["sep", "--depth", "2", "--width", "2", "--field", "gf:1000003", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["rank"] == 18 and out["certified_exact"] and out["probability_bound"] == 0 and out["runs"] == 1


def test_escalating_primes_do_not_stop_after_a_first_run_that_bounds_nothing():
    """A fast prime's run may bound nothing (1.0) while a large prime's run bounds a lot: with an
    explicit prime sequence the first run must not predict the rest."""
    run, seen = _fake([4] * 8, [1.0, 2.0**-40] + [1.0] * 6)
    out = repeat_until(run, Field(101), target=1e-9, max_runs=8, primes=iter([101, 97, 89]))
    assert [m for _, m in seen] == [101, 97] and out.probability_bound == 2.0**-40


def test_sep_without_a_field_runs_the_fast_prime_first_then_63_bit_primes(capsys):
    """Depth 2, width 3, two heads of d_a = 1 (rank 25 < 26, never exact): first GF(1048573), then
    GF(2^63 - 25), whose bound 442 / (2^63 - 25) alone meets 1e-9; one head (rank 18 = the bound): one
    fast run."""
    from verify.exact.fields import DEFAULT_PRIME, FAST_PRIME

    assert main(["sep", "--depth", "2", "--width", "3", "--heads", "2", "--attn-dim", "1", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert [r["prime"] for r in out["run_details"]] == [FAST_PRIME, DEFAULT_PRIME]
    assert out["rank"] == 25 and out["probability_bound"] <= 442 / FAST_PRIME * 442 / DEFAULT_PRIME * (1 + 1e-9)
    assert main(["sep", "--depth", "2", "--width", "2", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["certified_exact"] and out["primes"] == [FAST_PRIME] and out["rank"] == 18


def test_null_space_mixing_is_drawn_from_the_run_seed(monkeypatch):
    """q_k = combinations of the 6th powers of 3 linear forms in 6 variables (3 components): the block
    a = 3 (56 x 168) has rank 3, so its 88-column slice leaves a null space of 53 > 32 columns, which is
    mixed down.  Two seeds: the same exact ranks, different mixing matrices."""
    p = 2**31 - 1
    field = Field(p)
    ctx = field.poly_context(("s", 6))
    rng = random.Random(7)
    forms = [sum((g * rng.randrange(p) for g in ctx.gens()), ctx.from_dict({})) for _ in range(3)]
    q = [sum((f**6 * rng.randrange(p) for f in forms), ctx.from_dict({})) for _ in range(3)]
    exps = [np.array(poly.monoms(), dtype=np.int64).reshape(len(poly), 6) for poly in q]
    moments = moment_table(exps, [poly.coeffs() for poly in q], field, 6, 6, True)
    mixed = []
    real = degree_blocks._mixing

    def spy(*args):
        mix = real(*args)
        mixed.append((args[-1], mix.copy()))  # (the seed H is drawn from, H)
        return mix
    monkeypatch.setattr(degree_blocks, "_mixing", spy)
    ranks, first = [], []
    for seed in (0, 1):
        mixed.clear()
        ranks.append(degree_block_ranks(field, moments, 6, 6, seed=seed)[0])
        first.append(mixed[0])
    assert ranks[0] == ranks[1] == 1 + 6 * 3  # block 0 is one row; blocks 1..6 span the 3 forms' powers
    assert first[0][0] != first[1][0] and not np.array_equal(first[0][1], first[1][1])


def test_the_elimination_names_every_run_s_kernel_not_only_the_best_run_s():
    """The certainty of a repeated rank comes from every run: a fast run's float elimination and a
    later FLINT run's kernel are both named, in run order, each once."""
    from verify.rank.blocks import Block

    ranks, seen = [5, 5], []

    def run(seed, field):
        blocks = [Block(3, 3, 3, elimination="float64-blas-pluq")] if not seen else []
        seen.append(field.modulus)
        return SepResult(ranks[len(seen) - 1], "reduced", field.name, SPEC, seed, None,
                         Certainty(True, 2.0**-20, "planted"), blocks)
    out = repeat_until(run, Field(101), target=1e-9, max_runs=2, primes=iter([101, 97]))
    assert out.as_dict()["elimination"] == "float64-blas-pluq + flint nmod_mat"
    assert [r["elimination"] for r in out.as_dict()["run_details"]] == ["float64-blas-pluq", "flint nmod_mat"]
