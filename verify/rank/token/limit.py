"""The N-independent limit of the token rank on token inputs (``docs/mathematics.md`` §7): ``token_limit``,
the rank of [g_w(zeta_0(w) + s + t)] at random points s, t of the hyperplanes of the two sides (random N,
random K0), k points a side, k doubled until the rank stops short of k: the dimension of the span of all
derivatives of the g_w, i.e. the value sep(N) takes for all but finitely many large N.  Certified exact
when it meets ``route.derivative_upper_bound``.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from ...errors import InputError
from ...model.embeddings import EMBEDDING_RANGE, VocabularyEmbedding
from ...model.spec import DEFAULT_WEIGHT_RANGE, NetworkSpec, Weights
from ..certainty import (
    PRIME_CONDITION,
    REPEAT_TARGET,
    ProbabilityBound,
    RunBound,
    independent_product,
    residue_sample_size,
    union_bound,
)
from .gram import GramModel
from .route import derivative_upper_bound, free_variables, rank_mod_p

__all__ = ["LimitOutOfReach", "token_limit", "TokenLimit", "entry_degree", "MAX_LIMIT_EVALUATIONS",
           "limit_bound_below_one", "limit_probability", "LIMIT_EVENT", "repeated_limit", "repeat_seed",
           "repeat_prime"]


#: Evaluations of F the limit may spend (V k^2 at the last doubling) before it refuses the spec.
MAX_LIMIT_EVALUATIONS = 40_000_000


#: Rows beyond k that the limit's first try ranks (``_limit_rank``): V q >= k + slack rows of q row points.
LIMIT_ROW_SLACK = 16


class LimitOutOfReach(InputError):
    """The token limit needs more evaluations than allowed: ``at_least`` is a certified lower bound on
    it (the rank met at the last sample), ``needed`` the evaluations the next doubling would spend."""

    at_least: int
    needed: int

    def __init__(self, message: str, at_least: int, needed: int) -> None:
        super().__init__(message)
        self.at_least, self.needed = at_least, needed


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
        found = rank_mod_p(np.vstack(blocks), p)
        if found == k or found == upper or target == k:
            return found, spent
        kept, old_cols = target, len(cols)
    spent += _extend(model, zeta0, blocks, rows, cols, old_cols, kept, k, p)
    return rank_mod_p(np.vstack(blocks), p), spent


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
    #: The independent runs behind the value (``repeated_limit``): [{seed, prime, rank, bound}], and why the repeats
    #: stopped; one run and no note for a single ``token_limit``.
    runs: list[dict[str, Any]] | None = None
    repeats_note: str = ""
    #: The exact bound behind ``probability_bound`` (None: only the float is known).
    exact_bound: Fraction | None = None

    def as_dict(self) -> dict[str, Any]:
        out = {"rank": self.rank, "upper_bound": self.upper_bound, "certified_exact": self.certified_exact,
               "probability_bound": self.probability_bound, "points": self.points,
               "evaluations": self.evaluations, "seconds": round(self.seconds, 3), "modulus": self.modulus}
        if self.runs is not None:
            out.update(runs=self.runs, repeats_note=self.repeats_note)
        return out


def entry_degree(spec: NetworkSpec) -> int:
    """Degree of one limit entry in every random value: weights 2(3^L - 1), embedding factors 4C + 2
    (S is quadratic in E = P Q), the random points and K0 C each."""
    return spec.weight_degree + 6 * spec.layer_degree + 2


def limit_bound_below_one(spec: NetworkSpec, vocab: int, positional_rank: int, p: int,
                          weight_range: int = DEFAULT_WEIGHT_RANGE) -> bool:
    """Whether a token limit mod ``p`` that stops below its proven bound can carry a probability bound below 1
    (``token_limit``'s own ``limit_probability``, which does not depend on the rank found): over a small prime the
    Schwartz-Zippel bound is 1 or more, which proves nothing."""
    upper = derivative_upper_bound(spec.layer_degree, free_variables(spec, vocab, positional_rank), vocab)
    if upper <= 1:  # a rank below 1 is 0: only an all-zero network, certified by its own value
        return True
    sample = min(residue_sample_size(2 * weight_range + 1, p), residue_sample_size(2 * EMBEDDING_RANGE + 1, p))
    return limit_probability(upper, entry_degree(spec), sample, p).value < 1


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
    if found > upper:
        raise AssertionError(f"rank {found} above the proven upper bound {upper}: the engine is wrong")
    exact = found == upper
    exact_bound = Fraction(0) if exact else limit_probability(upper, entry_degree(spec), sample, p).bound
    bound = 0.0 if exact else limit_probability(upper, entry_degree(spec), sample, p).value
    return TokenLimit(found, upper, exact, bound, k, evaluations, time.perf_counter() - start, p,
                      exact_bound=exact_bound)


#: The event the limit's probability bounds (docs/mathematics.md §7, the N-independent limit).
LIMIT_EVENT = "the computed token limit is below the generic derivative-span dimension"


def limit_probability(upper: int, degree: int, sample: int | Fraction, p: int) -> ProbabilityBound:
    """The limit's failure probability: the k at which the doubling stops is read off the same draws, so the union
    runs over every k the doubling can reach (8, 16, ..., upper + 1): the V k x k matrix M_k of the draws has generic
    rank min(k, Lambda), and the limit is short of Lambda only if some M_k fell below it, a minor of size <= min(k,
    upper) of degree <= that times ``degree`` vanishing (Schwartz-Zippel over ``sample``; min(k, upper) / p for the
    random mixing of the elimination, as ``certainty.against_upper_bound``) — unless p divides the content of every
    witness minor.

    >>> from fractions import Fraction
    >>> limit_probability(13, 10, 1000, 10**9).bound == (8 + 13) * (Fraction(10, 1000) + Fraction(1, 10**9))
    True
    """
    steps, k = [], min(8, upper + 1)
    while True:
        steps.append(k)
        if k >= upper + 1:
            break
        k = min(2 * k, upper + 1)
    terms = [Fraction(min(k, upper) * degree) / Fraction(sample) + Fraction(min(k, upper), p) for k in steps]
    return union_bound(LIMIT_EVENT, terms, f"docs/mathematics.md §7: every doubling k in {steps} ({PRIME_CONDITION})")


def repeat_seed(seed: int, run: int) -> int:
    """The seed of repeat ``run`` (0: the first run, ``seed`` itself): distinct for distinct runs, so every draw of
    the run (weights, embedding, positions, sample points) is its own."""
    return seed + run * 1_000_003


def repeat_prime(p: int, run: int) -> int:
    """The prime of repeat ``run``: ``p`` for run 0, then the primes below it, one each (distinct, fixed: a bad prime
    is a condition on each, not an event, docs/mathematics.md §10 a)."""
    from sympy import prevprime

    for _ in range(run):
        p = prevprime(p)
    return p


def repeated_limit(spec: NetworkSpec, embedding: VocabularyEmbedding, p: int, seed: int = 0,
                   weight_range: int = DEFAULT_WEIGHT_RANGE, max_evaluations: int = MAX_LIMIT_EVALUATIONS,
                   repeat_evaluations: int = 0, target: Fraction = REPEAT_TARGET, first: TokenLimit | None = None,
                   rate: float | None = None) -> TokenLimit:
    """The token limit repeated with independent weights, embedding, positions and sample points (``repeat_seed``)
    at distinct primes (``repeat_prime``) until the product of the runs' bounds is at most ``target``, the largest
    rank meets the proven bound (certified exact), or the next run would take the repeats past ``repeat_evaluations``
    (priced at what the first run spent; ``rate``: seconds per evaluation, for the note).

    The value is the largest rank over the runs, a certified lower bound on Lambda.  It is below Lambda only if every
    run's is, and run i's is only if its own union event (``limit_probability``) occurred: the events of distinct
    runs are independent, so the probability is their product (docs/mathematics.md §7, Lemma R;
    ``certainty.independent_product``), unless a run's prime divides the content of every witness minor.  Every run
    made counts (none is chosen by what it found), and stopping early only shortens the product."""
    start = time.perf_counter()
    if first is None:
        from ...model.spec import draw_weights

        first = token_limit(spec, draw_weights(spec, seed, weight_range), embedding, p, seed, weight_range,
                            max_evaluations)
    best, runs, spent, note = first, [first], 0, ""
    records = [RunBound(seed, p, first.exact_bound if first.exact_bound is not None else Fraction(1))]
    product = independent_product(LIMIT_EVENT, records, "one run")
    while not best.certified_exact and product.bound > target:
        run = len(runs)
        if spent + first.evaluations > repeat_evaluations:
            needed = _runs_needed(records, target)
            seconds = f" (~{first.evaluations * rate:.0f} s here)" if rate else ""
            note = (f"budget: one run costs {first.evaluations:,} evaluations of F{seconds}; {needed} more needed for "
                    f"{float(target):g}, the repeat budget is {repeat_evaluations:,}")
            break
        from ...model.spec import draw_weights

        run_seed, run_p = repeat_seed(seed, run), repeat_prime(p, run)
        try:
            again = token_limit(spec, draw_weights(spec, run_seed, weight_range),
                                VocabularyEmbedding(embedding.width, embedding.vocab, embedding.rank,
                                                    embedding.positional_rank, run_seed),
                                run_p, run_seed, weight_range, max_evaluations)
        except LimitOutOfReach as exc:
            note = f"run {run + 1} beyond reach ({exc})"
            break
        spent += again.evaluations
        runs.append(again)
        records.append(RunBound(run_seed, run_p, again.exact_bound))
        if again.rank > best.rank:
            best = again
        product = independent_product(LIMIT_EVENT, records, "")
    exact = best.certified_exact
    bound = Fraction(0) if exact else product.bound
    value = 0.0 if exact else ProbabilityBound(LIMIT_EVENT, bound, "").value
    # each run's bound printed rounded up (ProbabilityBound.value), never the nearest float, which can lie below it
    table = [{"seed": r.seed, "prime": r.prime, "rank": t.rank,
              "bound": ProbabilityBound(LIMIT_EVENT, r.bound, "").value} for r, t in zip(records, runs, strict=True)]
    return TokenLimit(best.rank, best.upper_bound, exact, value, best.points,
                      sum(t.evaluations for t in runs), first.seconds + time.perf_counter() - start, best.modulus,
                      table, note or ("certified exact" if exact else f"product <= {float(target):g}"), bound)


def _runs_needed(records: list[RunBound], target: Fraction) -> int:
    """More runs at the last run's bound that bring the product to ``target`` (a count for the note)."""
    product = Fraction(1)
    for record in records:
        product *= min(Fraction(1), record.bound)
    step, more = min(Fraction(1), records[-1].bound), 0
    while product > target and step < 1 and more < 10_000:
        product *= step
        more += 1
    return more
