"""The rank lemma of the token limit (docs/mathematics.md §7), by brute force on small cases.

The lemma: f(x; t) = sum_{r <= Lambda} a_r(x) b_r(t), both families linearly independent, gives k x k matrices
M = [f(x_i; t_j)] of rank <= min(k, Lambda) at every choice of points, and exactly min(k, Lambda) at some.  Checked
by enumerating every k-tuple of points over tiny sets (ranks by a small elimination written here, not the engine's),
and on the engine's own limit matrix for small specs: rank M_k = min(k, Lambda) at every k, Lambda the value the
doubling finds, at most the derivative bound, and (without positions) the value sep(N) reaches by the count route.
"""

from __future__ import annotations

import itertools
import random

import numpy as np
import pytest

from verify.model.embeddings import VocabularyEmbedding
from verify.model.spec import NetworkSpec, draw_weights
from verify.rank.token.gram import GramModel
from verify.rank.token.limit import token_limit
from verify.rank.token.route import count_rank, derivative_upper_bound, free_variables

P = 7


def rank_mod(rows: list[list[int]], p: int) -> int:
    """Rank mod p by plain Gaussian elimination (independent of the engine's kernels)."""
    m = [[v % p for v in row] for row in rows]
    rank, cols = 0, len(m[0]) if m else 0
    for c in range(cols):
        pivot = next((i for i in range(rank, len(m)) if m[i][c]), None)
        if pivot is None:
            continue
        m[rank], m[pivot] = m[pivot], m[rank]
        inv = pow(m[rank][c], p - 2, p)
        m[rank] = [v * inv % p for v in m[rank]]
        for i in range(len(m)):
            if i != rank and m[i][c]:
                factor = m[i][c]
                m[i] = [(v - factor * w) % p for v, w in zip(m[i], m[rank], strict=True)]
        rank += 1
    return rank


def _family(size: int, count: int, rng: random.Random) -> list[list[int]]:
    """``count`` linearly independent functions on a set of ``size`` points (values mod P), by rejection."""
    while True:
        table = [[rng.randrange(P) for _ in range(count)] for _ in range(size)]
        if rank_mod(table, P) == count:
            return table


@pytest.mark.parametrize("lam", [1, 2, 3])
@pytest.mark.parametrize("k", [1, 2, 3, 4])
def test_every_sample_is_at_most_min_k_lambda_and_some_reach_it(k, lam):
    rng = random.Random(f"rank-lemma:{k}:{lam}")
    size = 4 if k <= 3 else 3  # every k-tuple a side: size^k each
    a, b = _family(size, lam, rng), _family(size, lam, rng)

    def f(x, t):
        return sum(a[x][r] * b[t][r] for r in range(lam)) % P

    ranks = set()
    for xs in itertools.product(range(size), repeat=k):
        for ts in itertools.product(range(size), repeat=k):
            ranks.add(rank_mod([[f(x, t) for t in ts] for x in xs], P))
    assert max(ranks) == min(k, lam)


def test_the_hypothesis_matters_dependent_rows_stay_below():
    """With a_2 = a_1 (dependent), no sample reaches min(k, 2) = 2: the lemma's independence is used."""
    rng = random.Random("rank-lemma:dependent")
    a = [[v, v] for v in (rng.randrange(P) for _ in range(4))]
    b = _family(4, 2, rng)
    best = max(rank_mod([[sum(a[x][r] * b[t][r] for r in range(2)) % P for t in ts] for x in xs], P)
               for xs in itertools.product(range(4), repeat=2) for ts in itertools.product(range(4), repeat=2))
    assert best == 1


def test_polynomial_families_over_a_prime_field_reach_the_rank_at_random_points():
    """a_r = x^r, b_r = t^r (r < Lambda < p: independent functions on GF(p)): random points give rank min(k, Lambda)
    except with probability <= the Schwartz-Zippel bound of the minor, degree q * 2 (Lambda - 1), over p."""
    p, lam, trials = 101, 4, 400
    rng = random.Random("rank-lemma:poly")
    for k in (2, 4, 6):
        q = min(k, lam)
        misses = 0
        for _ in range(trials):
            xs, ts = [rng.randrange(p) for _ in range(k)], [rng.randrange(p) for _ in range(k)]
            matrix = [[sum(pow(x, r, p) * pow(t, r, p) for r in range(lam)) for t in ts] for x in xs]
            found = rank_mod(matrix, p)
            assert found <= q
            misses += found < q
        # the bound q * 2 (lam - 1) / p, with room for sampling noise (a wrong lemma would miss far more often)
        assert misses / trials <= 2 * q * 2 * (lam - 1) / p + 0.05


def _side_points(rng: np.random.Generator, k: int, vocab: int, total: int, p: int) -> np.ndarray:
    z = rng.integers(0, p, size=(k, vocab))
    z[:, vocab - 1] = (total - z[:, :vocab - 1].sum(axis=1)) % p
    return z


@pytest.mark.parametrize("depth,vocab,heads", [(1, 2, 1), (1, 3, 1), (2, 2, 1), (2, 3, 1), (2, 2, 2)])
def test_the_engine_limit_matrix_has_rank_min_k_lambda_at_every_k(depth, vocab, heads):
    """The lemma's hypotheses on the engine's function (no positions): M_k built here from random points of the two
    sides' hyperplanes has rank exactly min(k, Lambda) for every k = 1..Lambda + 3 at two independent draws, with
    Lambda the limit the doubling finds, at most the derivative bound."""
    width = vocab + 1
    spec = NetworkSpec(depth=depth, width=width, heads=heads, attn_dim=max(1, width // heads))
    p = 2**31 - 1
    for seed in (0, 1):
        embedding = VocabularyEmbedding(width, vocab, vocab, 0, seed)
        weights = draw_weights(spec, seed)
        limit = token_limit(spec, weights, embedding, p, seed)
        upper = derivative_upper_bound(spec.layer_degree, free_variables(spec, vocab, 0), vocab)
        assert limit.rank <= upper
        model = GramModel(spec, weights, embedding, p)
        rng = np.random.default_rng(100 + seed)
        half = int(rng.integers(1, p))
        top = limit.rank + 3
        rows, cols = _side_points(rng, top, vocab, half - 1, p), _side_points(rng, top, vocab, half, p)
        zeta0 = model.zeta(0)
        for k in range(1, top + 1):
            blocks = [model.evaluate_grid((rows[:k] + zeta0[w]) % p, cols[:k], np.full(k, w)) for w in range(vocab)]
            matrix = np.vstack(blocks)
            assert rank_mod(matrix.tolist(), p) == min(k, limit.rank), (k, limit.rank)


@pytest.mark.parametrize("depth,vocab", [(1, 2), (1, 3), (2, 2), (2, 3)])
def test_the_limit_is_the_rank_sep_reaches_without_positions(depth, vocab):
    """An independent route to Lambda: without positions sep(N) = Lambda for all but finitely many N >= 2C + 2
    (docs/mathematics.md §7); the count route's sep at N = 2C + 2 and 2C + 4 equals the limit."""
    width = vocab + 1
    spec = NetworkSpec(depth=depth, width=width, heads=1, attn_dim=width)
    p = 2**31 - 1
    embedding = VocabularyEmbedding(width, vocab, vocab, 0, 0)
    weights = draw_weights(spec, 0)
    limit = token_limit(spec, weights, embedding, p, 0)
    c = spec.layer_degree
    for tokens in (2 * c + 2, 2 * c + 4):
        model = GramModel(spec.with_tokens(tokens), weights, embedding, p)
        assert count_rank(model, tokens)[0] == limit.rank
