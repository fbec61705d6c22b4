"""Theorem 4's upper bound against exact ranks with a convolution embedding, as r varies."""

from functools import lru_cache

from verify.authoring import Cases, Claim, evaluate, scaled
from verify.authoring.network import DEFAULT_PRIME, ConvolutionEmbedding, Field, NetworkSpec
from verify.authoring.ranks import embedded_reduced_rank

from ._common import WIES, L, Source, r, r_e
from ._wies import EQ9

SWEEP = [(2, 4, 1, rank) for rank in (1, 2, 3, 4)] + [(3, 3, 1, rank) for rank in (1, 2, 3)]


@lru_cache(maxsize=None)
def _sep(depth, width, heads, rank):
    embedding = ConvolutionEmbedding(width, input_dim=2, kernel=2, rank=rank)
    return embedded_reduced_rank(NetworkSpec(depth=depth, width=width, heads=heads), Field(DEFAULT_PRIME),
                                 embedding.factors[0])


def _case(depth, width, heads, rank, scale=1):
    sep = _sep(depth, width, heads, rank)
    bound = evaluate(EQ9, {L: depth, r: rank, r_e: 0}) / scale
    return bool(bound >= sep), f"L={depth} d_x={width} r={rank}: sep {sep}, bound {bound.mid().str(3, radius=False)}"


CLAIM = Claim(
    id="wies2021_theorem4_conv_sweep",
    source=Source(WIES, "appendix A.3", "Theorem 4, eq. 11, as r varies"),
    statement="With a convolution embedding of rank r (eq. 2, eq. 4) and no positional embedding, "
              "sep <= ((r over 3^L)) ((4 over 3^L)) (3^L + 1)^r.",
    formulas={"sep_upper": EQ9},
    domain="kernel M/N = 2, d_input = 2; d_x = 4 at depth 2 with r = 1..4; d_x = 3 at depth 3 with r = 1..3",
    reading="Exact ranks from the rank-r reduced route (valid for N >= 2(r+1)), which the tests check against "
            "the coefficient route on the raw inputs.",
    checks=[Cases(SWEEP, _case, name="exact convolution-embedding ranks against eq. 11",
                  perturb={"eq. 11 / 3": scaled(_case, scale=3)})],
    # eq. 11 exceeds the measured ranks by factors of hundreds and more: even eq. 11 / 3 is never refuted.
    expected="not-decided",
)
