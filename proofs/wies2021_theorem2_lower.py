from verify.authoring import Claim, RankBound

from ._common import ABOVE_THRESHOLD, WIES, Source
from ._wies import FULL_RANK, LOWER, READING

CLAIM = Claim(
    id="wies2021_theorem2_lower",
    source=Source(WIES, "§4", "Theorem 2, eq. 7, through the explicit bound of Corollary 1"),
    statement="For L > log3 d_x and H < r: log sep = Omega~(L (min{r, d_x} - H)), shown via "
              "sep >= ((floor((r - H)/2) over 3^(L-2))).",
    formulas={"explicit_lower": LOWER},
    regime=ABOVE_THRESHOLD,
    reading=READING + " Depth >= 2 (3^(L-2) must be an integer).",
    expected="not-decided",  # rule 1 (issue 20): no strengthening refuted on the specs in reach
    checks=[RankBound(LOWER.xreplace(FULL_RANK), "lower", "sep", regime=ABOVE_THRESHOLD,
                      condition=lambda s: s.depth >= 2 and s.heads < s.width)],
)
