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
    left_out="embeddings of rank r < d_x and positional embeddings (r_e >= 1): compared on the plain network (r = "
             "d_x, r_e = 0) only; N < 2(d_x + 1): the exact ranks come from the reduced route, which holds from N "
             "= 2(d_x + 1) on, so the smallest N = 2 is not computed here (a coefficient-route rank at N = 2 takes "
             "seconds at L <= 2, d_x <= 3, as levine2020_revised_residual_small_n does; not yet added).",
    checks=[RankBound(LOWER.xreplace(FULL_RANK), "lower", "sep", regime=ABOVE_THRESHOLD,
                      condition=lambda s: s.depth >= 2 and s.heads < s.width)],
)
