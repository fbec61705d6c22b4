"""§6: '1-Trillion parameter networks and beyond would require massive widening of d_x = 30K and more (Levine et
al. 2020)', against the first paper's own rule: a budget of 12 L d_x^2 parameters (its §2, eq. 3's layer with
W^FF in R^{4d_x x d_x}) with depth at the threshold L = log3 d_x (its §5 and Table 1, 'depth does not fall below the
threshold of log3(d_x)')."""

import flint
import sympy as sp

from verify.authoring import Claim, QuotedNumber

from ._common import WIES, Source


def rule_width(parameters: int) -> flint.arb:
    """The width d_x with 12 log3(d_x) d_x^2 = parameters, by bisection in arb (the left side grows with d_x)."""
    lo, hi, log3 = flint.arb(3), flint.arb(10**9), flint.arb(3).log()
    for _ in range(120):
        mid = (lo + hi) / 2
        if 12 * mid**2 * mid.log() / log3 < parameters:
            lo = mid
        else:
            hi = mid
    return flint.arb((lo.mid() + hi.mid()) / 2, float(hi.mid() - lo.mid()))


CLAIM = Claim(
    id="wies2021_trillion_width",
    source=Source(WIES, "§6 paragraph 4",
                  "'1-Trillion parameter networks ... d_x = 30K and more (Levine et al. 2020)'"),
    statement="By the first paper's rule (12 L d_x^2 parameters at depth L = log3 d_x), 1-trillion parameter networks "
              "need d_x = 30K.",
    formulas={"rule": sp.sympify("12*log(d_x)/log(3)*d_x**2")},
    reading="'d_x = 30K and more' for '1-Trillion parameter networks and beyond' pairs 10^12 with 30K ('and more' with "
            "'and beyond'); the figure is attributed to the first paper, whose only rule for it is the budget 12 L "
            "d_x^2 with L >= log3 d_x (Table 1 lists depths up to 10^11 parameters).  The rule gives d_x = 8.96e4 at "
            "10^12 and 2.98e4 ~ 30K at 10^11: the printed 30K is the rule's width one decade lower.",
    checks=[QuotedNumber(lambda: rule_width(10**12), "30000", "500", label="the rule's d_x at 10^12 parameters")],
    expected="erratum",
    corrected_statement="By the first paper's rule, 1-trillion parameter networks need d_x ~ 90K (8.96e4); 30K "
                        "(2.98e4) is the rule's width at 10^11 parameters.",
    corrected_checks=[QuotedNumber(lambda: rule_width(10**12), "90000", "500", label="the rule's d_x at 10^12"),
                      QuotedNumber(lambda: rule_width(10**11), "30000", "500", label="the rule's d_x at 10^11")],
)
