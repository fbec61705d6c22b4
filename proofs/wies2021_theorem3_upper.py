from verify.authoring import Claim, RankBound

from ._common import WIES, Source
from ._wies import EQ9, FULL_RANK, READING

CLAIM = Claim(
    id="wies2021_theorem3_upper",
    source=Source(WIES, "appendix A.2", "Theorem 3, eq. 9 (vocabulary embedding)"),
    statement="sep(y_p^{i,L,d_x,H,r}) <= ((r + r_e over 3^L)) ((4 over 3^L)) (3^L + 1)^(r + r_e) for any partition.",
    formulas={"sep_upper": EQ9},
    reading=READING,
    checks=[RankBound(EQ9.xreplace(FULL_RANK), "upper", "sep")],
    # eq. 9 never beats the trivial bound (the monomial count) on the default specs; it would from L=3 d_x=5.
    expected="not-decided",
)
