"""Theorem 3's upper bound against exact token ranks as the embedding rank r varies, d_x fixed."""

from verify.authoring import Cases, Claim, evaluate, scaled

from ._common import WIES, L, Source, r, r_e
from ._tokens import probe
from ._wies import EQ9

SWEEP = [(2, 4, 1, 4, rank) for rank in (1, 2, 3, 4)] + [(3, 3, 1, 3, rank) for rank in (1, 2, 3)]


def _case(depth, width, heads, vocab, rank, scale=1):
    data = probe(depth, width, heads, vocab, rank)
    measured = max(row["rank"] for row in data["ranks"])
    bound = evaluate(EQ9, {L: depth, r: rank, r_e: 0}) / scale
    return bool(bound >= measured), (f"L={depth} d_x={width} r={rank}: max sep {measured} "
                                      f"(N<={data['ranks'][-1]['tokens']}), bound {bound.mid().str(3, radius=False)}")


CLAIM = Claim(
    id="wies2021_theorem3_rank_sweep",
    source=Source(WIES, "appendix A.2", "Theorem 3, eq. 9, as r varies"),
    statement="For a vocabulary embedding of rank r (no positional embedding), "
              "sep <= ((r over 3^L)) ((4 over 3^L)) (3^L + 1)^r for every N.",
    formulas={"sep_upper": EQ9},
    domain="d_x = 4 at depth 2 with r = 1..4 (V = 4); d_x = 3 at depth 3 with r = 1..3 (V = 3); N = 2..30",
    reading="The exact token rank is maximised over N = 2, 4, ... up to saturation or N = 30.",
    checks=[Cases(SWEEP, _case, name="exact token ranks against eq. 9",
                  perturb={"eq. 9 / 3": scaled(_case, scale=3)})],
    # eq. 9 exceeds the measured ranks by factors 400-4e8: even eq. 9 / 3 is never refuted.
    expected="not-decided",
)
