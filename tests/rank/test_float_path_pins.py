"""Ranks that go through the float64 elimination end to end, pinned against FLINT.

The registry runs at 2^63 - 25, where every rank is FLINT's; these tests run where the float64
elimination ranks the blocks (GF(p), p < 2^50, short side >= 256: ``verify.exact.kernels.kernel_for``):

* ``verify sep --depth 3 --width 3 --heads 3`` at p = 1,048,573 (its first run's prime): degree
  blocks 6-9 (462 x 2376 ... 2002 x 378) go through the slice, the float null space and the mixed
  complement.  Each computed block's rank is compared with FLINT's rank of the same block gathered
  whole, the implied blocks with their closed form (full row or column rank), and the total through
  the Python API and the CLI.
* ``degree_blocks.block_rank`` (slice and complement, probe and narrow slice) on designed deficient
  blocks with short side >= 256, against FLINT's rank of the whole block.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from fractions import Fraction

import flint
import numpy as np
import pytest

from verify import Field, NetworkSpec, separation_rank
from verify.exact.compositions import compositions
from verify.exact.elimination import ELIMINATION
from verify.exact.tuning import FLOAT_MIN
from verify.model.spec import draw_weights
from verify.rank import degree_blocks
from verify.rank.degree_blocks import block_rank
from verify.rank.moments import moment_table
from verify.rank.reduced import reduced_polynomials, term_exponents

P = 1048573
SPEC = NetworkSpec(depth=3, width=3, heads=3)


def flint_rank(matrix: np.ndarray, p: int) -> int:
    return flint.nmod_mat(matrix.shape[0], matrix.shape[1], [int(v) % p for v in matrix.ravel()], p).rank()


@pytest.fixture(scope="module")
def whole_blocks():
    """FLINT's rank of every degree block of the spec's q, each gathered whole (no slice, no
    propagation, no float elimination): the independent route."""
    field = Field(P)
    weights = draw_weights(SPEC, 0, (P - 1) // 2)
    _, q = reduced_polynomials(SPEC, weights, field)
    nvars = SPEC.width * (SPEC.width + 1) // 2
    exponents = [term_exponents(poly, nvars) for poly in q]
    top = int(max(e.sum(axis=1).max() for e in exponents))
    moments = moment_table(exponents, [poly.coeffs() for poly in q], field, nvars, top, True)
    ranks = {}
    for a in range(top + 1):
        rows, cols = moments.keys(compositions(a, nvars)), moments.keys(compositions(top - a, nvars))
        if min(len(rows), len(cols) * moments.count) < 126:
            continue  # the small outer blocks: their closed form (full rank) is checked instead
        block = np.hstack([moments.gather(k, rows, cols) for k in range(moments.count)])
        ranks[a] = flint_rank(block, P)
    return ranks


@pytest.fixture(scope="module")
def route():
    return separation_rank(SPEC, method="reduced", field=Field(P), seed=0, weight_range=(P - 1) // 2)


def test_every_degree_block_of_the_reduced_route_matches_flint(route, whole_blocks):
    floats = [a for a, b in enumerate(route.blocks) if b.elimination == ELIMINATION]
    assert len(floats) >= 3 and all(min(route.blocks[a].rows, route.blocks[a].cols) >= FLOAT_MIN for a in floats)
    for a, block in enumerate(route.blocks):
        if block.implied_by is not None:  # full row rank below the turn, full column rank above it
            assert block.rank == min(block.rows, block.cols)
        else:
            assert block.rank == whole_blocks[a], f"degree block {a} ({block.rows} x {block.cols})"
    assert set(whole_blocks) >= {a for a, b in enumerate(route.blocks) if b.implied_by is None}


def test_the_total_through_the_api_and_the_cli_is_flints(route, whole_blocks):
    closed = sum(min(b.rows, b.cols) for b in route.blocks if b.implied_by is not None)
    expected = closed + sum(whole_blocks[a] for a, b in enumerate(route.blocks) if b.implied_by is None)
    assert route.rank == expected
    assert route.rank <= route.extra["upper_bound"]
    # the bound printed beside it: 0 only when the rank meets the proven upper bound; otherwise at
    # least Schwartz-Zippel for a minor of the upper bound's size (degree weight_degree, weights
    # uniform over GF(p)) plus upper/p for the mixing
    upper = route.extra["upper_bound"]
    if route.certainty.certified_exact:
        assert route.rank == upper and route.certainty.probability_bound == 0.0
    else:
        exact = Fraction(upper * SPEC.weight_degree, P) + Fraction(upper, P)
        assert Fraction(route.certainty.probability_bound) >= exact
    env = dict(os.environ, PYTHONPATH=os.getcwd() + os.pathsep + os.environ.get("PYTHONPATH", ""))
    out = subprocess.run([sys.executable, "-m", "verify", "sep", "--depth", "3", "--width", "3", "--heads", "3",
                          "--field", f"gf:{P}", "--max-runs", "1", "--json", "--quiet"],
                         capture_output=True, text=True, env=env, timeout=300)
    assert out.returncode == 0, out.stderr
    printed = json.loads(out.stdout)
    assert printed["rank"] == expected
    assert ELIMINATION in printed["elimination"]
    assert [b["rank"] for b in printed["blocks"]] == [b.rank for b in route.blocks]


class _MatrixMoments:
    """A 'moment table' that is just a matrix: block_rank then ranks exactly this matrix."""

    count = 1

    def __init__(self, matrix):
        self.matrix = matrix

    def gather(self, k, row_keys, col_keys):
        return self.matrix[np.ix_(row_keys, col_keys)]


def _deficient(rng, rows, cols, rank, generic, p):
    """rows x cols: ``cols - generic`` columns in a rank-``rank`` space, ``generic`` random columns."""
    u = flint.nmod_mat(rows, rank, [int(v) for v in rng.integers(0, p, rows * rank)], p)
    v = flint.nmod_mat(rank, cols - generic, [int(x) for x in rng.integers(0, p, rank * (cols - generic))], p)
    low = np.array([int(x) for x in (u * v).entries()], dtype=np.int64).reshape(rows, cols - generic)
    matrix = np.hstack([low, rng.integers(0, p, (rows, generic), dtype=np.int64)])
    return np.ascontiguousarray(matrix[:, rng.permutation(cols)])


@pytest.mark.parametrize("p", [P, 8388593])
@pytest.mark.parametrize("rows,cols,rank,generic", [
    (300, 700, 200, 0),     # slice null space 100 wide: mixed down to 32, complement not saturated
    (300, 700, 280, 5),     # null space 15 wide: exact complement, 5 columns only it can see
    (320, 600, 150, 150),   # the complement supplies 150 ranks (mixing saturates: ranked whole)
    (280, 700, 279, 0),     # nearly full: one dependent direction
])
def test_slice_and_complement_through_the_float_null_space(p, rows, cols, rank, generic):
    rng = np.random.default_rng(rows + cols + rank + generic)
    matrix = _deficient(rng, rows, cols, rank, generic, p)
    expected = flint_rank(matrix, p)
    for m in (matrix, np.ascontiguousarray(matrix.T)):
        got = block_rank(Field(p), _MatrixMoments(m), np.arange(m.shape[0]), np.arange(m.shape[1]), None, 0)
        assert got.rank == expected
        assert got.elimination == ELIMINATION


def test_probe_and_narrow_slice_on_a_heavily_deficient_large_block(monkeypatch):
    """A 1100 x 1400 block of rank 300 (short side >= PROBE_MIN): the probe finds the deficiency, the
    narrow slice and its complement go through the float null space, hinted and not."""
    p = 8388593
    rng = np.random.default_rng(5)
    matrix = _deficient(rng, 1100, 1400, 300, 0, p)
    expected = flint_rank(matrix, p)
    assert expected == 300
    calls = []
    original = degree_blocks._slice_rank
    monkeypatch.setattr(degree_blocks, "_slice_rank", lambda *a, **k: calls.append(a[4]) or original(*a, **k))
    for hint in (None, 290):
        got = block_rank(Field(p), _MatrixMoments(matrix), np.arange(1100), np.arange(1400), hint, 0)
        assert got.rank == expected and got.elimination == ELIMINATION
    assert calls and all(take < 1100 for take in calls)  # the narrow slices held the rank


class _DesignedBlocks:
    """A 'moment table' whose degree block a is a given matrix: keys encode the degree (1000 a + i)."""

    count = 1

    def __init__(self, blocks):
        self.blocks = blocks

    def keys(self, exponents):
        return np.arange(len(exponents), dtype=np.int64) + 1000 * int(exponents[0].sum())

    def gather(self, k, row_keys, col_keys):
        return self.blocks[int(row_keys[0]) // 1000][np.ix_(row_keys % 1000, col_keys % 1000)]


def test_propagation_starts_only_at_a_full_block():
    """Degree blocks (2 variables, degree 40: block a is (a+1) x (41-a)) all random and full except the
    turn block (21 x 21, rank 20) and the one below it (20 x 22, rank 18): nothing may be implied
    from the nearly full ones, so the total is FLINT's sum over every block."""
    from verify.rank.degree_blocks import degree_block_ranks

    p, top = 8388593, 40
    rng = np.random.default_rng(40)
    blocks = {a: rng.integers(0, p, (a + 1, top - a + 1), dtype=np.int64) for a in range(top + 1)}
    blocks[20][:, -1] = blocks[20][:, 0]          # rank 20
    blocks[19][:, 18:] = blocks[19][:, :4]         # rank 18
    expected = sum(flint_rank(b, p) for b in blocks.values())
    assert flint_rank(blocks[20], p) == 20 and flint_rank(blocks[19], p) == 18
    rank, found, _ = degree_block_ranks(Field(p), _DesignedBlocks(blocks), 2, top)
    assert rank == expected
    assert [b.rank for b in found][18:21] == [19, 18, 20]


def test_rank_dense_leaves_its_input_alone_and_picks_the_elimination_by_prime():
    """rank_dense on a 300 x 260 int64 array: the float elimination below 2^50 (the caller's array
    untouched), FLINT at 2^61 - 1 (beyond the float64 limbs); both FLINT's rank."""
    from verify.exact.kernels import FLINT
    from verify.rank.blocks import rank_dense

    rng = np.random.default_rng(12)
    for p, how in ((8388593, ELIMINATION), (2**61 - 1, FLINT)):
        matrix = np.hstack([rng.integers(0, min(p, 2**62), (300, 200), dtype=np.int64)] * 2)[:, :260]
        kept = matrix.copy()
        block = rank_dense(Field(p), matrix, *matrix.shape)
        assert (block.rank, block.elimination) == (flint_rank(kept, p), how) == (200, how)
        assert np.array_equal(matrix, kept)
