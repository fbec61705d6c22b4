"""Appendix A.2-A.3, proofs of Theorems 3 and 4: the term counts and the last inequality, exactly.

Each term of eq. 8 has C+1 A-factors and C B-factors, 2C+1 = 3^L in all, split into token factors
(N_{A Delta B} + 2 N_{A cap B} of them) and positional ones.  The number of summands is
sum (m_P + m_Q splits)(z_P + z_Q splits) prod ((2 over n_a)) prod ((2 over p_s)); the sum over
n_1 + ... + n_r = D of prod (n_a + 1) is ((2r over D)) (generating function (1-x)^(-2r)), so the whole
count is an integer computed exactly, and compared with the last display's bound and with eq. 9."""

from fractions import Fraction
from itertools import product
from math import comb

from verify.authoring import Claim, InequalityChain, Property, scaled, shifted

from ._common import WIES, L, Source, r

GRID = [(depth, rank, pos) for depth in range(1, 5) for rank in range(1, 13) for pos in range(0, 4)]


def mc(a: int, b: int) -> int:
    """((a over b)); ((0 over 0)) = 1, ((0 over b)) = 0."""
    return comb(a + b - 1, b) if a > 0 else int(b == 0)


def count(depth: int, rank: int, pos: int, low: int = 1) -> int:
    """The printed number of summands, N_{A Delta B} from low to C+1 and N_{A cap B} from low to C."""
    c = (3**depth - 1) // 2
    t = 2 * c + 1
    total = 0
    for n_delta in range(low, c + 2):
        for n_cap in range(low, c + 1):
            d = n_delta + 2 * n_cap
            if d <= t:
                total += (d + 1) * (t - d + 1) * mc(2 * rank, d) * mc(2 * pos, t - d)
    return total


def bound(depth: int, rank: int, pos: int) -> Fraction:
    """((r+r_e over 2C+1)) ((4 over 2C+1)) ((2C+1)/r + 1)^r ((2C+1)/r_e + 1)^r_e, the last factor 1 at r_e = 0."""
    t = 3**depth
    value = Fraction(mc(rank + pos, t) * mc(4, t)) * (Fraction(t, rank) + 1) ** rank
    return value * (Fraction(t, pos) + 1) ** pos if pos else value


def _factor_counts(shift: int = 0):
    """Every pair (I_A in [C] u {0}, I_B in [C]) of one term has |I_A| + |I_B| token factors and
    2C+1 - |I_A| - |I_B| positional ones, |I_A| + |I_B| = |I_A Delta I_B| + 2 |I_A cap I_B|; and
    2C+1 = 3^L (shift: 2C+1 = 3^L + shift)."""
    for depth in (1, 2):
        c = (3**depth - 1) // 2
        if 2 * c + 1 != 3**depth + shift:
            return False, f"L={depth}: 2C+1 = {2 * c + 1}, 3^L = {3**depth}", {"L": depth}
        for a_bits in product((0, 1), repeat=c + 1):
            for b_bits in product((0, 1), repeat=c):
                ia = {i for i, x in enumerate(a_bits) if x}
                ib = {i + 1 for i, x in enumerate(b_bits) if x}
                if len(ia) + len(ib) != len(ia ^ ib) + 2 * len(ia & ib):
                    return False, f"L={depth}: I_A={ia}, I_B={ib}", {"L": depth}
    return True, "2C+1 = 3^L and |I_A|+|I_B| = |I_A Delta I_B| + 2|I_A cap I_B| for every pair at L = 1, 2", None


def _last_display(low: int = 1, scale: int = 1):
    """The count (N's from ``low``) <= the last display's bound / scale, exactly."""
    worst = (Fraction(0), None)
    for depth, rank, pos in GRID:
        lhs, rhs = count(depth, rank, pos, low), bound(depth, rank, pos) / scale
        if lhs > rhs:
            return False, f"L={depth} r={rank} r_e={pos}: count {lhs} > bound {float(rhs):.4g}", \
                {"L": depth, "r": rank, "r_e": pos}
        ratio = Fraction(lhs) / rhs
        if ratio > worst[0]:
            worst = (ratio, (depth, rank, pos))
    return True, (f"count <= bound exactly at {len(GRID)} points (L = 1..4, r = 1..12, r_e = 0..3); largest "
                  f"count/bound {float(worst[0]):.3g} at (L, r, r_e) = {worst[1]}"), None


TO_EQ9 = [((3**L) / r + 1) ** r, (3**L + 1) ** r]

CLAIM = Claim(
    id="wies2021_theorem3_counting",
    source=Source(WIES, "appendix A.2 and A.3", "proofs of Theorems 3 and 4: term counts and the last display"),
    statement="Each term has 2C+1 = 3^L factors, |I_A Delta I_B| + 2|I_A cap I_B| of them tokens; the number of "
              "summands is <= ((r+r_e over 2C+1)) ((4 over 2C+1)) ((2C+1)/r + 1)^r ((2C+1)/r_e + 1)^r_e (Lemma 2), "
              "and ((3^L)/r + 1)^r <= (3^L + 1)^r gives eq. 9 (eq. 11).",
    formulas={"to_eq9_lhs": TO_EQ9[0], "to_eq9_rhs": TO_EQ9[1]},
    domain="factor counts: every (I_A, I_B) at L = 1, 2; count: L = 1..4, r = 1..12, r_e = 0..3; last step: L = 1..8, "
           "r = 1..60 (equality at r = 1)",
    reading="The count is the printed one (N_{A Delta B} from 1 to C+1, N_{A cap B} from 1 to C, each pair of N's "
            "counted separately) and also with both ranges from 0 (wies2021_theorem3_grouping_ranges); r_e = 0 reads "
            "((2C+1)/r_e + 1)^r_e as 1.  Theorem 4's last display is the same expression.",
    checks=[Property(_factor_counts, name="factor counts of one term",
                     perturb={"2C+1 = 3^L + 1": shifted(_factor_counts, shift=1)}),
            Property(_last_display, name="printed count <= last display's bound",
                     perturb={"count <= bound / 3": scaled(_last_display, scale=3)}),
            Property(lambda: _last_display(0), name="count with ranges from 0 <= last display's bound",
                     perturb={"count <= bound / 3": scaled(_last_display, given=dict(low=0), scale=3)}),
            InequalityChain(TO_EQ9, ["<="], grid={L: list(range(1, 9)), r: list(range(1, 61))}, search=40,
                            search_ranges={L: (1, 14), r: (1, 500)}, name="((3^L)/r + 1)^r <= (3^L + 1)^r")],
)
