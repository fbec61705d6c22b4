"""Theorem 3 (eq. 9) with a positional embedding of rank r_e = 1, the case the paper uses for Theorem 1,
against exact token ranks (every other eq. 9 claim has r_e = 0)."""

from functools import lru_cache

from verify.authoring import Cases, Claim, evaluate, scaled
from verify.authoring.network import DEFAULT_PRIME, Field, NetworkSpec
from verify.authoring.probe import probe_step

from ._common import WIES, L, Source, r, r_e
from ._wies import EQ9

#: (L, d_x, V, r, N): the sizes whose V^N grid the enumeration route handles in well under a second.
CASES = [(1, 2, 2, 1, 4), (1, 2, 3, 2, 4), (1, 3, 3, 2, 4), (2, 2, 3, 1, 4), (2, 2, 3, 2, 4), (2, 2, 2, 1, 6)]


@lru_cache(maxsize=None)
def _sep(depth, width, vocab, rank, tokens):
    return probe_step(NetworkSpec(depth=depth, width=width), Field(DEFAULT_PRIME), 0, tokens, vocab, rank, 1)["rank"]


def _case(depth, width, vocab, rank, tokens, scale=1):
    sep = _sep(depth, width, vocab, rank, tokens)
    bound = evaluate(EQ9, {L: depth, r: rank, r_e: 1}) / scale
    trivial = vocab ** (tokens // 2)
    return bool(bound >= sep), (f"L={depth} d_x={width} V={vocab} r={rank} r_e=1 N={tokens}: sep {sep}, eq. 9 "
                                f"{bound.mid().str(4, radius=False)}, trivial V^(N/2) = {trivial}")


CLAIM = Claim(
    id="wies2021_theorem3_positional",
    source=Source(WIES, "appendix A.2", "Theorem 3, eq. 9, with r_e = 1"),
    statement="With a vocabulary embedding of rank r and a positional embedding of rank r_e = 1, "
              "sep <= ((r+1 over 3^L)) ((4 over 3^L)) (3^L + 1)^(r+1).",
    formulas={"sep_upper": EQ9},
    domain="L = 1-2, d_x = 2-3, V = 2-3, r = 1-2, N = 4-6, exact token ranks by enumeration at seed 0",
    reading="Positional embeddings rule out the counts route, so only V^N-sized grids are computable; there eq. 9 "
            "(>= 1280) never beats the trivial bound V^(N/2) <= 9.  It would bite from V^(N/2) > eq. 9, e.g. N >= 22 "
            "at L = 1, r = 1, V = 2 (4M evaluations): not decided at computable sizes.",
    checks=[Cases(CASES, _case, name="exact token ranks with r_e = 1 against eq. 9",
                  perturb={"eq. 9 / 3": scaled(_case, scale=3)})],
    expected="not-decided",
)
