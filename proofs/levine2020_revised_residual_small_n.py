"""Theorem 3 and Lemma 2 of the revised supplement where they bite: exact separation ranks by the coefficient
route (valid for every N) at the smallest specs, N = 2 and 4, where the bounds N d_x^4 / H are smallest."""

from fractions import Fraction
from functools import lru_cache

from verify.authoring import Cases, Claim, scaled
from verify.authoring.network import Field, NetworkSpec
from verify.authoring.ranks import rank_once as separation_rank  # one run at the given seed

from ._common import REVISED, Source

#: (L, d_x, H, N), smallest first: d_x = 1 and H = d_x included.
SPECS = [(1, 1, 1, 2), (1, 1, 1, 4), (1, 2, 1, 2), (1, 2, 2, 2), (1, 2, 2, 4), (1, 3, 3, 2), (2, 1, 1, 2),
         (2, 1, 1, 4), (2, 2, 1, 2), (2, 2, 2, 2)]


@lru_cache(maxsize=None)
def _rank(depth, width, heads, tokens, residual):
    spec = NetworkSpec(depth=depth, width=width, heads=heads, tokens=tokens, residual=residual)
    return separation_rank(spec, "coefficients", Field(None)).rank


def theorem3(depth, width, heads, tokens):
    """L^L (N d_x^4 / H)^C(L): Theorem 3's bound on Sep, exactly."""
    return depth**depth * Fraction(tokens * width**4, heads) ** ((3**depth - 1) // 2)


def _theorem3(depth, width, heads, tokens, scale=1):
    rank, bound = _rank(depth, width, heads, tokens, True), theorem3(depth, width, heads, tokens) / scale
    ok = rank <= bound
    return ok, f"L={depth} d_x={width} H={heads} N={tokens}: residual sep {rank} <= {bound}" + \
        (" (attained)" if rank == bound else "") if ok else f"L={depth} d_x={width} H={heads} N={tokens}: " \
                                                           f"residual sep {rank} > {bound}"


def _lemma2(width, heads, tokens, scale=1):
    """K = 1 (first layer, no residual): sep <= N d_x^4 / H."""
    rank, bound = _rank(1, width, heads, tokens, False), Fraction(tokens * width**4, heads) / scale
    ok = rank <= bound
    return ok, f"d_x={width} H={heads} N={tokens}: layer sep {rank} {'<=' if ok else '>'} {bound}" + \
        (" (attained)" if rank == bound else "")


CLAIM = Claim(
    id="levine2020_revised_residual_small_n",
    source=Source(REVISED, "A.4 (residual connections)", "Theorem 3 and Lemma 2 at the smallest N"),
    statement="log3 Sep(y^{L,i}_p) <= L log3 L + (4 log3 d_x + log3 N - log3 H)(3^L - 1)/2 for the residual network, "
              "and one layer on inputs of sep 1 has sep <= N d_x^4 / H, for every N > 1.",
    formulas={"theorem3": "L^L (N d_x^4/H)^C(L)", "lemma2_K1": "N d_x^4 / H"},
    domain="(L, d_x, H, N) with L <= 2, d_x <= 3, N in {2, 4} (d_x = 1, H = d_x included); exact ranks over Q by the "
           "coefficient route, balanced partition, output i = 1, p = 1",
    reading="The registry's other checks compare at N = 2(d_x + 1), where the reduced route is exact; these bounds "
            "grow with N, so they are closest to the rank at the smallest N, which only the coefficient route "
            "reaches.  Both are attained at L = 1, d_x = 1, H = 1, N = 2 (sep 2).",
    checks=[Cases(SPECS, _theorem3, name="Theorem 3 against exact residual ranks",
                  perturb={"bound / 3": scaled(_theorem3, scale=3)}),
            Cases(sorted({(w, h, n) for d, w, h, n in SPECS}), _lemma2,
                  name="Lemma 2 (K = 1) against exact layer ranks",
                  perturb={"bound / 3": scaled(_lemma2, scale=3)})],
)
