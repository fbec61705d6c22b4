import sympy as sp

from verify.authoring import Claim, QuotedNumber

from ._common import MAIN, Source

CLAIM = Claim(
    id="levine2020_lth_1000",
    source=Source(MAIN, "§1", "L_th(d_x) = log3(d_x), 'L_th(d_x) ~ 6.3' for d_x = 1000"),
    statement="For widths around d_x = 1000 the depth-efficiency threshold is L_th = log3(1000) ~ 6.3.",
    formulas={"L_th": sp.log(1000, 3)},
    checks=[QuotedNumber(lambda: sp.log(1000, 3), "6.3", "0.05", label="log3(1000)")],
)
