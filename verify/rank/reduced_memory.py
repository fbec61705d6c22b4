"""How much memory the reduced route holds at once, in closed form, before any work.

The reduced route (``docs/mathematics.md`` section 2, route 3) never builds a whole catalecticant
block when q is homogeneous: ``degree_blocks`` gathers one *slice* of the largest degree block,
short x (short + 32) entries (short = the block's shorter side), and eliminates it.  What it holds:

* GF(p), p < 2^50 (the float64 BLAS elimination): the slice is gathered as int64 straight into one
  array (``DenseMoments.gather(out=...)``) and eliminated in that array's own memory as float64:
  8 bytes per slice entry.
* GF(p) with FLINT (larger primes): the int64 slice, its transposed copy, FLINT's nmod_mat and the
  null-space basis: 25.8 bytes per entry measured on a 4000 x 4032 slice, priced at 28.
* Over Q, or for a residual network (one candidate block of every degree, split by its pattern):
  the whole block, 40 + 16 (key words) bytes per entry, as before.

Plus q's exponent rows: d_x components of T = binom(C+n-1, n-1) terms each, n exponents a term at
the narrowest type that holds them (``exponent_dtype``: int16 below degree 2^14, 2 bytes), priced
with four more T x n arrays of 8 bytes for the temporaries of ``term_exponents`` and of the moment
keys, (2 d_x + 32) T n bytes, and T 32 bytes a component for the values of the moment table.
Measured peak resident memory against the whole estimate: depth 2 width 10 (n = 55, T = 424,270)
1.35 GiB against 1.77 (2.49 GiB with int64 exponent rows).  With int64 rows (before): width 11
(n = 66, T = 864,501) 6.65 against 7.2; width 12 (n = 78, T = 1,663,740) 15.97 against 16.6;
depth 6 width 2 4.24 against 4.45.
Plus ``OVERHEAD_BYTES`` for gather chunks and product tiles (the two-limb Karatsuba products keep
nine scratch arrays of at most ``karatsuba.KARATSUBA_TILE`` = 2^22 entries: 288 MiB).  The estimate
was compared with the measured peak resident memory (``benchmarks/reach.py`` writes both).
Everything here is arithmetic on binomials: log-scale first for any size, exact integers only
once the estimate is known to be small.
"""

from __future__ import annotations

import math
from math import comb
from typing import Any

from ..exact.compositions import exponent_dtype
from ..exact.device import CPU
from ..exact.fields import DEFAULT_PRIME, Field
from ..exact.kernels import large_bytes_per_entry
from ..model.spec import NetworkSpec
from .block_plan import SLICE_EXTRA, plan_block  # the slices and their kernels are planned there
from .memory import guard, guard_log2, log2_multichoose, size_text

__all__ = ["largest_block_entries", "largest_slice_short", "slice_entry_bytes", "guard_blocks", "memory_parts",
           "estimate_block_bytes", "check_memory", "OVERHEAD_BYTES", "SLICE_EXTRA"]

#: Everything held beside the slice: q, moment tables, gather chunks (2^22 entries), product tiles.
OVERHEAD_BYTES = 2**29


def largest_block_entries(nvars: int, top: int, components: int, homogeneous: bool) -> int:
    """Entries of the largest candidate block: max over a of binom(a+n-1, n-1) * d * binom(top-a+n-1, n-1)
    for a homogeneous q of degree ``top``, or the single block of every degree <= top otherwise.

    Closed form: a -> binom(a+n-1, n-1) is log-concave, so the product is log-concave and symmetric
    about top/2 and its maximum sits at a = floor(top/2); no loop over a.

    >>> largest_block_entries(3, 4, 2, True) == max(comb(a + 2, 2) * 2 * comb(6 - a, 2) for a in range(5))
    True
    """
    if homogeneous:
        a = top // 2
        return comb(a + nvars - 1, nvars - 1) * components * comb(top - a + nvars - 1, nvars - 1)
    return comb(top + nvars, nvars) * components * comb(top + nvars, nvars)


