"""Author response: residual connections multiply the upper bounds by at most 2^L."""

from verify.authoring import Claim, NetworkSpec, Property, RankBound, default_specs, exact_rank

from ._common import C, RESPONSE, H, L, Source, d_a


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
    checks=[RankBound(2**L * (H * (d_a + 1)) ** C, "upper", "sep", residual=True,
                      name="2^L (H(d_a+1))^C vs exact residual ranks"),
            Property(_against_measured, name="residual vs plain exact ranks at the same weights")],
)
