from verify.authoring import Claim, Property
from verify.authoring.ranks import default_specs, exact_rank

from ._common import MAIN, Source


def _check():
    rows = []
    for spec in default_specs():
        if spec.depth != 1:
            continue
        rank = exact_rank(spec)
        rows.append(f"d_x={spec.width} H={spec.heads}: {rank}")
        if rank != 1 + min(spec.width, spec.heads * spec.attn_dim):
            return False, "; ".join(rows), {"width": spec.width, "heads": spec.heads, "rank": rank}
    return True, "sep = 1 + min(d_x, H d_a) = d_x + 1 for every one-layer spec: " + "; ".join(rows), None


CLAIM = Claim(
    id="levine2020_single_layer_linear",
    expected="not-decided",
    source=Source(MAIN, "§4.2", "opening paragraph"),
    statement="The separation rank of a single layer (eq. 3) is only linear in H and d_x.",
    reading="Exact value derived for this check: y = a^T S_A B x^i + tr(S_B M(x^i)), so sep = 1 + rank of "
            "x -> sym M(x), which is min(d_x, H d_a) for generic weights.",
    checks=[Property(_check, name="one-layer ranks against 1 + min(d_x, H d_a)")],
)
