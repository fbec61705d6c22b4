"""The batched literal pass of eq. 3 (``verify.rank.token.batched``) against independent routes: the Gram route's
grid (``GramModel.evaluate_grid``), the ring forward pass of ``network.output_coordinate``, and Python integers
at the largest values."""

import random

import numpy as np
import pytest

from verify import Field, NetworkSpec, draw_weights
from verify.model.embeddings import VocabularyEmbedding
from verify.model.network import output_coordinate
from verify.rank.token.batched import batched_grid, pass_prices
from verify.rank.token.batched_loop import MERSENNE, block_pass, fold, reduce
from verify.rank.token.gram import TOKEN_PRIME, GramModel
from verify.rank.token.route import _side_points, sequence_grid


def _model(spec, vocab, pos_rank, p, tokens, seed=2):
    rank = min(vocab, spec.width)
    model = GramModel(spec.with_tokens(tokens), draw_weights(spec, seed),
                      VocabularyEmbedding(spec.width, vocab, rank, min(pos_rank, spec.width), seed), p)
    model.constant = model.positions_constant(tokens)
    return model


def _gram_grid(model, tokens, left, right):
    half = left.shape[1]
    za, zb = _side_points(model, list(range(half)), left), _side_points(model, list(range(half, tokens)), right)
    model.compiled = False  # the numpy passes: the reference of the compiled loop too
    return model.evaluate_grid(za, zb, left[:, 0])


@pytest.mark.parametrize("spec,vocab,pos_rank,p,tokens", [
    (NetworkSpec(depth=1, width=5, heads=2, attn_dim=2), 3, 2, TOKEN_PRIME, 4),
    (NetworkSpec(depth=2, width=3, heads=2, attn_dim=1, residual=True), 3, 2, TOKEN_PRIME, 6),
    (NetworkSpec(depth=3, width=4), 3, 2, TOKEN_PRIME, 6),
    (NetworkSpec(depth=3, width=4, heads=2), 3, 0, TOKEN_PRIME, 4),
    (NetworkSpec(depth=4, width=5, heads=2, attn_dim=2, residual=True, output=3), 4, 1, 2**31 - 19, 6),
    (NetworkSpec(depth=2, width=4, output=2), 3, 1, 1000003, 8),
    (NetworkSpec(depth=5, width=7, heads=2, attn_dim=3), 6, 1, TOKEN_PRIME, 4),
])
def test_batched_pass_equals_the_gram_grid(spec, vocab, pos_rank, p, tokens):
    model = _model(spec, vocab, pos_rank, p, tokens)
    rng = np.random.default_rng(5)
    half = tokens // 2
    # more right sequences than one block, so a row spans two blocks and the last one is partial
    left, right = rng.integers(0, vocab, (7, half)), rng.integers(0, vocab, (300, tokens - half))
    assert (batched_grid(model, tokens, left, right) == _gram_grid(model, tokens, left, right)).all()


