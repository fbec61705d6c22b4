"""Corollary 1's lower bound against exact token ranks, and the N at which they reach it."""

from verify.authoring import Cases, Claim, corollary1_lower_bound, scaled

from ._common import WIES, Source
from ._tokens import probe

CASES = [(2, 5, 1, 5, 5), (2, 4, 1, 4, 4), (3, 3, 1, 3, 3), (2, 6, 2, 4, 4)]


def _case(depth, width, heads, vocab, rank, scale=1):
    data = probe(depth, width, heads, vocab, rank)
    best = max(row["rank"] for row in data["ranks"])
    lower = corollary1_lower_bound(depth, rank, heads)
    return lower is None or best >= scale * lower, (f"L={depth} d_x={width} H={heads} r={rank}: bound {lower}, reached at "
                                            f"N={data['tokens_reaching_lower_bound']}, sep up to {best}")


CLAIM = Claim(
    id="wies2021_corollary1_tokens",
    source=Source(WIES, "appendix B.2 and B.2.2", "Corollary 1 with a vocabulary embedding (Lemmas 6-7)"),
    statement="With a vocabulary embedding of rank r and enough tokens, sep >= ((floor((r - H)/2) over 3^(L-2))).",
    domain="depth 2-3, r = 3..5, N up to 30",
    checks=[Cases(CASES, _case, name="exact token ranks against the lower bound",
                  perturb={"bound x 3": scaled(_case, scale=3)})],
    # The bound is 1-2 against ranks 24-84: even 3 x bound is never refuted.
    expected="not-decided",
)
