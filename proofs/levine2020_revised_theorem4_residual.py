from verify.authoring import Claim, RankBound

from ._common import C, REVISED, Source, d_x, multichoose

BOUND = d_x * (C + 1) ** 2 * multichoose(d_x, 2 * C) * (2 * C / d_x + 1) ** d_x

CLAIM = Claim(
    id="levine2020_revised_theorem4_residual",
    source=Source(REVISED, "A.4 (residual connections)", "Theorem 4"),
    statement="With residual connections, for any partition, "
              "sep <= d_x (C+1)^2 ((d_x over 2C)) (2C/d_x + 1)^d_x.",
    formulas={"sep_upper": BOUND},
    expected="not-decided",  # rule 1 (issue 20): no strengthening refuted on the specs in reach
    checks=[RankBound(BOUND, "upper", "sep", residual=True)],
)
