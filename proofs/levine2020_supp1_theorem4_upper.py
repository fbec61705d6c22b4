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
    checks=[RankBound(BOUND, "upper", "sep")],
)
