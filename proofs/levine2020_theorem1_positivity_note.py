from verify.authoring import Claim, InequalityChain

from ._common import BELOW_THRESHOLD, MAIN, H, L, Source, d_x, log3

EXPR = log3(d_x - H) - L + (2 - log3(2))

CLAIM = Claim(
    id="levine2020_theorem1_positivity_note",
    source=Source(MAIN, "§4.1", "note after Theorem 1"),
    statement="log3(d_x - H) + a_2 > 0 in the regime L < log3 d_x, so the lower bound of eq. 6 is positive.",
    formulas={"log3(d_x - H) + a_2": EXPR},
    domain="1 < H < d_x with H dividing d_x",
    regime=BELOW_THRESHOLD,
    reading="Checked for every proper divisor H > 1 of d_x (H = d_x makes log3(d_x - H) undefined).",
    checks=[InequalityChain([0, EXPR], ["<"],
                            grid={L: list(range(1, 7)), d_x: list(range(4, 400)), H: list(range(2, 200))},
                            regime=BELOW_THRESHOLD, search=0,
                            condition=lambda p: p[H] < p[d_x] and p[d_x] % p[H] == 0,
                            name="positivity over L<=6, d_x<400, every proper divisor H>1")],
)
