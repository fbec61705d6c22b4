"""§4.1 and §4.2.3: the upper bound (eq. 9 / eq. 11) depends on L, r and r_e only -- not on N ('effective
degrees of freedom O(r), independent of N'), not on the number of heads H (the mid-architecture bottleneck),
not on d_a or d_x -- while Corollary 1's lower bound does depend on H."""

from verify.authoring import Claim, Property, neighbour

from ._common import WIES, H, L, N, Source, d_a, d_x, r, r_e
from ._wies import EQ9, LOWER


def _free(bound, absent, present):
    symbols = bound.free_symbols
    ok = not (symbols & set(absent)) and set(present) <= symbols
    return ok, f"free symbols {sorted(map(str, symbols))}: none of {sorted(map(str, absent))}", None if ok else \
        {"free": sorted(map(str, symbols))}


CLAIM = Claim(
    id="wies2021_bound_form",
    source=Source(WIES, "§4.1 paragraph 3; §4.2.3 paragraph 1", "the upper bound is independent of N and of H"),
    statement="The upper bound ((r+r_e over 3^L)) ((4 over 3^L)) (3^L+1)^(r+r_e) involves L, r, r_e only: it does not "
              "depend on N, H, d_a (nor on d_x beyond r <= d_x); Corollary 1's lower bound does depend on H.",
    reading="Decided on the formulas themselves (their free symbols); that the exact ranks obey them is "
            "wies2021_theorem3_upper's and wies2021_theorem3_rank_sweep's business.",
    checks=[Property(lambda: _free(EQ9, [N, H, d_a, d_x], [L, r, r_e]), name="eq. 9 is free of N, H, d_a, d_x",
                     perturb={"eq. 9 also free of L": neighbour(_free, given=dict(bound=EQ9, present=[r, r_e]),
                                                                claim=[N, H, d_a, d_x], absent=[N, H, d_a, d_x, L])}),
            Property(lambda: _free(LOWER, [N, d_a], [H, L, r]), name="Corollary 1's bound depends on H",
                     perturb={"also free of L": neighbour(_free, given=dict(bound=LOWER, present=[H, r]),
                                                          claim=[N, d_a], absent=[N, d_a, L])})],
)
