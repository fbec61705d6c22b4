from verify.authoring import Claim, Property

from ._common import MAIN, Source
from ._structure import partition_invariance

CLAIM = Claim(
    id="levine2020_claim1_partition_invariance",
    expected="not-decided",
    source=Source(MAIN, "§3", "Claim 1"),
    statement="The separation rank of y_p^i w.r.t. balanced partitions does not depend on the partition.",
    domain="depth 1-2, width 2-3, N = 4 and 6, every balanced partition",
    checks=[Property(partition_invariance(), name="all balanced partitions")],
)
