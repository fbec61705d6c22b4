"""Exact ranks of the degree blocks of a homogeneous q = F(S)^T e_p (docs/mathematics.md §2, route 3).

Block a has rows alpha (|alpha| = a) and columns (k, beta) (|beta| = C - a); up to a row
scaling by alpha! it is the catalecticant, so its rank is dim D_a with
D_a = span{d^beta q_k : |beta| = C - a}.  Two exact facts cut the work:

* **Propagation.**  D_a = span{d_i g : g in D_{a+1}}.  Hence if block a has full row rank
  (D_a = all degree-a polynomials) so has every block below it (derivatives of all monomials of
  degree a give all monomials of degree a - 1, p > C), and if block a has full column rank (the
  derivatives of order C - a are independent) so has every block above it (a relation among
  order-(m-1) derivatives, differentiated by any d_i, is one among order-m derivatives).
  Only the blocks from the widest-to-tallest turn outward up to the first full one are ranked.
* **Slice and complement.**  For an m x n block B (m <= n, else transposed), S = B restricted to
  m + 32 seeded random columns and R = the other columns: rank(B) = rank(S) + rank(Y^T R), where
  the columns of Y span the left null space of S.  A generic block is full on its slice
  (Y empty: one (m+32) x m elimination instead of m x n).  Over GF(p) the complement's product
  is formed in numpy by the field's kernel (``verify.exact.kernels``), R gathered in chunks and never copied into FLINT;
  a null space wider than 32 is mixed down to 32 random combinations Z = Y H first:
  rank(Z^T R) <= rank(Y^T R) always (so the result stays a certified lower bound), with equality
  unless a nonzero polynomial of degree <= 32 in H vanishes (Schwartz-Zippel, <= 32/p).  A mixed
  rank of 32 is saturated and says nothing, so the block is then ranked whole.  Over Q the
  complement is the exact FLINT product (or the whole block, when heavily deficient).
* **Narrow slices for deficient blocks (GF(p)).**  FLINT's elimination costs about as much for a
  deficient matrix as for a full one of the same shape, so a block expected to be deficient gets
  a slice only a little wider than its expected rank: the computed neighbour's rank (a hint), or,
  for the first block, the rank of a seeded random sub-block a third of the size.  The narrow
  slice is kept only if it is itself deficient (it then holds the rank) and its mixed complement
  is not saturated; otherwise the ordinary slice runs, so a wrong guess costs time, never exactness.
* **Stop at the proven bound.**  Where the block's generic rank has a proven upper bound u
  (``verify.rank.bound``: B1, B3, B4), the rank at these weights is at most u over Q, and the
  rank over GF(p) at most the rank over Q; any sub-matrix's rank is at most the block's.  So
  rank(S) = u proves rank(B) = u, and the complement Y^T R (its gather, product and rank) is
  skipped.  With u < short - 32 the slice is taken only u + 32 lines wide from the start (no probe):
  it holds the rank unless a nonzero polynomial in the weights vanishes, and when it does not reach
  u it is handled as a narrow slice above (complement, or the ordinary slice).
* **Resumable.**  ``done`` (an object with ``get(a, alone)`` and ``put(a, alone, value, seconds)``;
  ``alone``: the block was ranked without a neighbour's hint, as the block-level repeats do; e.g. rows of
  the results store, ``verify.sweeps.block_rows``) keeps each finished degree block; a run that
  was killed starts again where it stopped, with the same command.  A block's rank depends only on
  the field, the seed, the weights and the neighbour it was hinted by, all part of the key or
  themselves stored, so the result is the one an uninterrupted run gives, on either device.
* **The plan.**  What each block runs on is decided once, before the run, by its ``BlockPlan``
  (``verify.rank.block_plan``: kernel, device, leaf route, slice shape, bytes, seconds); every
  elimination here asks the run's plan (``RunPlan.slice_kernel`` for a planned slice, ``RunPlan.kernel``
  for the probe, the complement and a block ranked whole), so all of them run on the plan's device,
  and each finished block is kept with its plan and its seconds split into gather, products, leaves
  and check (``verify.exact.phases``).  On a GPU the slices are eliminated there.  Where the kernel
  the registry picks is a rank-only one (the block LU, for large slices on a GPU) and the block has
  a proven bound, the slice is ranked by it first; reaching the bound ends the block without the
  null space.  A slice that a float kernel ranks on a GPU is gathered there (``_gather_xp``), from the
  device copy of a dense moment table (``DenseMoments.on``): only keys cross to the device.  There it
  is eliminated in its own memory (one copy, as the estimate prices it) and gathered again when its
  null space is needed.  Complements and sorted-search tables are gathered on the host.  Ranks are
  exact on either device, so the result does not depend on it.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

import numpy as np

from ..exact.compositions import compositions
from ..exact.fields import Field
from ..exact.phases import phase
from .block_plan import SLICE_EXTRA, RunPlan, degree_sizes
from .blocks import Block, keep_block, stored_block, timed, walk_outward
from .moments import DenseMoments

if TYPE_CHECKING:
    from collections.abc import Callable

    from .blocks import BlockKeeper
    from .moments import SearchMoments

__all__ = ["degree_block_ranks", "block_rank", "block_alone", "SLICE_EXTRA"]

#: Most rows of Y^T used for the complement; a wider null space is mixed down to this many.
COMPLEMENT_ROWS = 32
#: Entries of R gathered at a time for the complement's product.
COMPLEMENT_CHUNK = 2**24
#: Blocks with a shorter short side skip the deficiency probe (its saving would be small).
PROBE_MIN = 1024


def _lines(moments, row_keys: np.ndarray, col_keys: np.ndarray, idx: np.ndarray, wide: bool, xp=np) -> np.ndarray:
    """``_gather``, timed as the block's gather phase (``verify.exact.phases``)."""
    with phase("gather"):
        return _gather(moments, row_keys, col_keys, idx, wide, xp)


