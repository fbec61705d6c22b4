from verify.authoring import Claim, RankBound

from ._common import C, MAIN, Source, d_x, multichoose

BOUND = d_x * (C + 1) * multichoose(d_x, 2 * C) * (2 * C / d_x + 1) ** d_x

CLAIM = Claim(
    id="levine2020_supp1_theorem4_upper",
    source=Source(MAIN, "supplement A.3", "Theorem 4"),
    statement="For any depth, N > 1, partition and output: "
              "sep(y_p^i) <= d_x (C+1) ((d_x over 2C)) (2C/d_x + 1)^d_x, ((n over k)) the multiset coefficient.",
    formulas={"sep_upper": BOUND},
    expected="not-decided",  # rule 1 (issue 20): no strengthening refuted on the specs in reach
    left_out="N < 2(d_x + 1): the exact ranks come from the reduced route, which holds from N = 2(d_x + 1) on, so "
             "the smallest N = 2 is not computed here (a coefficient-route rank at N = 2 takes seconds at L <= 2, "
             "d_x <= 3, as levine2020_revised_residual_small_n does; not yet added).",
    checks=[RankBound(BOUND, "upper", "sep")],
)
