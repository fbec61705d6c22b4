from verify.authoring import Claim, RankBound

from ._common import WIES, Source
from ._small_n import at_small_n
from ._wies import EQ9, FULL_RANK, READING

CLAIM = Claim(
    id="wies2021_theorem4_upper",
    source=Source(WIES, "appendix A.3", "Theorem 4, eq. 11 (convolution embedding)"),
    statement="With a convolution embedding of rank r: sep <= ((r + r_e over 3^L)) ((4 over 3^L)) (3^L + 1)^(r + r_e).",
    formulas={"sep_upper": EQ9},
    reading=READING + " A convolution embedding of rank d_x with kernel width 1 is the identity embedding.",
    left_out="convolution embeddings of rank r < d_x and r_e >= 1: compared on the plain network (r = d_x, r_e = "
             "0); r < d_x at r_e = 0 is wies2021_theorem4_conv_sweep; N from 2 up to 2(d_x + 1) beyond the small "
             "specs: exact ranks at N = 2 and 4 (coefficient route, check 'bound at the smallest N') reach only L "
             "= 1 with d_x <= 6, L = 2 with d_x <= 4 (N = 4: d_x <= 3) and L = 3 with d_x = 2 (one more, L = 2, "
             "d_x = 4, N = 4, takes about 55 s); the reduced-route ranks hold from N = 2(d_x + 1) on.",
    checks=[RankBound(EQ9.xreplace(FULL_RANK), "upper", "sep")],
    # eq. 11 never beats the trivial bound (the monomial count) on the default specs; it would from L=3 d_x=5.
    expected="not-decided",
)

# rule 2 (whole domains): the same bound at the smallest N (proofs/_small_n.py)
CLAIM.checks.append(at_small_n(next(c for c in CLAIM.checks if isinstance(c, RankBound))))
