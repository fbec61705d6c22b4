"""The compiled grid of the token Gram route, and the token limit's row shortcut, against independent routes."""

import random

import numpy as np
import pytest

from verify import Field, NetworkSpec, draw_weights
from verify.model.embeddings import VocabularyEmbedding
from verify.rank.token.gram import TOKEN_PRIME, GramModel
from verify.rank.token.grid_loop import grid
from verify.rank.token.limit import token_limit
from verify.rank.token.route import derivative_upper_bound, free_variables


@pytest.mark.parametrize("spec,vocab,pos_rank,p", [
    (NetworkSpec(depth=1, width=5, heads=2, attn_dim=2), 3, 2, TOKEN_PRIME),
    (NetworkSpec(depth=2, width=3, heads=2, attn_dim=1, residual=True), 3, 2, TOKEN_PRIME),
    (NetworkSpec(depth=3, width=4), 3, 2, TOKEN_PRIME),
    (NetworkSpec(depth=3, width=4, heads=2), 3, 0, TOKEN_PRIME),
    (NetworkSpec(depth=4, width=5, heads=2, attn_dim=2, residual=True), 4, 1, 2**31 - 19),
    (NetworkSpec(depth=2, width=4), 3, 1, 1000003),
])
def test_compiled_grid_equals_the_numpy_passes(spec, vocab, pos_rank, p):
    model = GramModel(spec, draw_weights(spec, 2), VocabularyEmbedding(spec.width, vocab, vocab, pos_rank, 2), p)
    rng = np.random.default_rng(4)
    left, right = rng.integers(0, p, (9, model.dim)), rng.integers(0, p, (11, model.dim))
    query = rng.integers(0, vocab, 9)
    model.compiled = True  # forced: a grid this small stays on numpy by default
    compiled = model.evaluate_grid(left, right, query)
    model.compiled = False
    assert (compiled == model.evaluate_grid(left, right, query)).all()


def _python_y(s, g, a, b, residual, output, x, p):
    """The recursion of ``grid_loop`` on one pair, in Python integers (S_L formed as a matrix)."""
    d = len(s)

    def mul(u, v):
        return [[sum(u[r][k] * v[k][c] for k in range(d)) % p for c in range(d)] for r in range(d)]

    def tr(u):
        return [list(col) for col in zip(*u, strict=False)]

    def plus(u, v):
        return [[(u[r][c] + v[r][c]) % p for c in range(d)] for r in range(d)]

    eye = [[int(residual and r == c) for c in range(d)] for r in range(d)]
    maps = []
    for layer in range(len(a) - 1):
        if layer:
            g = eye
            for h in range(len(a[layer])):
                g = plus(g, mul(mul(a[layer][h], s), b[layer][h]))
        maps.append(g)
        s = mul(mul(g, s), tr(g))
    top = eye
    for h in range(len(a[-1])):
        top = plus(top, mul(mul(a[-1][h], s), b[-1][h]))
    row = top[output]
    for g in reversed(maps):
        row = [sum(row[k] * g[k][c] for k in range(d)) % p for c in range(d)]
    return sum(row[c] * x[c] for c in range(d)) % p


@pytest.mark.parametrize("p", [TOKEN_PRIME, 2**31 - 19, 1000003])
@pytest.mark.parametrize("layers,heads,residual", [(1, 2, 1), (3, 2, 1), (3, 1, 0)])
def test_compiled_grid_at_the_largest_sums_against_python_integers(p, layers, heads, residual):
    # every entry p - 1: each product is (p - 1)^2, every dot product and sum the largest the notes bound
    d = 5
    full = np.full((2, d, d), p - 1, dtype=np.int64)
    stack = np.full((layers, heads, d, d), p - 1, dtype=np.int64)
    queries = np.full((2, d), p - 1, dtype=np.int64)
    out = np.zeros((2, 2), dtype=np.int64)
    grid(full, full, full, full, stack, stack, residual, 1, queries, p, out)
    big = [[p - 1] * d for _ in range(d)]
    s = [[(2 * (p - 1)) % p] * d for _ in range(d)]  # S_left + S_right; G_1 likewise
    a = [[big] * heads for _ in range(layers)]
    expected = _python_y(s, s, a, a, residual, 1, [p - 1] * d, p)
    assert (out == expected).all()
    rng = random.Random(7)  # and at random residues, entry by entry
    parts = [np.array([[[rng.randrange(p) for _ in range(d)] for _ in range(d)] for _ in range(2)], dtype=np.int64)
             for _ in range(4)]
    a = np.array([[[[rng.randrange(p) for _ in range(d)] for _ in range(d)] for _ in range(heads)]
                  for _ in range(layers)], dtype=np.int64)
    b = np.array([[[[rng.randrange(p) for _ in range(d)] for _ in range(d)] for _ in range(heads)]
                  for _ in range(layers)], dtype=np.int64)
    queries = np.array([[rng.randrange(p) for _ in range(d)] for _ in range(2)], dtype=np.int64)
    grid(*parts, a, b, residual, 0, queries, p, out)
    for i in range(2):
        for j in range(2):
            s = ((parts[0][i] + parts[1][j]) % p).tolist()
            g = ((parts[2][i] + parts[3][j]) % p).tolist()
            assert out[i, j] == _python_y(s, g, a.tolist(), b.tolist(), residual, 0, queries[i].tolist(), p)


