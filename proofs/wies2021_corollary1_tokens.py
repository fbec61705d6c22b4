"""Corollary 1's lower bound against exact token ranks, and the N at which they reach it."""

from verify.authoring import Cases, Claim, Property, scaled
from verify.authoring.probe import corollary1_lower_bound

from ._common import WIES, Source
from ._reach import gap_check
from ._tokens import probe
from ._wies import LOG3_LOWER
from ._wies_gap import PROOF, TOKEN_TEXT, eq14, reach_over_rank, token_ranks

CASES = [(2, 5, 1, 5, 5), (2, 4, 1, 4, 4), (3, 3, 1, 3, 3), (2, 6, 2, 4, 4)]


def _case(depth, width, heads, vocab, rank, scale=1):
    data = probe(depth, width, heads, vocab, rank)
    best = max(row["rank"] for row in data["ranks"])
    lower = corollary1_lower_bound(depth, rank, heads)
    lemma6 = "" if lower is None else f" (Lemma 6 needs V >= {2 * lower + 1})"
    if lower is not None and lower != eq14(depth, rank, heads):  # the engine's bound is the formula's (odd r - H)
        return False, (f"L={depth} r={rank} H={heads}: the engine's bound {lower} is not eq. 14's "
                       f"{eq14(depth, rank, heads)}")
    return lower is None or best >= scale * lower, (f"L={depth} d_x={width} H={heads} r={rank} V={vocab}{lemma6}: "
                                                    f"bound {lower}, reached at "
                                                    f"N={data['tokens_reaching_lower_bound']}, sep up to {best}")


CLAIM = Claim(
    id="wies2021_corollary1_tokens",
    source=Source(WIES, "appendix B.2 and B.2.2", "Corollary 1 with a vocabulary embedding (Lemmas 6-7)"),
    statement="With a vocabulary embedding of rank r, a vocabulary of V >= 2 ((floor((r - H)/2) over 3^(L-2))) + 1 "
              "(Lemma 6's assumption) and enough tokens, sep >= ((floor((r - H)/2) over 3^(L-2))).",
    reading="Lemma 6's V is part of the statement: with V = r and large N (Lemma 7, Corollary 2) the text claims only "
            "((floor((r - 1 - H)/2) over 3^(L-2))), one column less whenever r - H is even (already at odd d_a, e.g. "
            "(d_x, H, r) = (5, 1, 5): 1 column, not 2), so the floor((r - H)/2) stated here rests on Lemma 6 alone.  "
            "Every computed case meets Lemma 6's V (V = r there and the bound is 1 or 2), so the check compares "
            "exactly this statement; 'enough tokens' is read as: the bound is reached at some N <= 30.",
    domain="depth 2-3, r = 3..5, N up to 30",
    checks=[Cases(CASES, _case, name="exact token ranks against the lower bound",
                  perturb={"bound x 3": scaled(_case, scale=3)})],
    # The bound is 1-2 against ranks 24-84: even 3 x bound is never refuted (rule 1).  Rule 5: Lemmas 6 and 7
    # put A on eq. 15's layout, as Lemma 5 does, so the proof gap of wies2021_corollary1_lower is this one's too.
    passage="wies2021_eq14_lower_bound",  # eq. 14 (Corollary 1), the bound Theorem 2 is shown through
    expected="gap",
    gap=PROOF + TOKEN_TEXT + ("  Lemma 6 (V >= 2 ((floor((r - H)/2) over 3^(L-2))) + 1), the route to this statement, "
        "builds M_V row by row on that layout, and Lemma 7 (V = r, large N; its own bound uses floor((r - 1 - H)/2)) "
        "builds u on it, so neither route reaches the missing columns; for r < "
        "d_x the gap needs r >= d_x - H + 2 as well, and no case with r < d_x comes before (8, 2, 8, 2).  The four "
        "computed cases (d_x, H) = (5, 1), (4, 1), (3, 1), (6, 2) are outside the gap (d_a odd, or H = 1)."),
    gap_checks=[Property(gap_check(LOG3_LOWER, None, (8, 2, 2), widths=range(3, 25)),
                         name="eq. 14 at r = d_x against the construction's corrected reach, d_a even"),
                Property(reach_over_rank, name="eq. 14 against the corrected reach over every r <= d_x"),
                Property(token_ranks, name="token ranks at the smallest cases")],
)
