from verify.authoring import Claim, Property
from verify.authoring.network import NetworkSpec
from verify.authoring.ranks import rank_once as separation_rank  # one run at the given seed

from ._common import MAIN, Source
from ._structure import partition_invariance


def _unbalanced():
    """the rank is the same for every partition, balanced or not (information: a different statement, so
    no longer attached as a strengthening of Claim 4; kept for a reader who wants to see it refuted)"""
    spec = NetworkSpec(depth=2, width=2, heads=1, tokens=4)
    ranks = {part: separation_rank(spec, partition=part).rank for part in [(0, 1), (0,), (1,), (0, 1, 2)]}
    return len(set(ranks.values())) == 1, f"L=2 d_x=2 H=1 N=4: {ranks}", None


CLAIM = Claim(
    id="levine2020_supp1_claim4_partition_invariance",
    source=Source(MAIN, "supplement C.2", "Claim 4"),
    statement="For any depth, N > 1 and output locations i, p the separation rank w.r.t. balanced partitions "
              "is the same for every balanced partition.",
    domain="depth 1-2, width 2-3, N = 4 and 6, outputs p in {0, 1}, positions i in {0, 3}",
    expected="not-decided",
    passage="levine2020_partition_invariance",
    also_at=("levine2020_limits_to_depth_efficiencies.md §3, Claim 1",),
    reading="Without positional embeddings the permutations of the N - 1 tokens other than position i "
            "(with the swap of the two halves) act transitively on the balanced partitions and leave y_p^i "
            "unchanged, so equal ranks follow by symmetry and the computation cannot fail: it confirms the "
            "engine's symmetry, not the claim.  No strengthening of this statement is refuted (same rank for "
            "unbalanced partitions is another statement, not a strengthening of this one): not decided (issue 20).",
    checks=[Property(partition_invariance(((0, 0), (1, 0), (0, 3), (1, 3))),
                     name="all balanced partitions, several outputs and positions")],
)
