"""Exact separation ranks for token inputs (``docs/mathematics.md`` §4).

The function lives on the finite set [V]^N, so the grid tensor over all tokens is the function
itself and its matricisation rank is sep exactly.  Two routes:

* ``enumeration`` — every token sequence through the literal forward pass (eq. 3); any embedding,
  V^N evaluations.
* ``counts`` — without positional embeddings every position holding token v carries the same
  vector, and y^i = F(S) x^i with S = sum_v c_v E_v E_v^T depends only on the query token w and
  the count vector c of the whole sequence.  Row (w, a) (query token, counts of the other A
  positions) and column b (counts of B) hold h(w, a + b + e_w) = e_p^T F(S(a + b + e_w)) E_w, so
  F is evaluated once per count vector of N tokens, binom(N + V - 1, V - 1) times, whatever the
  grid size.  Duplicate rows and columns (same counts) do not change the rank and are dropped.
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass
from itertools import product
from math import comb
from typing import TYPE_CHECKING, Any

import flint
import numpy as np

from ...errors import InputError
from ...exact.compositions import compositions
from ...exact.fields import Field
from ...exact.kernels import kernel_for
from ...model.embeddings import VocabularyEmbedding
from ...model.network import layer_maps, output_coordinate
from ...model.spec import NetworkSpec, Weights
from ..memory import guard

if TYPE_CHECKING:
    from collections.abc import Callable

    from .gram import GramModel

__all__ = ["compositions", "token_rank", "TokenRank"]  # compositions re-exported for callers


@dataclass
class TokenRank:
    rank: int
    route: str
    rows: int
    cols: int
    evaluations: int
    seconds: float
    compressed_to: int | None = None
    modulus: int | None = None  # the prime of the rank when it differs from the field's (gram route)
    sampled: bool = False  # gram route with positions: a sample of the sequences (a lower bound)


def _gram_rank(spec: NetworkSpec, weights, embedding: VocabularyEmbedding, field, part_a: tuple[int, ...], seed,
               likely: int | None = None) -> TokenRank:
    """The Gram route (``route``): counts without positions, sequences with them."""
    from .caps import count_caps
    from .gram import GramModel, token_prime
    from .route import count_rank, derivative_upper_bound, free_variables, sequence_rank

    if tuple(part_a) != tuple(range(spec.tokens // 2)) or spec.position != 0:
        raise InputError("the gram route takes A = the first N/2 positions with the query at 0; "
                         "use --route counts or enumeration for other partitions")
    start = time.perf_counter()
    p = token_prime(field.modulus)
    model = GramModel(spec, weights, embedding, p)
    if embedding.positional_rank == 0:
        rank, rows, cols, evals = count_rank(model, spec.tokens)
        return TokenRank(rank, "gram", rows, cols, evals, time.perf_counter() - start, None, p)
    upper = derivative_upper_bound(spec.layer_degree, free_variables(spec, embedding.vocab, embedding.positional_rank),
                                   embedding.vocab)
    bounds = positional_bounds(model, spec.tokens)
    target = min(count_caps(embedding.vocab, spec.tokens, True).cap, upper, bounds["certified"],
                 bounds["at_positions"] or upper)  # eq. 7.4 at these positions bounds the rank mod p here
    rank, every, evals = sequence_rank(model, spec.tokens, target, seed, likely)
    side = embedding.vocab ** (spec.tokens // 2)
    return TokenRank(rank, "gram", side, side, evals, time.perf_counter() - start, None, p, not every)


def positional_bounds(model: GramModel, tokens: int) -> dict[str, Any]:
    """``positional_bound.bounds_at`` for a Gram model's positions (eq. 7.4: caps, and H at the positions)."""
    from ...model.embeddings import EMBEDDING_RANGE
    from ..certainty import residue_sample_size
    from .positional_bound import bounds_at

    positions = [model.position_vector(j) for j in range(tokens)]
    return bounds_at(model.spec.depth, model.embedding.vocab, positions, tokens, model.p,
                     residue_sample_size(2 * EMBEDDING_RANGE + 1, model.p))


def _nmod_matrix(entries, p):
    return flint.nmod_mat([[int(v) % p for v in row] for row in entries], p)


def _nmod_layers(weights: Weights, p: int) -> list:
    """Per layer, per head, (A_h, B_h) of ``network.layer_maps`` as nmod_mats, built once."""
    return [[(_nmod_matrix(a, p), _nmod_matrix(b, p)) for a, b in layer] for layer in layer_maps(weights)]


