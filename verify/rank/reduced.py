"""The reduced route: F(S) and the derivative space of q(S) = F(S)^T e_p.

Sources: ``docs/mathematics.md`` §1 (y^i = F(S) x^i, S_l = T_l S_{l-1} T_l^T) and §2 route 3.
Because f = e_p^T F(S_A + S_B) x^i, for N/2 >= d_x + 1 the separation rank equals the dimension
of the span of all partial derivatives of the vector polynomial q(S), i.e. the rank of its
catalecticant (rows alpha; columns (k, beta); entry coeff of S^{alpha+beta} in q_k times
(alpha+beta)!/beta!).  Scaling column (k, beta) by beta! turns the entry into
c~_k[alpha+beta] with c~_k[gamma] = coeff_gamma(q_k) * gamma!, a moment (Hankel-like) matrix
filled by a gather; the scaling is invertible over Q and over GF(p) for p > C(L).
"""

from __future__ import annotations

import random
import time
from math import comb
from typing import TYPE_CHECKING, TypeAlias

import numpy as np

from ..errors import InputError
from ..exact.compositions import compositions, exponent_dtype
from ..exact.fields import Field
from ..model.network import attention_matrix, layer_maps
from ..model.spec import DEFAULT_WEIGHT_RANGE, NetworkSpec, Weights, draw_weights
from .blocks import Block, components, rank_dense
from .bound import derivative_bound
from .certainty import BAD_PRIME_NOTE, Certainty, against_upper_bound, residue_sample_size
from .moments import moment_table
from .reduced_memory import check_memory, estimate_block_bytes, guard_blocks, largest_block_entries  # noqa: F401
from .result import SepResult

if TYPE_CHECKING:
    from collections.abc import Callable

    import flint

    from ..exact.device import Device
    from .block_plan import Placement, RunPlan
    from .blocks import BlockKeeper

__all__ = ["check_memory", "symmetric_variables", "term_exponents", "reduced_polynomials", "derivative_space_rank",
           "reduced_separation_rank", "tokens_threshold", "embedded_polynomials", "embedded_reduced_rank", "Mpoly",
           "Polynomials"]

#: One polynomial of q: FLINT's, over Z (Q) or GF(p), as ``Field.poly_context`` makes it.
Mpoly: TypeAlias = "flint.fmpz_mpoly | flint.nmod_mpoly"
#: (the mpoly context, the polynomials q_k): what ``reduced_polynomials`` and ``embedded_polynomials`` return.
Polynomials: TypeAlias = "tuple[flint.fmpz_mpoly_ctx | flint.nmod_mpoly_ctx, list[Mpoly]]"

#: Split a pattern with networkx only below this many nonzeros (above, a full row or column
#: proves connectivity, or the block is ranked whole, which is still exact).
COMPONENT_EDGE_CAP = 400_000
#: Blocks with more entries than this that are at least COMPRESS_RATIO times wider than tall
#: are ranked through a random column compression built in column chunks (memory, not speed).
COMPRESS_ENTRIES = 40_000_000
COMPRESS_RATIO = 4


def tokens_threshold(spec: NetworkSpec) -> int:
    """Smallest even N with N/2 >= d_x + 1, from which the reduced value is sep (docs/mathematics.md §2)."""
    return 2 * (spec.width + 1)


def symmetric_variables(width: int) -> list[tuple[int, int]]:
    """The entries (a, b), a <= b, of a symmetric width x width matrix, in generator order."""
    return [(a, b) for a in range(width) for b in range(a, width)]


def _matmul(a, b, zero):
    inner = len(b)
    return [[sum((a[i][k] * b[k][j] for k in range(inner)), zero) for j in range(len(b[0]))]
            for i in range(len(a))]


