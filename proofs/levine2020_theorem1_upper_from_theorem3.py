"""Theorem 1's upper bound (eq. 6, right) from the supplement's Theorem 3, sep <= (H (d_a + 1))^C(L).

With d_a = d_x / H, H (d_a + 1) = d_x + H, so log3 of Theorem 3's bound is (3^L - 1)/2 log3(d_x + H)
exactly: the printed bound is Theorem 3's, for every depth (the regime L < log3 d_x is not used).
"""

from verify.authoring import Claim, InequalityChain

from ._common import MAIN, C, H, L, Source, d_x, log3

PRINTED = (3**L - 1) / 2 * log3(d_x + H)
THEOREM3 = C * log3(H * (d_x / H + 1))
GRID = {L: list(range(1, 7)), d_x: list(range(1, 25)), H: list(range(1, 25))}

CLAIM = Claim(
    id="levine2020_theorem1_upper_from_theorem3",
    source=Source(MAIN, "§4.1", "Theorem 1, eq. 6 (upper bound) as log3 of the first supplement's Theorem 3"),
    statement="(3^L - 1)/2 log3(d_x + H) = log3 (H (d_a + 1))^C(L) with d_a = d_x/H and C(L) = (3^L - 1)/2.",
    formulas={"printed": PRINTED, "theorem3": THEOREM3},
    domain="every L >= 1 and H dividing d_x (symbolic), checked also on L = 1-6, d_x <= 24",
    checks=[InequalityChain([PRINTED, THEOREM3], ["="], grid=GRID, search=0,
                            condition=lambda p: p[H] <= p[d_x] and p[d_x] % p[H] == 0,
                            name="log3 of Theorem 3's bound = eq. 6's upper bound")],
)
