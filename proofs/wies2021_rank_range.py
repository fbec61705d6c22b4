"""§5.1: 'we trained depth-12 networks with embedding ranks that range between 16 and the full rank of
d_x = 680', against appendix C.1's list of r (the inner dimension of the d_x x r, r x V factorisation)."""

from verify.authoring import Claim, Property, shifted

from ._common import WIES, Source
from ._wies_tables import C1_LOW_RANK_WIDTH, C1_RANKS


def _listed(low=16, high=C1_LOW_RANK_WIDTH):
    """Reading 'r is the rank': the listed r range from low to high."""
    ok = min(C1_RANKS) == low and max(C1_RANKS) == high
    return ok, f"listed r from {min(C1_RANKS)} to {max(C1_RANKS)}; the text says {low} to {high}", \
        None if ok else {"listed": [min(C1_RANKS), max(C1_RANKS)], "printed": [low, high]}


def _effective(low=16, high=C1_LOW_RANK_WIDTH):
    """Reading 'the rank is min(r, d_x)' (a product d_x x r times r x V has rank <= min(r, d_x, V))."""
    ranks = [min(x, C1_LOW_RANK_WIDTH) for x in C1_RANKS]
    ok = min(ranks) == low and max(ranks) == high
    return ok, f"min(r, d_x) from {min(ranks)} to {max(ranks)} ({sum(x >= C1_LOW_RANK_WIDTH for x in C1_RANKS)} at full " \
               f"rank)", None if ok else {"effective": [min(ranks), max(ranks)]}


LISTED, EFFECTIVE = "listed r is the rank", "rank = min(r, d_x)"
listed = Property(_listed, name="listed r between 16 and 680", reading=LISTED)
effective = Property(_effective, name="min(r, d_x) between 16 and 680", reading=EFFECTIVE,
                     perturb={"up to 679": shifted(_effective, high=679), "from 17": shifted(_effective, low=17)})

CLAIM = Claim(
    id="wies2021_rank_range",
    source=Source(WIES, "§5.1 paragraph 1; appendix C.1", "embedding ranks between 16 and the full rank d_x = 680"),
    statement="The low-rank networks (d_x = 680) have embedding ranks from 16 to the full rank 680.",
    reading="C.1 lists r = 16, ..., 680, 880, 1080.  Read as ranks, 880 and 1080 exceed d_x = 680 (impossible for a "
            "d_x x V matrix) and the range is 16-1080; read as inner dimensions, the ranks are min(r, d_x), 16-680.",
    checks=[listed, effective],
    expected="ambiguous",
    corrected_statement="C.1's r is the inner dimension of the factorisation; the embedding rank min(r, d_x) ranges from "
                        "16 to 680 (r = 680, 880, 1080 are all full rank).",
    corrected_checks=[Property(_effective, name="min(r, d_x) between 16 and 680")],
)
