"""Block-level repeats (verify.rank.repeat): later runs rank only the blocks an earlier run found
below their proven upper bound, each block keeps its best run, and the bound is
M max_a prod_k min(1, e_(a,k)) over the blocks still below their upper bound, M the number of degree blocks
(a set read off the draws: the sum of its products is no bound, ``test_the_printed_bound_is_valid...``)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from verify import Field, NetworkSpec
from verify.rank.blocks import Block
from verify.rank.certainty import Certainty
from verify.rank.reduced import reduced_separation_rank
from verify.rank.repeat import block_level_bound, field_weight_range, repeat_until
from verify.rank.result import SepResult

SPEC = NetworkSpec(depth=1, width=2)
UPPER = [3, 10, 8]  # planted per-block upper bounds


def _blocks(ranks, bounds, ranked=None):
    return [Block(u, u, r, upper_bound=u, probability_bound=(0.0 if r == u else e),
                  ranked=ranked is None or a in ranked)
            for a, (r, u, e) in enumerate(zip(ranks, UPPER, bounds, strict=False))]


def _planted(first, later):
    """A first full run and later block-level runs with planted block ranks and bounds."""
    calls = []

    def once(seed, field):
        calls.append((seed, field.modulus, None))
        blocks = _blocks(*first)
        return SepResult(sum(b.rank for b in blocks), "reduced", field.name, SPEC, seed, None,
                         Certainty(True, 0.5, "planted"), blocks)

    def only(seed, field, degrees):
        calls.append((seed, field.modulus, tuple(degrees)))
        ranks, bounds = later[len(calls) - 2]
        blocks = _blocks([r if a in degrees else 0 for a, r in enumerate(ranks)], bounds, set(degrees))
        return SepResult(sum(b.rank for b in blocks), "reduced", field.name, SPEC, seed, None,
                         Certainty(True, None, "planted"), blocks)
    return once, only, calls


def test_a_block_deficient_in_one_run_and_full_in_another_is_certified():
    once, only, calls = _planted(([3, 9, 7], [0.0, 0.5, 0.25]), [([0, 10, 8], [1, 1e-3, 1e-3])])
    out = repeat_until(once, Field(101), 4, 1e-9, 5, rank_blocks=only)
    assert calls == [(4, 101, None), (5, 97, (1, 2))]  # the second run ranks the two deficient blocks only
    assert out.rank == 21 and out.certified_exact and out.probability_bound == 0.0
    assert out.best.certainty.certified_exact and "certified exact" in out.stopped


def test_each_block_keeps_its_best_run_and_the_bound_is_m_times_the_largest_product():
    # block 1 stays deficient (9 then 8: the first run is better), block 2 reaches 8 in run 2
    once, only, calls = _planted(([3, 9, 7], [0.0, 0.5, 0.25]),
                                 [([0, 8, 8], [1, 0.125, 1e-3]), ([0, 9, 0], [1, 2.0**-30, 1])])
    out = repeat_until(once, Field(101), 0, 1e-9, 3, rank_blocks=only)
    assert [c[2] for c in calls] == [None, (1, 2), (1,)]
    assert out.rank == 3 + 9 + 8
    assert not out.certified_exact
    assert Fraction(out.probability_bound) >= 3 * Fraction(1, 2) * Fraction(1, 8) * Fraction(2.0**-30)  # M = 3 blocks
    assert out.probability_bound == block_level_bound({1: [0.5, 0.125, 2.0**-30]}, 3)


@pytest.mark.parametrize("bounds,blocks,expected", [
    ({0: [0.5, 0.5], 1: [0.25]}, 2, Fraction(1, 2)), ({0: [3.0, 0.5]}, 3, Fraction(1)), ({}, 4, Fraction(0)),
    ({0: [0.5, 0.5], 1: [0.125]}, 5, Fraction(1)),  # 5 x 1/4, capped at 1
    ({0: [1e-10, 1e-10], 1: [1e-12]}, 7, 7 * Fraction(1e-12))])
def test_the_bound_is_m_times_the_largest_product_rounded_up_never_down(bounds, blocks, expected):
    got = block_level_bound(bounds, blocks)
    assert Fraction(got) >= expected and (expected == 0 or Fraction(got) <= expected * (1 + Fraction(1, 2**50)))


def test_more_blocks_below_their_bound_than_degree_blocks_is_an_engine_error():
    with pytest.raises(ValueError, match="only 1 degree blocks"):
        block_level_bound({0: [0.5], 1: [0.5]}, 1)


def test_the_printed_bound_is_valid_where_the_sum_over_the_deficient_blocks_is_not():
    """Validity of a bound P read off the draws: Pr[R < g and P <= b] <= b for every b (docs/mathematics.md §7).
    Planted exactly: two blocks of generic ranks 10 and 8 (their proven upper bounds), each missing with
    probability e = 1/8 in a run (so e is a valid Schwartz-Zippel bound for each), in disjoint draws; one run.
    In each miss the other block meets its bound, so the sum over the deficient blocks prints e while
    Pr[R < g and P <= e] = 2e; M max prints 3e (M = 3 blocks) and is valid at every b."""
    e = Fraction(1, 8)
    outcomes = [(e, [3, 9, 8]), (e, [3, 10, 7]), (1 - 2 * e, [3, 10, 8])]  # (probability, block ranks)
    printed = []
    for chance, ranks in outcomes:
        once, only, _ = _planted((ranks, [0.0, float(e), float(e)]), [])
        out = repeat_until(once, Field(101), 0, 1e-9, 1, rank_blocks=only)
        wrong = out.rank < sum(UPPER)
        printed.append((chance, wrong, Fraction(out.probability_bound)))
        deficient = [a for a, (r, u) in enumerate(zip(ranks, UPPER, strict=True)) if r < u]
        if wrong:
            assert sum((e for _ in deficient), Fraction(0)) == e  # what the sum over the deficient blocks printed
    for b in {p for _, _, p in printed}:
        assert sum((c for c, wrong, p in printed if wrong and p <= b), Fraction(0)) <= b
    # the old rule: P = sum over the deficient blocks = e in each miss, and Pr[wrong and P <= e] = 2e > e
    assert sum((c for c, wrong, _ in printed if wrong), Fraction(0)) == 2 * e


def test_the_reduced_route_by_blocks_matches_whole_runs_at_depth_3_width_3_two_heads_of_one():
    """Every block's rank in a block-level run equals the same block's rank in a whole run at the same
    seed and prime.  Two heads of d_a = 1 at width 3 stay below the kernel bound (B3) in most blocks
    (three heads meet it since (B3): no block would be repeated)."""
    spec, field = NetworkSpec(depth=3, width=3, heads=2, attn_dim=1), Field(8388593)
    whole = reduced_separation_rank(spec, field, 1, field_weight_range(field))
    deficient = [a for a, b in enumerate(whole.blocks) if b.rank < b.upper_bound]
    part = reduced_separation_rank(spec, field, 1, field_weight_range(field), only_blocks=deficient)
    assert deficient and [part.blocks[a].rank for a in deficient] == [whole.blocks[a].rank for a in deficient]
    assert all(not part.blocks[a].ranked for a in range(len(part.blocks)) if a not in deficient)
    assert whole.rank < whole.extra["upper_bound"]
