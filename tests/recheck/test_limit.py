"""The limit route of ``limit``: against limits known independently (the derivative bound where it is met, the
committed atlas's certified limits), a planted limit one above or one below, and the first-N search."""

from __future__ import annotations

import itertools
from math import comb

import pytest

from verify.recheck import formulas
from verify.recheck.core import BEYOND, CONFIRMED, CONTRADICTED, Recheck
from verify.recheck.limit import check_limit_value, first_even_n, limit_rank
from verify.recheck.tokens import Cell


def _cell(depth, vocab, heads=1):
    width = vocab + 1
    return Cell(depth, width, heads, width // heads, vocab, vocab, 0, 0, 2**31)


@pytest.mark.parametrize("depth,vocab", [(1, 3), (2, 2), (2, 3), (3, 2)])
def test_the_limit_meets_the_derivative_bound(depth, vocab):
    """Without positions these cells' limits are certified at the derivative bound (docs/mathematics.md §7: 13
    for V = 3 at depth 2; results/n_atlas.csv: 3, 5, 13, 14); the recomputed rank is at most it, and reaches it."""
    bound = formulas.derivative_bound(depth, vocab + 1, vocab, 0)
    assert bound == {(1, 3): 3, (2, 2): 5, (2, 3): 13, (3, 2): 14}[(depth, vocab)]
    assert limit_rank(_cell(depth, vocab), bound + 4, "t") == bound


def _verdict(stated, at_least=False):
    rc = Recheck(60)
    check_limit_value(rc, "cell", _cell(2, 3), stated, at_least)
    rc.run()
    return rc.findings[-1].status


def test_a_limit_one_above_is_not_confirmed_and_one_below_is_contradicted():
    assert _verdict(13) == CONFIRMED
    assert _verdict(12) == CONTRADICTED  # rank 13 recomputed: a certified lower bound above 12
    assert _verdict(14) == BEYOND        # a lower bound of 13 cannot confirm 14, nor refute it
    assert _verdict(12, at_least=True) == CONFIRMED


@pytest.mark.parametrize("positional", [False, True])
def test_first_even_n_is_the_scan(positional):
    for vocab, target in itertools.product(range(2, 6), range(1, 400, 7)):
        n = 2
        while (vocab ** (n // 2) if positional else comb(n // 2 + vocab - 1, vocab - 1)) < target:
            n += 2
        assert first_even_n(vocab, target, positional) == n, (vocab, target)
    assert first_even_n(1, 5, False) is None


def test_the_virtual_columns_give_a_real_sequence_at_its_own_counts():
    """At the counts, positional sums and K_0 = sum_j pi_j pi_j^T of a real token sequence, the weighted pass over
    the virtual columns is the literal pass over that sequence (docs/mathematics.md §7, the Gram route)."""
    import numpy as np

    from verify.recheck import arith
    from verify.recheck.batched import BatchedPass
    from verify.recheck.limit import virtual_columns, weights

    cell = Cell(2, 4, 1, 4, 3, 3, 2, 5, 2**31)
    p, v, big_r = cell.p, 3, 2
    sequence = [2, 0, 2, 1, 1, 0]
    pis = [arith.positional_coefficients(big_r, cell.seed, j) for j in range(len(sequence))]
    c = np.zeros((1, v), dtype=np.int64)
    m = np.zeros((1, v, big_r), dtype=np.int64)
    kappa = np.zeros((big_r, big_r), dtype=np.int64)
    for token, pi in zip(sequence, pis, strict=True):
        c[0, token] += 1
        m[0, token] = (m[0, token] + np.array(pi) % p) % p
        kappa = (kappa + np.outer(np.array(pi, dtype=object), np.array(pi, dtype=object)) % p).astype(np.int64) % p
    x, first = virtual_columns(cell)
    got = BatchedPass(cell.net.layers, p).output(x[None], cell.output, first + sequence[0], weights(c, m, kappa, p))
    assert int(got[0]) == int(cell.net.evaluate(np.array([sequence]))[0])


def test_a_positional_limit_is_recomputed():
    """(L = 2, V = 3, R = 1): the derivative bound 30 (results/n_atlas.csv row 51 certifies the limit there)."""
    cell = Cell(2, 4, 1, 4, 3, 3, 1, 0, 2**31)
    bound = formulas.derivative_bound(2, 4, 3, 1)
    assert bound == 30 and limit_rank(cell, bound + 4, "t") == bound
