"""Token and continuous grid matrices, evaluated by the literal forward pass.

A token matrix (docs/mathematics.md §7) has one row per token assignment a of the A side (positions
0..N/2 - 1, the output position 0 among them) and one column per assignment b of the B side; its entry is
y_p^0 of the sequence a || b, here computed by ``arith.forward_output`` on the whole sequence (no Gram sums,
no count points, no principal lattice).  Its rank is sep at N exactly at these weights (the grid over
every token sequence is the function itself).  Without positional embeddings eq. 3 treats the positions
other than the output one alike (S is a sum over positions, the scores (x^j)^T B x^i permute with them),
so rows that differ only by a permutation of positions 1..N/2 - 1 are equal, as are columns that differ
by a permutation of the B side: one representative each (sorted tokens) leaves the rank unchanged.  For the
same reason an entry depends only on the output position's token and the multiset of the other N - 1 tokens:
each distinct one is evaluated once (``_by_multiset``), where V < N as eq. 3 over the V embedding columns with
the tokens' counts as column weights (``batched``: a column repeated c times is one column of weight c), which
costs V columns, not N positions (issue 46 item 8: the rows at large N).

A continuous grid (docs/mathematics.md §2, route 2) has rows at random A-side inputs and columns at random
B-side inputs: its rank mod p is a certified lower bound on sep (the rank at one point never exceeds the
generic rank, [L20] supplement Claims 2-3), equal to it unless the random inputs hit a zero of a nonzero
minor (Schwartz-Zippel).
"""

from __future__ import annotations

import itertools
import random
from math import comb

import numpy as np

from . import arith
from .batched import BatchedPass

__all__ = ["TokenNetwork", "continuous_grid_rank", "seconds_per_sequence", "multiset"]

#: Sequences evaluated in one numpy batch (memory: a few (batch, N, N) int64 arrays).
BATCH = 4096
#: Cost of one elementwise step of the batched forward pass (``batched``), in seconds, and of one sequence apart from
#: its steps: an honest price on a quiet machine.  Fitted to 11 shapes of results/ timed at load 1.2 on the 2-core
#: machine (2026-11-29; benchmarks/recheck.py --calibrate) the measured time per sequence is 0.65 to 1.1 x this
#: price, and 0.9 to 1.6 x it at load 6 (the same shapes and 9 more).  The price of a recomputation is this per
#: sequence times the sequences, plus the rank's cost.
SECONDS_PER_STEP = 0.9e-9
SECONDS_PER_SEQUENCE = 0.8e-6
#: Cost of FLINT's rank of an n x n nmod_mat (n^3 / this; measured 7.4e9 to 1.0e10 at n = 500 to 2000, quiet) and of
#: converting its entries (n^2 * that; measured 1.7e-7 to 2.5e-7 s an entry, numpy to Python integers to nmod_mat).
RANK_RATE = 6e9
CONVERT = 2.5e-7


def _steps(depth: int, width: int, heads: int, attn_dim: int, tokens: int) -> int:
    """Elementwise steps of one sequence's forward pass (``batched``): per layer and head the three projections
    and the output (4 d_x d_a N), and the N x N scores and their use, (2 d_a + 10) N^2: every N x N array is split
    into 16-bit halves, converted and reduced, about ten passes over it whatever d_a (where N exceeds
    ``batched.MAX_FLOAT_INNER`` the products run in int64, not BLAS: measured no slower per step at N = 80)."""
    scores = (2 * attn_dim + 10) * tokens * tokens
    return depth * heads * (4 * width * attn_dim * tokens + scores) + depth * width * tokens


def seconds_per_sequence(depth: int, width: int, heads, attn_dim: int, tokens) -> float:
    return SECONDS_PER_SEQUENCE + SECONDS_PER_STEP * _steps(depth, width, heads, attn_dim, tokens)


def rank_seconds(rows, cols) -> float:
    rows, cols = _float(rows), _float(cols)
    n = min(rows, cols)
    return rows * cols * n / RANK_RATE + rows * cols * CONVERT


#: Price of one Python-integer step of building the seeded weights and the embedding (``arith``'s draws).
SETUP_STEP = 2e-6
#: A price beyond any budget (for sizes whose float would overflow).
NEVER = 1e300


def _float(x) -> float:
    """A count as a float for a price, NEVER where it would overflow."""
    return float(x) if x < 10**300 else NEVER


