from verify.authoring import Claim, RankBound

from ._common import WIES, Source
from ._wies import EQ9, FULL_RANK, READING

CLAIM = Claim(
    id="wies2021_theorem4_upper",
    source=Source(WIES, "appendix A.3", "Theorem 4, eq. 11 (convolution embedding)"),
    statement="With a convolution embedding of rank r: sep <= ((r + r_e over 3^L)) ((4 over 3^L)) (3^L + 1)^(r + r_e).",
    formulas={"sep_upper": EQ9},
    reading=READING + " A convolution embedding of rank d_x with kernel width 1 is the identity embedding.",
    checks=[RankBound(EQ9.xreplace(FULL_RANK), "upper", "sep")],
    # eq. 11 never beats the trivial bound (the monomial count) on the default specs; it would from L=3 d_x=5.
    expected="not-decided",
)