def reduced_polynomials(spec: NetworkSpec, weights: Weights, field: Field) -> Polynomials:
    """q(S) = F(S)^T e_p: the d_x polynomials F_{p,k}(S) in the d_x(d_x+1)/2 entries of S.

    F = G_L ... G_1 with G_l = T_l(S_{l-1}) (or I + T_l(S_{l-1}) with residual connections),
    S_0 = S and S_l = G_l S_{l-1} G_l^T (docs/mathematics.md §1).  Only row p of the last G_L is needed.

    Returns
    -------
    ctx : the mpoly context (generator s_m is entry ``symmetric_variables(d_x)[m]``)
    q : list of d_x mpolys
    """
    d = spec.width
    ctx = field.poly_context(("s", d * (d + 1) // 2), "deglex")  # deglex: ``term_exponents`` reads q fast
    gens = ctx.gens()
    zero, one = ctx.from_dict({}), ctx.from_dict({(0,) * len(gens): 1})
    s = [[zero] * d for _ in range(d)]
    for m, (a, b) in enumerate(symmetric_variables(d)):
        s[a][b] = s[b][a] = gens[m]
    f = [[one if a == b else zero for b in range(d)] for a in range(d)]
    maps = layer_maps(weights)
    for layer, maps_of_layer in enumerate(maps):
        g = attention_matrix(maps_of_layer, s, zero)
        if spec.residual:
            for a in range(d):
                g[a][a] = g[a][a] + one
        if layer == len(maps) - 1:
            row = g[spec.output]
            return ctx, [sum((row[m] * f[m][k] for m in range(d)), zero) for k in range(d)]
        f = _matmul(g, f, zero)
        gs = _matmul(g, s, zero)
        s = [[sum((gs[a][m] * g[b][m] for m in range(d)), zero) if a <= b else None for b in range(d)]
             for a in range(d)]
        for a in range(d):
            for b in range(a):
                s[a][b] = s[b][a]
    raise AssertionError("unreachable")


#: Most monomials a dense homogeneous polynomial may lack for ``term_exponents``' binary searches.
MISSING_CAP = 64


def term_exponents(poly: Mpoly, nvars: int) -> np.ndarray:
    """Exponent rows of ``poly``'s terms, in the order of ``poly.coeffs()``, at the narrowest integer
    type that holds them and their pairwise sums (``exponent_dtype``: int16 below degree 2^14).

    ``poly.monoms()`` builds a Python tuple per term (about 3 us each, seconds for q at depth 3,
    width 4).  In a "deglex" context terms run by total degree, then lex, descending: if the first
    and last terms have the same degree C, every term has degree C, and the terms are a strictly
    decreasing subsequence of the degree-C monomials in descending lex order, which are
    ``compositions(C, n)`` reversed.  Term i equals entry i + j of that list exactly while j
    monomials are missing before it, so each missing monomial is found by a binary search over
    ``poly.monomial(i)``; with more than ``MISSING_CAP`` missing, or another order, ``monoms()``.
    """
    length = len(poly)
    dtype = exponent_dtype(max(poly.degrees(), default=0) if length else 0)  # int16: a quarter of int64
    slow = lambda: np.array(poly.monoms(), dtype=dtype).reshape(length, nvars)  # noqa: E731
    if length == 0 or str(poly.context().ordering()) != "Ordering.deglex":
        return slow()
    top = sum(poly.monomial(0))
    if sum(poly.monomial(length - 1)) != top:
        return slow()  # not homogeneous
    missing = comb(top + nvars - 1, nvars - 1) - length
    if missing > MISSING_CAP:
        return slow()
    expected = compositions(top, nvars, dtype)[::-1]
    gaps, start = [], 0
    for j in range(missing):
        lo, hi = start, length  # first i >= start with term i != expected[i + j] (hi: none)
        while lo < hi:
            mid = (lo + hi) // 2
            if poly.monomial(mid) == tuple(int(v) for v in expected[mid + j]):
                lo = mid + 1
            else:
                hi = mid
        gaps.append(lo + j)
        start = lo
    found = np.delete(expected, gaps, axis=0)
    for i in {0, length // 3, length // 2, length - 1}:  # spot checks of the argument above
        assert poly.monomial(i) == tuple(int(v) for v in found[i]), "term order differs from deglex"
    return np.ascontiguousarray(found)


def _rank_block(field: Field, block: np.ndarray, rng: random.Random) -> Block:
    rows, cols = block.shape
    if rows > cols:
        block = block.T
        rows, cols = cols, rows
    if rows * cols > COMPRESS_ENTRIES and cols >= COMPRESS_RATIO * rows:
        acc = None
        chunk = max(1, COMPRESS_ENTRIES // (4 * rows))
        for start in range(0, cols, chunk):
            part = field.from_rows(np.ascontiguousarray(block[:, start:start + chunk]))
            prod = part * field.random_matrix(part.ncols(), rows, rng)
            acc = prod if acc is None else acc + prod
        return Block(block.shape[0], block.shape[1], acc.rank(), compressed_to=rows)
    return rank_dense(field, np.ascontiguousarray(block), rows, cols)


def _split(block: np.ndarray):
    """Sub-blocks of ``block`` along the connected components of its nonzero pattern."""
    pattern = block != 0
    live_rows = np.flatnonzero(pattern.any(axis=1))
    live_cols = np.flatnonzero(pattern.any(axis=0))
    if len(live_rows) == 0:
        return [], "empty"
    pattern = pattern[np.ix_(live_rows, live_cols)]
    if pattern.all(axis=1).any() or pattern.all(axis=0).any():
        # a full row meets every column, and every live row meets some column: connected
        return [block[np.ix_(live_rows, live_cols)]], "connected (full row or column)"
    nnz = int(pattern.sum())
    if nnz > COMPONENT_EDGE_CAP:
        return [block[np.ix_(live_rows, live_cols)]], "not split (pattern too large for networkx)"
    r, c = np.nonzero(pattern)
    parts = components(r.astype(np.int64), c.astype(np.int64))
    return [block[np.ix_(live_rows[ri], live_cols[ci])] for ri, ci in parts], f"{len(parts)} components (networkx)"


def derivative_space_rank(q: list[Mpoly], field: Field, nvars: int, max_memory_gib: float,
                          progress: Callable[[int, int], object] | None = None, seed: int = 0,
                          only: list[int] | None = None, uppers: list[int] | None = None, plan: RunPlan | None = None,
                          done: BlockKeeper | None = None) -> tuple[int, list[Block], list[str]]:
    """dim span{all partial derivatives of q_1, ..., q_d}: the catalecticant rank of q.

    Candidate blocks come from the data: if every term of every q_k has the same total degree
    C, rows with |alpha| = a can only meet columns with |beta| = C - a, and the degree blocks
    are ranked by ``degree_blocks`` (propagation, slice and complement); otherwise the whole
    matrix is one candidate, split along the connected components of its nonzero pattern
    (networkx), every piece ranked exactly over ``field``.

    Returns
    -------
    rank : int
    blocks : list of Block
    notes : list of str
    """
    exponents = [term_exponents(poly, nvars) for poly in q]
    degrees = {int(v) for e in exponents for v in np.unique(e.sum(axis=1))}
    if not degrees:
        return 0, [], ["q is zero"]
    top = max(degrees)
    homogeneous = len(degrees) == 1
    if field.modulus is not None and field.modulus <= top:
        raise InputError(f"the reduced route needs a prime above C(L) = {top} so that factorials are invertible; "
                         f"use the default field")
    guard_blocks(nvars, top, len(q), homogeneous, max_memory_gib, field)
    # keys must not carry below the largest entry of alpha + beta: top (homogeneous) or 2*top
    moments = moment_table(exponents, [poly.coeffs() for poly in q], field, nvars, top, homogeneous)
    if homogeneous:
        from .degree_blocks import degree_block_ranks

        if plan is not None and plan.runner is not None:  # each block a task of the runner (a Dask cluster)
            from .block_tasks import ranks_by_tasks as degree_block_ranks
        if uppers is not None and len(uppers) != top + 1:
            uppers = None  # not this q's degree blocks: rank without the bounds
        rank, blocks, more = degree_block_ranks(field if plan is None else plan, moments, nvars, top, progress, seed,
                                                max_memory_gib, only, uppers, done)
        return rank, blocks, [f"degree blocks (every term has degree {top})"] + more
    # not homogeneous (residual): one candidate block of every degree <= top, split by its pattern
    every_degree = np.vstack([compositions(t, nvars) for t in range(top + 1)])
    keys = moments.keys(every_degree)
    block = np.hstack([moments.gather(k, keys, keys) for k in range(moments.count)])
    pieces, how = _split(block)
    rng = random.Random(f"verify-compress:{seed}")
    blocks = [_rank_block(field, piece, rng) for piece in pieces]
    if progress is not None:
        progress(1, 1)
    return sum(b.rank for b in blocks), blocks, ["q is not homogeneous: one candidate block, split by its pattern", how]


def embedded_polynomials(spec: NetworkSpec, weights: Weights, field: Field, left: list[list[int]]) -> Polynomials:
    """q'(T) = P^T F(P T P^T)^T e_p: the reduced polynomials when every input is x = P v, v in R^r.

    f = e_p^T F(S) x^i with S = P (sum_j v^j v^j^T) P^T and x^i = P v^i, so f = sum_m q'_m(T) v^i_m
    with T = sum_j v^j v^j^T: the same derivative-space problem in r(r+1)/2 variables.  Any linear
    embedding of rank r whose image of the raw inputs is all of R^r (vocabulary, convolution)
    reduces to it.
    """
    ctx, q = reduced_polynomials(spec, weights, field)
    r = len(left[0])
    small = field.poly_context(("t", r * (r + 1) // 2))
    gens = small.gens()
    zero = small.from_dict({})
    t = [[zero] * r for _ in range(r)]
    for m, (a, b) in enumerate(symmetric_variables(r)):
        t[a][b] = t[b][a] = gens[m]
    substitution = [sum((t[k][l] * (left[a][k] * left[b][l]) for k in range(r) for l in range(r)), zero)
                    for a, b in symmetric_variables(spec.width)]
    composed = [poly.compose(*substitution, ctx=small) for poly in q]
    return small, [sum((composed[a] * left[a][m] for a in range(spec.width)), zero) for m in range(r)]


def embedded_reduced_rank(spec: NetworkSpec, field: Field, left: list[list[int]], seed: int = 0,
                          weight_range: int = DEFAULT_WEIGHT_RANGE, max_memory_gib: float = 16.0) -> int:
    """Separation rank of the network on inputs x = P v (rank r = columns of P), for N >= 2(r + 1)."""
    weights = draw_weights(spec, seed, weight_range)
    r = len(left[0])
    _, q = embedded_polynomials(spec, weights, field, left)
    rank, _, _ = derivative_space_rank(q, field, r * (r + 1) // 2, max_memory_gib, seed=seed)
    return rank


def _placement(placement):
    """A ``Placement`` from a placement, a ``Device`` or None (the CPU)."""
    from .block_plan import Placement

    if placement is None or isinstance(placement, Placement):
        return placement or Placement()
    return Placement(placement)


def reduced_separation_rank(spec: NetworkSpec, field: Field, seed: int = 0,
                            weight_range: int = DEFAULT_WEIGHT_RANGE, max_memory_gib: float = 16.0,
                            progress: Callable[[int, int], object] | None = None,
                            only_blocks: list[int] | None = None,
                            placement: Placement | Device | None = None,
                            resume: Callable[[str, int, int], BlockKeeper] | None = None) -> SepResult:
    """The separation rank for every N >= ``tokens_threshold(spec)`` by the reduced route.

    Every degree block records its own Schwartz-Zippel bound (``Block.probability_bound``: its g_a x
    g_a minor has degree <= u_a * deg, u_a its proven upper bound), which the block-level repeats
    combine.  ``only_blocks``: rank just these degree blocks (a later run of those repeats); the
    result's rank is then the sum over them, and it claims nothing about the whole on its own.
    ``placement``: where the degree blocks' eliminations run (``verify.rank.block_plan.Placement``, or a
    ``verify.exact.device.Device``; default the CPU): it makes this run's block plan.
    ``resume``: (field name, seed, weight range) -> the finished-block keeper of this run
    (``degree_blocks``' ``done``; e.g. ``verify.sweeps.block_rows.BlockRows``), or None."""

    check_memory(spec, max_memory_gib, field)
    if field.modulus is not None and field.modulus <= spec.layer_degree:  # before any draw can make q zero
        raise InputError(f"the reduced route needs a prime above C(L) = {spec.layer_degree} so that factorials "
                         f"are invertible; use the default field")
    nvars = spec.width * (spec.width + 1) // 2
    weights = draw_weights(spec, seed, weight_range)
    start = time.perf_counter()
    ctx, q = reduced_polynomials(spec, weights, field)
    upper = derivative_bound(spec)  # proven per-block bounds: a block stops once a slice reaches its own
    uppers = [most for _, _, most in upper.blocks] if upper.blocks else None
    done = None if resume is None else resume(field.name, seed, weight_range)
    plan = _placement(placement).plan(spec, field)
    rank, blocks, notes = derivative_space_rank(q, field, nvars, max_memory_gib, progress, seed, only_blocks, uppers,
                                                plan, done)
    compressed = any(b.compressed_to is not None for b in blocks)
    sample = residue_sample_size(2 * weight_range + 1, field.modulus)
    if upper.blocks and len(blocks) == len(upper.blocks):  # degree blocks a = 0..C, in order
        for block, (rows, cols, most) in zip(blocks, upper.blocks, strict=False):
            assert (block.rows, block.cols) == (rows, cols), "degree block shape differs from the closed form"
            block.upper_bound = most
            if block.ranked:
                block.probability_bound = against_upper_bound(block.rank, most, spec.weight_degree, sample,
                                                              field.sample_size)[1]
    if only_blocks is not None:
        result = SepResult(rank, "reduced", field.name, spec.with_tokens(None), seed, None,
                           Certainty(True, None, f"degree blocks {sorted(only_blocks)} only, ranked again for the "
                                     "block-level repeats; each is a certified lower bound on its generic rank"),
                           blocks, notes, time.perf_counter() - start)
        result.extra = {"upper_bound": upper.total, "upper_bound_kind": upper.kind, "only_blocks": sorted(only_blocks)}
        return result
    # the generic rank g is <= upper.total: the minor to bound is g x g, and random combinations
    # (compression, mixed null space) are bounded by g / |field| whether or not this run used them
    exact, bound = against_upper_bound(rank, upper.total, spec.weight_degree, sample, field.sample_size)
    meaning = ("rank of the catalecticant of F(S)^T e_p at integer weights: for N >= %d it equals the "
               "separation rank at these weights, so it is a certified lower bound on the generic "
               "separation rank" % tokens_threshold(spec))
    if exact:
        meaning += (f", and it meets the derivative-space upper bound {upper.total} (sum over the {upper.kind} "
                    "of a count no weight setting can exceed), so it is the generic separation rank exactly")
    else:
        meaning += (f"; the generic rank is at most the derivative-space upper bound {upper.total}, and the "
                    "value equals it unless the weights hit the zero set of a minor of that size "
                    "(Schwartz-Zippel bound in probability_bound, with the upper bound as the minor's size)")
        if field.modulus is not None:
            meaning += "; " + BAD_PRIME_NOTE
    if compressed:
        meaning += ("; some blocks were ranked through random combinations (a column compression, or a "
                    "mixed null space for the complement), which can only lower a rank")
        notes.append("random compression or mixing used on some blocks")
    threshold = tokens_threshold(spec)
    result = SepResult(rank, "reduced", field.name, spec.with_tokens(None), seed, None,
                       Certainty(True, bound, meaning, certified_exact=exact), blocks, notes,
                       time.perf_counter() - start)
    result.extra = {"tokens": None, "valid_from_tokens": threshold, "tokens_threshold": threshold,
                    "upper_bound": upper.total, "upper_bound_kind": upper.kind}
    return result