def largest_slice_short(nvars: int, top: int, components: int) -> int:
    """max over a of min(rows_a, cols_a) for the degree blocks of a homogeneous q of degree ``top``.

    rows_a = binom(a+n-1, n-1) grows with a and cols_a = d binom(top-a+n-1, n-1) shrinks, so the
    maximum is rows at the last a with rows <= cols (the turn) or cols just after it: a binary
    search, no loop over a.

    >>> all(largest_slice_short(n, c, d) == max(min(comb(a + n - 1, n - 1), d * comb(c - a + n - 1, n - 1))
    ...     for a in range(c + 1)) for n in (1, 3, 6, 10) for c in (0, 1, 4, 13, 40) for d in (1, 2, 4))
    True
    """
    rows = lambda a: comb(a + nvars - 1, nvars - 1)  # noqa: E731
    cols = lambda a: components * comb(top - a + nvars - 1, nvars - 1)  # noqa: E731
    lo, hi = 0, top  # rows(0) = 1 <= cols(0): the turn exists
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if rows(mid) <= cols(mid):
            lo = mid
        else:
            hi = mid - 1
    return max(rows(lo), cols(lo + 1) if lo < top else 0)


def slice_entry_bytes(field: Field | None) -> int | None:
    """Bytes held per slice entry over ``field`` (module notes); ``None`` over Q (whole blocks priced).
    ``field`` None means the default prime 2^63 - 25 (FLINT)."""
    field = Field(DEFAULT_PRIME) if field is None else field
    if field.modulus is None:
        return None
    return large_bytes_per_entry(field)