def _output_row(spec: NetworkSpec, maps: list, s_matrix, p: int):
    """Row p of F(S) over GF(p) for a numeric S (the reduced recursion of docs/mathematics.md §1)."""
    d = spec.width
    one = flint.nmod_mat([[int(i == j) for j in range(d)] for i in range(d)], p)
    f, s = one, s_matrix
    for layer, pairs in enumerate(maps):
        t = pairs[0][0] * s * pairs[0][1]
        for a, b in pairs[1:]:
            t = t + a * s * b
        g = t + one if spec.residual else t
        if layer == len(maps) - 1:
            return [int(v) for v in (g * f).entries()[spec.output * d:(spec.output + 1) * d]]
        f = g * f
        s = g * s * g.transpose()
    raise AssertionError("unreachable")


#: Token matrices with more entries than this are ranked through a random column compression to
#: the proven rank bound binom(C + V, V) (each row is a polynomial of degree <= C in the B counts).
DENSE_ENTRIES = 4_000_000


def _count_keys(counts: np.ndarray, base: int) -> np.ndarray:
    return counts @ (base ** np.arange(counts.shape[1], dtype=np.int64))


def estimate_counts_log2_bytes(vocab: int, tokens: int, size_a: int) -> float:
    """log2 of the bytes the counts route holds at once (closed form, any size).

    Count vectors of k tokens over V words number binom(k + V - 1, V - 1); the route keeps those of
    the A side less the query, of the B side and of all N tokens as int64 rows of length V, one value
    row per count vector of N tokens, their sorted copies, and the V binom(|A| - 1 + V - 1, V - 1) x
    binom(|B| + V - 1, V - 1) token matrix with its FLINT copy (40 bytes an entry).
    """
    import math

    from ..memory import log2_multichoose

    def count(k: int) -> float:  # log2 binom(k + V - 1, V - 1), a lower bound beyond floats
        return log2_multichoose(math.log2(k) if k > 0 else -math.inf, vocab - 1) if k > 0 else 0.0

    row, col, every = count(size_a - 1), count(tokens - size_a), count(tokens)
    log2_v = math.log2(vocab)
    terms = [every + log2_v + math.log2(8 * 4), row + log2_v + 3, col + log2_v + 3,
             log2_v + row + col + math.log2(40)]
    top = max(terms)
    return top + math.log2(sum(2.0 ** (x - top) for x in terms))


def _counts_rank(spec: NetworkSpec, weights, embedding: VocabularyEmbedding, field, part_a: tuple[int, ...],
                 max_memory_gib: float, progress, rng):
    from ..memory import guard_log2

    p = field.modulus
    vocab, n = embedding.vocab, spec.tokens
    if spec.position not in part_a:
        raise InputError("the counts route puts the query in A; give a partition that contains --position")
    guard_log2(estimate_counts_log2_bytes(vocab, n, len(part_a)), max_memory_gib,
               f"the counts route at N = {n} with V = {vocab:,}", "use a smaller --vocab or --max-tokens")
    row_counts = compositions(len(part_a) - 1, vocab)
    col_counts = compositions(n - len(part_a), vocab)
    rows, cols = vocab * len(row_counts), len(col_counts)
    guard(rows * cols * 40, max_memory_gib, f"the {rows:,} x {cols:,} token matrix", "use fewer --max-tokens")
    gram = [_nmod_matrix([[a * b for b in col] for a in col], p) for col in embedding.columns]
    all_counts = compositions(n, vocab)
    maps = _nmod_layers(weights, p)
    values = np.zeros((len(all_counts), vocab), dtype=np.int64)
    for k, counts in enumerate(all_counts.tolist()):
        s = gram[0] * counts[0]
        for v in range(1, vocab):
            s = s + gram[v] * counts[v]
        row = _output_row(spec, maps, s, p)
        values[k] = [sum(r * e for r, e in zip(row, embedding.columns[w], strict=False)) % p for w in range(vocab)]
        if progress is not None and k % 256 == 0:
            progress(k + 1, len(all_counts))
    base = n + 1
    keys = _count_keys(all_counts, base)
    order = np.argsort(keys)
    keys, values = keys[order], values[order]
    col_keys = _count_keys(col_counts, base)
    matrix = np.empty((rows, cols), dtype=np.int64)
    for w in range(vocab):
        row_keys = _count_keys(row_counts, base) + base**w  # a + e_w
        pos = np.searchsorted(keys, row_keys[:, None] + col_keys[None, :])
        matrix[w * len(row_counts):(w + 1) * len(row_counts)] = values[pos, w]
    bound = comb(spec.layer_degree + vocab, vocab)
    if rows * cols <= DENSE_ENTRIES or bound >= min(rows, cols):
        return kernel_for(field, rows, cols).rank(matrix), rows, cols, len(all_counts), None
    compressed = field.from_rows(matrix) * field.random_matrix(cols, bound, rng)  # the product in FLINT, exact
    compressed = np.array([[int(v) for v in row] for row in compressed.tolist()], dtype=np.int64)  # entries < p < 2^63
    return kernel_for(field, rows, bound).rank(compressed), rows, cols, len(all_counts), bound


