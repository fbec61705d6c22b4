"""The batched literal pass (``batched``) against today's pass (``arith.forward_output``) and a naive pass on Python
integers written here from eq. 3; its products at exactly their largest sums; column weights = repeated tokens."""

from __future__ import annotations

import random

import numpy as np
import pytest

from verify.recheck import arith
from verify.recheck.batched import MAX_FLOAT_INNER, MAX_INNER, BatchedPass, _mm

P = 2**31 - 1


def _naive(layers, x, p, output, position, residual=False, weights=None):
    """Eq. 3 of [L20] on Python integers: Y = sum_h W^O W^V X diag(c) X^T W^K^T W^Q X (+ X), one sequence."""
    d, n = len(x), len(x[0])
    c = weights or [1] * n
    for layer in layers:
        y = [[0] * n for _ in range(d)]
        for q, k, v, o in layer:
            def proj(w, x=x):
                return [[sum(w[a][i] * x[i][j] for i in range(d)) for j in range(n)] for a in range(len(w))]
            qx, kx, vx = proj(q), proj(k), proj(v)
            scores = [[sum(kx[a][i] * qx[a][j] for a in range(len(q))) for j in range(n)] for i in range(n)]
            z = [[sum(vx[a][i] * c[i] * scores[i][j] for i in range(n)) for j in range(n)] for a in range(len(q))]
            for r in range(d):
                for j in range(n):
                    y[r][j] += sum(o[r][a] * z[a][j] for a in range(len(q)))
        x = [[(y[r][j] + (x[r][j] if residual else 0)) % p for j in range(n)] for r in range(d)]
    return x[output][position]


@pytest.mark.parametrize("depth,width,heads,tokens,residual", [(1, 3, 1, 2, False), (2, 4, 2, 4, False),
                                                                (3, 3, 1, 6, True), (2, 5, 1, 3, False)])
def test_the_batched_pass_is_todays_pass_and_the_naive_one(depth, width, heads, tokens, residual):
    layers = arith.seeded_weights(depth, width, heads, width // heads, 7, 2**31)
    rng = np.random.default_rng(depth * 10 + width)
    x = rng.integers(0, P, size=(40, width, tokens), dtype=np.int64)
    new = BatchedPass(layers, P, residual)
    for output, position in ((0, 0), (width - 1, tokens - 1)):
        got = new.output(x, output, position)
        assert (got == arith.forward_output(layers, x, P, output, position, residual)).all()
        for b in range(3):
            assert int(got[b]) == _naive(layers, x[b].tolist(), P, output, position, residual)


def test_column_weights_are_repeated_tokens():
    """eq. 3 with column v of weight c_v = eq. 3 with token v repeated c_v times (the output at any copy)."""
    layers = arith.seeded_weights(2, 3, 1, 3, 1, 2**31)
    cols = [[random.Random(i).randrange(P) for _ in range(3)] for i in range(3)]
    counts = [2, 1, 3]
    repeated = np.array([[cols[v][r] for v in range(3) for _ in range(counts[v])] for r in range(3)], dtype=np.int64)
    once = np.array([[cols[v][r] for v in range(3)] for r in range(3)], dtype=np.int64)
    run = BatchedPass(layers, P)
    for v, at in ((0, 1), (1, 2), (2, 5)):
        literal = run.output(repeated[None], 1, at)[0]
        weighted = run.output(once[None], 1, v, np.array([counts]))[0]
        assert literal == weighted == _naive(layers, once.tolist(), P, 1, v, weights=counts)


@pytest.mark.parametrize("k", [MAX_FLOAT_INNER, MAX_FLOAT_INNER + 1, MAX_INNER])
def test_products_at_exactly_the_largest_sum(k):
    """Every a entry p - 1 against b entries with the largest halves: 0x7FFEFFFF (low half 2^16 - 1, the largest
    low sum k (p - 1)(2^16 - 1)) and p - 1 (the largest high half 0x7FFF)."""
    p = P
    a = np.full((2, k), p - 1, dtype=np.int64)
    b = np.full((k, 2), p - 1, dtype=np.int64)
    assert int(b[0, 0]) & 0xFFFF == 0xFFFE and int(b[0, 0]) >> 16 == 0x7FFF
    b[:, 1] = 0x7FFEFFFF
    got = _mm(a, b, p)
    for j in range(2):
        assert int(got[0, j]) == k * (p - 1) * int(b[0, j]) % p


def test_a_product_beyond_the_exact_size_is_refused():
    with pytest.raises(ValueError):
        _mm(np.zeros((1, MAX_INNER + 1), dtype=np.int64), np.zeros((MAX_INNER + 1, 1), dtype=np.int64), P)


def test_a_whole_token_matrix_is_priced_by_its_own_size():
    """The price of the whole matrix at N covers every sequence it evaluates at the pass's rate, plus building the
    network: with positions rows x columns at N; without, one per distinct (output token, multiset of the other
    N - 1 tokens), counted here by enumerating the entries, each over V weighted columns where V < N."""
    import itertools

    from verify.recheck.network import TokenNetwork, seconds_per_sequence

    for big_r, n in ((0, 6), (1, 4), (0, 10)):
        net = TokenNetwork(2, 4, 1, 4, 3, 3, big_r, 0, 2**31)
        half = n // 2
        if big_r:
            evaluated = 3 ** half * 3 ** half
        else:
            cols = list(itertools.combinations_with_replacement(range(3), half))
            rests = list(itertools.combinations_with_replacement(range(3), half - 1))
            rows = [(w,) + rest for w in range(3) for rest in rests]
            evaluated = len({(a[0], tuple(sorted(a[1:] + b))) for a in rows for b in cols})
            assert evaluated < len(rows) * len(cols)
        columns = n if big_r else min(n, 3)  # without positions: the V weighted columns of a multiset where V < N
        assert net.full_rank_seconds(n) >= evaluated * seconds_per_sequence(2, 4, 1, 4, columns) + net.setup_seconds()
        assert net._layers is None and net._columns is None  # pricing built nothing


def test_the_matrix_without_positions_evaluates_each_multiset_once_and_equals_the_literal_matrix():
    """``TokenNetwork.matrix`` without positions (one evaluation per output token and multiset) equals the literal
    pass on every sequence a || b, entry by entry, and on a random sample of rows and columns; with an output
    position other than 0 it is the literal route."""
    from verify.recheck.network import TokenNetwork

    for depth, vocab, n in ((2, 3, 6), (3, 2, 10), (2, 4, 8)):
        net = TokenNetwork(depth, vocab + 1, 1, vocab + 1, vocab, vocab, 0, 0, 2**31)
        rows, cols = net.sides(n)
        pairs = np.concatenate([np.repeat(rows, len(cols), axis=0), np.tile(cols, (len(rows), 1))], axis=1)
        literal = net.evaluate(pairs).reshape(len(rows), len(cols))
        assert (net.matrix(rows, cols) == literal).all()
        assert (net.matrix(rows[::3], cols[1::2]) == literal[::3, 1::2]).all()
    assert TokenNetwork(2, 4, 1, 4, 3, 3, 0, 0, 2**31, position=1)._multiset_keys(6) is None
