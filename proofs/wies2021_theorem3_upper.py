from verify.authoring import Claim, RankBound

from ._common import WIES, Source
from ._wies import EQ9, FULL_RANK, READING

CLAIM = Claim(
    id="wies2021_theorem3_upper",
    source=Source(WIES, "appendix A.2", "Theorem 3, eq. 9 (vocabulary embedding)"),
    statement="sep(y_p^{i,L,d_x,H,r}) <= ((r + r_e over 3^L)) ((4 over 3^L)) (3^L + 1)^(r + r_e) for any partition.",
    formulas={"sep_upper": EQ9},
    reading=READING,
    left_out="embeddings of rank r < d_x and positional embeddings (r_e >= 1): compared on the plain network (r = "
             "d_x, r_e = 0) only (r < d_x by exact token ranks in wies2021_theorem3_rank_sweep, r_e = 1 in "
             "wies2021_theorem3_positional); N < 2(d_x + 1): the exact ranks come from the reduced route, which "
             "holds from N = 2(d_x + 1) on, so the smallest N = 2 is not computed here (a coefficient-route rank "
             "at N = 2 takes seconds at L <= 2, d_x <= 3, as levine2020_revised_residual_small_n does; not yet "
             "added).",
    checks=[RankBound(EQ9.xreplace(FULL_RANK), "upper", "sep")],
    # eq. 9 never beats the trivial bound (the monomial count) on the default specs; it would from L=3 d_x=5.
    expected="not-decided",
)
