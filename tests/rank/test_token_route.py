"""Counting caps, the Gram route and the token limit against brute-force enumeration."""

from itertools import product

import flint
import pytest

from verify import Field, NetworkSpec, draw_weights
from verify.model.embeddings import VocabularyEmbedding
from verify.rank.token.caps import count_caps
from verify.rank.token.gram import TOKEN_PRIME
from verify.rank.token.limit import token_limit
from verify.rank.token.route import derivative_upper_bound
from verify.rank.token.tokens import token_rank

GF31 = Field(TOKEN_PRIME)


@pytest.mark.parametrize("vocab,tokens", [(1, 2), (2, 2), (2, 6), (3, 4), (3, 8), (4, 6)])
def test_caps_count_distinct_multisets_and_sequences_by_brute_force(vocab, tokens):
    half = tokens // 2
    b_multisets = {tuple(sorted(s)) for s in product(range(vocab), repeat=half)}
    a_rows = {(s[0], tuple(sorted(s[1:]))) for s in product(range(vocab), repeat=half)}  # query token, the rest
    caps = count_caps(vocab, tokens, positional=False)
    assert (caps.a_side, caps.b_side) == (len(a_rows), len(b_multisets))
    assert count_caps(vocab, tokens, positional=True).cap == len(list(product(range(vocab), repeat=half)))


