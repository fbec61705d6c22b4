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
    checks=[RankBound(LOWER.xreplace(FULL_RANK), "lower", "sep", condition=lambda s: s.depth >= 2 and s.heads < s.width)],
)
