from verify.authoring import Claim, RankBound

from ._common import BELOW_THRESHOLD, MAIN, H, L, Source, d_x, log3

BOUND = (3**L - 1) / 2 * log3(d_x + H)

CLAIM = Claim(
    id="levine2020_theorem1_upper",
    source=Source(MAIN, "§4.1", "Theorem 1, eq. 6 (upper bound)"),
    statement="For L < log3 d_x, almost everywhere log3 sep(y_p^i) <= (3^L - 1)/2 * log3(d_x + H).",
    formulas={"log3_sep_upper": BOUND},
    domain="L >= 1, H divides d_x, d_a = d_x/H",
    regime=BELOW_THRESHOLD,
    reading="The statement asks H > 1; the bound's proof (first supplement Theorem 3) holds for every H, "
            "so specs with H = 1 are compared too.",
    left_out="N < 2(d_x + 1): the exact ranks come from the reduced route, which holds from N = 2(d_x + 1) on, so "
             "the smallest N = 2 is not computed here (a coefficient-route rank at N = 2 takes seconds at L <= 2, "
             "d_x <= 3, as levine2020_revised_residual_small_n does; not yet added).  In the regime the only depth-2 "
             "spec is (d_x, H) = (10, 2) (about 90 s) and no depth >= 3 spec (d_x >= 28) has an exact rank.",
    checks=[RankBound(BOUND, "upper", "log3", regime=BELOW_THRESHOLD)],
)
