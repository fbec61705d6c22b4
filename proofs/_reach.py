"""The reach of the lower-bound construction (first supplement Lemma 4 / revised Lemma 6) and the proof gap
it leaves in eqs. 6 and 7 (issue 20, outcome ``gap``; eq. 7's first appears at L = 9, so its search runs to L = 12:
issue 34).

With its corrected weights the construction's V has H floor((d_a - 1)/2) columns (claim
levine2020_supp1_lemma4_construction: one column more is refuted), which is floor((d_x - H)/2) for odd d_a
but fewer for even d_a (d_x = 12, H = 2: 4 columns, not 5).  The proofs of Theorems 1 and 2 use
floor((d_x - H)/2) (or (d_x - H)/2); where the printed bound exceeds log3 of the construction's rank
((reach over 3^(L-2))) the printed proof does not establish it (the statement may still be true).
"""

from math import comb

import sympy as sp

from verify.authoring import compare

from ._common import H, L, d_x

#: What the gap claims say about the statement itself (issue 34): the gap is in the printed per-head layout only.
REPAIRED = ("  The statement itself is proven where the printed proof falls short: the repaired (one-slot) "
            "construction, which pairs columns across heads instead of per head, gives sep >= ((floor((d_x - 1)/2) "
            "over 3^(L-2))) >= ((floor((d_x - H)/2) over 3^(L-2))) almost everywhere for every H dividing d_x, d_a = 2 "
            "included (claim derived_one_slot_lower_bound; certificates by 'verify certify --layout one-slot', "
            "accepted by 'verify check-certificate', e.g. sep >= 5 at (d_x, H, L) = (12, 2, 2) and sep >= 3 at "
            "(8, 2, 2)).")


def reach(width: int, heads: int) -> int:
    """Columns of V the corrected construction reaches: H floor((d_a - 1)/2)."""
    return heads * ((width // heads - 1) // 2)


def construction_log3(width: int, heads: int, depth: int) -> sp.Expr:
    """log3 of the construction's rank ((reach over 3^(L-2))) (a multiset coefficient), exactly."""
    columns, power = reach(width, heads), 3 ** (depth - 2)
    return sp.log(sp.Integer(comb(columns + power - 1, power)), 3) if columns else sp.Integer(0)


def gap_cases(bound, regime, depths=range(2, 6), widths=range(2, 25), heads_min=1):
    """(L, d_x, H) with d_a even, ``regime`` true (None: every point), where ``bound`` (log3 units) > log3 of
    the construction's rank: the printed proof falls short there.  Sorted smallest (d_x, L, H) first."""
    found = []
    for width in widths:
        for heads in (h for h in range(heads_min, width) if width % h == 0 and (width // h) % 2 == 0):
            for depth in depths:
                point = {L: depth, d_x: width, H: heads}
                if regime is not None and compare(regime.lhs, regime.rhs, {sp.StrictLessThan: "<",
                                                  sp.StrictGreaterThan: ">"}[type(regime)], point) is not True:
                    continue
                if compare(bound, construction_log3(width, heads, depth), ">", point) is True:
                    found.append((width, depth, heads))
    return sorted(found)


def gap_check(bound, regime, smallest, **grid):
    """A gap check: the proof falls short first at ``smallest`` = (d_x, L, H); its perturbation (the
    construction reaching floor((d_x - H)/2) columns, as the proof uses) closes the gap there."""
    def shown():
        cases = gap_cases(bound, regime, **grid)
        if not cases:
            return False, "the construction's rank reaches the printed bound everywhere in the grid", None
        width, depth, heads = cases[0]
        point = {L: depth, d_x: width, H: heads}
        return cases[0] == smallest, (
            f"{len(cases)} grid points with d_a even where the printed bound exceeds log3 ((H floor((d_a-1)/2) over "
            f"3^(L-2))); smallest d_x={width} L={depth} H={heads}: log3 bound {float(bound.subs(point).evalf()):.4g} > "
            f"log3 rank {float(construction_log3(width, heads, depth).evalf()):.4g} (reach {reach(width, heads)} "
            f"columns, the proof uses {(width - heads) // 2})"), None
    return shown


#: Eq. 7's search (issue 34): its gap first appears at L = 9, there at every even d_x from 14 to 24 with H = d_x / 2
#: (d_a = 2; eq. 7 is exactly 0 at (12, 6) and (36, 18), ties), and with d_a >= 4 first at (d_x, H, L) = (8, 2, 11),
#: the smallest d_x; depths 2-5 found nothing (issue 39 corrected "(14, 7) and (16, 8)": the search printed the
#: first two of six).  Theorem 2's heads are Theorem 1's (H > 1); at H = 1 the same comparison would fail first at
#: (4, 1, 10).  ``tests/claims/test_issue39_texts.py`` pins the L = 9 cases and the ties.
EQ7_GRID = {"depths": range(2, 13), "widths": range(2, 25), "heads_min": 2}
EQ7_SMALLEST = (8, 11, 2)
EQ7_GAP = ("d_a even, L >= 9: the printed proof of eq. 7 (first supplement B.2 through the construction of Lemma 4) "
           "takes the construction's rank ((floor((d_x - H)/2) over 3^(L-2))), but its per-head layout reaches only "
           "H floor((d_a - 1)/2) columns (claim levine2020_supp1_lemma4_construction), and from L = 9 on eq. 7 "
           "exceeds log3 of what it reaches: first at L = 9, there at every even d_x from 14 to 24 with H = d_x/2 "
           "(d_a = 2, no column: eq. 7 is positive there; it is exactly 0, a tie, at (d_x, H) = (12, 6) and (36, 18)), "
           "and with d_a >= 4 first at (d_x, H, L) = (8, 2, 11) (the smallest d_x; 2 columns, "
           "log3 ((2 over 3^9)) = log3 19684 < eq. 7).  Searched over d_x <= 24, L <= 12, every even d_a with H > 1; a "
           "search to L = 5 (issue 20) found nothing.")
