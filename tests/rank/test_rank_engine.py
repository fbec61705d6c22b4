"""Tests aimed at realistic one-line engine bugs that the rest of the suite let through (issue 14,
item 6, rank-engine half).  Each names the bug it kills; expected values come from routes that
share no code with the engine part under test (Python integers, dictionaries, FLINT, closed forms).
"""

from __future__ import annotations

from math import comb

import flint
import numpy as np

from verify import Field, NetworkSpec
from verify.exact.compositions import compositions
from verify.exact.kernels import three_limb_product as modular_product
from verify.rank.blocks import rank_by_blocks
from verify.rank.moments import AdditiveEncoder, Terms, search_gather
from verify.rank.routes import rank_once as separation_rank  # one run at the given seed

P = 2**63 - 25


def test_modular_product_is_exact_for_inner_dimensions_past_four_thousand():
    """Kills: ``modp.INNER_CHUNK`` raised past 2^11 (limb sums over 2^53, products inexact)."""
    rng = np.random.default_rng(11)
    inner = 4500
    # p - 1 = 2^63 - 26 has limbs (2^21 - 26, 2^21 - 1, 2^21 - 1): every limb product near 2^42
    left = np.full((3, inner), P - 1, dtype=np.int64)
    right = rng.integers(P - 2**30, P, (inner, 4), dtype=np.int64)
    right[:, 0] = P - 1
    left[1] = rng.integers(0, P, inner, dtype=np.int64)
    got = modular_product(left, right, P)
    expected = (left.astype(object) @ right.astype(object)) % P
    assert (got == expected).all()


def test_multi_word_key_lookup_finds_every_sum_of_keys():
    """Kills: the additive multi-word hash combined with ``^`` instead of ``+`` in ``search_gather``.

    28 variables with exponents below 5 need two words per key; the expected values come from a
    dictionary keyed by the exponent tuples."""
    nvars, degree = 28, 4
    encoder = AdditiveEncoder(nvars, degree + 1)
    assert encoder.words > 1
    exps = compositions(degree, nvars)
    rng = np.random.default_rng(5)
    chosen = exps[rng.choice(len(exps), 400, replace=False)]
    values = rng.integers(1, 1000, len(chosen)).astype(np.int64)
    table = {tuple(e): int(v) for e, v in zip(chosen.tolist(), values, strict=False)}
    halves = compositions(2, nvars)
    rows, cols = halves[:60], halves[rng.choice(len(halves), 80, replace=False)]
    got = search_gather(Terms(encoder.encode(chosen), values), encoder.encode(rows), encoder.encode(cols), np.int64)
    expected = [[table.get(tuple((r + c).tolist()), 0) for c in cols] for r in rows]
    assert got.tolist() == expected
    assert np.count_nonzero(got) > 0


def test_depth_two_width_seven_meets_the_degree_block_count():
    """Kills the same hash bug end to end (the rank drops to 8): depth 2, width 7 has 28 variables
    and multi-word keys.  Its rank is the closed-form count sum_a min(rows_a, cols_a) of the
    catalecticant's degree blocks (rows C(a+n-1, n-1), columns d C(C-a+n-1, n-1)), an upper bound
    for every network, met here."""
    spec = NetworkSpec(depth=2, width=7, heads=1)
    n, c, d = 28, spec.layer_degree, spec.width
    count = sum(min(comb(a + n - 1, n - 1), d * comb(c - a + n - 1, n - 1)) for a in range(c + 1))
    assert separation_rank(spec, "reduced").rank == count == 638


def test_rank_by_blocks_counts_one_by_one_components():
    """Kills: 1 x 1 components skipped in ``blocks.rank_by_blocks``.  A matrix with isolated
    nonzero entries beside larger components, against FLINT's rank of the dense matrix."""
    rng = np.random.default_rng(2)
    dense = np.zeros((9, 8), dtype=np.int64)
    dense[0, 0] = 5  # isolated entries: 1 x 1 components
    dense[3, 7] = -2
    dense[8, 4] = 1
    dense[np.ix_([1, 2, 4], [1, 2, 3])] = rng.integers(1, 7, (3, 3))
    dense[np.ix_([5, 6, 7], [5, 6])] = [[1, 2], [2, 4], [3, 6]]  # rank 1
    rows, cols = np.nonzero(dense)
    expected = flint.nmod_mat(9, 8, [int(v) % P for v in dense.ravel()], P).rank()
    for field in (Field(P), Field(None)):
        got = rank_by_blocks(field, rows.astype(np.int64), cols.astype(np.int64), dense[rows, cols].tolist())
        assert got.rank == expected
        assert sum(1 for b in got.blocks if (b.rows, b.cols) == (1, 1)) == 3
