"""A record of the probe of the conjecture on N (vocabulary paper, section 4 and B.2.2)."""

import math

from verify.checks import Property
from verify.claims import Claim

from ._common import WIES, Source
from ._tokens import probe

CASES = [(2, 4, 1, 4, 4), (3, 3, 1, 3, 3), (2, 5, 1, 5, 5), (2, 6, 2, 4, 4)]


def _check():
    rows = []
    for depth, width, heads, vocab, rank in CASES:
        data = probe(depth, width, heads, vocab, rank)
        scale = data["conjecture_scale"]
        reached = data["tokens_reaching_lower_bound"]
        rows.append(f"L={depth} d_x={width} H={heads} r={rank}: lower bound {data['lower_bound']} reached at "
                    f"N={reached}, r L/log3 r = {scale:.1f}, saturated at N={data['saturation_tokens']} "
                    f"(rank {data['saturated_rank']})")
        if data["lower_bound"] is not None and (reached is None or reached > math.ceil(scale)):
            return False, "; ".join(rows), {"depth": depth, "width": width, "rank": rank}
    return True, "; ".join(rows), None


CLAIM = Claim(
    id="wies2021_conjecture_n_probe",
    source=Source(WIES, "§4 (after Theorem 2) and B.2.2", "conjecture: the lower bound holds for N = Omega(r L / log3 r)"),
    statement="Corollary 1's lower bound already holds at N of order r L / log3 r, not only as N -> infinity.",
    reading="Evidence, not proof: at every probed size the exact token rank reaches the lower bound by "
            "N = ceil(r L / log3 r); the bound is small at computable sizes, so the record also lists where "
            "the rank saturates.",
    checks=[Property(_check, name="exact probes against r L / log3 r")],
)
