"""The Gram route for token inputs: sep(N) and its N-independent limit (``docs/mathematics.md`` §7).

Every entry of the token matrix is h(z_left + z_right) with h(z) = e_p^T F(S(z)) x_w a polynomial
of degree C = C(L) = (3^L - 1)/2 in the token point z (``token_gram``).  Three computations:

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
* ``token_limit``: the rank of [g_w(zeta_0(w) + s + t)] at random points s, t of the hyperplanes of
  the two sides (random N, random K0), k points a side, k doubled until the rank stops short of k:
  the dimension of the span of all derivatives of the g_w, i.e. the value sep(N) takes for all but
  finitely many large N.  Certified exact when it meets ``derivative_upper_bound``.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass
from math import comb

import numpy as np

from ..errors import InputError
from ..exact.compositions import compositions
from ..exact.fields import Field
from ..exact.kernels import kernel_for
from ..model.embeddings import EMBEDDING_RANGE, VocabularyEmbedding
from ..model.spec import DEFAULT_WEIGHT_RANGE, NetworkSpec, Weights
from .certainty import against_upper_bound, residue_sample_size
from .token_gram import GramModel

__all__ = ["LimitOutOfReach", "grow_grid", "lattice", "derivative_upper_bound", "count_rank", "sequence_rank", "token_limit", "TokenLimit",
           "MAX_LIMIT_EVALUATIONS"]

#: Evaluations of F the limit may spend (V k^2 at the last doubling) before it refuses the spec.
MAX_LIMIT_EVALUATIONS = 40_000_000


#: Rows beyond k that the limit's first try ranks (``_limit_rank``): V q >= k + slack rows of q row points.
LIMIT_ROW_SLACK = 16

#: Most evaluations the sequence sample may spend at one N (positional route): 16 million covers every
#: sequence at V^(N/2) <= 4,000 (3^7 = 2,187 at N = 14, V = 3), about 30 s at depth 3 on a loaded 2-core machine.
MAX_SAMPLE_EVALUATIONS = 16_000_000


class LimitOutOfReach(InputError):
    """The token limit needs more evaluations than allowed: ``at_least`` is a certified lower bound on
    it (the rank met at the last sample), ``needed`` the evaluations the next doubling would spend."""

    def __init__(self, message: str, at_least: int, needed: int):
        super().__init__(message)
        self.at_least, self.needed = at_least, needed


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


def _rank(matrix: np.ndarray, p: int) -> int:
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
    return _rank(matrix, p), matrix.shape[0], matrix.shape[1], evaluations


def _side_points(model: GramModel, positions: list[int], picks: np.ndarray) -> np.ndarray:
    """z of each assignment (rows of token indices, one column per position) of a side."""
    z = np.zeros((len(picks), model.dim), dtype=np.int64)
    for col, j in enumerate(positions):
        z = (z + model.zeta(j)[picks[:, col]]) % model.p
    return z


def _all_sequences(vocab: int, length: int) -> np.ndarray:
    grid = np.indices((vocab,) * length).reshape(length, -1).T if length else np.zeros((1, 0), dtype=np.int64)
    return grid.astype(np.int64)


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
    ``min(target, likely) + 16`` sequences a side and doubles until its rank meets that, every sequence is
    kept, or the next doubling would take the evaluations past ``budget`` (default ``MAX_SAMPLE_EVALUATIONS``).
    """
    budget = MAX_SAMPLE_EVALUATIONS if budget is None else budget
    vocab, half, p = model.embedding.vocab, tokens // 2, model.p
    side_a, side_b = list(range(half)), list(range(half, tokens))
    model.constant = model.positions_constant(tokens)
    count = vocab**half
    aim = target if likely is None else min(target, likely)
    rng = np.random.default_rng(random.Random(f"verify-token-sample:{seed}:{tokens}").getrandbits(63))
    k = min(count, aim + 16)
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
        found = _rank(matrix, p)
        grown = min(count, 2 * k)
        # aims at the bound: draws on until the rank meets it, every sequence is kept, or the next doubling
        # (grown^2 - k^2 new entries; every sequence is evaluated afresh, grown^2) would pass the budget (a
        # rank that stops growing is no reason to stop)
        cost = grown * grown - (0 if grown == count else k * k)
        if k == count or found >= aim or evaluations + cost > budget:
            return found, k == count, evaluations
        k = grown