def _key_words(nvars: int, base: int, word_limit: int = 2**62) -> int:
    """``AdditiveEncoder(nvars, base).words`` without building its weight table (closed form)."""
    per_word = 1
    while per_word < nvars and base ** (per_word + 1) < word_limit:
        per_word += 1
    return -(-nvars // per_word)


def _log2_entries(nvars: int, top_log2: float, components: int, homogeneous: bool) -> float:
    """log2 of the largest whole block's entries (an upper bound on any slice's)."""
    if homogeneous:
        half = top_log2 - 1 if top_log2 > 1 else -math.inf
        side = 0.0 if half == -math.inf else log2_multichoose(half, nvars - 1)
    else:
        side = 0.0 if top_log2 == -math.inf else log2_multichoose(top_log2, nvars)
    return 2 * side + math.log2(components)


def _sliced_parts(nvars: int, top: int, components: int, field: Field | None) -> tuple[int, int, int, int]:
    """(short side of the largest slice, its bytes as the block plan prices it, q's terms a component, q's bytes)
    for a homogeneous q of degree ``top`` over GF(p) (module notes)."""
    short = largest_slice_short(nvars, top, components)
    slice_bytes = plan_block(field or Field(DEFAULT_PRIME), CPU, None, short, short + SLICE_EXTRA).bytes
    terms = comb(top + nvars - 1, nvars - 1)
    q_bytes = (components * exponent_dtype(top)().itemsize + 4 * 8) * terms * nvars + components * terms * 32
    return short, slice_bytes, terms, q_bytes


def _estimate(nvars: int, top: int, components: int, homogeneous: bool, field: Field | None) -> tuple[int, str]:
    """(bytes, what) for a spec whose whole-block count is known to be writable (exact integers)."""
    per = slice_entry_bytes(field)
    if homogeneous and per is not None:
        short, slice_bytes, terms, q_bytes = _sliced_parts(nvars, top, components, field)
        # the refusal names each part and its size: for a small spec the fixed part is nearly all of it
        return (slice_bytes + q_bytes + OVERHEAD_BYTES,
                f"the reduced route's working memory (the largest degree-block slice, {short:,} x "
                f"{short + SLICE_EXTRA:,}: {size_text(slice_bytes)}; q's {components} x {terms:,} terms: "
                f"{size_text(q_bytes)}; a fixed {size_text(OVERHEAD_BYTES)} of gather chunks and product tiles)")
    largest = largest_block_entries(nvars, top, components, homogeneous)
    count = (f"{largest:,}" if largest < 10**15 else f"about {float(largest):.3g}" if largest.bit_length() < 1000
             else f"about 10^{len(str(largest)) - 1}")
    words = _key_words(nvars, top + 1 if homogeneous else 2 * top + 1)
    return largest * (40 + 16 * words), f"the largest catalecticant block ({count} entries)"


def guard_blocks(nvars: int, top: int, components: int, homogeneous: bool, max_memory_gib: float,
                 field: Field | None = None, log2_top: float | None = None) -> None:
    """Refuse (InputError) when what the reduced route holds at once would pass the limit (module
    notes).  ``log2_top`` replaces ``top`` for degrees too large to write down (depth far beyond reach)."""
    lt = math.log2(top) if log2_top is None and top > 0 else (log2_top if log2_top is not None else -math.inf)
    fix = "use a smaller depth or width"
    log2_entries = _log2_entries(nvars, lt, components, homogeneous)
    if log2_entries > 4096:  # far past any limit; the exact integers below would be slow to write down
        guard_log2(log2_entries - 2 + math.log2(8), max_memory_gib, "the largest degree-block slice", fix)
    estimate, what = _estimate(nvars, top, components, homogeneous, field)
    guard(estimate, max_memory_gib, what, fix)


def memory_parts(spec: NetworkSpec, field: Field | None = None) -> dict[str, Any] | None:
    """What the estimate ``check_memory`` compares with the limit is made of, for a spec whose degree blocks are
    sliced (homogeneous q over GF(p)): ``{"slice", "q", "fixed", "total"}`` in bytes (the module notes); None
    where the whole largest block is priced (over Q, a residual network) or the size is past writing down."""
    nvars = spec.width * (spec.width + 1) // 2
    field = field or Field(DEFAULT_PRIME)
    if spec.residual or slice_entry_bytes(field) is None or spec.depth > 600 or \
            _log2_entries(nvars, math.log2(max(spec.layer_degree, 1)), spec.width, True) > 4096:
        return None
    _, slice_bytes, _, q_bytes = _sliced_parts(nvars, spec.layer_degree, spec.width, field)
    total = slice_bytes + q_bytes + OVERHEAD_BYTES
    return {"slice": slice_bytes, "q": q_bytes, "fixed": OVERHEAD_BYTES, "total": total}


def estimate_block_bytes(spec: NetworkSpec, field: Field | None = None) -> float:
    """Bytes the reduced route holds at once for ``spec`` over ``field`` (default 2^63 - 25): the estimate
    ``check_memory`` compares with the limit, or inf beyond 2^4096 entries; closed form, instant."""
    nvars = spec.width * (spec.width + 1) // 2
    if spec.depth > 600:
        return math.inf
    top, homogeneous = spec.layer_degree, not spec.residual
    if _log2_entries(nvars, math.log2(max(top, 1)), spec.width, homogeneous) > 4096:
        return math.inf
    try:
        return float(_estimate(nvars, top, spec.width, homogeneous, field)[0])
    except OverflowError:  # beyond a float: far past any limit
        return math.inf


def check_memory(spec: NetworkSpec, max_memory_gib: float, field: Field | None = None) -> None:
    """Refuse (InputError) before any work if the reduced route's largest slice (or block) would not fit.

    A generic q is homogeneous of degree C(L) = (3^L - 1)/2 unless the network is residual.  Closed
    form: well under a millisecond for any spec (C(L) is handled on the log scale beyond depth 600).
    """
    nvars = spec.width * (spec.width + 1) // 2
    if spec.depth > 600:  # 3^L would be a number of more than 950 bits: log scale only
        guard_blocks(nvars, 0, spec.width, not spec.residual, max_memory_gib, field,
                     log2_top=spec.depth * math.log2(3) - 1)
        raise AssertionError("unreachable: the log-scale estimate refuses such a depth")  # pragma: no cover
    guard_blocks(nvars, spec.layer_degree, spec.width, not spec.residual, max_memory_gib, field)
