from verify.authoring import Claim, NetworkSpec, Property
from verify.authoring import rank_once as separation_rank  # one run at the given seed

from ._common import MAIN, Source
from ._structure import partition_invariance


def _unbalanced():
    """the rank is the same for every partition, balanced or not"""
    spec = NetworkSpec(depth=2, width=2, heads=1, tokens=4)
    ranks = {part: separation_rank(spec, partition=part).rank for part in [(0, 1), (0,), (1,), (0, 1, 2)]}
    return len(set(ranks.values())) == 1, f"L=2 d_x=2 H=1 N=4: {ranks}", None


CLAIM = Claim(
    id="levine2020_supp1_claim4_partition_invariance",
    source=Source(MAIN, "supplement C.2", "Claim 4"),
    statement="For any depth, N > 1 and output locations i, p the separation rank w.r.t. balanced partitions "
              "is the same for every balanced partition.",
    domain="depth 1-2, width 2-3, N = 4 and 6, outputs p in {0, 1}, positions i in {0, 3}",
    checks=[Property(partition_invariance(((0, 0), (1, 0), (0, 3), (1, 3))),
                     name="all balanced partitions, several outputs and positions",
                     perturb={"the same rank for unbalanced partitions too": _unbalanced})],
)
