"""Claim 2 (revised supplement): a rank reached at one point is reached almost everywhere."""

from functools import lru_cache

from verify.authoring import Cases, Claim
from verify.authoring.network import NetworkSpec
from verify.authoring.ranks import rank_once as separation_rank  # one run at the given seed

from ._common import REVISED, Source


@lru_cache(maxsize=None)
def _ranks(depth, width, heads):
    spec = NetworkSpec(depth=depth, width=width, heads=heads)
    wide = {separation_rank(spec, "reduced", seed=s).rank for s in range(4)}
    narrow = [separation_rank(spec, "reduced", seed=s, weight_range=1).rank for s in range(8)]
    return wide, narrow


def _case(depth, width, heads):
    wide, narrow = _ranks(depth, width, heads)
    return len(wide) == 1 and max(narrow) <= max(wide), \
        f"L={depth} d={width} H={heads}: wide {sorted(wide)}, weights in {{-1,0,1}} {narrow}"


CLAIM = Claim(
    id="levine2020_revised_claim2_generic_rank",
    source=Source(REVISED, "B.1.2", "Claim 2"),
    statement="If rank A(theta) >= r at one point, then {theta : rank A(theta) < r} has measure zero: "
              "the rank at random points is the generic (maximal) rank.",
    # rule 1 (issue 34): a strengthening must be one step from the statement; the old one was not (refuted only with
    # degenerate, zero weights)
    expected="not-decided",
    checks=[Cases([(2, 2, 1), (2, 3, 3), (3, 2, 1)], _case,
                  name="random wide-range weights all reach one rank, no degenerate point exceeds it")],
)
