from verify.authoring import Claim, RankBound

from ._common import C, MAIN, H, Source, d_a

BOUND = (H * (d_a + 1)) ** C

CLAIM = Claim(
    id="levine2020_supp1_theorem3_upper",
    source=Source(MAIN, "supplement A.2", "Theorem 3"),
    statement="For any depth, N > 1, partition and output: sep(y_p^i) <= (H (d_a + 1))^C(L).",
    formulas={"sep_upper": BOUND},
    domain="every spec (no regime)",
    left_out="N < 2(d_x + 1): the exact ranks come from the reduced route, which holds from N = 2(d_x + 1) on, so "
             "the smallest N = 2 is not computed here (a coefficient-route rank at N = 2 takes seconds at L <= 2, "
             "d_x <= 3, as levine2020_revised_residual_small_n does; not yet added).",
    checks=[RankBound(BOUND, "upper", "sep")],
)
