"""What ``verify.rank.reduced_memory`` sets aside beside the slice covers the elimination's scratch."""

from __future__ import annotations

import numpy as np

from verify.exact import floatmod, tuning
from verify.rank.reduced_memory import OVERHEAD_BYTES


def test_the_overhead_holds_the_karatsuba_scratch_and_a_gather_chunk():
    """Nine Karatsuba scratch arrays of at most KARATSUBA_TILE float64 entries (limbs of a row block
    of a and a column block of b, their sums, the three products: 288 MiB) and one gather chunk of
    2^22 int64 entries fit in the fixed allowance."""
    scratch = 9 * tuning.KARATSUBA_TILE * 8
    assert scratch == 288 * 2**20
    assert scratch + 2**22 * 8 <= OVERHEAD_BYTES


def test_karatsuba_scratch_stays_within_its_tile_on_a_wide_product():
    """A 40 x 3000 by 3000 x 3000 product (so column blocks of b): no scratch array passes the tile."""
    ar = floatmod.ModArith(2**40 - 87)
    rng = np.random.default_rng(0)
    c = ar.from_ints(rng.integers(0, ar.p, (40, 3000)))
    ar.submul(c, ar.from_ints(rng.integers(0, ar.p, (40, 3000))), ar.from_ints(rng.integers(0, ar.p, (3000, 3000))))
    assert ar._scratch and max(a.size for a in ar._scratch.values()) <= tuning.KARATSUBA_TILE