def _gather(moments, row_keys: np.ndarray, col_keys: np.ndarray, idx: np.ndarray, wide: bool, xp=np) -> np.ndarray:
    """Columns ``idx`` of B (wide) or rows ``idx`` of B, as a short x len(idx) array of module ``xp``: on a
    device, a dense table's lines are gathered there from its device copy (``DenseMoments.on``), row-major
    (a tall block's by exchanging the key sets: a moment depends only on the sum of its two keys)."""
    per = len(col_keys)
    if isinstance(moments, DenseMoments) and xp is not np and not wide:
        moments = moments.on(xp)
        out = xp.empty((moments.count * per, len(idx)), dtype=moments.dtype)
        for k in range(moments.count):
            moments.gather(k, col_keys, row_keys[idx], out=out[k * per:(k + 1) * per])
        return out
    if isinstance(moments, DenseMoments):  # every piece gathered straight into its place: one array held
        moments = moments.on(xp)
        shape = (len(row_keys), len(idx)) if wide else (len(idx), moments.count * per)
        out, at = xp.empty(shape, dtype=moments.dtype), 0
        for k in range(moments.count):
            if wide:
                sel = idx[(idx >= k * per) & (idx < (k + 1) * per)] - k * per
                if len(sel):
                    moments.gather(k, row_keys, col_keys[sel], out=out[:, at:at + len(sel)])
                at += len(sel)
            else:
                moments.gather(k, row_keys[idx], col_keys, out=out[:, k * per:(k + 1) * per])
        return out if wide else out.T
    out, at = None, 0  # filled in place: no stacked copy of the pieces (half the peak memory)
    for k in range(moments.count):
        if wide:
            sel = idx[(idx >= k * per) & (idx < (k + 1) * per)] - k * per
            piece = moments.gather(k, row_keys, col_keys[sel]) if len(sel) else None
        else:
            piece = moments.gather(k, row_keys[idx], col_keys)
        if piece is None:
            continue
        if out is None:
            shape = (len(row_keys), len(idx)) if wide else (len(idx), moments.count * per)
            out = np.empty(shape, dtype=piece.dtype)
        out[:, at:at + piece.shape[1]] = piece
        at += piece.shape[1]
        del piece
    if xp is not np:  # a sorted-search table gathers on the host: the lines are copied over once
        out = xp.asarray(out)
    return out if wide else out.T


def _gather_xp(field: Field, kernel):
    """Where a slice is gathered: on the kernel's device when that is a GPU and the kernel eliminates the
    device's arrays (it then needs no host copy), else on the host (kernels reading numpy, and the field Q)."""
    on = kernel.device
    return on.xp if field.modulus is not None and kernel.device_arrays and on.is_gpu else np


def _shape(moments, row_keys: np.ndarray, col_keys: np.ndarray) -> tuple[int, int, bool, int, int]:
    """(m, n, wide, short, long) of the block with rows ``row_keys`` and columns (k, ``col_keys``)."""
    m, n = len(row_keys), len(col_keys) * moments.count
    return m, n, m <= n, min(m, n), max(m, n)


