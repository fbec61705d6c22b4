import sympy as sp

from verify.claims.checks import QuotedNumber
from verify.claims.record import Claim

from ._common import RESPONSE, Source

OFFSET = 2 - sp.log(2, 3)  # d_x/2 = 3^(L-2)  <=>  L = log3 d_x + 2 - log3 2

CLAIM = Claim(
    id="levine2020_response_transition_point",
    source=Source(RESPONSE, "lines 11-12", "transition point of the lower bounds"),
    statement="The lower bounds change regime at d_x/2 ~ 3^(L-2), i.e. L ~ log3 d_x + 1.3.",
    formulas={"offset": OFFSET},
    reading="A printed value counts as reproduced when it is the recomputed value correctly rounded.",
    checks=[QuotedNumber(lambda: OFFSET, "1.3", "0.05", label="L - log3 d_x")],
    expected="erratum",
    corrected_statement="L = log3 d_x + 2 - log3 2 ~ log3 d_x + 1.37 (1.4 to one decimal).",
    corrected_checks=[QuotedNumber(lambda: OFFSET, "1.37", "0.005", label="L - log3 d_x")],
)
