"""Shared pieces of the claim files for the vocabulary paper's Lemmas 5-7 (appendix B.2)."""

import random
from math import comb

from verify.authoring.constructions import Layout, carried_columns, embedding_target, matrix_rank

from .wies2021_lemma8_hadamard_rank import find_matrix

#: (d_x, H, r, L) with H | d_x, r <= d_x, r - H even, ordered by size: every small layout.
LEMMA56_CASES = sorted(((w, h, r, depth) for w in range(3, 13) for h in range(1, w + 1) if w % h == 0
                        for r in range(h + 2, w + 1, 2) for depth in (2, 3)),
                       key=lambda c: (c[0], c[3], c[1], c[2]))


#: The cases the printed constructions can be read in at all: d_a odd.
LEMMA56_ODD_CASES = [c for c in LEMMA56_CASES if (c[0] // c[1]) % 2 == 1]


def capacity(width: int, heads: int) -> int:
    """Columns of A one half of the coordinates can carry: H * floor((d_a - 1)/2)."""
    return heads * ((width // heads - 1) // 2)


def corrected_layout(width: int, heads: int, wanted: int) -> Layout | None:
    """The corrected layout carrying n = min(wanted, capacity) columns of A, or None if n = 0."""
    n = min(wanted, capacity(width, heads))
    return Layout(width, heads, n) if n else None


def printed_layout(width: int, heads: int, r: int) -> Layout:
    """The layout as printed (phi with (d_a - 1) per head) for n = (r - H)/2 columns of A."""
    return Layout(width, heads, (r - heads) // 2, printed=True)


def printed_phi_outcome(width: int, heads: int, r: int, depth: int, holds: bool, line: str):
    """(holds, line, counterexample) of a check on the printed phi: a miss names phi's defect."""
    case = f"d_x={width} H={heads} r={r} L={depth}" + (f": {line}" if line else "")
    if holds:
        return True, case, None
    return False, case + ": misses columns of A", {"d_x": width, "H": heads, "r": r, "L": depth,
                                                   "defect": "printed phi skips (d_a-1)/2 column numbers per head"}


def a_matrix(n: int, depth: int) -> list[list[int]]:
    """Lemma 8's natural-number matrix with ((n over 3^(L-2))) rows of one l2 norm."""
    _, rows = find_matrix(n, 3 ** (depth - 2))
    return [list(r) for r in rows]


def gram_of_halves(layout: Layout, outputs: dict[int, list[int]], rows: int) -> tuple[list, list]:
    """First-half Gram of tokens 1..rows and second-half Gram of tokens rows+1..2 rows."""
    first = [a for a in range(layout.width) if layout.kind(a + 1) == "first"]
    second = [a for a in range(layout.width) if layout.kind(a + 1) == "second"]
    g1 = [[sum(outputs[i][a] * outputs[j][a] for a in first) for j in range(1, rows + 1)] for i in range(1, rows + 1)]
    g2 = [[sum(outputs[i][a] * outputs[j][a] for a in second) for j in range(rows + 1, 2 * rows + 1)]
          for i in range(rows + 1, 2 * rows + 1)]
    return g1, g2


def aat(a: list[list[int]]) -> list[list[int]]:
    return [[sum(x * y for x, y in zip(u, v, strict=False)) for v in a] for u in a]


def carries_rows(layout: Layout, outputs: dict[int, list[int]], a: list[list[int]]) -> bool:
    """The embedding outputs carry A: both halves' Gram matrices equal A A^T."""
    g1, g2 = gram_of_halves(layout, outputs, len(a))
    return g1 == aat(a) and g2 == aat(a)


def random_value_output(width: int, heads: int, seed: int) -> list[tuple]:
    rng = random.Random(f"lemma7:{seed}")
    d_a = width // heads
    return [(tuple(tuple(rng.randint(-5, 5) for _ in range(width)) for _ in range(d_a)),
             tuple(tuple(rng.randint(-5, 5) for _ in range(d_a)) for _ in range(width))) for _ in range(heads)]


__all__ = ["LEMMA56_CASES", "LEMMA56_ODD_CASES", "corrected_layout", "printed_layout", "printed_phi_outcome",
           "capacity", "a_matrix", "carries_rows", "random_value_output", "Layout", "carried_columns",
           "embedding_target", "matrix_rank", "comb"]
