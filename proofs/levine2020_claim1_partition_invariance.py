from verify.authoring import Claim, Property

from ._common import MAIN, Source
from ._structure import partition_invariance

CLAIM = Claim(
    id="levine2020_claim1_partition_invariance",
    expected="not-decided",
    source=Source(MAIN, "§3", "Claim 1"),
    statement="The separation rank of y_p^i w.r.t. balanced partitions does not depend on the partition.",
    domain="depth 1-2, width 2-3, N = 4 and 6, every balanced partition",
    passage="levine2020_partition_invariance",
    also_at=("levine2020_limits_to_depth_efficiencies.md supplement C.2, Claim 4",),
    reading="Without positional embeddings the permutations of the N - 1 tokens other than position i "
            "(with the swap of the two halves) act transitively on the balanced partitions and leave y_p^i "
            "unchanged, so equal ranks follow by symmetry and the computation cannot fail: it confirms the "
            "engine's symmetry, not the claim.  No strengthening of this statement is refuted (same rank for "
            "unbalanced partitions is another statement, not a strengthening of this one): not decided (issue 20).",
    checks=[Property(partition_invariance(), name="all balanced partitions")],
)
