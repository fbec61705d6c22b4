"""A record of the probe of the conjecture on N (vocabulary paper, section 4 and B.2.2)."""

import math

from verify.claims.checks import Cases
from verify.claims.record import Claim

from ._common import WIES, Source
from ._tokens import probe

CASES = [(2, 4, 1, 4, 4), (3, 3, 1, 3, 3), (2, 5, 1, 5, 5), (2, 6, 2, 4, 4)]


def _case(depth, width, heads, vocab, rank):
    data = probe(depth, width, heads, vocab, rank)
    scale, reached = data["conjecture_scale"], data["tokens_reaching_lower_bound"]
    holds = data["lower_bound"] is None or (reached is not None and reached <= math.ceil(scale))
    return holds, (f"L={depth} d_x={width} H={heads} r={rank}: lower bound {data['lower_bound']} reached at "
                   f"N={reached}, r L/log3 r = {scale:.1f}, saturated at N={data['saturation_tokens']} "
                   f"(rank {data['saturated_rank']})")


CLAIM = Claim(
    id="wies2021_conjecture_n_probe",
    source=Source(WIES, "§4 (after Theorem 2) and B.2.2", "conjecture: the lower bound holds for N = Omega(r L / log3 r)"),
    statement="Corollary 1's lower bound already holds at N of order r L / log3 r, not only as N -> infinity.",
    reading="Evidence, not proof: at every probed size the exact token rank reaches the lower bound by "
            "N = ceil(r L / log3 r); the bound is small at computable sizes, so the record also lists where "
            "the rank saturates.",
    checks=[Cases(CASES, _case, name="exact probes against r L / log3 r")],
    # The lower bound (1-2) is reached at N = 2 everywhere, so nothing here could fail; the saturation N
    # (8, 24, 8, 8 against r L / log3 r = 6.3, 9.0, 6.8, 6.3) is information, an Omega() has no constant to refute.
    expected="not-decided",
)
