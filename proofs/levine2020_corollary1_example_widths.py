"""Widths quoted after Corollary 1, recomputed by the procedure the text describes."""

import flint
import mpmath
import sympy as sp

from verify.authoring import Claim, QuotedNumber

from ._common import MAIN, Source

DEEP_WIDTH, HEADS, DEEP_DEPTH = 1000, 16, 6


def shallow_width(shallow_depth: int) -> flint.arb:
    """Solve (3^Ls - 1)/2 log3(d + H) = (1/9) 3^Ld (log3(d_deep - H) - Ld + 2 - log3 2) for d."""
    log3 = lambda x: flint.arb(x).log() / flint.arb(3).log()  # noqa: E731
    deep_lower = flint.arb(3) ** DEEP_DEPTH / 9 * (log3(DEEP_WIDTH - HEADS) - DEEP_DEPTH + 2 - log3(2))
    c = (3**shallow_depth - 1) // 2
    return (deep_lower / c * flint.arb(3).log()).exp() - HEADS


def bisected_width(shallow_depth: int) -> flint.arb:
    """The same width found the way the text describes, "numerically equating" the two bounds: bisection on
    t = log10 d of (3^Ls - 1)/2 log3(d + H) - (1/9) 3^Ld (log3(d_deep - H) - Ld + 2 - log3 2), evaluated with
    mpmath at 40 digits (a route independent of ``shallow_width``'s closed form and of arb)."""
    with mpmath.workdps(40):
        log3 = lambda v: mpmath.log(v) / mpmath.log(3)  # noqa: E731
        deep = mpmath.mpf(3) ** DEEP_DEPTH / 9 * (log3(DEEP_WIDTH - HEADS) - DEEP_DEPTH + 2 - log3(2))
        lo, hi = mpmath.mpf(0), mpmath.mpf(40)
        for _ in range(100):
            mid = (lo + hi) / 2
            if (3**shallow_depth - 1) / 2 * log3(mpmath.power(10, mid) + HEADS) < deep:
                lo = mid
            else:
                hi = mid
        return flint.arb(mpmath.nstr(mpmath.power(10, lo), 30)).union(flint.arb(mpmath.nstr(mpmath.power(10, hi), 30)))


def _fmt(value: flint.arb) -> str:
    mantissa, exponent = f"{float(value.mid()):.1e}".split("e")
    return f"{mantissa}*10^{int(exponent)}"


def _agreement(depth):
    return QuotedNumber(lambda: shallow_width(depth) / bisected_width(depth), 1, sp.Rational(1, 10**9),
                        label=f"closed form / bisection at depth {depth}", name=f"depth-{depth} width, two routes")


def _checks(values):
    return [QuotedNumber(lambda depth=depth: shallow_width(depth), printed, tol,
                         label=f"shallow width at depth {depth}", name=f"depth-{depth} width")
            for depth, printed, tol in values]


CLAIM = Claim(
    id="levine2020_corollary1_example_widths",
    source=Source(MAIN, "§4.1", "example after Corollary 1 (BERT-large, d_x = 1000, H = 16, L = 6)"),
    statement="Equating eq. 6's upper bound for a shallow network with its lower bound for the depth-6, "
              "width-1000, 16-head network gives shallow widths of about 2*10^17 (depth 2) and 2*10^5 (depth 3).",
    formulas={},
    domain="the one example in the text",
    reading="Both sides use H = 16 and the main-text constants a_1 = 1/9, a_2 = -L + 2 - log3 2 at L = 6; "
            "a printed value counts as reproduced when it is the recomputed value correctly rounded.",
    checks=_checks([(2, "2e17", "0.5e17"), (3, "2e5", "0.5e5")]),
    expected="erratum",
    corrected_statement=f"The procedure as stated gives shallow widths of about {_fmt(shallow_width(2))} (depth 2) "
                        f"and {_fmt(shallow_width(3))} (depth 3), found both from the closed form and by bisection "
                        f"on the equated bounds: the depth-efficiency conclusion stands, the printed figures are "
                        f"{float((2 * 10**17 / shallow_width(2)).mid()):.0f}x and "
                        f"{float((2 * 10**5 / shallow_width(3)).mid()):.1f}x the recomputed ones.",
    corrected_checks=[_agreement(2), _agreement(3)],
)
