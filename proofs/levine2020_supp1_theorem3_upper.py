from verify.authoring import Claim, RankBound

from ._common import C, MAIN, H, Source, d_a

BOUND = (H * (d_a + 1)) ** C

CLAIM = Claim(
    id="levine2020_supp1_theorem3_upper",
    source=Source(MAIN, "supplement A.2", "Theorem 3"),
    statement="For any depth, N > 1, partition and output: sep(y_p^i) <= (H (d_a + 1))^C(L).",
    formulas={"sep_upper": BOUND},
    domain="every spec (no regime)",
    checks=[RankBound(BOUND, "upper", "sep")],
)
