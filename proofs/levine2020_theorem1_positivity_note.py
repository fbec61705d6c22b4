from verify.authoring import Claim, InequalityChain, Property

from ._common import BELOW_THRESHOLD, MAIN, H, L, Source, d_x, log3

EXPR = log3(d_x - H) - L + (2 - log3(2))


def _defined_at_every_divisor(widths=range(4, 400), depths=range(1, 7)):
    """The note at every H > 1 dividing d_x, H = d_x included (Theorem 1 allows it): log3(d_x - H) needs d_x - H > 0.
    Fails at the smallest regime point with H = d_x (log3 0 = -infinity: eq. 6's lower bound is not positive)."""
    for width in widths:
        for depth in (d for d in depths if 3**d < width):
            for heads in (h for h in range(2, width + 1) if width % h == 0):
                if width - heads <= 0:
                    return False, (f"L={depth} d_x={width} H={heads}: log3(d_x - H) = log3 0 is undefined (-infinity), "
                                   f"so log3(d_x - H) + a_2 > 0 fails"), {"L": depth, "d_x": width, "H": heads}
    return True, "d_x - H > 0 at every point", None


CLAIM = Claim(
    id="levine2020_theorem1_positivity_note",
    source=Source(MAIN, "§4.1", "note after Theorem 1"),
    statement="log3(d_x - H) + a_2 > 0 in the regime L < log3 d_x, so the lower bound of eq. 6 is positive.",
    formulas={"log3(d_x - H) + a_2": EXPR},
    domain="1 < H <= d_x with H dividing d_x (Theorem 1's H > 1 heads), L < log3 d_x",
    regime=BELOW_THRESHOLD,
    reading="Theorem 1 allows every H > 1 dividing d_x, H = d_x (d_a = 1) included; there log3(d_x - H) is "
            "log3 0, undefined, and the note fails.  Every proper divisor is checked by the corrected statement.",
    expected="erratum",
    checks=[Property(_defined_at_every_divisor, name="the note at H = d_x (d_x - H > 0 needed)")],
    corrected_statement="For 1 < H < d_x with H dividing d_x, log3(d_x - H) + a_2 > 0 in the regime L < log3 d_x.",
    corrected_checks=[InequalityChain([0, EXPR], ["<"],
                                      grid={L: list(range(1, 7)), d_x: list(range(4, 400)), H: list(range(2, 200))},
                                      regime=BELOW_THRESHOLD, search=0,
                                      condition=lambda p: p[H] < p[d_x] and p[d_x] % p[H] == 0,
                                      name="positivity over L<=6, d_x<400, every proper divisor H>1")],
)
