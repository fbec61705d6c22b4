"""The Gram route for token inputs: sep(N) (``docs/mathematics.md`` §7; its N-independent limit is ``limit``).

Every entry of the token matrix is h(z_left + z_right) with h(z) = e_p^T F(S(z)) x_w a polynomial
of degree C = C(L) = (3^L - 1)/2 in the token point z (``gram``).  Two computations, and two samplers
built on them:

* ``count_rank`` (no positional embedding, exact at these weights mod p).  z = (c_1..c_V), and with
  c_V = N - (c_1 + ... + c_{V-1}) the entry is g_w(a' + b') for the free count coordinates a', b' of
  the two sides, g_w of degree <= C in m = V - 1 variables.  Rows need only a' with sum <= min(N/2 - 1, C)
  and columns b' with sum <= min(N/2, C): when a side is at most C every assignment is kept, and
  beyond it these points (the principal lattice of order C) are unisolvent for degree-C polynomials,
  so the kept rows (columns) span the rest.  The matrix has at most V binom(C + m, m) rows and
  binom(C + m, m) columns, whatever N: the cost does not grow with V^N or with N.
* ``sequence_rank`` (positional embeddings).  A random sample of t + 16 sequences a side (every
  sequence when there are fewer), t = min(counting cap, derivative bound, computed limit where
  given), doubled until its rank meets t or the sample would pass its budget of evaluations
  (``MAX_SAMPLE_EVALUATIONS``): a submatrix, so a certified lower bound at these weights, and exactly the rank when
  it meets a proven upper bound or every sequence is kept (when it meets the computed limit: exactly
  the rank unless the limit's random event occurred, whose probability the limit reports).
* ``sampled_minor_rank``: the k x k minor on k distinct seeded sequences a side (a certified lower bound);
  ``every_sequence_rank``: the rank over every sequence beside eq. 7.4's two bounds (``positional_bound``).
"""

from __future__ import annotations

import random
from math import comb

import numpy as np

from ...exact.compositions import compositions
from ...exact.fields import Field
from ...exact.kernels import kernel_for
from ...model.embeddings import VocabularyEmbedding
from ...model.spec import NetworkSpec, Weights
from .batched import batched_grid, pass_prices
from .gram import GramModel
from .positional_bound import exact_hilbert, positional_bound, side_points

__all__ = ["grow_grid", "lattice", "derivative_upper_bound", "free_variables", "rank_mod_p", "count_rank",
           "sequence_rank", "sampled_minor_rank", "every_sequence_rank", "sequence_grid", "MAX_SAMPLE_EVALUATIONS"]


#: Most evaluations the sequence sample may spend at one N (positional route): 16 million covers every
#: sequence at V^(N/2) <= 4,000 (3^7 = 2,187 at N = 14, V = 3), about 30 s at depth 3 on a loaded 2-core machine.
MAX_SAMPLE_EVALUATIONS = 16_000_000


def lattice(order: int, variables: int) -> np.ndarray:
    """Non-negative integer vectors of length ``variables`` with sum <= ``order`` (the principal lattice).

    >>> lattice(1, 2).tolist()
    [[0, 0], [0, 1], [1, 0]]
    """
    return compositions(order, variables + 1)[:, :variables].copy()


