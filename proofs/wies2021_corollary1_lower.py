from verify.authoring import Claim, RankBound

from ._common import WIES, Source
from ._small_n import at_small_n
from ._wies import FULL_RANK, LOWER, READING
from ._wies_gap import GRID_TEXT, PROOF, plain_gap_checks

CLAIM = Claim(
    id="wies2021_corollary1_lower",
    source=Source(WIES, "appendix B.2", "Corollary 1"),
    statement="Given templates and embedding weights realising the row-normalised matrix A, "
              "sep >= ((floor((r - H)/2) over 3^(L-2))) for almost all weights.",
    formulas={"sep_lower": LOWER},
    reading=READING + " The corollary's assumption is met for full-rank embeddings by the first paper's "
                      "construction, so its conclusion is compared at every depth >= 2, in and out of any regime.",
    passage="wies2021_eq14_lower_bound",  # eq. 14 (Corollary 1), the bound Theorem 2 is shown through
    expected="gap",  # rule 1 (issue 20): no strengthening refuted on the specs in reach; rule 5: the proof falls short
    gap=PROOF + GRID_TEXT,
    gap_checks=plain_gap_checks(None),
    left_out="embeddings of rank r < d_x and positional embeddings (r_e >= 1): compared on the plain network (r = "
             "d_x, r_e = 0) only (the low-rank case is wies2021_corollary1_tokens); N from 2 up to 2(d_x + 1) "
             "beyond the small specs: exact ranks at N = 2 and 4 (coefficient route, check 'bound at the smallest "
             "N') reach only L = 1 with d_x <= 6, L = 2 with d_x <= 4 (N = 4: d_x <= 3) and L = 3 with d_x = 2 "
             "(one more, L = 2, d_x = 4, N = 4, takes about 55 s); the reduced-route ranks hold from N = 2(d_x + "
             "1) on.",
    checks=[RankBound(LOWER.xreplace(FULL_RANK), "lower", "sep",
                      condition=lambda s: s.depth >= 2 and s.heads < s.width)],
)

# rule 2 (whole domains): the same bound at the smallest N (proofs/_small_n.py)
CLAIM.checks.append(at_small_n(next(c for c in CLAIM.checks if isinstance(c, RankBound))))
