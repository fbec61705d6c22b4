"""The conjecture on N with positional embeddings (vocabulary paper, section 4 after Theorem 2, and appendix
B.2.2 before Corollary 2): what the exact token data show."""

import math

from verify.authoring import Cases, Claim

from ._common import WIES, Source
from ._tokens import probe

#: (depth, width, heads, V = r, positional rank R)
CASES = [(2, 4, 1, 3, 1), (2, 4, 1, 3, 2), (2, 3, 1, 2, 1), (2, 5, 1, 3, 2)]


def _case(depth, width, heads, vocab, pos_rank):
    data = probe(depth, width, heads, vocab, vocab, max_tokens=40, pos_rank=pos_rank)
    bound, scale = data["lemma7_lower_bound"], data["conjecture_scale"]
    reached = data["tokens_reaching_lemma7_lower_bound"]
    holds = bound is None or (reached is not None and reached <= math.ceil(scale))
    return holds, (f"L={depth} d_x={width} V=r={vocab} R={pos_rank}: ranks {[r['rank'] for r in data['ranks']]}, "
                   f"limit {data['limit_rank']}, bound {bound} reached at N={reached}, r L/log3 r = {scale:.1f}, "
                   f"saturated at N={data['saturation_tokens']}, cap decides at N={data['cap_decides']}")


CLAIM = Claim(
    id="wies2021_conjecture_n_positional",
    source=Source(WIES, "§4 after Theorem 2; appendix B.2.2 before Corollary 2",
                  "conjecture: the lower bound holds for N = Omega(r L / log3 r)"),
    statement="With positional embeddings (rank R >= 1) Theorem 2's V = r bound holds already at N of order r L / log3 r.",
    reading="With positions the counting cap is V^(N/2), exponential in N, so counting does not refute the conjecture. "
            "Evidence only: at every probed size the exact token rank reaches the bound by N = ceil(r L / log3 r); at "
            "computable sizes the bound is 0 or 1, so nothing here could fail, and the record lists the data (ranks, "
            "limit, where the cap decides, where the rank saturates).",
    checks=[Cases(CASES, _case, name="exact probes with positional embeddings against r L / log3 r")],
    expected="not-decided",
)
