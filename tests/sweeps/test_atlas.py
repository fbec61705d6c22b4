"""benchmarks/atlas.py (the atlas of the conjecture on N): its --quick run, cross-checked cell by cell
against brute-force enumeration of every token sequence, and its out-of-reach rows."""

import csv
import importlib.util
import math
import sys
from itertools import product
from math import comb
from pathlib import Path

import pytest

from verify import Field, NetworkSpec, draw_weights
from verify.model.embeddings import VocabularyEmbedding
from verify.rank.token_gram import TOKEN_PRIME
from verify.rank.tokens import token_rank

ROOT = Path(__file__).resolve().parents[2]


def _atlas():
    spec = importlib.util.spec_from_file_location("atlas", ROOT / "benchmarks" / "atlas.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules["atlas"] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


def _enumerated_rank(row: dict, tokens: int) -> int:
    """sep at N = tokens by the enumeration route: every one of the V^N sequences, ranked over GF(p)."""
    depth, vocab, heads, width = (int(row[k]) for k in ("depth", "vocab_r", "heads", "width"))
    big_r = int(str(row["pos_rank"]).split()[0])
    spec = NetworkSpec(depth=depth, width=width, heads=heads, attn_dim=int(row["attn_dim"]))
    embedding = VocabularyEmbedding(width, vocab, vocab, big_r, int(row["seed"]))
    return token_rank(spec.with_tokens(tokens), draw_weights(spec, int(row["seed"])), embedding,
                      Field(TOKEN_PRIME), tuple(range(tokens // 2)), "enumeration").rank


def test_quick_atlas_against_enumeration(tmp_path):
    atlas = _atlas()
    assert atlas.main(["--quick", "--out", str(tmp_path)]) == 0
    with open(tmp_path / "n_atlas.csv") as handle:
        rows = list(csv.DictReader(handle))
    grid = atlas.GRIDS["quick"]
    assert len(rows) == len(list(atlas.cells(grid)))  # every cell is a row
    for row in rows:
        vocab, positional = int(row["vocab_r"]), row["pos_rank"] != "0"
        ranks = dict(tuple(map(int, item.split(":"))) for item in row["ranks"].split())
        caps = dict(tuple(map(int, item.split(":"))) for item in row["caps"].split())
        for tokens, rank in ranks.items():
            half = tokens // 2
            sides = list(product(range(vocab), repeat=half))
            distinct = len(sides) if positional else len({tuple(sorted(s)) for s in sides})  # B side, by brute force
            assert caps[tokens] == distinct
            if vocab**tokens <= 729:
                assert rank == _enumerated_rank(row, tokens), (row, tokens)
        assert row["status"] == "reached the limit"
        first = int(row["first_n_limit"])
        assert ranks[first] == int(row["limit"]) and all(r < int(row["limit"]) for n, r in ranks.items() if n < first)
        assert int(row["first_n_cap_reaches_limit"]) <= first  # rank <= cap at every N
        for c in atlas.CONSTANTS:
            scale = vocab * int(row["depth"]) / math.log(vocab, 3)
            assert int(row[f"n_c{c}"]) >= c * scale > int(row[f"n_c{c}"]) - 2
    assert (tmp_path / "n_atlas.png").stat().st_size > 0


def test_out_of_reach_cells_are_rows_with_the_estimate():
    atlas = _atlas()
    tiny = atlas.Budget(limit_evaluations=50, step_evaluations=10, matrix_entries=10, loop_evaluations=10,
                        loop_entries=10)
    row = atlas.run_cell(3, 3, 1, 1, tiny, 0)
    assert row["limit_certainty"] == "beyond reach" and "limit beyond reach" in row["estimate"]
    assert "beyond reach" in row["status"] and "budget" in row["estimate"]
    # the priced N cost: rows V binom(min(N/2 - 1, C) + V - 1, V - 1) by columns binom(min(N/2, C) + V - 1, V - 1)
    assert atlas.step_cost(3, 8, 4, False, 0) == 3 * comb(3 + 2, 2) * comb(4 + 2, 2)


@pytest.mark.slow
def test_atlas_finds_the_known_maximal_rank_exception():
    # depth 3, d_x = 3, V = r = 2, positional rank 1: exact 52 < min(64, 75) at N = 12 (enumeration of 2^12
    # sequences, docs/conjecture_n.md)
    atlas = _atlas()
    row = atlas.run_cell(3, 2, 1, 1, atlas.GRIDS["full"]["budget"], 0)
    assert "12:52<64" in row["maximal_rank_exceptions"]
    assert _enumerated_rank(row, 12) == 52


def test_probe_plot_draws_the_counting_caps(tmp_path):
    # verify probe-n --plot: the caps drawn are the B side's distinct multisets (sequences), counted here
    from verify.sweeps.plot import cap_series, plot_probe
    from verify.sweeps.probe import probe_tokens

    for positional in (0, 1):
        data = probe_tokens(NetworkSpec(depth=1, width=3), Field(TOKEN_PRIME), 0, 8, 2, vocab=2, rank=2,
                            positional_rank=positional).as_dict()
        label, tokens, caps = cap_series(data)
        for n, cap in zip(tokens, caps):
            sides = list(product(range(2), repeat=n // 2))
            assert cap == (len(sides) if positional else len({tuple(sorted(s)) for s in sides}))
        assert ("sequences" in label) == bool(positional) and tokens == [row["tokens"] for row in data["ranks"]]
        plot_probe(data, str(tmp_path / f"p{positional}.png"))
        assert (tmp_path / f"p{positional}.png").read_bytes()[:4] == b"\x89PNG"
    assert cap_series({"ranks": [{"tokens": 2, "rank": 1}]}) is None  # continuous inputs: no caps


def test_a_rank_meeting_the_proven_bound_certifies_the_limit_out_of_reach():
    # depth 2, d_x = 4, V = r = 3: limit 13 = the derivative bound (issue 19's enumeration data), reached at N = 8
    atlas = _atlas()
    row = atlas.run_cell(2, 3, 1, 0, atlas.Budget(1, 10**6, 10**6, 10**6, 10**7), 0)
    assert (row["limit"], row["first_n_limit"], row["status"]) == (13, 8, "reached the limit")
    assert "meets the proven bound" in row["limit_certainty"] and row["maximal_rank_exceptions"] == ""
