from verify.authoring import Claim, RankBound

from ._common import WIES, Source
from ._wies import EQ9, FULL_RANK, READING

CLAIM = Claim(
    id="wies2021_theorem4_upper",
    source=Source(WIES, "appendix A.3", "Theorem 4, eq. 11 (convolution embedding)"),
    statement="With a convolution embedding of rank r: sep <= ((r + r_e over 3^L)) ((4 over 3^L)) (3^L + 1)^(r + r_e).",
    formulas={"sep_upper": EQ9},
    reading=READING + " A convolution embedding of rank d_x with kernel width 1 is the identity embedding.",
    left_out="convolution embeddings of rank r < d_x and r_e >= 1: compared on the plain network (r = d_x, r_e = "
             "0); r < d_x at r_e = 0 is wies2021_theorem4_conv_sweep; N < 2(d_x + 1): the exact ranks come from "
             "the reduced route, which holds from N = 2(d_x + 1) on, so the smallest N = 2 is not computed here (a "
             "coefficient-route rank at N = 2 takes seconds at L <= 2, d_x <= 3, as "
             "levine2020_revised_residual_small_n does; not yet added).",
    checks=[RankBound(EQ9.xreplace(FULL_RANK), "upper", "sep")],
    # eq. 11 never beats the trivial bound (the monomial count) on the default specs; it would from L=3 d_x=5.
    expected="not-decided",
)