def _extend(model: GramModel, zeta0: np.ndarray, blocks: list, rows: np.ndarray, cols: np.ndarray,
            old_cols: int, kept: int, target: int, p: int) -> int:
    """Grow each blocks[w] (rows[:kept] + zeta0[w] by cols[:old_cols]) to rows[:target] by every column,
    evaluating only the new entries; returns the evaluations spent."""
    spent = 0
    for w in range(len(blocks)):
        left = (rows[:target] + zeta0[w]) % p
        if not kept or not old_cols:
            blocks[w] = model.evaluate_grid(left, cols, np.full(target, w))
        else:
            right = model.evaluate_grid(left[:kept], cols[old_cols:], np.full(kept, w)) if old_cols < len(cols) \
                else np.zeros((kept, 0), dtype=np.int64)
            below = model.evaluate_grid(left[kept:], cols, np.full(target - kept, w))
            blocks[w] = np.vstack([np.hstack([blocks[w], right]), below])
        spent += blocks[w].size - (kept * old_cols if kept and old_cols else 0)
    return spent


def _limit_rank(model: GramModel, zeta0: np.ndarray, rows: np.ndarray, cols: np.ndarray, old_cols: int,
                blocks: list, kept: int, k: int, upper: int, p: int) -> tuple[int, int]:
    """The rank of the V k x k limit matrix [g_w(zeta0(w) + rows_i + cols_j)] (w, i rows; j columns), as
    (rank, evaluations spent), evaluating as few of its rows as shows it.

    First the rows of the first q = ceil((k + 16) / V) row points (V q >= k + 16 rows, all V tokens of each;
    16 is ``LIMIT_ROW_SLACK``):
    a submatrix, so its rank is at most the whole matrix's, which is at most min(k, upper) (k columns;
    ``upper`` bounds the derivative span every sample lies in).  A submatrix rank equal to k or to
    ``upper`` is therefore the whole matrix's rank, with no probability spent; otherwise the remaining rows
    are evaluated and the whole matrix ranked, as without the shortcut.  The points are the same draws
    either way, so the rank returned is the rank of the same V k x k matrix."""
    vocab = len(blocks)
    first = min(k, -(-(k + LIMIT_ROW_SLACK) // vocab))
    spent = 0
    if kept < k:
        target = max(first, kept)
        spent += _extend(model, zeta0, blocks, rows, cols, old_cols, kept, target, p)
        found = _rank(np.vstack(blocks), p)
        if found == k or found == upper or target == k:
            return found, spent
        kept, old_cols = target, len(cols)
    spent += _extend(model, zeta0, blocks, rows, cols, old_cols, kept, k, p)
    return _rank(np.vstack(blocks), p), spent


@dataclass
class TokenLimit:
    """The N-independent token rank (for all but finitely many large N) and what certifies it."""

    rank: int
    upper_bound: int
    certified_exact: bool
    probability_bound: float
    points: int
    evaluations: int
    seconds: float
    modulus: int

    def as_dict(self) -> dict:
        return {"rank": self.rank, "upper_bound": self.upper_bound, "certified_exact": self.certified_exact,
                "probability_bound": self.probability_bound, "points": self.points,
                "evaluations": self.evaluations, "seconds": round(self.seconds, 3), "modulus": self.modulus}


def entry_degree(spec: NetworkSpec) -> int:
    """Degree of one limit entry in every random value: weights 2(3^L - 1), embedding factors 4C + 2
    (S is quadratic in E = P Q), the random points and K0 C each."""
    return spec.weight_degree + 6 * spec.layer_degree + 2


def limit_bound_below_one(spec: NetworkSpec, vocab: int, positional_rank: int, p: int,
                          weight_range: int = DEFAULT_WEIGHT_RANGE) -> bool:
    """Whether a token limit mod ``p`` that stops below its proven bound can carry a probability bound below 1
    (``token_limit``'s own ``against_upper_bound``, at the largest such rank, upper - 1): over a small prime the
    Schwartz-Zippel bound is 1 or more, which proves nothing."""
    upper = derivative_upper_bound(spec.layer_degree, free_variables(spec, vocab, positional_rank), vocab)
    if upper <= 1:  # a rank below 1 is 0: only an all-zero network, certified by its own value
        return True
    sample = min(residue_sample_size(2 * weight_range + 1, p), residue_sample_size(2 * EMBEDDING_RANGE + 1, p))
    return against_upper_bound(upper - 1, upper, entry_degree(spec), sample, p)[1] < 1


def token_limit(spec: NetworkSpec, weights: Weights, embedding: VocabularyEmbedding, p: int, seed: int = 0,
                weight_range: int = DEFAULT_WEIGHT_RANGE,
                max_evaluations: int = MAX_LIMIT_EVALUATIONS) -> TokenLimit:
    """The limit of sep(N) on token inputs, as the derivative-span rank at random points (module doc)."""
    start = time.perf_counter()
    vocab, big_r, degree = embedding.vocab, embedding.positional_rank, spec.layer_degree
    upper = derivative_upper_bound(degree, free_variables(spec, vocab, big_r), vocab)
    rng = np.random.default_rng(random.Random(f"verify-token-limit:{seed}").getrandbits(63))
    constant = None
    if big_r:
        u = np.array([[int(x) % p for x in col] for col in GramModel(spec, weights, embedding, p).u], dtype=object)
        kr = rng.integers(0, p, size=(big_r, big_r)).astype(object)
        constant = np.array([[int(x) % p for x in row] for row in u.T.dot(kr + kr.T).dot(u)], dtype=np.int64)
    model = GramModel(spec, weights, embedding, p, constant=constant)
    half = int(rng.integers(1, p))  # a random N/2: the hyperplanes sum c = N/2 - 1 and N/2

    # each side's affine space: counts sum to N/2 - 1 (rows) or N/2 (columns), sum_v m_v to a random vector
    offsets = {total: [int(rng.integers(0, p)) for _ in range(big_r)] for total in (half - 1, half)}

    def points(k: int, total: int) -> np.ndarray:
        """k random points of a side's affine space (the side given by its count total)."""
        z = rng.integers(0, p, size=(k, model.dim))
        z[:, vocab - 1] = (total - z[:, :vocab - 1].sum(axis=1)) % p
        for coord in range(big_r):
            free = [vocab + v * big_r + coord for v in range(vocab - 1)]
            z[:, vocab + (vocab - 1) * big_r + coord] = (offsets[total][coord] - z[:, free].sum(axis=1)) % p
        return z

    zeta0 = model.zeta(0)
    k, evaluations, found = min(8, upper + 1), 0, 0
    rows = cols = None
    kept = 0  # row points whose V rows are evaluated (rows[:kept]); the rest are drawn but not yet evaluated
    blocks = [np.zeros((0, 0), dtype=np.int64) for _ in range(vocab)]  # blocks[w]: rows[:kept] + zeta0[w] x cols
    while True:
        if vocab * k * k > max_evaluations:
            raise LimitOutOfReach(f"the token limit needs more than {max_evaluations:,} evaluations of F (rank "
                                  f"at least {found}); use a smaller --vocab, --pos-rank or --depth",
                                  found, vocab * k * k)
        # a doubled sample keeps the old points (still independent uniform); the draws are those of the whole
        # V k x k matrix, whatever part of it is evaluated
        grow = k if rows is None else k - len(rows)
        new_rows, new_cols = points(grow, half - 1), points(grow, half)
        rows = new_rows if rows is None else np.vstack([rows, new_rows])
        old_cols, cols = (0 if cols is None else len(cols)), (new_cols if cols is None else np.vstack([cols, new_cols]))
        found, spent = _limit_rank(model, zeta0, rows, cols, old_cols, blocks, kept, k, upper, p)
        kept = len(blocks[0])
        evaluations += spent
        if found < k or found == upper:
            break
        k = min(2 * k, upper + 1)  # k = upper + 1 always ends the loop (found <= upper < k)
    sample = min(residue_sample_size(2 * weight_range + 1, p), residue_sample_size(2 * EMBEDDING_RANGE + 1, p))
    exact, bound = against_upper_bound(found, upper, entry_degree(spec), sample, p)
    return TokenLimit(found, upper, exact, bound, k, evaluations, time.perf_counter() - start, p)
