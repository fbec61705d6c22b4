"""Widths quoted after Corollary 1, recomputed by the procedure the text describes."""

import flint

from verify.claims.checks import QuotedNumber
from verify.claims.record import Claim

from ._common import MAIN, Source

DEEP_WIDTH, HEADS, DEEP_DEPTH = 1000, 16, 6


def shallow_width(shallow_depth: int) -> flint.arb:
    """Solve (3^Ls - 1)/2 log3(d + H) = (1/9) 3^Ld (log3(d_deep - H) - Ld + 2 - log3 2) for d."""
    log3 = lambda x: flint.arb(x).log() / flint.arb(3).log()  # noqa: E731
    deep_lower = flint.arb(3) ** DEEP_DEPTH / 9 * (log3(DEEP_WIDTH - HEADS) - DEEP_DEPTH + 2 - log3(2))
    c = (3**shallow_depth - 1) // 2
    return (deep_lower / c * flint.arb(3).log()).exp() - HEADS


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
    corrected_statement="The procedure as stated gives shallow widths of about 7*10^15 (depth 2) and "
                        "8*10^4 (depth 3): the depth-efficiency conclusion stands, the figures are 27x and 2.6x too large.",
    corrected_checks=_checks([(2, "7e15", "0.5e15"), (3, "8e4", "0.5e4")]),
)
