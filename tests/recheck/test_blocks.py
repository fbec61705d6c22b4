"""A `verify sep --store` store's degree-block rows are recomputed, never called numerical (issue 46 item 5).

data/store_blocks.json: the rows `verify sep --depth 2 --width 2 --store` and `--width 3 --store` wrote
(blocks 2 and 3 of each; the others follow from them by rank propagation and are not stored).  Expected values
come from the closed forms of docs/mathematics.md §2 and, for F(S), from the literal forward pass of eq. 3.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from special_files import write_store
from verify.recheck import CONTRADICTED, RECOMPUTED, arith, blocks, recheck

DATA = Path(__file__).resolve().parent / "data"


def _store(tmp_path, edit=None):
    rows = json.loads((DATA / "store_blocks.json").read_text())
    if edit:
        edit(rows)
    path = tmp_path / "blocks.sqlite"
    write_store(path, rows)
    return str(path)


def _value(index, **changes):
    def edit(rows):
        value = json.loads(rows[index][8])
        value.update(changes)
        rows[index][8] = json.dumps(value)
    return edit


@pytest.mark.parametrize("depth, width, heads", [(1, 2, 1), (2, 3, 1), (2, 4, 2), (3, 2, 1)])
def test_the_gram_map_is_the_forward_pass(depth, width, heads):
    """F(S) X = Y for a random X (docs/mathematics.md §1): the recheck's F against its own literal eq. 3 pass."""
    p = 1048573
    layers = arith.seeded_weights(depth, width, heads, width // heads, 3, 1000)
    x = np.random.default_rng(1).integers(0, p, size=(1, width, 5)).astype(np.int64)
    y = arith.forward_output(layers, x, p, 0, 0, every=True)[0]
    gram = arith._matmul(x[0], x[0].T.copy(), p)
    assert np.array_equal(arith._matmul(blocks.gram_map(layers, gram[None], p)[0], x[0], p), y)


def test_an_untouched_block_store_is_recomputed(tmp_path):
    rc = recheck([_store(tmp_path)], 5)
    assert rc.exit_status() == 0
    ranks = [f for f in rc.findings if f.value.startswith("rank ")]
    assert len(ranks) == 4 and all(f.status == RECOMPUTED for f in ranks)
    assert rc.skipped == 0


@pytest.mark.parametrize("edit, value", [
    (_value(0, rank=7), "rank 7"),                 # above the block's size (6 x 12)
    (_value(0, rank=5), "rank 5"),                 # below: the recheck's lower bound 6 exceeds it
    (_value(3, rank=19), "rank 19"),               # above the 18 columns of the 56 x 18 block
    (_value(2, rank=20), "rank 20"),               # one below the full row rank 21 of block 2 (d_x = 3)
    (_value(1, rank=-3), "rank -3"),
    (_value(0, rows=5), "rows 5"),
])
def test_a_wrong_block_is_contradicted(tmp_path, edit, value):
    rc = recheck([_store(tmp_path, edit)], 5)
    assert rc.exit_status() == 1
    assert any(f.status == CONTRADICTED and f.value.startswith(value) for f in rc.findings), [
        f.line() for f in rc.findings]


def test_a_block_over_a_composite_field_is_contradicted(tmp_path):
    def composite(rows):
        for row in rows[:1]:
            key = json.loads(row[0])
            key["field"] = row[4] = "gf:1048575"
            row[0] = json.dumps(key, sort_keys=True)
    rc = recheck([_store(tmp_path, composite)], 5)
    assert any(f.status == CONTRADICTED and "gf:1048575" in f.value for f in rc.findings)


def test_a_block_beyond_the_budget_names_its_price(tmp_path):
    rc = recheck([_store(tmp_path)], 0)
    ranks = [f for f in rc.findings if f.value.startswith("rank ")]
    assert ranks and all(f.status == "beyond the budget" and "priced at" in f.detail for f in ranks)
    assert rc.exit_status() == 3


def test_a_rank_above_the_block_size_needs_no_recomputation(tmp_path):
    """rank 19 of a 56 x 18 block is impossible: contradicted by its size alone, at a budget of 0."""
    rc = recheck([_store(tmp_path, _value(3, rank=19))], 0)
    (hit,) = [f for f in rc.findings if f.value == "rank 19"]
    assert hit.status == CONTRADICTED and "not a rank of a 56 x 18 block" in hit.detail