class TokenNetwork:
    """The seeded network and embedding of a token export (``arith``'s documented draws), mod p.

    Built lazily: pricing (``full_rank_seconds``, ``sample_seconds``) allocates nothing, and the price includes
    building the weights and the embedding (``setup_seconds``; issue 46 item 4: a vocabulary of 10^6 is priced,
    not built)."""

    depth: int
    width: int
    heads: int
    attn_dim: int
    vocab: int
    rank: int
    positional_rank: int
    seed: int
    weight_range: int
    p: int
    output: int
    position: int

    def __init__(self, depth: int, width: int, heads, attn_dim: int, vocab: int, rank: int, positional_rank: int,
                 seed, weight_range: int,
                 p=arith.TOKEN_PRIME, output: int = 0, position: int = 0) -> None:
        self.depth, self.width, self.heads, self.attn_dim = depth, width, heads, attn_dim
        self.vocab, self.rank, self.positional_rank, self.seed, self.p = vocab, rank, positional_rank, seed, p
        self.weight_range = weight_range
        self.output, self.position = output, position
        self._layers = self._columns = self._pass = None
        self._positions = {}

    def setup_seconds(self) -> float:
        weights = self.depth * self.heads * 4 * self.width * self.attn_dim
        return SETUP_STEP * (weights + self.vocab * self.width * (self.rank + 1))

    @property
    def layers(self) -> list:
        if self._layers is None:
            self._layers = arith.seeded_weights(self.depth, self.width, self.heads, self.attn_dim, self.seed,
                                                self.weight_range)
        return self._layers

    @property
    def columns(self) -> np.ndarray:
        if self._columns is None:
            self._columns = np.array([[c % self.p for c in col] for col in
                                      arith.embedding_columns(self.width, self.vocab, self.rank, self.seed)],
                                     dtype=np.int64)  # (V, d_x)
        return self._columns

    def positions(self, tokens: int) -> np.ndarray:
        if tokens not in self._positions:
            vectors = arith.positional_vectors(self.width, self.positional_rank, self.seed, tokens)
            self._positions[tokens] = np.array([[c % self.p for c in v] for v in vectors], dtype=np.int64).T
        return self._positions[tokens]  # (d_x, N)

    def evaluate(self, sequences: np.ndarray) -> np.ndarray:
        """y_output^position mod p of each token sequence (rows of ``sequences``), in batches (``batched``)."""
        tokens = sequences.shape[1]
        pos = self.positions(tokens)
        if self._pass is None:
            self._pass = BatchedPass(self.layers, self.p)
        out = []
        for start in range(0, len(sequences), BATCH):
            chunk = sequences[start:start + BATCH]
            x = (np.transpose(self.columns[chunk], (0, 2, 1)) + pos[None]) % self.p  # (B, d_x, N)
            out.append(self._pass.output(x, self.output, self.position))
        return np.concatenate(out) if out else np.zeros(0, dtype=np.int64)

    def matrix(self, rows: np.ndarray, cols: np.ndarray) -> np.ndarray:
        """The token matrix on the given A-side rows and B-side columns (each a (k, N/2) token array); without
        positions each distinct (output token, multiset of the rest) is evaluated once (``_by_multiset``)."""
        if self._multiset_keys(rows.shape[1] * 2) is not None and len(rows) and len(cols):
            return self._by_multiset(rows, cols)
        pairs = np.concatenate([np.repeat(rows, len(cols), axis=0), np.tile(cols, (len(rows), 1))], axis=1)
        return self.evaluate(pairs).reshape(len(rows), len(cols))

    def _multiset_keys(self, tokens: int):
        """The base of the additive key of ``_by_multiset``, or None where that route does not apply (positions, an
        output position other than 0, or a key that would not fit an int64)."""
        base = tokens + 1
        if self.positional_rank or self.position != 0 or base ** (self.vocab + 1) >= 2**62:
            return None
        return base

    def _by_multiset(self, rows: np.ndarray, cols: np.ndarray) -> np.ndarray:
        """The token matrix without positions, each distinct entry evaluated once.  An entry is y at position 0 of
        the sequence a || b, which depends only on the token at position 0 and the multiset of the other N - 1
        tokens (module doc: eq. 3 treats the other positions alike); one sorted sequence stands for each.  The key
        w base^V + sum_v c_v base^v, c_v the count of v among the N - 1 other tokens (each <= N < base: no carry),
        is a row key plus a column key."""
        tokens = rows.shape[1] + cols.shape[1]
        base, v = self._multiset_keys(tokens), self.vocab
        powers = base ** np.arange(v + 1, dtype=np.int64)
        row_keys = _counts(rows[:, 1:], v) @ powers[:v] + rows[:, 0] * powers[v]
        col_keys = _counts(cols, v) @ powers[:v]
        keys = row_keys[:, None] + col_keys[None, :]
        unique, inverse = np.unique(keys, return_inverse=True)
        counts = (unique[:, None] // powers[None, :v]) % base
        firsts = unique // powers[v]
        if v < tokens:  # V weighted columns instead of N positions (``_weighted``)
            return self._weighted(firsts, counts)[inverse.reshape(keys.shape)]
        sequences = np.zeros((len(unique), tokens), dtype=np.int64)
        for i, (w, c) in enumerate(zip(firsts.tolist(), counts.tolist(), strict=True)):
            sequences[i, 0] = w
            sequences[i, 1:] = np.repeat(np.arange(v), c)
        return self.evaluate(sequences)[inverse.reshape(keys.shape)]

    def _weighted(self, firsts: np.ndarray, counts: np.ndarray) -> np.ndarray:
        """y at position 0 of a sequence without positions whose position 0 holds ``firsts[i]`` and whose other
        tokens have the counts ``counts[i]``: eq. 3 over the V embedding columns E_v with weight c_v on each, c the
        counts of the whole sequence (``batched``: a column repeated c times is one column of weight c; every
        position holding w has the output of column w, the one read)."""
        out = np.zeros(len(firsts), dtype=np.int64)
        if self._pass is None:
            self._pass = BatchedPass(self.layers, self.p)
        x = self.columns.T % self.p  # (d_x, V)
        for w in range(self.vocab):
            mine = np.flatnonzero(firsts == w)
            if len(mine):
                weights = counts[mine].copy()
                weights[:, w] += 1
                batch = np.broadcast_to(x, (len(mine),) + x.shape)
                out[mine] = self._pass.output(batch, self.output, w, weights)
        return out

    def _evaluations(self, tokens: int, rows, cols) -> float:
        """The evaluations of F a rows x cols part of the matrix at N costs: rows x cols, or without positions at
        most the distinct (output token, multiset of N - 1 tokens), V binom(N - 1 + V - 1, V - 1)."""
        entries = _float(rows) * _float(cols)
        if self._multiset_keys(tokens) is None:
            return entries
        return min(entries, _float(self.vocab * comb(tokens - 1 + self.vocab - 1, self.vocab - 1)))

    def sides(self, tokens: int) -> tuple[np.ndarray, np.ndarray]:
        """Every distinct row and column of the token matrix at N (module doc: representatives without positions)."""
        half, v = tokens // 2, self.vocab
        if self.positional_rank:
            every = np.array(list(itertools.product(range(v), repeat=half)), dtype=np.int64)
            return every, every
        rows = [(w,) + rest for w in range(v) for rest in itertools.combinations_with_replacement(range(v), half - 1)]
        cols = list(itertools.combinations_with_replacement(range(v), half))
        return np.array(rows, dtype=np.int64).reshape(len(rows), half), np.array(cols, dtype=np.int64)

    def side_counts(self, tokens: int) -> tuple[int, int]:
        half, v = tokens // 2, self.vocab
        if self.positional_rank:
            return v**half, v**half
        return v * comb(half - 1 + v - 1, v - 1), comb(half + v - 1, v - 1)

    def full_rank_seconds(self, tokens: int) -> float:
        rows, cols = (_float(c) for c in self.side_counts(tokens))
        return self._evaluations(tokens, rows, cols) * self._per_sequence(tokens) + rank_seconds(rows, cols) \
            + self.setup_seconds()

    def _per_sequence(self, tokens: int) -> float:
        """One evaluation: a sequence of N tokens, or without positions V weighted columns where V < N."""
        columns = self.vocab if self._multiset_keys(tokens) is not None and self.vocab < tokens else tokens
        return seconds_per_sequence(self.depth, self.width, self.heads, self.attn_dim, columns)

    def full_rank(self, tokens: int) -> int:
        """sep at N mod p at these weights: the rank of the whole token matrix (FLINT)."""
        rows, cols = self.sides(tokens)
        return arith.nmod_rank(self.matrix(rows, cols), self.p)

    def sample_seconds(self, tokens: int, k: int, every_column: bool = False) -> float:
        cols = _float(self.side_counts(tokens)[1] if every_column else k)
        k = _float(k)
        return self._evaluations(tokens, k, cols) * self._per_sequence(tokens) + rank_seconds(k, cols) \
            + self.setup_seconds()

    def sampled_rank(self, tokens: int, k: int, seed: str = "", every_column: bool = False) -> int:
        """Rank of the token matrix on k distinct random rows and k distinct random columns, or every column (a
        certified lower bound on the rank at these weights; rows against every column lose only what the rows
        lose, a square sample loses on both sides: docs/mathematics.md §7); the recheck's own draw."""
        rows, cols = self.side_counts(tokens)
        rng = random.Random(f"recheck-sample:{seed}:{tokens}:{k}")
        half = tokens // 2
        r = self._side_sample(rng, half, rows, k, True)
        c = self.sides(tokens)[1] if every_column else self._side_sample(rng, half, cols, k, False)
        return arith.nmod_rank(self.matrix(r, c), self.p)

    def _side_sample(self, rng, half: int, count: int, k: int, row_side: bool) -> np.ndarray:
        """min(k, count) distinct rows (A side) or columns (B side) of the token matrix, drawn by index and decoded
        (``sides`` is never enumerated for a sample: its size is the price of the whole matrix)."""
        v = self.vocab
        chosen = _distinct(rng, count, min(k, count))
        if self.positional_rank:
            return np.array([[(x // v ** (half - 1 - j)) % v for j in range(half)] for x in chosen],
                            dtype=np.int64).reshape(len(chosen), half)
        if row_side:  # (output token w, multiset of the other half - 1): index = w * per + multiset index
            per = comb(half - 1 + v - 1, v - 1)
            out = [(x // per,) + multiset(v, half - 1, x % per) for x in chosen]
        else:
            out = [multiset(v, half, x) for x in chosen]
        return np.array(out, dtype=np.int64).reshape(len(chosen), half)


def _counts(side: np.ndarray, vocab: int) -> np.ndarray:
    """(k, V) token counts of each row of a (k, n) token array."""
    out = np.zeros((len(side), vocab), dtype=np.int64)
    for column in side.T:
        out[np.arange(len(side)), column] += 1
    return out


def _distinct(rng, count: int, k: int) -> list[int]:
    """k distinct indices below ``count``, sorted (``random.sample`` needs len(range(count)) to fit a C size)."""
    if count <= 2**62:
        return sorted(rng.sample(range(count), k))
    chosen: set[int] = set()
    while len(chosen) < k:
        chosen.add(rng.randrange(count))
    return sorted(chosen)


def multiset(v: int, size: int, index: int) -> tuple:
    """The ``index``-th sorted multiset of ``size`` tokens from range(v), in the order of
    ``itertools.combinations_with_replacement(range(v), size)`` (the combinatorial number system)."""
    out, low = [], 0
    for position in range(size):
        left = size - position - 1
        for token in range(low, v):
            block = comb(left + v - token - 1, left)  # multisets of the rest, each token >= this one
            if index < block:
                out.append(token)
                low = token
                break
            index -= block
    return tuple(out)


def continuous_grid_seconds(depth, width, heads, attn_dim, tokens, k) -> float:
    k = _float(k)
    return k * k * seconds_per_sequence(depth, width, heads, attn_dim, tokens) + rank_seconds(k, k)


def continuous_grid_rank(layers, width: int, tokens: int, k: int, p: int, output: int, position: int,
                         residual: bool, seed: str) -> int:
    """Rank mod p of y_output^position on k random A-side inputs (positions 0..N/2 - 1) against k random
    B-side inputs (the rest): a certified lower bound on sep at N (module doc)."""
    rng = np.random.default_rng(random.Random(f"recheck-grid:{seed}").getrandbits(63))
    half = tokens // 2
    a = rng.integers(0, p, size=(k, width, half), dtype=np.int64)
    b = rng.integers(0, p, size=(k, width, tokens - half), dtype=np.int64)
    run = BatchedPass(layers, p, residual)
    values = []
    for i in range(k):
        x = np.concatenate([np.repeat(a[i:i + 1], k, axis=0), b], axis=2)
        values.append(run.output(x, output, position))
    return arith.nmod_rank(np.array(values), p)