def _whole_matrix_limit(spec, weights, embedding, p, seed=0):
    """The limit as before the row shortcut: every one of the V k rows evaluated at every doubling, ranked by
    FLINT (the same seeded draws as ``token_limit``)."""
    model = GramModel(spec, weights, embedding, p)
    vocab, big_r = embedding.vocab, embedding.positional_rank
    upper = derivative_upper_bound(spec.layer_degree, free_variables(spec, vocab, big_r), vocab)
    rng = np.random.default_rng(random.Random(f"verify-token-limit:{seed}").getrandbits(63))
    assert not big_r  # the constant K0 draw is skipped: positions are not needed for this check
    half = int(rng.integers(1, p))

    def points(k, total):
        z = rng.integers(0, p, size=(k, model.dim))
        z[:, vocab - 1] = (total - z[:, :vocab - 1].sum(axis=1)) % p
        return z

    zeta0 = model.zeta(0)
    k, rows, cols = min(8, upper + 1), None, None
    while True:
        grow = k if rows is None else k - len(rows)
        new_rows, new_cols = points(grow, half - 1), points(grow, half)
        rows = new_rows if rows is None else np.vstack([rows, new_rows])
        cols = new_cols if cols is None else np.vstack([cols, new_cols])
        model.compiled = False
        matrix = np.vstack([model.evaluate_grid((rows + zeta0[w]) % p, cols, np.full(k, w)) for w in range(vocab)])
        found = Field(p).from_rows(matrix).rank()
        if found < k or found == upper:
            return found
        k = min(2 * k, upper + 1)


@pytest.mark.parametrize("depth,width,vocab,rank", [
    (2, 3, 3, 3), (2, 4, 4, 4), (3, 2, 2, 2), (3, 3, 3, 3),  # certified: the shortcut meets the proven bound
    (1, 3, 5, 3), (2, 2, 4, 2), (3, 2, 3, 1), (3, 3, 4, 2)])  # below it: the shortcut falls back to every row
def test_limit_row_shortcut_gives_the_whole_matrix_rank(depth, width, vocab, rank):
    # the shortcut ranks the rows of the first ceil((k + 16) / V) row points and stops when they meet k or the
    # proven bound: against every row evaluated by the numpy passes and ranked by FLINT, on the same draws
    spec = NetworkSpec(depth=depth, width=width)
    weights, embedding = draw_weights(spec, 1), VocabularyEmbedding(width, vocab, rank, 0, 1)
    limit = token_limit(spec, weights, embedding, TOKEN_PRIME)
    whole = _whole_matrix_limit(spec, weights, embedding, TOKEN_PRIME)
    assert limit.rank == whole
    if limit.certified_exact and -(-(limit.points + 16) // vocab) < limit.points:
        # the first rows met the bound: the other rows were never evaluated
        assert limit.evaluations < vocab * limit.points ** 2


@pytest.mark.parametrize("slack", [-10**9, -1, -3])
@pytest.mark.parametrize("depth,width,vocab,rank", [(2, 3, 3, 3), (3, 2, 2, 2), (2, 2, 4, 2), (3, 3, 4, 2)])
def test_limit_falls_back_to_every_row_when_the_first_rows_fall_short(monkeypatch, slack, depth, width, vocab, rank):
    # with too few first rows (none at all, or fewer than k) the shortcut cannot meet k or the bound from them,
    # so it must evaluate every row: the whole matrix's rank, on the same draws
    import verify.rank.token.limit as route

    monkeypatch.setattr(route, "LIMIT_ROW_SLACK", slack)
    spec = NetworkSpec(depth=depth, width=width)
    weights, embedding = draw_weights(spec, 1), VocabularyEmbedding(width, vocab, rank, 0, 1)
    assert token_limit(spec, weights, embedding, TOKEN_PRIME).rank == _whole_matrix_limit(spec, weights, embedding,
                                                                                         TOKEN_PRIME)


def test_reductions_at_their_edges_against_python_integers():
    from verify.exact.modp_compiled import MERSENNE
    from verify.exact.modp_compiled import part as _part
    from verify.exact.modp_compiled import red as _red

    for p in (MERSENNE, 2**31 - 19, 1000003):
        edges = [0, 1, p - 1, p, p + 1, 2 * p - 1, 2 * p, 2**32 - 1, (p - 1) ** 2, 2**46 - 1, 13 * p]
        for t in edges:
            assert _red(t, p) == t % p
            if t < 2**62:
                assert 0 <= _part(t, p) < 2**32 and _part(t, p) % p == t % p


@pytest.mark.parametrize("depth,width,vocab,pos_rank,tokens,target", [(3, 3, 2, 1, 16, 200), (2, 4, 3, 2, 8, 60),
                                                                       (2, 3, 2, 1, 12, 40)])
def test_the_last_every_sequence_step_copies_the_sampled_entries(depth, width, vocab, pos_rank, tokens, target):
    # aiming near the count, the sample doubles into every sequence: the matrix it ranks then reuses the
    # sampled entries, and must equal the matrix over every sequence evaluated afresh (the rank of a sample
    # aimed at the count itself, which starts at every sequence) while evaluating fewer entries
    from verify.rank.token.route import sequence_rank

    spec = NetworkSpec(depth=depth, width=width)
    model = GramModel(spec, draw_weights(spec, 0), VocabularyEmbedding(width, vocab, vocab, pos_rank, 0), TOKEN_PRIME)
    count = vocab ** (tokens // 2)
    first, kept_all, _ = sequence_rank(model, tokens, target, budget=(target + 16) ** 2)
    assert target + 16 < count and not kept_all and first < target  # the first sample falls short: it doubles
    fresh, every_fresh, evaluations_fresh = sequence_rank(model, tokens, count)
    grown, every_grown, evaluations_grown = sequence_rank(model, tokens, target)
    assert every_fresh and every_grown and evaluations_fresh == count * count
    assert grown == fresh and evaluations_grown < (target + 16) ** 2 + count * count