def _enumerated(spec, vocab, rank, pos_rank, tokens, seed=0):
    at = spec.with_tokens(tokens)
    weights = draw_weights(spec, seed)
    embedding = VocabularyEmbedding(spec.width, vocab, rank, pos_rank, seed)
    part = tuple(range(tokens // 2))
    return (token_rank(at, weights, embedding, GF31, part, "enumeration").rank,
            token_rank(at, weights, embedding, GF31, part, "gram").rank, weights, embedding)


@pytest.mark.parametrize("depth,width,vocab,rank,pos_rank,tokens", [
    (1, 2, 2, 2, 0, 6), (2, 3, 3, 2, 0, 6), (2, 2, 3, 1, 0, 8), (2, 3, 2, 2, 0, 10), (1, 3, 3, 3, 0, 4),
    (1, 2, 2, 2, 1, 6), (2, 3, 2, 2, 1, 6), (2, 2, 2, 1, 2, 8), (2, 3, 3, 2, 1, 4)])
def test_gram_route_and_caps_against_enumeration(depth, width, vocab, rank, pos_rank, tokens):
    spec = NetworkSpec(depth=depth, width=width)
    every, gram, _, _ = _enumerated(spec, vocab, rank, pos_rank, tokens)
    assert gram == every
    assert every <= count_caps(vocab, tokens, pos_rank > 0).cap


@pytest.mark.parametrize("depth,width,vocab,rank,pos_rank,tokens", [
    (1, 2, 2, 2, 0, 8), (2, 2, 3, 1, 0, 8), (2, 3, 2, 2, 0, 14), (1, 2, 2, 2, 1, 8), (2, 2, 2, 2, 1, 10)])
def test_limit_is_the_enumerated_rank_at_large_n(depth, width, vocab, rank, pos_rank, tokens):
    spec = NetworkSpec(depth=depth, width=width)
    every, _, weights, embedding = _enumerated(spec, vocab, rank, pos_rank, tokens)
    limit = token_limit(spec, weights, embedding, TOKEN_PRIME)
    assert limit.rank == every <= limit.upper_bound


def test_limit_matches_the_issue_data_and_is_certified():
    # V = r = 3, width 4, no positions: 13 at depth 2 and 84 at depth 3 (issue 19, from enumeration)
    for depth, expected in [(2, 13), (3, 84)]:
        spec = NetworkSpec(depth=depth, width=4)
        limit = token_limit(spec, draw_weights(spec, 0), VocabularyEmbedding(4, 3, 3), TOKEN_PRIME)
        assert (limit.rank, limit.certified_exact) == (expected, True)


def test_derivative_bound_by_counting_monomials():
    # m = 1 variable, degree C: derivatives of order j of V polynomials; closed form by hand
    assert derivative_upper_bound(4, 1, 2) == 5   # j0 = 0: every polynomial of degree <= 4 in 1 variable
    assert derivative_upper_bound(13, 2, 3) == 84
    assert derivative_upper_bound(0, 3, 5) == 1


def test_positional_embedding_has_the_rank_it_is_given():
    for big_r in (1, 2, 3):
        emb = VocabularyEmbedding(4, 3, 3, big_r, seed=5)
        columns = [emb.position(j) for j in range(8)]
        assert flint.fmpz_mat(columns).rank() == big_r


@pytest.mark.parametrize("pos_rank,spec", [
    (0, NetworkSpec(depth=2, width=4)), (1, NetworkSpec(depth=2, width=4)), (2, NetworkSpec(depth=2, width=4)),
    (1, NetworkSpec(depth=3, width=4, heads=2)), (2, NetworkSpec(depth=1, width=5, heads=2, attn_dim=2)),
    (1, NetworkSpec(depth=2, width=4, heads=2, residual=True, output=3))])
def test_gram_model_values_equal_the_literal_forward_pass(pos_rank, spec):
    import random

    import numpy as np

    from verify.model.network import output_coordinate
    from verify.rank.token.gram import GramModel
    from verify.rank.token.route import _side_points

    weights, emb = draw_weights(spec, 3), VocabularyEmbedding(spec.width, 3, 3, pos_rank, 3)
    model = GramModel(spec, weights, emb, TOKEN_PRIME)
    rng = random.Random(7)
    for tokens in (4, 8):
        model.constant = model.positions_constant(tokens)
        for _ in range(3):
            seq = [rng.randrange(3) for _ in range(tokens)]
            z = _side_points(model, list(range(tokens)), np.array([seq]))
            inputs = [[GF31.scalar(v) for v in x] for x in emb.embed(seq)]
            assert int(model.evaluate(z, np.array([seq[0]]))[0]) == int(output_coordinate(spec.with_tokens(tokens),
                                                                                          weights, inputs))


@pytest.mark.parametrize("depth,vocab", [(2, 3), (3, 3), (2, 4)])
def test_count_rank_beyond_the_lattice_order_equals_the_full_counts_route(depth, vocab):
    # N >= 2C + 2: only the principal lattice of order C is kept; the counts route keeps every count vector
    from verify.rank.token.gram import GramModel
    from verify.rank.token.route import count_rank

    spec = NetworkSpec(depth=depth, width=4)
    weights, emb = draw_weights(spec, 0), VocabularyEmbedding(4, vocab, 3)
    model = GramModel(spec, weights, emb, TOKEN_PRIME)
    top = 2 * spec.layer_degree + 6
    for tokens in sorted({2 * spec.layer_degree - 2, 2 * spec.layer_degree + 2, top}):
        full = token_rank(spec.with_tokens(tokens), weights, emb, GF31, tuple(range(tokens // 2)), "counts").rank
        assert count_rank(model, tokens)[0] == full


@pytest.mark.parametrize("spec", [NetworkSpec(depth=1, width=3), NetworkSpec(depth=2, width=4, heads=2, residual=True),
                                  NetworkSpec(depth=3, width=3, heads=2, attn_dim=1, output=2)])
def test_grid_evaluation_equals_pointwise_evaluation_of_every_sum(spec):
    # evaluate_grid forms S and layer 1's map per side and adds them; evaluate forms them per point
    import numpy as np

    from verify.rank.token.gram import GramModel

    emb = VocabularyEmbedding(spec.width, 3, 2, 1, 4)
    model = GramModel(spec, draw_weights(spec, 4), emb, TOKEN_PRIME)
    model.constant = model.positions_constant(6)
    rng = np.random.default_rng(3)
    left, right = rng.integers(0, TOKEN_PRIME, (5, model.dim)), rng.integers(0, TOKEN_PRIME, (7, model.dim))
    query = rng.integers(0, 3, 5)
    pairs = ((left[:, None] + right[None]) % TOKEN_PRIME).reshape(-1, model.dim)
    expected = model.evaluate(pairs, np.repeat(query, 7)).reshape(5, 7)
    assert (model.evaluate_grid(left, right, query) == expected).all()


def test_grown_grid_equals_the_grid_of_the_stacked_points():
    import numpy as np

    from verify.rank.token.gram import GramModel
    from verify.rank.token.route import grow_grid

    spec = NetworkSpec(depth=2, width=3, heads=2, attn_dim=1, residual=True)
    model = GramModel(spec, draw_weights(spec, 1), VocabularyEmbedding(3, 3, 2, 2, 1), TOKEN_PRIME)
    rng = np.random.default_rng(5)
    left, new_left = rng.integers(0, TOKEN_PRIME, (4, model.dim)), rng.integers(0, TOKEN_PRIME, (3, model.dim))
    right, new_right = rng.integers(0, TOKEN_PRIME, (5, model.dim)), rng.integers(0, TOKEN_PRIME, (2, model.dim))
    query, new_query = rng.integers(0, 3, 4), rng.integers(0, 3, 3)
    old = model.evaluate_grid(left, right, query)
    grown = grow_grid(model, old, left, right, query, new_left, new_right, new_query)
    whole = model.evaluate_grid(np.vstack([left, new_left]), np.vstack([right, new_right]),
                                np.concatenate([query, new_query]))
    assert (grown == whole).all()


def test_doubled_positional_sample_evaluates_only_new_entries_and_stays_below_the_full_grid_rank():
    # depth 3, d_x = 3, V = r = 2, positional rank 1, N = 16: 256 sequences a side, full-grid rank 70
    # (every sequence: the aim above the count).  Aiming at 71 (above it) rows against every column start at 87,
    # double to 174 and then take all 256: each entry evaluated once (256^2), the rank the full one.  Aiming at 60
    # with square samples (a budget below 76 rows against every column) the first 76 x 76 sample stops there.
    from verify.rank.token.gram import GramModel
    from verify.rank.token.route import sequence_rank

    spec = NetworkSpec(depth=3, width=3)
    model = GramModel(spec, draw_weights(spec, 0), VocabularyEmbedding(3, 2, 2, 1, 0), TOKEN_PRIME)
    full, every, _ = sequence_rank(model, 16, 10**6)
    assert every and full == 70
    assert sequence_rank(model, 16, 71) == (70, True, 256 * 256)
    sampled, kept_all, evaluations = sequence_rank(model, 16, 60, budget=76 * 76 + 255)  # not one row beside it
    assert not kept_all and evaluations == 76 * 76 and sampled <= full
    # room for r = (budget - 76^2) // 256 = 53 rows against every column: they come first (issue 49, item 3), then
    # the square sample with what is left (53 rows of a rank-70 matrix are independent, below the aim 60), and the
    # larger of the two ranks
    rows_first, kept_all, evaluations = sequence_rank(model, 16, 60, budget=76 * 256 - 1)
    assert not kept_all and 53 <= rows_first <= full and evaluations == 53 * 256 + 76 * 76


def test_limb_products_against_python_integers():
    # _mm splits b into 16-bit limbs and, for p = 2^31 - 1, recombines with 2^31 = 1 mod p before one
    # reduction: against exact Python ints, at the extremes (p - 1 everywhere: the largest sums) and at random
    import numpy as np

    from verify.rank.token.gram import _mm

    p = TOKEN_PRIME
    rng = np.random.default_rng(11)
    for d in (1, 4, 9):
        a, b = rng.integers(0, p, (30, d, d)), rng.integers(0, p, (30, d, d))
        a[0], b[0] = p - 1, p - 1
        expected = [[[sum(int(a[n, i, k]) * int(b[n, k, j]) for k in range(d)) % p for j in range(d)]
                     for i in range(d)] for n in range(30)]
        assert _mm(a, b, p).tolist() == expected
        small = 2**31 - 19  # another prime below 2^31: the generic path (reduce each limb product)
        a2, b2 = a % small, b % small
        assert _mm(a2, b2, small).tolist() == [[[sum(int(a2[n, i, k]) * int(b2[n, k, j]) for k in range(d)) % small
                                                 for j in range(d)] for i in range(d)] for n in range(30)]


@pytest.mark.parametrize("pos_rank", [0, 1])
def test_one_token_vocabulary_is_rank_one_by_enumeration_and_the_naive_forward_pass(pos_rank):
    # V = 1 (issue 43): every sequence is w w ... w, so the matrix is 1 x 1 and the rank is 1 exactly when
    # y at that sequence is non-zero, read here from the naive eq. 3 (tests/naive.py), not from the routes
    from naive import naive_forward
    from verify.rank.token.gram import GramModel
    from verify.rank.token.route import count_rank

    spec = NetworkSpec(depth=2, width=3)
    every, gram, weights, embedding = _enumerated(spec, 1, 1, pos_rank, 6)
    inputs = [[GF31.scalar(v) for v in x] for x in embedding.embed([0] * 6)]
    value = naive_forward(spec.with_tokens(6), weights, inputs)[spec.position][spec.output]
    assert int(value) % TOKEN_PRIME != 0
    assert every == gram == 1
    if not pos_rank:
        assert count_rank(GramModel(spec, weights, embedding, TOKEN_PRIME), 6)[0] == 1
