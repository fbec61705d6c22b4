"""Claim 2 (revised supplement): a rank reached at one point is reached almost everywhere."""

from verify import NetworkSpec, separation_rank
from verify.checks import Property
from verify.claims import Claim

from ._common import REVISED, Source


def _check():
    rows = []
    for depth, width, heads in [(2, 2, 1), (2, 3, 3), (3, 2, 1)]:
        spec = NetworkSpec(depth=depth, width=width, heads=heads)
        wide = {separation_rank(spec, "reduced", seed=s).rank for s in range(4)}
        narrow = [separation_rank(spec, "reduced", seed=s, weight_range=1).rank for s in range(8)]
        rows.append(f"L={depth} d={width} H={heads}: wide {sorted(wide)}, weights in {{-1,0,1}} {narrow}")
        if len(wide) != 1 or max(narrow) > max(wide):
            return False, "; ".join(rows), {"spec": str(spec)}
    return True, "random wide-range weights all reach one rank, and no point exceeds it: " + "; ".join(rows), None


CLAIM = Claim(
    id="levine2020_revised_claim2_generic_rank",
    source=Source(REVISED, "B.1.2", "Claim 2"),
    statement="If rank A(theta) >= r at one point, then {theta : rank A(theta) < r} has measure zero: "
              "the rank at random points is the generic (maximal) rank.",
    checks=[Property(_check, name="ranks at random and at degenerate weights")],
)
