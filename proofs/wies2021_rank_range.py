"""§5.1: 'we trained depth-12 networks with embedding ranks that range between 16 and the full rank of
d_x = 680', against appendix C.1's list of r (the inner dimension of the d_x x r, r x V factorisation)."""

from verify.authoring import Claim, Property, shifted

from ._common import WIES, Source
from ._wies_tables import C1_LOW_RANK_WIDTH, C1_RANKS


def _effective(low=16, high=C1_LOW_RANK_WIDTH):
    """The embedding ranks min(r, d_x) of C.1's factorisations (a product d_x x r times r x V has rank
    min(r, d_x, V) at generic weights) range from low to high."""
    ranks = [min(x, C1_LOW_RANK_WIDTH) for x in C1_RANKS]
    ok = min(ranks) == low and max(ranks) == high
    return ok, f"min(r, d_x) from {min(ranks)} to {max(ranks)} ({sum(x >= C1_LOW_RANK_WIDTH for x in C1_RANKS)} at " \
               "full " \
               f"rank)", None if ok else {"effective": [min(ranks), max(ranks)]}


effective = Property(_effective, name="min(r, d_x) between 16 and 680",
                     perturb={"up to 679": shifted(_effective, high=679), "from 17": shifted(_effective, low=17)},
                     reading="ranks min(r, d_x) (eq. 3)")


def _listed(low=16, high=C1_LOW_RANK_WIDTH):
    """C.1's r taken as the ranks, as its own symbol r says: they range from low to high."""
    ok = min(C1_RANKS) == low and max(C1_RANKS) == high
    return ok, f"C.1's r from {min(C1_RANKS)} to {max(C1_RANKS)}", None if ok else {"r": [min(C1_RANKS), max(C1_RANKS)]}


listed = Property(_listed, name="C.1's r between 16 and 680", reading="C.1's r as the ranks")

CLAIM = Claim(
    id="wies2021_rank_range",
    source=Source(WIES, "§5.1 paragraph 1; appendix C.1", "embedding ranks between 16 and the full rank d_x = 680"),
    statement="The low-rank networks (d_x = 680) have embedding ranks from 16 to the full rank 680.",
    reading="Two readings, both in the text's own symbols (issue 34): one symbol r is rank(M_V) <= min(d_x, V) in "
            "eq. 3 and exceeds d_x in C.1.  Reading 'ranks min(r, d_x)' (holds): eq. 3 defines r = rank(M_V) with 'r "
            "<= min{d_x, V}', and C.1 says it 'factorize[s] the tokens and "
            "positional embedding into two matrices of dimensions d_x x r, r x V', so its listed r ("
            + ", ".join(map(str, C1_RANKS)) + ") are inner dimensions and the ranks are min(r, d_x).  Reading 'C.1's r "
            "as the ranks' (fails): C.1 and §5.1 use the same letter r that eq. 3 calls the rank and list r "
            "= " + " and ".join(str(x) for x in C1_RANKS if x > C1_LOW_RANK_WIDTH) + " above "
            f"d_x = {C1_LOW_RANK_WIDTH}, so the ranks so named run past 'the full rank'.  The outcomes differ: "
            "ambiguous.",
    expected="ambiguous",
    checks=[effective, listed],
)
