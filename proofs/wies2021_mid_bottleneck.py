"""Section 4.2.3: width caps the internal attention dimension."""

from verify.authoring import Cases, Claim, shifted
from verify.authoring.network import NetworkSpec
from verify.authoring.ranks import exact_rank

from ._common import WIES, Source

CASES = [(2, 2), (3, 2), (2, 3)]


def _case(depth, width, slack=0):
    at_width = exact_rank(NetworkSpec(depth=depth, width=width, heads=1))
    wider = {(h, a): exact_rank(NetworkSpec(depth=depth, width=width, heads=h, attn_dim=a))
             for h, a in [(1, width + 1), (1, 2 * width), (1, 3 * width), (2, width), (width, 2)]}
    return max(wider.values()) <= at_width - slack, (f"L={depth} d_x={width}: H d_a = d_x gives {at_width}; " +
                                             ", ".join(f"H={h} d_a={a}: {v}" for (h, a), v in wider.items()))


CLAIM = Claim(
    id="wies2021_mid_bottleneck",
    source=Source(WIES, "§4.2.3", "a mid-architecture bottleneck: width caps the internal attention dimension"),
    statement="Raising H d_a beyond d_x does not raise the separation rank.",
    reading="Compared with the single-head network with d_a = d_x; all ranks from the reduced route.  H d_a runs "
            "from d_x + 1 (the smallest excess) to 3 d_x.",
    checks=[Cases(CASES, _case, name="reduced-route ranks for H d_a > d_x",
                  perturb={"H d_a > d_x lowers sep (bound - 1)": shifted(_case, slack=1)})],
)