def free_variables(spec: NetworkSpec, vocab: int, positional_rank: int) -> int:
    """Variables h effectively depends on: min((V - 1)(1 + R), d_x (d_x + 1) / 2).

    The point z = (c, m) of a side has V (1 + R) coordinates and 1 + R linear constraints: the counts
    sum to the side's size, and sum_v m_v = sum of pi_j over the side's positions, whatever the
    tokens.  And h factors through the linear map z -> S into symmetric d_x x d_x matrices.
    """
    return min((vocab - 1) * (1 + positional_rank), spec.width * (spec.width + 1) // 2)


def derivative_upper_bound(degree: int, variables: int, polys: int) -> int:
    """A proven bound on dim span{all derivatives of g_1..g_V}, g_w of degree <= C in m variables.

    Derivatives of order < j0 are at most V binom(j + m - 1, m - 1) per order j; all of order >= j0
    lie in the polynomials of degree <= C - j0, of dimension binom(C - j0 + m, m).  Minimum over j0.

    >>> derivative_upper_bound(4, 2, 3)    # V = 3 tokens, depth 2: 3 + binom(5, 2)
    13
    """
    best = None
    below = 0
    for j0 in range(degree + 2):
        rest = comb(degree - j0 + variables, variables) if j0 <= degree else 0
        total = below + rest
        best = total if best is None else min(best, total)
        below += polys * comb(j0 + variables - 1, variables - 1) if variables else (polys if j0 == 0 else 0)
    return best


def rank_mod_p(matrix: np.ndarray, p: int) -> int:
    """Rank mod p by the field's own kernel (``kernel_for``): the checked float64 elimination once the
    shortest side reaches its cut-off, where FLINT's entry-by-entry conversion cost more than its rank."""
    if matrix.size == 0:
        return 0
    return kernel_for(Field(p), *matrix.shape).rank(np.ascontiguousarray(matrix))


def count_rank(model: GramModel, tokens: int) -> tuple[int, int, int, int]:
    """sep at N = ``tokens`` without positional embeddings, mod p: (rank, rows, cols, evaluations)."""
    vocab, p, degree = model.embedding.vocab, model.p, model.spec.layer_degree
    half, m = tokens // 2, vocab - 1
    rows = lattice(min(half - 1, degree), m)
    cols = lattice(min(half, degree), m)
    base = 2 * degree + 3  # every coordinate of a' + b' + e_w is below it: an exact additive key
    weights = base ** np.arange(m, dtype=np.int64)
    blocks, evaluations = [], 0
    for w in range(vocab):
        shift = np.zeros(m, dtype=np.int64)
        if w < m:
            shift[w] = 1
        points = (rows + shift)[:, None, :] + cols[None, :, :]
        flat = points.reshape(len(rows) * len(cols), m)  # not -1: with V = 1, m = 0 and -1 is ambiguous
        keys = flat @ weights
        unique, first, inverse = np.unique(keys, return_index=True, return_inverse=True)
        free = flat[first]
        z = np.zeros((len(free), vocab), dtype=np.int64)
        z[:, :m] = free
        z[:, m] = (tokens - free.sum(axis=1)) % p
        values = model.evaluate(z, np.full(len(z), w))
        evaluations += len(z)
        blocks.append(values[inverse.ravel()].reshape(len(rows), len(cols)))
    matrix = np.vstack(blocks)
    return rank_mod_p(matrix, p), matrix.shape[0], matrix.shape[1], evaluations


def _side_points(model: GramModel, positions: list[int], picks: np.ndarray) -> np.ndarray:
    """z of each assignment (rows of token indices, one column per position) of a side."""
    z = np.zeros((len(picks), model.dim), dtype=np.int64)
    for col, j in enumerate(positions):
        z = (z + model.zeta(j)[picks[:, col]]) % model.p
    return z


def _all_sequences(vocab: int, length: int) -> np.ndarray:
    grid = np.indices((vocab,) * length).reshape(length, -1).T if length else np.zeros((1, 0), dtype=np.int64)
    return grid.astype(np.int64)


def sequence_grid(model: GramModel, tokens: int, left: np.ndarray, right: np.ndarray, za: np.ndarray | None = None,
                  zb: np.ndarray | None = None) -> np.ndarray:
    """The token matrix of the sequences ``left`` x ``right`` by the cheaper pass (``pass_prices``): the batched
    literal pass, or ``model.evaluate_grid`` of the side points ``za``, ``zb`` (formed here when not given).
    The model's constant K0 must be that of ``tokens`` positions (``positions_constant``) for the Gram pass."""
    prices = pass_prices(model.spec, tokens)
    if prices["literal"] < prices["gram"]:
        return batched_grid(model, tokens, left, right)
    half = left.shape[1]
    za = _side_points(model, list(range(half)), left) if za is None else za
    zb = _side_points(model, list(range(half, tokens)), right) if zb is None else zb
    return model.evaluate_grid(za, zb, left[:, 0])


def grow_grid(model: GramModel, matrix: np.ndarray | None, left: np.ndarray | None, right: np.ndarray | None,
              query: np.ndarray | None, new_left: np.ndarray, new_right: np.ndarray,
              new_query: np.ndarray) -> np.ndarray:
    """``model.evaluate_grid`` of the stacked points [left; new_left] x [right; new_right], given the old
    block ``matrix`` (None: no old points): only the new entries are evaluated."""
    if matrix is None:
        return model.evaluate_grid(new_left, new_right, new_query)
    right_block = model.evaluate_grid(left, new_right, query)
    below = model.evaluate_grid(new_left, np.vstack([right, new_right]), new_query)
    return np.vstack([np.hstack([matrix, right_block]), below])


def _every_sequence_grid(model: GramModel, matrix: np.ndarray | None, picks_a: np.ndarray | None,
                         picks_b: np.ndarray | None, every: np.ndarray, za: np.ndarray,
                         zb: np.ndarray) -> tuple[np.ndarray, int]:
    """The matrix over every sequence a side (rows and columns in the order of ``every``), with the entries
    the sample already evaluated (``matrix`` on the sampled sequences ``picks_a`` x ``picks_b``) copied, not
    evaluated again: (matrix, entries evaluated).  An entry depends only on its two sequences, so the copy is
    the value a fresh evaluation gives."""
    count = len(every)
    if matrix is None:
        return model.evaluate_grid(za, zb, every[:, 0]), count * count
    # row i of ``every`` is sequence i: its tokens are i's base-V digits, the first position the most significant
    place = model.embedding.vocab ** (every.shape[1] - 1 - np.arange(every.shape[1], dtype=np.int64))
    known_a, first_a = np.unique(picks_a @ place, return_index=True)
    known_b, first_b = np.unique(picks_b @ place, return_index=True)
    rest_a, rest_b = np.setdiff1d(np.arange(count), known_a), np.setdiff1d(np.arange(count), known_b)
    out = np.empty((count, count), dtype=np.int64)
    out[np.ix_(known_a, known_b)] = matrix[np.ix_(first_a, first_b)]
    if len(rest_b):
        out[np.ix_(known_a, rest_b)] = model.evaluate_grid(za[known_a], zb[rest_b], every[known_a, 0])
    if len(rest_a):
        out[rest_a] = model.evaluate_grid(za[rest_a], zb, every[rest_a, 0])
    return out, count * count - len(known_a) * len(known_b)


def sequence_rank(model: GramModel, tokens: int, target: int, seed: int = 0,
                  likely: int | None = None, budget: int | None = None) -> tuple[int, bool, int]:
    """sep at N = ``tokens`` with positional embeddings, mod p: (rank, every sequence kept, evaluations).

    ``target`` is a proven upper bound to aim for (the smallest of the counting cap, the derivative bound and
    the positional bound of eq. 7.4, ``positional_bound``); ``likely`` (optional, <= target) the computed
    limit, an upper bound unless the limit's own random event occurred.  The sample starts at
    k = ``min(target, likely) + 16`` sequences and doubles until its rank meets that, every sequence is
    kept, or the next doubling would take the evaluations past ``budget`` (default ``MAX_SAMPLE_EVALUATIONS``).

    Rows against every column first (issue 39, item 8): where k rows times all V^(N/2) columns fit the budget,
    the sample is k distinct rows against every column, its rows doubled; a submatrix's rank is a certified lower
    bound either way, but rows against every column lose only what the rows lose, a square sample loses on both
    sides (at L = 3, V = 3, R = 1, N = 18: 1,200 rows against all 19,683 columns give 705, a 3,000 x 3,000
    sample 703).  Only where even k rows against every column pass the budget does it sample squares.
    """
    budget = MAX_SAMPLE_EVALUATIONS if budget is None else budget
    vocab, half, p = model.embedding.vocab, tokens // 2, model.p
    side_a, side_b = list(range(half)), list(range(half, tokens))
    model.constant = model.positions_constant(tokens)
    count = vocab**half
    aim = target if likely is None else min(target, likely)
    rng = np.random.default_rng(random.Random(f"verify-token-sample:{seed}:{tokens}").getrandbits(63))
    k = min(count, aim + 16)
    if k < count and k * count <= budget:
        return _rows_against_every_column(model, tokens, k, aim, rng, budget)
    first = _rows_first(model, tokens, k, aim, rng, budget)
    if first is not None and (first[0] < (budget - k * k) // count or first[0] >= aim):
        return first  # the aim met, or its rows are dependent (a heuristic stop: a certified lower bound either way)
    if first is not None:
        budget -= first[2]
    evaluations = 0
    picks_a = picks_b = za = zb = matrix = None
    while True:
        if k == count:
            every = _all_sequences(vocab, half)
            za_all, zb_all = _side_points(model, side_a, every), _side_points(model, side_b, every)
            matrix, fresh = _every_sequence_grid(model, matrix, picks_a, picks_b, every, za_all, zb_all)
            evaluations += fresh
        else:  # a doubled sample keeps the old one (still uniform) and evaluates only the new entries
            grow = k if picks_a is None else k - len(picks_a)
            new_a, new_b = rng.integers(0, vocab, size=(grow, half)), rng.integers(0, vocab, size=(grow, half))
            za_new, zb_new = _side_points(model, side_a, new_a), _side_points(model, side_b, new_b)
            matrix = grow_grid(model, matrix, za, zb, None if picks_a is None else picks_a[:, 0], za_new, zb_new,
                               new_a[:, 0])
            picks_a = new_a if picks_a is None else np.vstack([picks_a, new_a])
            picks_b = new_b if picks_b is None else np.vstack([picks_b, new_b])
            za = za_new if za is None else np.vstack([za, za_new])
            zb = zb_new if zb is None else np.vstack([zb, zb_new])
            evaluations += k * k - (k - grow) ** 2
        found = rank_mod_p(matrix, p)
        grown = min(count, 2 * k)
        # aims at the bound: draws on until the rank meets it, every sequence is kept, or the next doubling
        # (grown^2 - k^2 new entries; every sequence is evaluated afresh, grown^2) would pass the budget (a
        # rank that stops growing is no reason to stop)
        cost = grown * grown - (0 if grown == count else k * k)
        if k == count or found >= aim or evaluations + cost > budget:
            if first is not None:  # the larger of two certified lower bounds; both samples' work
                return max(found, first[0]), k == count, evaluations + first[2]
            return found, k == count, evaluations
        k = grown


def _rows_first(model: GramModel, tokens: int, k: int, aim: int, rng, budget: int) -> tuple[int, bool, int] | None:
    """Where k rows against every column pass ``budget`` (a side too large), as many rows as fit beside the first
    k x k square sample, r = (budget - k^2) // V^(N/2), against every column, before any square sample (issue 49,
    item 3: at L = 4, V = 2, R = 1, N = 22 a 866 x 866 square gave 260 where the whole 2,048 x 2,048 matrix has
    rank 312); None where not one row fits.  ``sequence_rank`` returns it when its rank is below r (the rows are
    dependent) or meets the aim, else the larger of it and the square sample's rank."""
    count = model.embedding.vocab ** (tokens // 2)
    rows = (budget - k * k) // count
    if rows < 1 or rows >= k:
        return None
    return _rows_against_every_column(model, tokens, rows, aim, rng, rows * count)


def _rows_against_every_column(model: GramModel, tokens: int, k: int, aim: int, rng,
                               budget: int) -> tuple[int, bool, int]:
    """``sequence_rank``'s sample of k distinct rows (A-side sequences, drawn without replacement in one seeded
    order, so a doubled sample keeps the old rows) against every column (every B-side sequence), doubled until
    its rank meets ``aim``, every row is kept (the whole matrix), or the next doubling passes ``budget``:
    (rank, every sequence kept, evaluations)."""
    vocab, half, p = model.embedding.vocab, tokens // 2, model.p
    every = _all_sequences(vocab, half)
    count = len(every)
    zb = _side_points(model, list(range(half, tokens)), every)  # used by the Gram pass only
    order = rng.permutation(count)
    blocks, taken, evaluations = [], 0, 0
    while True:
        new = order[taken:k]
        blocks.append(sequence_grid(model, tokens, every[new], every, zb=zb))  # the cheaper pass (``batched``)
        evaluations += len(new) * count
        taken = k
        found = rank_mod_p(np.vstack(blocks), p)
        grown = min(count, 2 * k)
        # a rank that stops growing is no reason to stop: only the aim met, every row kept, or the budget
        if k == count or found >= aim or evaluations + (grown - k) * count > budget:
            return found, k == count, evaluations
        k = grown


def sampled_minor_rank(spec: NetworkSpec, weights: Weights, embedding: VocabularyEmbedding, tokens: int, k: int,
                       seed: int = 0, p: int = 2**31 - 1) -> int:
    """Rank mod p of the k x k minor of the token matrix at N = ``tokens`` on k distinct seeded sequences a
    side: a certified lower bound on sep at these weights, hence on the generic rank (docs/mathematics.md §3)."""
    model = GramModel(spec.with_tokens(tokens), weights, embedding, p)
    half, vocab = tokens // 2, model.embedding.vocab
    if k > vocab**half:
        raise ValueError(f"{k} distinct sequences a side need V^(N/2) >= k, got {vocab**half}")
    rng = random.Random(f"verify-positional-minor:{seed}:{tokens}")

    def distinct() -> np.ndarray:
        picks = rng.sample(range(vocab**half), k)
        return np.array([[(x // vocab**j) % vocab for j in range(half)] for x in picks], dtype=np.int64)

    model.constant = model.positions_constant(tokens)
    left, right = distinct(), distinct()
    return rank_mod_p(sequence_grid(model, tokens, left, right), model.p)  # the cheaper pass (``batched``)


def every_sequence_rank(spec: NetworkSpec, weights: Weights, embedding: VocabularyEmbedding, tokens: int,
                        p: int) -> tuple[int, int, int]:
    """sep mod p at N = ``tokens`` over every sequence (the Gram route aimed at the counting cap V^(N/2), so it
    keeps every sequence: independent of eq. 7.4), and ``at_positions``: eq. 7.4 with H at the embedding's
    positions.  Returns (rank, certified bound, bound at positions)."""
    vocab = embedding.vocab
    model = GramModel(spec.with_tokens(tokens), weights, embedding, p)
    rank, every, _ = sequence_rank(model, tokens, vocab ** (tokens // 2))
    if not every:
        raise AssertionError("the sample aimed at the counting cap must keep every sequence")
    degree = spec.layer_degree
    positions = [model.position_vector(j) for j in range(tokens)]
    h_b = exact_hilbert(side_points(vocab, positions[tokens // 2:]), degree, p)
    h_a = exact_hilbert(side_points(vocab, positions[1:tokens // 2]), degree, p)
    big_r = embedding.positional_rank
    return (rank, positional_bound(spec.depth, vocab, big_r, tokens).value,
            positional_bound(spec.depth, vocab, big_r, tokens, h_b, h_a).value)
