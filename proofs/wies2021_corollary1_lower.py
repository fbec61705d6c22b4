from verify.authoring import Claim, Property, RankBound

from ._common import WIES, Source
from ._reach import gap_check
from ._wies import FULL_RANK, LOG3_LOWER, LOWER, READING
from ._small_n import at_small_n

CLAIM = Claim(
    id="wies2021_corollary1_lower",
    source=Source(WIES, "appendix B.2", "Corollary 1"),
    statement="Given templates and embedding weights realising the row-normalised matrix A, "
              "sep >= ((floor((r - H)/2) over 3^(L-2))) for almost all weights.",
    formulas={"sep_lower": LOWER},
    reading=READING + " The corollary's assumption is met for full-rank embeddings by the first paper's "
                      "construction, so its conclusion is compared at every depth >= 2, in and out of any regime.",
    expected="gap",  # rule 1 (issue 20): no strengthening refuted on the specs in reach; rule 5: the proof falls short
    gap="d_a even with r >= d_x - H + 2 (so H >= 2; at r = d_x every even d_a with H >= 2): the printed proof "
        "(appendix B.2: Corollary 1 through Lemma 5 or 6, or Corollary 2 through Lemma 7, all on eq. 15's layout of "
        "(d_a - 1)/2 coordinates per head and half) needs (r - H)/2 columns of A (Lemma 7: (r - 1 - H)/2), but that layout with its corrected "
        "numbering carries only H floor((d_a - 1)/2) (claims wies2021_lemma6_vocabulary_embedding, "
        "levine2020_supp1_lemma4_construction), and eq. 14 then exceeds the rank the construction gives (or, with no "
        "column, sep >= 1).  The construction is empty first at (d_x, H, r, L) = (4, 2, 4, 2) (d_a = 2), but the bound "
        "is 1 there, met by any nonzero output; the smallest case where the bound says more than the proof gives is "
        "(8, 2, 8, 2): eq. 14 gives ((3 over 1)) = 3, the construction 2 columns, sep >= 2 (and (8, 4, 8, 2), d_a = 2: "
        "bound 2, no column).  The statement still holds there as far as computed: certified grid-rank lower bounds "
        "at seed-0 integer weights (verify sep --method grid --templates 12) give sep >= 12 at N = 2 and sep >= 78 at "
        "N = 4 for both H = 2 and H = 4; larger N is not computed.",
    gap_checks=[Property(gap_check(LOG3_LOWER, None, (8, 2, 2), widths=range(3, 25)),
                         name="eq. 14 at r = d_x against the construction's corrected reach, d_a even")],
    left_out="embeddings of rank r < d_x and positional embeddings (r_e >= 1): compared on the plain network (r = "
             "d_x, r_e = 0) only (the low-rank case is wies2021_corollary1_tokens); N from 2 up to 2(d_x + 1) "
             "beyond the small specs: exact ranks at N = 2 and 4 (coefficient route, check 'bound at the smallest "
             "N') reach only L = 1 with d_x <= 6, L = 2 with d_x <= 4 (N = 4: d_x <= 3) and L = 3 with d_x = 2 "
             "(one more, L = 2, d_x = 4, N = 4, takes about 55 s); the reduced-route ranks hold from N = 2(d_x + "
             "1) on.",
    checks=[RankBound(LOWER.xreplace(FULL_RANK), "lower", "sep", condition=lambda s: s.depth >= 2 and s.heads < s.width)],
)

# rule 2 (whole domains): the same bound at the smallest N (proofs/_small_n.py)
CLAIM.checks.append(at_small_n(next(c for c in CLAIM.checks if isinstance(c, RankBound))))
