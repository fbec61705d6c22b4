"""Author response: residual connections multiply the upper bounds by at most 2^L."""

from verify.authoring import Claim, NetworkSpec, Property, RankBound, default_specs, exact_rank

from ._common import C, RESPONSE, H, L, Source, d_a
from ._small_n import at_small_n


def _against_measured():
    rows = []
    for spec in default_specs(residual=True):
        plain = NetworkSpec(depth=spec.depth, width=spec.width, heads=spec.heads)
        with_res, without = exact_rank(spec), exact_rank(plain)
        rows.append(f"L={spec.depth} d={spec.width} H={spec.heads}: {with_res} vs {without}")
        if with_res > 2**spec.depth * without:
            return False, "; ".join(rows), {"spec": str(spec), "residual": with_res, "plain": without}
    return True, "residual sep <= 2^L x sep without (measured residual/plain: " + "; ".join(rows) + ")", None


CLAIM = Claim(
    id="levine2020_response_residual_factor",
    source=Source(RESPONSE, "lines 20-24", "residual connections"),
    statement="An upper bound on the separation rank with residual connections is 2^L times the proven separation "
              "ranks without them (adding L log3 2 to the bounds on log3 sep).",
    left_out="residual N from 2 up to 2(d_x + 1) beyond L = 1 with d_x <= 3 and L = 2 with d_x <= 2 (check 'bound "
             "at the smallest N', coefficient route; residual L = 2, d_x = 3 takes minutes); the reduced-route "
             "ranks hold from N = 2(d_x + 1) on.  The factor 2^L against the plain rank is compared only on the "
             "default residual specs.",
    checks=[RankBound(2**L * (H * (d_a + 1)) ** C, "upper", "sep", residual=True,
                      name="2^L (H(d_a+1))^C vs exact residual ranks"),
            Property(_against_measured, name="residual vs plain exact ranks at the same weights")],
)

# rule 2 (whole domains): the same bound(s) at the smallest N (proofs/_small_n.py)
for _bound in [c for c in CLAIM.checks if isinstance(c, RankBound)]:
    CLAIM.checks.append(at_small_n(_bound, name=f"{_bound.name}: bound at the smallest N (coefficient route, "
                                                 "N = 2 and 4)"))
