"""The Gram route's memory price (token.caps.gram_log2_bytes) against the sizes it builds, and the guard
that uses it: reachable specs run, bad input is refused at once."""

import pytest

from verify import Field, NetworkSpec, draw_weights
from verify.model.embeddings import VocabularyEmbedding
from verify.rank.token.gram import TOKEN_PRIME
from verify.rank.token.limit import token_limit
from verify.rank.token.tokens import token_rank

GF31 = Field(TOKEN_PRIME)


@pytest.mark.parametrize("vocab,tokens,degree", [(2, 2, 1), (3, 8, 4), (6, 60, 4), (5, 20, 13), (40, 6, 13)])
def test_gram_price_is_a_lower_bound_on_the_count_matrix(vocab, tokens, degree):
    # 8 bytes an entry of the V binom(min(N/2 - 1, C) + V - 1, V - 1) x binom(min(N/2, C) + V - 1, V - 1) matrix
    import math

    from verify.rank.token.caps import gram_log2_bytes
    from verify.rank.token.route import lattice

    half = tokens // 2
    exact = 8 * vocab * len(lattice(min(half - 1, degree), vocab - 1)) * len(lattice(min(half, degree), vocab - 1))
    assert exact / math.e ** (2 * min(degree, vocab)) <= 2 ** gram_log2_bytes(vocab, tokens, degree, False) <= exact


def test_gram_guard_prices_the_route_it_runs_and_refuses_bad_input_at_once():
    import time

    from verify import InputError
    from verify.rank.token.gram import GramModel
    from verify.rank.token.route import count_rank

    # depth 2, V = 6, N = 60: the counts route's estimate (324,632^2 count-vector pairs) was refused at 1 GiB;
    # the Gram route keeps 6 * 126 x 126 lattice points and is priced so
    spec = NetworkSpec(depth=2, width=7)
    weights, emb = draw_weights(spec, 0), VocabularyEmbedding(7, 6, 6)
    found = token_rank(spec.with_tokens(60), weights, emb, GF31, tuple(range(30)), "gram", max_memory_gib=1.0)
    assert found.rank == count_rank(GramModel(spec, weights, emb, TOKEN_PRIME), 60)[0]
    assert found.rank == token_limit(spec, weights, emb, TOKEN_PRIME).rank  # N >= 2C + 2: the limit, by random points
    start = time.perf_counter()
    for pos_rank in (0, 1):
        big = VocabularyEmbedding(4, 100_000, 3, pos_rank)
        with pytest.raises(InputError, match="GiB"):
            if pos_rank:
                from verify.sweeps.probe import probe_tokens
                probe_tokens(NetworkSpec(depth=2, width=4), GF31, 0, 4, 1, vocab=100_000, rank=3, positional_rank=1)
            else:
                token_rank(NetworkSpec(depth=2, width=4, tokens=2), draw_weights(NetworkSpec(depth=2, width=4), 0),
                           big, GF31, (0,), "gram")
    assert time.perf_counter() - start < 3
