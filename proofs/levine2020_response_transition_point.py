import flint
import sympy as sp

from verify.authoring import Claim, QuotedNumber

from ._common import RESPONSE, Source

OFFSET = 2 - sp.log(2, 3)  # d_x/2 = 3^(L-2)  <=>  L = log3 d_x + 2 - log3 2


def solved_offset(width: int = 1000) -> flint.arb:
    """L - log3 d_x where L solves 3^(L-2) = d_x/2, found by bisection on the equation itself (an
    independent route to the closed form OFFSET)."""
    three, target = flint.arb(3), flint.arb(width) / 2
    lo, hi = flint.arb(0), flint.arb(64)
    for _ in range(200):
        mid = (lo + hi) / 2
        if three ** (mid - 2) < target:
            lo = mid
        else:
            hi = mid
    return flint.arb((lo.mid() + hi.mid()) / 2, float(hi.mid() - lo.mid())) - flint.arb(width).log() / three.log()


def _offset_text() -> str:
    return f"{float(sp.N(OFFSET, 20)):.2f}"

CLAIM = Claim(
    id="levine2020_response_transition_point",
    source=Source(RESPONSE, "lines 11-12", "transition point of the lower bounds"),
    statement="The lower bounds change regime at d_x/2 ~ 3^(L-2), i.e. L ~ log3 d_x + 1.3.",
    formulas={"offset": OFFSET},
    reading="Two readings of the printed '1.3': the recomputed offset correctly rounded to one decimal (1.4: "
            "erratum), or truncated to one decimal (1.3: holds).  They disagree, so the claim is ambiguous.",
    checks=[QuotedNumber(lambda: OFFSET, "1.3", "0.05", label="L - log3 d_x", reading="rounded",
                         name="1.3 as the correctly rounded value"),
            QuotedNumber(lambda: OFFSET, "1.35", "0.05", label="L - log3 d_x", reading="truncated",
                         name="1.3 as the value truncated to one decimal (1.3 <= offset < 1.4)")],
    expected="ambiguous",
    corrected_statement=f"L = log3 d_x + 2 - log3 2 ~ log3 d_x + {_offset_text()} (rounded to one decimal "
                        "1.4; truncated 1.3).",
    corrected_checks=[QuotedNumber(lambda width=width: solved_offset(width), OFFSET, sp.Rational(1, 10**30),
                                   label=f"L - log3 d_x solved at d_x = {width}", name=f"closed form at d_x = {width}")
                      for width in (10, 1000, 10**6)],
)
