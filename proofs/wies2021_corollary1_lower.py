from verify.authoring import Claim, RankBound

from ._common import WIES, Source
from ._wies import FULL_RANK, LOWER, READING

CLAIM = Claim(
    id="wies2021_corollary1_lower",
    source=Source(WIES, "appendix B.2", "Corollary 1"),
    statement="Given templates and embedding weights realising the row-normalised matrix A, "
              "sep >= ((floor((r - H)/2) over 3^(L-2))) for almost all weights.",
    formulas={"sep_lower": LOWER},
    reading=READING + " The corollary's assumption is met for full-rank embeddings by the first paper's "
                      "construction, so its conclusion is compared at every depth >= 2, in and out of any regime.",
    expected="not-decided",  # rule 1 (issue 20): no strengthening refuted on the specs in reach
    left_out="embeddings of rank r < d_x and positional embeddings (r_e >= 1): compared on the plain network (r = "
             "d_x, r_e = 0) only (the low-rank case is wies2021_corollary1_tokens); N < 2(d_x + 1): the exact "
             "ranks come from the reduced route, which holds from N = 2(d_x + 1) on, so the smallest N = 2 is not "
             "computed here (a coefficient-route rank at N = 2 takes seconds at L <= 2, d_x <= 3, as "
             "levine2020_revised_residual_small_n does; not yet added).",
    checks=[RankBound(LOWER.xreplace(FULL_RANK), "lower", "sep", condition=lambda s: s.depth >= 2 and s.heads < s.width)],
)
