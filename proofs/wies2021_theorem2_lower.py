from verify.authoring import Claim, RankBound

from ._common import ABOVE_THRESHOLD, WIES, Source
from ._small_n import at_small_n
from ._wies import FULL_RANK, LOWER, READING
from ._wies_gap import GRID_TEXT, PROOF, plain_gap_checks

CLAIM = Claim(
    id="wies2021_theorem2_lower",
    source=Source(WIES, "§4", "Theorem 2, eq. 7, through the explicit bound of Corollary 1"),
    statement="For L > log3 d_x and H < r: log sep = Omega~(L (min{r, d_x} - H)), shown via "
              "sep >= ((floor((r - H)/2) over 3^(L-2))).",
    formulas={"explicit_lower": LOWER},
    regime=ABOVE_THRESHOLD,
    reading=READING + " Depth >= 2 (3^(L-2) must be an integer).",
    passage="wies2021_eq14_lower_bound",  # eq. 14 (Corollary 1), the bound Theorem 2 is shown through
    expected="gap",  # rule 1 (issue 20): no strengthening refuted on the specs in reach; rule 5: the proof falls short
    gap=PROOF + GRID_TEXT + ("  Eq. 7's Omega~ form keeps its order from the proof at even d_a >= 4 (H floor((d_a - "
                             "1)/2) = (d_x - 2H)/2 >= (d_x - H)/6), but at d_a = 2 (H = d_x/2) the printed proof (its "
                             "per-head layout) gives nothing at any size; the one-slot construction cited above does "
                             "(floor((d_x - 1)/2) columns at every d_a)."),
    gap_checks=plain_gap_checks(ABOVE_THRESHOLD),
    left_out="embeddings of rank r < d_x and positional embeddings (r_e >= 1): compared on the plain network (r = "
             "d_x, r_e = 0) only; N from 2 up to 2(d_x + 1) beyond the small specs: exact ranks at N = 2 and 4 "
             "(coefficient route, check 'bound at the smallest N') reach only L = 1 with d_x <= 6, L = 2 with d_x "
             "<= 4 (N = 4: d_x <= 3) and L = 3 with d_x = 2 (one more, L = 2, d_x = 4, N = 4, takes about 55 s); "
             "the reduced-route ranks hold from N = 2(d_x + 1) on.",
    checks=[RankBound(LOWER.xreplace(FULL_RANK), "lower", "sep", regime=ABOVE_THRESHOLD,
                      condition=lambda s: s.depth >= 2 and s.heads < s.width)],
)

# rule 2 (whole domains): the same bound at the smallest N (proofs/_small_n.py)
CLAIM.checks.append(at_small_n(next(c for c in CLAIM.checks if isinstance(c, RankBound))))
