"""Appendix A.2-A.3, proofs of Theorems 3 and 4: grouping the sum over (I_A, I_B) by
N_{A Delta B} = |I_A Delta I_B| in 1..C+1 and N_{A cap B} = |I_A cap I_B| in 1..C.  Is every pair
(I_A subset of [C] u {0}, I_B subset of [C]) in exactly one group?"""

from itertools import product

from verify.authoring import Cases, Claim, Property, shifted

from ._common import WIES, Source
from .wies2021_theorem3_counting import GRID, bound, count


def _pairs(c: int):
    for a_bits in product((0, 1), repeat=c + 1):
        for b_bits in product((0, 1), repeat=c):
            yield {i for i, x in enumerate(a_bits) if x}, {i + 1 for i, x in enumerate(b_bits) if x}


def _covered(depth: int, low: int = 1, high_shift: int = 0):
    """Every pair has |Delta| in low..C+1+high_shift and |cap| in low..C+high_shift."""
    c = (3**depth - 1) // 2
    total = 0
    for ia, ib in _pairs(c):
        total += 1
        delta, cap = len(ia ^ ib), len(ia & ib)
        if not (low <= delta <= c + 1 + high_shift and low <= cap <= c + high_shift):
            return False, f"L={depth} (C={c}): I_A={sorted(ia)}, I_B={sorted(ib)} has N_Delta={delta}, N_cap={cap}, " \
                          f"outside the ranges", {"L": depth, "I_A": sorted(ia), "I_B": sorted(ib)}
    return True, f"L={depth} (C={c}): all {total} pairs have N_Delta in {low}..{c + 1}, N_cap in {low}..{c}"


def _corrected_count():
    """With the full ranges the corrected count still obeys the last display's bound."""
    for depth, rank, pos in GRID:
        if count(depth, rank, pos, 0) > bound(depth, rank, pos):
            return False, f"L={depth} r={rank} r_e={pos}", {"L": depth, "r": rank, "r_e": pos}
    return True, f"count with ranges from 0 <= the last display's bound at {len(GRID)} points", None


CLAIM = Claim(
    id="wies2021_theorem3_grouping_ranges",
    source=Source(WIES, "appendix A.2 and A.3", "proofs of Theorems 3 and 4: sums over N_{A Delta B} = 1..C(L)+1, "
                                                "N_{A cap B} = 1..C(L)"),
    statement="Every pair (I_A, I_B) of the expansion has N_{A Delta B} in 1..C+1 and N_{A cap B} in 1..C, so the "
              "grouped sum equals the expanded one.",
    domain="every pair at L = 1 (C = 1) and L = 2 (C = 4)",
    reading="The ranges are read literally.  The dropped pairs (for instance I_A = I_B = {}: every factor "
            "positional; or I_A = {0..C}, I_B = {}) carry nonzero terms whenever r_e >= 1.  With r_e = 0 only "
            "I_A = {0..C}, I_B = [C] survives (N_Delta = 1, N_cap = C), inside the printed ranges.",
    checks=[Cases([1, 2], _covered, name="printed ranges cover every pair",
                  perturb={"upper limits one lower (C and C-1)": shifted(_covered, high_shift=-1)})],
    expected="erratum",
    corrected_statement="Both sums start at 0: N_{A Delta B} in 0..C+1, N_{A cap B} in 0..C (then every pair is in "
                        "exactly one group); the count with these ranges still obeys the last display's bound, so "
                        "eq. 9 and eq. 11 are unaffected.",
    corrected_checks=[Cases([1, 2], lambda depth: _covered(depth, 0), name="ranges from 0 cover every pair",
                            perturb={"upper limits one lower": shifted(_covered, given=dict(low=0), high_shift=-1)}),
                      Property(_corrected_count, name="corrected count <= last display's bound")],
)
