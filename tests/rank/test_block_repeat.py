"""Block-level repeats (verify.rank.repeat): later runs rank only the blocks an earlier run found
below their proven upper bound, each block keeps its best run, and the bound is
P(R < g) <= sum_a prod_k min(1, e_(a,k)) over the blocks still below their upper bound."""

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


def test_each_block_keeps_its_best_run_and_the_bound_sums_products_over_deficient_blocks():
    # block 1 stays deficient (9 then 8: the first run is better), block 2 reaches 8 in run 2
    once, only, calls = _planted(([3, 9, 7], [0.0, 0.5, 0.25]),
                                 [([0, 8, 8], [1, 0.125, 1e-3]), ([0, 9, 0], [1, 2.0**-30, 1])])
    out = repeat_until(once, Field(101), 0, 1e-9, 3, rank_blocks=only)
    assert [c[2] for c in calls] == [None, (1, 2), (1,)]
    assert out.rank == 3 + 9 + 8
    assert not out.certified_exact
    assert Fraction(out.probability_bound) >= Fraction(1, 2) * Fraction(1, 8) * Fraction(2.0**-30)
    assert out.probability_bound == block_level_bound({1: [0.5, 0.125, 2.0**-30]})


@pytest.mark.parametrize("bounds,expected", [
    ({0: [0.5, 0.5], 1: [0.25]}, Fraction(1, 2)), ({0: [3.0, 0.5]}, Fraction(1, 2)), ({}, Fraction(0)),
    ({0: [1e-10, 1e-10], 1: [1e-12]}, Fraction(1e-10) ** 2 + Fraction(1e-12))])
def test_the_bound_is_the_sum_of_products_rounded_up_never_down(bounds, expected):
    got = block_level_bound(bounds)
    assert Fraction(got) >= expected and (expected == 0 or Fraction(got) <= expected * (1 + Fraction(1, 2**50)))


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
