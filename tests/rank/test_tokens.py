"""Token inputs: the counts route against full enumeration, embedding bounds, the probe of N."""

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from strategies import small_specs
from verify import DEFAULT_PRIME, Field, NetworkSpec, draw_weights
from verify.cli.main import main
from verify.model.embeddings import VocabularyEmbedding
from verify.model.network import output_coordinate
from verify.rank.bound import corollary1_lower_bound
from verify.rank.routes import rank_once as separation_rank  # one run at the given seed
from verify.rank.token.tokens import compositions, token_rank
from verify.sweeps.probe import probe_tokens

GF = Field(DEFAULT_PRIME)


@st.composite
def token_cases(draw):
    spec = draw(small_specs(depths=(1, 2), widths=(2, 3)))
    vocab = draw(st.integers(2, 3))
    rank = draw(st.integers(1, min(spec.width, vocab)))
    tokens = draw(st.sampled_from([2, 4, 6]))
    return spec.with_tokens(tokens), VocabularyEmbedding(spec.width, vocab, rank, seed=draw(st.integers(0, 9)))


@given(token_cases())
def test_counts_route_equals_full_enumeration(case):
    spec, embedding = case
    weights = draw_weights(spec, 1)
    part = tuple(range(spec.tokens // 2))
    counts = token_rank(spec, weights, embedding, GF, part, "counts")
    enumeration = token_rank(spec, weights, embedding, GF, part, "enumeration")
    assert counts.rank == enumeration.rank


def test_compositions_count_is_the_multiset_coefficient():
    from math import comb
    assert all(len(compositions(n, v)) == comb(n + v - 1, v - 1) for n in range(6) for v in range(1, 5))
    assert all(row.sum() == 5 for row in compositions(5, 3))


@pytest.mark.parametrize("depth,width,vocab,rank,tokens", [(1, 3, 3, 2, 4), (2, 3, 3, 2, 4), (2, 3, 4, 1, 4),
                                                           (2, 2, 3, 1, 6)])
def test_rank_r_embedding_never_exceeds_the_rank_r_continuous_network(depth, width, vocab, rank, tokens):
    # tokens are the points u = Q e_w of the polynomial y(P u^1, ..., P u^N) in N*r variables,
    # whose coefficient rank bounds the token rank from above
    spec = NetworkSpec(depth=depth, width=width, tokens=tokens)
    weights = draw_weights(spec, 0)
    embedding = VocabularyEmbedding(width, vocab, rank)
    left, _ = embedding.factors
    ctx = GF.poly_context(("u", tokens * rank))
    u = ctx.gens()
    inputs = [[sum((u[j * rank + k] * left[i][k] for k in range(rank)), ctx.from_dict({}))
               for i in range(width)] for j in range(tokens)]
    poly = output_coordinate(spec, weights, inputs)
    import numpy as np

    from verify.rank.blocks import rank_by_blocks
    exps = np.array(poly.monoms(), dtype=np.int64)
    half = tokens // 2 * rank
    _, rows = np.unique(exps[:, :half], axis=0, return_inverse=True)
    _, cols = np.unique(exps[:, half:], axis=0, return_inverse=True)
    continuous = rank_by_blocks(GF, rows.ravel(), cols.ravel(), [int(c) for c in poly.coeffs()]).rank
    found = token_rank(spec, weights, embedding, GF, tuple(range(tokens // 2)))
    assert found.rank <= continuous


def test_full_rank_embedding_with_many_tokens_reaches_at_most_the_continuous_limit():
    spec = NetworkSpec(depth=2, width=2)
    limit = separation_rank(spec, "reduced").rank
    result = probe_tokens(spec, GF, 0, 24, 3, vocab=6, rank=2)
    assert max(row["rank"] for row in result.ranks) <= limit


def test_saturation_is_detected_on_a_case_with_a_known_limit():
    # continuous inputs, depth 2 width 2: sep(N) = 15, 18, 18, ... and the reduced limit is 18
    result = probe_tokens(NetworkSpec(depth=2, width=2), GF, 0, 20, 2, continuous=True).as_dict()
    assert result["limit_rank"] == 18 and result["stopped"] == "saturated"
    assert (result["saturation_tokens"], result["saturated_rank"]) == (4, 18)
    assert [row["rank"] for row in result["ranks"]] == [15, 18, 18, 18]


def test_probe_stops_at_max_tokens_when_not_saturated():
    result = probe_tokens(NetworkSpec(depth=3, width=4), GF, 0, 10, 3, vocab=3, rank=3).as_dict()
    assert result["stopped"] == "max-tokens" and result["ranks"][-1]["tokens"] == 10


def test_corollary1_lower_bound_is_the_multiset_coefficient():
    assert corollary1_lower_bound(2, 7, 1) == 3          # ((3 over 1))
    assert corollary1_lower_bound(3, 9, 1) == 20         # ((4 over 3)) = binom(6, 3)
    assert corollary1_lower_bound(1, 9, 1) is None and corollary1_lower_bound(3, 2, 2) is None


def test_probe_cli_json_and_plot(tmp_path, capsys):
    png = tmp_path / "probe.png"
    code = main(["probe-n", "--depth", "2", "--width", "3", "--vocab", "3", "--rank", "3", "--max-tokens", "12",
                 "--json", "--plot", str(png)])
    data = json.loads(capsys.readouterr().out)
    assert code == 0
    for key in ("ranks", "saturation_tokens", "saturated_rank", "limit_rank", "lower_bound",
                "tokens_reaching_lower_bound", "conjecture_scale"):
        assert key in data
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_positional_embedding_probe_reports_sequence_caps(capsys):
    code = main(["probe-n", "--depth", "1", "--width", "2", "--vocab", "2", "--rank", "2", "--pos-rank", "1",
                 "--max-tokens", "6", "--json"])
    data = json.loads(capsys.readouterr().out)
    assert code == 0 and data["positional_rank"] == 1 and len(data["ranks"]) >= 2
    assert [row["count_cap"] for row in data["ranks"]] == [2 ** (row["tokens"] // 2) for row in data["ranks"]]


BAD = [
    (["probe-n", "--depth", "2", "--width", "2", "--max-tokens", "6"], "--vocab"),
    (["probe-n", "--depth", "2", "--width", "2", "--vocab", "2", "--rank", "3"], "embedding rank"),
    (["probe-n", "--depth", "2", "--width", "2", "--vocab", "2", "--rank", "2", "--tokens", "4"], "drop --tokens"),
    (["probe-n", "--depth", "2", "--width", "2", "--vocab", "2", "--rank", "2", "--plot", "x.pdf"], ".png"),
    (["probe-n", "--depth", "2", "--width", "2", "--vocab", "2", "--rank", "2", "--patience", "0"], "patience"),
    (["probe-n", "--depth", "2", "--width", "2", "--continuous", "--vocab", "2"], "--continuous"),
    (["probe-n", "--depth", "2", "--width", "2", "--vocab", "0", "--rank", "1"], "vocabulary size"),
]


@pytest.mark.parametrize("argv,phrase", BAD, ids=[" ".join(a) for a, _ in BAD])
def test_probe_bad_input_exits_2_with_one_line(capsys, argv, phrase):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and phrase in err


def _conv_coefficient_rank(spec, embedding, tokens):
    import numpy as np

    from verify.rank.blocks import rank_by_blocks
    k, din = embedding.kernel, embedding.input_dim
    ctx = GF.poly_context(("u", tokens * k * din))
    u = ctx.gens()
    raw = [[u[m * din + c] for c in range(din)] for m in range(tokens * k)]
    poly = output_coordinate(spec.with_tokens(tokens), draw_weights(spec, 0), embedding.embed(raw))
    exps = np.array(poly.monoms(), dtype=np.int64)
    half = tokens // 2 * k * din
    _, rows = np.unique(exps[:, :half], axis=0, return_inverse=True)
    _, cols = np.unique(exps[:, half:], axis=0, return_inverse=True)
    return rank_by_blocks(GF, rows.ravel(), cols.ravel(), [int(c) for c in poly.coeffs()]).rank


@pytest.mark.parametrize("depth,width,heads,input_dim,kernel,rank", [
    (1, 3, 1, 2, 1, 2), (2, 3, 1, 1, 2, 2), (2, 3, 3, 2, 1, 1), (2, 2, 1, 1, 2, 2)])
def test_convolution_embedding_reduced_route_equals_its_coefficient_route(depth, width, heads, input_dim,
                                                                          kernel, rank):
    from verify.model.embeddings import ConvolutionEmbedding
    from verify.rank.reduced import embedded_reduced_rank
    spec = NetworkSpec(depth=depth, width=width, heads=heads)
    embedding = ConvolutionEmbedding(width, input_dim, kernel, rank)
    reduced = embedded_reduced_rank(spec, GF, embedding.factors[0])
    assert reduced == _conv_coefficient_rank(spec, embedding, 2 * (rank + 1))


@pytest.mark.parametrize("depth,width,rank", [(1, 3, 2), (2, 3, 2), (2, 4, 2), (2, 4, 3), (3, 3, 2)])
def test_rank_r_embedding_never_exceeds_the_width_r_network(depth, width, rank):
    from verify.model.embeddings import ConvolutionEmbedding
    from verify.rank.reduced import embedded_reduced_rank
    embedding = ConvolutionEmbedding(width, rank, 1, rank)
    embedded = embedded_reduced_rank(NetworkSpec(depth=depth, width=width), GF, embedding.factors[0])
    narrow = separation_rank(NetworkSpec(depth=depth, width=rank), "reduced").rank
    assert embedded <= narrow


def test_probe_json_reports_count_cap_and_a_limit_checked_by_brute_force(capsys):
    from itertools import product

    from verify.rank.token.gram import TOKEN_PRIME
    code = main(["probe-n", "--depth", "2", "--width", "3", "--vocab", "3", "--rank", "2", "--max-tokens", "8",
                 "--no-store", "--workers", "1", "--json"])
    data = json.loads(capsys.readouterr().out)
    assert code == 0 and data["limit_rank"] is not None and data["modulus"] == TOKEN_PRIME
    for row in data["ranks"]:
        multisets = {tuple(sorted(s)) for s in product(range(3), repeat=row["tokens"] // 2)}
        assert row["count_cap"] == len(multisets) and row["cap_decides"] == (row["rank"] == len(multisets))
    spec = NetworkSpec(depth=2, width=3, tokens=8)
    every = token_rank(spec, draw_weights(spec, 0), VocabularyEmbedding(3, 3, 2), Field(TOKEN_PRIME),
                       tuple(range(4)), "enumeration").rank
    assert data["limit_rank"] == every == data["ranks"][-1]["rank"]


def test_probe_text_says_when_the_cap_decides(capsys):
    code = main(["probe-n", "--depth", "2", "--width", "4", "--vocab", "3", "--rank", "3", "--max-tokens", "10",
                 "--no-store", "--workers", "1"])
    out = capsys.readouterr().out
    assert code == 0 and "count_cap" in out and "(cap decides)" in out and "not the network, decides" in out


def test_the_compressed_counts_matrix_is_ranked_to_the_enumerated_rank(monkeypatch):
    """The counts route's random column compression (taken past DENSE_ENTRIES; here at once), ranked through
    ``kernel_for``, gives the rank every sequence enumerated gives (depth 1, V = 3, N = 6: 18 x 10 to 4 columns)."""
    import verify.rank.token.tokens as tokens

    spec = NetworkSpec(depth=1, width=3, heads=1, tokens=6)
    weights, embedding = draw_weights(spec, 2), VocabularyEmbedding(3, 3, 3, seed=1)
    part = (0, 1, 2)
    enumeration = token_rank(spec, weights, embedding, GF, part, "enumeration")
    monkeypatch.setattr(tokens, "DENSE_ENTRIES", 0)
    counts = token_rank(spec, weights, embedding, GF, part, "counts")
    assert counts.compressed_to == 4 and counts.rank == enumeration.rank > 0