def _enumeration_rank(spec: NetworkSpec, weights, embedding: VocabularyEmbedding, field, part_a: tuple[int, ...],
                      max_evaluations: int):
    n, vocab = spec.tokens, embedding.vocab
    part_b = [j for j in range(n) if j not in part_a]
    if n * math.log2(vocab) > math.log2(max_evaluations) + 1e-9 and vocab**n > max_evaluations:
        raise InputError(f"enumerating {vocab}^{n} = {vocab**n:,} token sequences is over the limit of "
                         f"{max_evaluations:,}; use the counts route (no positional embedding) or fewer tokens")
    rows, cols = list(product(range(vocab), repeat=len(part_a))), list(product(range(vocab), repeat=len(part_b)))
    matrix = []
    for left in rows:
        line = []
        for right in cols:
            seq = [0] * n
            for j, w in zip(part_a, left, strict=False):
                seq[j] = w
            for j, w in zip(part_b, right, strict=False):
                seq[j] = w
            inputs = [[field.scalar(v) for v in x] for x in embedding.embed(seq)]
            line.append(int(output_coordinate(spec, weights, inputs)))
        matrix.append(line)
    matrix = np.array(matrix, dtype=object if field.modulus is None else np.int64)
    return kernel_for(field, *matrix.shape).rank(matrix), \
        len(rows), len(cols), vocab**n, None


def token_rank(spec: NetworkSpec, weights: Weights, embedding: VocabularyEmbedding, field: Field,
               part_a: tuple[int, ...], route: str = "auto", max_memory_gib: float = 16.0,
               max_evaluations: int = 2_000_000, progress: Callable[[int, int], object] | None = None, seed: int = 0,
               likely: int | None = None) -> TokenRank:
    """Exact separation rank over ``field`` of y_p^i on token inputs, for the partition (A, B).

    ``route``: ``gram`` (``route``: cost independent of V^N; mod p < 2^31, ``modulus`` says
    which), ``counts`` (no positional embedding), ``enumeration``, or ``auto`` (gram).  The value is the rank of the
    full grid over all tokens, so at these weights it is sep exactly; mod p it is a certified lower bound on the generic
    rank.  Large count matrices are ranked through a random compression to binom(C + V, V) columns, a proven bound on
    their rank: still a certified lower bound, equal to the exact rank unless a degree-r
    polynomial in the random entries vanishes (probability <= r/p); ``compressed_to`` says so.
    ``likely``: the computed token limit, where known (the positional gram route's sample stops at it).
    """
    if route == "auto":
        route = "gram"
    if route == "gram":
        from ..memory import guard_log2
        from .caps import gram_log2_bytes

        # priced up front by the closed-form size of the Gram route's own matrix (its lattice points)
        guard_log2(gram_log2_bytes(embedding.vocab, spec.tokens, spec.layer_degree, embedding.positional_rank > 0),
                   max_memory_gib,
                   f"the token grid at N = {spec.tokens} with V = {embedding.vocab:,}",
                   "use a smaller --vocab or --max-tokens")
        return _gram_rank(spec, weights, embedding, field, part_a, seed, likely)
    if route == "counts" and embedding.positional_rank:
        raise InputError("the counts route needs no positional embedding; use --route enumeration")
    if route == "counts" and field.modulus is None:
        raise InputError("the counts route works over GF(p); use --field gf:P")
    start = time.perf_counter()
    if route == "counts":
        rng = random.Random(f"verify-token-compress:{seed}:{spec.tokens}")
        found = _counts_rank(spec, weights, embedding, field, part_a, max_memory_gib, progress, rng)
    else:
        found = _enumeration_rank(spec, weights, embedding, field, part_a, max_evaluations)
    rank, rows, cols, evals, compressed_to = found
    return TokenRank(rank, route, rows, cols, evals, time.perf_counter() - start, compressed_to)