def _mixing(field: Field, nullity: int, seed: str) -> np.ndarray:
    """The nullity x COMPLEMENT_ROWS random matrix H that mixes a wide null space down, row by row."""
    rng = random.Random(seed)
    return np.array([[rng.randrange(field.modulus) for _ in range(COMPLEMENT_ROWS)] for _ in range(nullity)],
                    dtype=np.int64)


def _complement_rank(plan: RunPlan, left: np.ndarray, rest_lines, count: int) -> int:
    """rank(left @ R) over GF(p), R gathered in column chunks (never converted to FLINT whole): the
    plan's kernel forms each chunk's product exactly on the host (``verify.exact.kernels``) and ranks the result."""
    step = max(1, COMPLEMENT_CHUNK // max(1, left.shape[1]))
    kernel = plan.kernel(*left.shape)
    product = np.empty((left.shape[0], count), dtype=np.int64)
    for start in range(0, count, step):
        product[:, start:start + step] = kernel.product(left, rest_lines(start, start + step), overwrite=True)
    return plan.kernel(*product.shape).rank(product, overwrite=True)


# over 80 lines: one block's slice strategy (slice, null space, product, fallbacks), its steps sharing the
# block's arrays and plan
def _slice_rank(plan: RunPlan, moments, row_keys: np.ndarray, col_keys: np.ndarray, take: int, seed: str,
                max_memory_gib: float | None = None, upper: int | None = None,
                degree: int | None = None) -> Block | None:
    """rank(S) + rank(Y^T R) for the slice S of ``take`` seeded random long-side lines (module notes).

    With take < short (a probe-sized slice, GF(p) only) the answer is trusted only when the slice
    is column-deficient and the mixed complement is not saturated; otherwise ``None``.  ``upper``:
    a proven upper bound on the block's rank; rank(S) = upper ends the block there (module notes).
    ``degree``: the block's number in the plan (its planned kernel, where the slice has the planned shape)."""
    field = plan.field
    m, n, wide, short, long = _shape(moments, row_keys, col_keys)

    def whole() -> Block:
        if max_memory_gib is not None:  # the one place a whole block is gathered: priced here, not up front
            from .memory import guard

            per = plan.kernel(m, n).bytes_per_entry
            guard(m * n * per, max_memory_gib, f"degree block {m:,} x {n:,}, ranked whole because its mixed "
                  f"complement saturated", "use a smaller depth or width, or a larger --max-memory-gib")
        kernel = plan.kernel(short, long)
        lines = _lines(moments, row_keys, col_keys, np.arange(long, dtype=np.int64), wide, _gather_xp(field, kernel))
        return Block(m, n, kernel.rank(lines, overwrite=True), elimination=kernel.name)

    pick = np.array(sorted(random.Random(f"{seed}:{m}x{n}").sample(range(long), take)), dtype=np.int64)
    kernel = plan.slice_kernel(degree, short, take)  # the slice is short x take
    xp = _gather_xp(field, kernel)
    slice_ = _lines(moments, row_keys, col_keys, pick, wide, xp)
    how = kernel.name
    if upper is not None and kernel.rank_first:
        # a kernel whose rank costs far less than its null space (block LU on a GPU): rank(S) = upper
        # ends the block before any null space is formed.  On a device the slice is eliminated in its
        # own memory (one copy held: 8 bytes an entry, as the estimate prices it) and gathered again
        # for the null space; on the host it is kept
        if kernel.rank(slice_, overwrite=xp is not np) == upper:
            return Block(m, n, upper, elimination=how)
        how = kernel.null_space_name
        if xp is not np:
            slice_ = _lines(moments, row_keys, col_keys, pick, wide, xp)
    space = kernel.null_space(slice_.T, overwrite=True)  # rank, nullity and rows(mix); FLINT's basis over Q
    del slice_
    nullity = space.nullity
    if take < short and short - nullity == take:
        return None  # the slice is independent: it shows no deficiency to build on
    if upper is not None and short - nullity >= upper:
        # rank(S) <= rank(B) <= upper (proven): the slice's rank is the block's, no complement needed
        if short - nullity != upper:  # never skipped (an assert would vanish under python -O)
            raise RuntimeError(f"slice rank {short - nullity} above the proven block bound {upper}")
        return Block(m, n, upper, elimination=how)
    if nullity == 0:
        return Block(m, n, short, elimination=how)
    rest = np.setdiff1d(np.arange(long, dtype=np.int64), pick)
    if len(rest) == 0:
        return Block(m, n, short - nullity, elimination=how)
    if field.modulus is not None:
        label = f"verify-complement:{seed}:{m}x{n}"
        mix = None if nullity <= COMPLEMENT_ROWS else _mixing(field, nullity, label)  # Y^T, or H^T Y^T
        left, compressed = space.rows(mix), mix is not None
        del space
        extra = _complement_rank(plan, left, lambda a, b: _lines(moments, row_keys, col_keys, rest[a:b], wide),
                                 len(rest))
        if not compressed:
            return Block(m, n, short - nullity + extra, elimination=how)
        if extra < COMPLEMENT_ROWS:
            return Block(m, n, short - nullity + extra, compressed_to=COMPLEMENT_ROWS, elimination=how)
        if take < short:
            return None
        # the compression is saturated: the complement's rank is unknown, so rank the block whole
        return whole()
    # over Q: a heavily deficient block is eliminated whole when that costs less (about
    # short * long * rank) than the complement's product and its rank
    if short * long * (short - nullity) < nullity * short * len(rest) + nullity * nullity * len(rest):
        del space
        return whole()
    basis = space.basis
    left = field.matrix(nullity, short, [int(basis[i, c]) for c in range(nullity) for i in range(short)])
    del basis, space
    rest_block = field.from_rows(np.ascontiguousarray(_lines(moments, row_keys, col_keys, rest, wide)))
    extra = plan.kernel(nullity, len(rest)).rank(left * rest_block)  # one FLINT product, no entry-wise copying
    return Block(m, n, short - nullity + extra)


def _probe_rank(plan: RunPlan, moments, row_keys: np.ndarray, col_keys: np.ndarray, size: int, seed: object = 0) -> int:
    """Rank of a seeded random size x size sub-block (a lower bound on the block's rank)."""
    m, n, wide, short, long = _shape(moments, row_keys, col_keys)
    rng = random.Random(f"verify-probe:{seed}:{m}x{n}")
    lines = np.array(sorted(rng.sample(range(long), size)), dtype=np.int64)
    across = np.array(sorted(rng.sample(range(short), size)), dtype=np.int64)
    kernel = plan.kernel(size, size)
    xp = _gather_xp(plan.field, kernel)
    sub = _lines(moments, row_keys, col_keys, lines, wide, xp)[across]
    return kernel.rank(xp.ascontiguousarray(sub), overwrite=True)


def block_rank(plan: RunPlan | Field, moments: DenseMoments | SearchMoments, row_keys: np.ndarray,
               col_keys: np.ndarray, hint: int | None = None, seed: object = 0, max_memory_gib: float | None = None,
               upper: int | None = None, degree: int | None = None) -> Block:
    """Exact rank of the block with rows ``row_keys`` and columns (k, ``col_keys``), k over the components.

    ``hint`` (a neighbouring block's rank) sizes the probe that looks for a heavy deficiency.  ``seed``
    (the run's seed) draws the slice columns and the null-space mixing H, so that the mixing's
    Schwartz-Zippel term is a bound over a draw independent of the block, not fixed by its shape.
    ``upper``: a proven upper bound on the block's generic rank (module notes, "stop at the proven
    bound"); it must be one, since a slice reaching it is taken as the block's rank.  ``plan``: the run's
    ``RunPlan`` (its field, device and kernels), or a field (a plan on the CPU); ``degree``: the block's
    number in it."""
    plan = plan if isinstance(plan, RunPlan) else RunPlan(plan)
    field = plan.field
    m, n, _, short, long = _shape(moments, row_keys, col_keys)
    if short == 0:
        return Block(m, n, 0)
    if upper is not None and upper + 2 * SLICE_EXTRA <= short:  # a slice a little wider than the bound
        block = _slice_rank(plan, moments, row_keys, col_keys, min(long, upper + SLICE_EXTRA),
                            f"verify-bound-slice:{seed}", max_memory_gib, upper, degree)
        if block is not None:
            return block
    if field.modulus is not None and short >= PROBE_MIN:
        guess = hint
        # no neighbour ranked yet and no bound below the shape: a sub-block a third of the size looks for deficiency
        if guess is None and (upper is None or upper >= short):
            size = min(long, short // 3)
            found = _probe_rank(plan, moments, row_keys, col_keys, size, seed)
            guess = found if found < size - SLICE_EXTRA else None
        take = None if guess is None else min(long, guess + guess // 4 + 2 * SLICE_EXTRA)
        if take is not None and take < short - SLICE_EXTRA:  # a slice a little wider than the expected rank
            block = _slice_rank(plan, moments, row_keys, col_keys, take, f"verify-probe-slice:{seed}", max_memory_gib,
                                upper, degree)
            if block is not None:
                return block
    return _slice_rank(plan, moments, row_keys, col_keys, min(long, short + SLICE_EXTRA), f"verify-slice:{seed}",
                       max_memory_gib, upper, degree)


def block_alone(plan: RunPlan, moments: DenseMoments | SearchMoments, nvars: int, top: int, a: int, seed: object = 0,
                max_memory_gib: float | None = None, upper: int | None = None) -> Block:
    """Degree block a of a homogeneous q of degree ``top``, ranked alone: no neighbour's hint, so its rank
    depends on nothing but the run (field, seed, weights) and a; what the block-level repeats and a block
    task on another machine (``verify.rank.block_tasks``) compute."""
    block = block_rank(plan, moments, moments.keys(compositions(a, nvars)), moments.keys(compositions(top - a, nvars)),
                       None, seed, max_memory_gib, upper, a)
    block.elimination = block.elimination or plan.kernel(block.rows, block.cols).name
    return block


# over 80 lines: the walk outward from the widest-to-tallest turn and its saturation shortcuts share the
# per-block state
def degree_block_ranks(plan: RunPlan | Field, moments: DenseMoments | SearchMoments, nvars: int, top: int,
                       progress: Callable[[int, int], object] | None = None, seed: object = 0,
                       max_memory_gib: float | None = None, only: list[int] | None = None,
                       uppers: list[int] | None = None,
                       done: BlockKeeper | None = None) -> tuple[int, list[Block], list[str]]:
    """Sum of the degree-block ranks of a homogeneous q of degree ``top`` (see the module notes).

    ``moments`` looks up the moment values (``verify.rank.moments``: ``count``, ``keys``, ``gather``);
    ``seed`` is the run's seed, from which every random choice of ``block_rank`` is drawn.
    ``only``: rank just these degrees (a later run of the block-level repeats, ``verify.rank.repeat``);
    the other blocks come back with ``ranked`` False and rank 0, and the sum is over the ranked ones.
    ``uppers``: proven upper bounds on the generic rank of blocks 0..top (``verify.rank.bound``); a
    block's ranking stops once a slice reaches its bound (module notes).  ``plan``: the run's ``RunPlan``
    (``verify.rank.block_plan``: field, device, each block's kernel), or a field (a plan on the CPU);
    ``done``: finished blocks kept and read back, each with its plan and seconds by phase (module notes)."""
    plan = plan if isinstance(plan, RunPlan) else RunPlan(plan)
    bound_of = (lambda a: None) if uppers is None else uppers.__getitem__
    sizes = degree_sizes(nvars, top, moments.count)
    turn = max(a for a, (rows, cols) in enumerate(sizes) if rows <= cols)
    found: dict[int, Block] = {}
    notes = []

    def kept(a: int, compute) -> Block:  # the stored block a, or computed and stored
        alone = only is not None  # ranked without a neighbour's hint: kept apart from the hinted ones
        block = stored_block(done, a, alone, bound_of(a))
        if block is None:
            block = timed(compute)
            keep_block(done, plan, a, alone, block)
        return block
    if only is not None:
        wanted = set(only)
        blocks = []
        for a in range(top + 1):
            if a in wanted:
                block = kept(a, lambda a=a: block_alone(plan, moments, nvars, top, a, seed, max_memory_gib,
                                                        bound_of(a)))
            else:
                block = Block(*sizes[a], 0, ranked=False)
            blocks.append(block)
            if progress is not None:
                progress(a + 1, top + 1)
        return sum(b.rank for b in blocks), blocks, [f"degree blocks {sorted(wanted)} only (block-level repeat)"]

    def rank_of(a: int) -> Block:
        keys_rows = moments.keys(compositions(a, nvars))
        keys_cols = moments.keys(compositions(top - a, nvars))
        # the computed neighbour's rank (a + 1 going down, a - 1 going up) predicts this one's
        hint = next((found[b].rank for b in (a + 1, a - 1) if b in found and found[b].implied_by is None), None)

        def compute() -> Block:
            block = block_rank(plan, moments, keys_rows, keys_cols, hint, seed, max_memory_gib, bound_of(a), a)
            if block.elimination is None:  # no elimination ran (an empty block) or FLINT's over Q: the field's kernel
                block.elimination = plan.kernel(block.rows, block.cols).name
            return block

        block = kept(a, compute)
        if progress is not None:
            progress(len(found) + 1, top + 1)
        return block

    walk_outward(sizes, turn, rank_of, found, notes)
    if progress is not None:
        progress(top + 1, top + 1)
    blocks = [found[a] for a in range(top + 1)]
    return sum(b.rank for b in blocks), blocks, notes