@pytest.mark.parametrize("seed", range(6))
def test_batched_pass_equals_the_gram_grid_on_random_small_specs(seed):
    rng = random.Random(seed)
    depth, width, heads = rng.randint(1, 4), rng.randint(2, 6), rng.randint(1, 2)
    spec = NetworkSpec(depth=depth, width=width, heads=heads, attn_dim=max(1, width // heads),
                       residual=rng.random() < 0.3, output=rng.randrange(width))
    vocab, tokens = rng.randint(2, 4), 2 * rng.randint(1, 4)
    p = rng.choice([TOKEN_PRIME, 2**31 - 19, 1000003, 101])
    model = _model(spec, vocab, rng.choice([0, 1, 2]), p, tokens, seed)
    nprng = np.random.default_rng(seed)
    left, right = nprng.integers(0, vocab, (5, tokens // 2)), nprng.integers(0, vocab, (9, tokens - tokens // 2))
    assert (batched_grid(model, tokens, left, right) == _gram_grid(model, tokens, left, right)).all()


@pytest.mark.parametrize("spec,pos_rank", [(NetworkSpec(depth=3, width=4, heads=2), 2),
                                           (NetworkSpec(depth=2, width=3, residual=True, output=1), 1)])
def test_batched_pass_equals_the_ring_forward_pass(spec, pos_rank):
    # network.output_coordinate: eq. 3 over GF(p) elements, one sequence at a time (no table, no Gram sum)
    tokens, p = 6, TOKEN_PRIME
    model = _model(spec, 3, pos_rank, p, tokens, 4)
    rng = np.random.default_rng(1)
    left, right = rng.integers(0, 3, (3, 3)), rng.integers(0, 3, (4, 3))
    got = batched_grid(model, tokens, left, right)
    field, weights = Field(p), draw_weights(spec, 4)
    for i in range(3):
        for j in range(4):
            seq = list(left[i]) + list(right[j])
            inputs = [[field.scalar(v) for v in x] for x in model.embedding.embed(seq)]
            assert got[i, j] == int(output_coordinate(spec.with_tokens(tokens), weights, inputs))


def _python_pass(cols, tab_w, tab_s, a, b, residual, output, p, seq):
    """``block_pass`` on one sequence, in Python integers (the module notes' recursion, matrices as lists)."""
    tokens, d, heads = len(seq), cols.shape[2], a.shape[1]
    x = [[int(cols[n, seq[n], r]) for n in range(tokens)] for r in range(d)]
    for layer in range(a.shape[0] - 1):
        y = [[x[r][m] if residual else 0 for m in range(tokens)] for r in range(d)]
        for h in range(heads):
            if layer == 0:
                sig = [[int(tab_s[h, n, m, seq[n], seq[m]]) for m in range(tokens)] for n in range(tokens)]
                w = [[int(tab_w[h, n, seq[n], r]) for n in range(tokens)] for r in range(d)]
            else:
                u = [[sum(int(b[layer, h, r, k]) * x[k][n] for k in range(d)) % p for n in range(tokens)]
                     for r in range(d)]
                sig = [[sum(x[k][n] * u[k][m] for k in range(d)) % p for m in range(tokens)] for n in range(tokens)]
                w = [[sum(int(a[layer, h, r, k]) * x[k][n] for k in range(d)) % p for n in range(tokens)]
                     for r in range(d)]
            for r in range(d):
                for m in range(tokens):
                    y[r][m] = (y[r][m] + sum(w[r][n] * sig[n][m] for n in range(tokens))) % p
        x = y
    total = x[output][0] if residual else 0
    for h in range(heads):
        bx = [sum(int(b[-1, h, r, k]) * x[k][0] for k in range(d)) for r in range(d)]
        row = [sum(int(a[-1, h, output, k]) * x[k][n] for k in range(d)) for n in range(tokens)]
        total += sum(row[n] * sum(x[k][n] * bx[k] for k in range(d)) for n in range(tokens))
    return total % p


@pytest.mark.parametrize("p", [MERSENNE, 2**31 - 19, 1000003])
@pytest.mark.parametrize("layers,heads,residual", [(1, 2, 1), (3, 2, 1), (4, 1, 0), (2, 3, 0)])
def test_block_pass_at_the_largest_values_against_python_integers(p, layers, heads, residual):
    # every entry p - 1: each product is (p - 1)^2, the largest, and every sum has its most terms (d, N, or
    # N a head on top of a residue); then random residues, sequence by sequence
    d, vocab, half = 6, 2, 4
    tokens = 2 * half
    for fill in ("top", "random"):
        rng = np.random.default_rng(layers * 10 + heads)

        def arr(*shape, top=fill == "top", draw=rng):
            return np.full(shape, p - 1, dtype=np.int64) if top else draw.integers(0, p, shape)

        cols, tab_w = arr(tokens, vocab, d), arr(heads, tokens, vocab, d)
        tab_s = arr(heads, tokens, tokens, vocab, vocab)
        a, b = arr(layers, heads, d, d), arr(layers, heads, d, d)
        left, right = rng.integers(0, vocab, (2, half)), rng.integers(0, vocab, (3, half))
        out = np.zeros((2, 3), dtype=np.int64)
        block_pass(left, right, cols, tab_w, tab_s, a, b, residual, 1, p, out, 2)  # blocks of 2: one partial
        for i in range(2):
            for j in range(3):
                seq = list(left[i]) + list(right[j])
                assert out[i, j] == _python_pass(cols, tab_w, tab_s, a, b, residual, 1, p, seq)


def test_fold_and_reduce_at_their_edges_against_python_integers():
    # fold takes any product of two residues (at most (p - 1)^2) below 2^32; reduce any t < 2^63 to t mod p
    for p in (MERSENNE, 2**31 - 19, 1000003):
        for t in (0, 1, p - 1, p, 2 * p - 1, (p - 1) ** 2, (p - 1) ** 2 - 1):
            assert 0 <= fold(t, p) < 2**32 and fold(t, p) % p == t % p
        for t in (0, p - 1, p, p + 1, 2 * p, 2**32 - 1, 2**52 - 1, 2**52 * 3, 2**62, 2**63 - 1, 2**63 - 2):
            assert reduce(t, p) == t % p


def test_batched_pass_refuses_what_its_argument_does_not_cover():
    spec = NetworkSpec(depth=2, width=3)
    model = GramModel(spec, draw_weights(spec, 0), VocabularyEmbedding(3, 2, 2, 1, 0), 2**31 - 1)
    model.p = 2**31 + 11  # a prime above 2^31: products pass 2^62
    with pytest.raises(ValueError, match="below 2\\^31"):
        batched_grid(model, 4, np.zeros((1, 2), dtype=np.int64), np.zeros((1, 2), dtype=np.int64))
    model = _model(spec, 2, 1, TOKEN_PRIME, 4)
    with pytest.raises(ValueError, match="positions"):
        batched_grid(model, 4, np.zeros((1, 2), dtype=np.int64), np.zeros((1, 3), dtype=np.int64))


def test_sequence_grid_takes_the_cheaper_pass_and_both_agree(monkeypatch):
    import verify.rank.token.route as route

    # the bound cells' shape: d = 11 at N = 8, the literal pass is cheaper; d = 3 at N = 22, the Gram pass is
    wide, long = NetworkSpec(depth=5, width=11), NetworkSpec(depth=4, width=3)
    assert pass_prices(wide, 8)["literal"] < pass_prices(wide, 8)["gram"]
    assert pass_prices(long, 22)["gram"] < pass_prices(long, 22)["literal"]
    # closed forms at (L, d, H, N) = (5, 11, 1, 8): literal 704 + 3 (2 968 + 2 704) + (121 + 176 + 8)
    assert pass_prices(wide, 8) == {"literal": 704 + 3 * 3344 + 305, "gram": 3 * 2662 + 3 * 2662 + 484 + 4 * 121}
    model = _model(NetworkSpec(depth=3, width=5), 3, 1, TOKEN_PRIME, 4)
    rng = np.random.default_rng(2)
    left, right = rng.integers(0, 3, (4, 2)), rng.integers(0, 3, (6, 2))
    chosen = []
    monkeypatch.setattr(route, "batched_grid", lambda *args: chosen.append("literal") or _gram_grid(model, 4, left,
                                                                                                     right))
    literal = sequence_grid(model, 4, left, right)
    assert chosen == ["literal"] and (literal == _gram_grid(model, 4, left, right)).all()
    long_model = _model(NetworkSpec(depth=2, width=3), 2, 1, TOKEN_PRIME, 12)
    left, right = rng.integers(0, 2, (3, 6)), rng.integers(0, 2, (4, 6))
    assert (sequence_grid(long_model, 12, left, right) == _gram_grid(long_model, 12, left, right)).all()
    assert chosen == ["literal"]  # the Gram pass there


@pytest.mark.slow
def test_rows_against_every_column_give_the_whole_matrix_rank_at_l4_v2_n22():
    # (L, V, H, R) = (4, 2, 1, 1) at N = 22 (issue 49, item 3): the atlas printed 260 from a square sample; the
    # whole 2,048 x 2,048 matrix, here by the batched literal pass and FLINT's nmod_mat (no Gram route, no float
    # elimination), has rank 312, and the sampler at the cell's raised step budget must not print less
    import flint

    from verify.rank.token.route import sequence_rank
    from verify.sweeps.atlas.plan import Cell, budget_for

    spec = NetworkSpec(depth=4, width=3, heads=1, attn_dim=3)
    model = _model(spec, 2, 1, TOKEN_PRIME, 22, seed=0)
    every = np.indices((2,) * 11).reshape(11, -1).T.astype(np.int64)
    whole = flint.nmod_mat(batched_grid(model, 22, every, every).tolist(), TOKEN_PRIME).rank()
    assert whole == 312
    step = budget_for(Cell("grid", 4, 2, 1, 1)).evaluations("step_evaluations", 4)
    found, kept_all, _ = sequence_rank(model, 22, 588, 0, 588, budget=step)
    assert found == whole  # 604 rows, doubled to every row: the whole matrix


@pytest.mark.parametrize("depth,width,vocab,tokens,k", [(2, 3, 3, 8, 5), (3, 4, 3, 12, 44), (2, 4, 4, 10, 1000)])
def test_count_rows_against_the_whole_count_matrix(depth, width, vocab, tokens, k):
    # rows of the count matrix against every column: at most the whole matrix's rank (route.count_rank), equal to
    # it once the rows are all taken or are more than that rank (seeded: these draws reach it)
    from verify.rank.token.count_rows import count_rows_rank
    from verify.rank.token.route import count_rank

    spec = NetworkSpec(depth=depth, width=width)
    model = GramModel(spec, draw_weights(spec, 1), VocabularyEmbedding(width, vocab, min(vocab, width), 0, 1),
                      TOKEN_PRIME)
    whole, rows, cols, _ = count_rank(model, tokens)
    found, taken, total, columns, _ = count_rows_rank(model, tokens, k)
    assert (total, columns) == (rows, cols) and taken == min(k, rows)
    assert found <= whole and found <= taken
    if taken == rows or taken >= whole + 16:
        assert found == whole


@pytest.mark.parametrize("spec,vocab,tokens", [(NetworkSpec(depth=3, width=4, heads=2), 3, 7),
                                               (NetworkSpec(depth=2, width=5, residual=True, output=2), 4, 6)])
def test_count_values_by_the_batched_pass_equal_the_gram_route(spec, vocab, tokens):
    # g_w at count vectors: one sequence each through the literal pass, against GramModel.evaluate of the points
    from verify.exact.compositions import compositions
    from verify.rank.token.count_rows import _values

    model = GramModel(spec, draw_weights(spec, 3), VocabularyEmbedding(spec.width, vocab, vocab, 0, 3), TOKEN_PRIME)
    every = compositions(tokens, vocab)
    for w in range(vocab):
        counts = every[every[:, w] >= 1]
        assert (_values(model, counts, w) == model.evaluate(counts, np.full(len(counts), w))).all()
