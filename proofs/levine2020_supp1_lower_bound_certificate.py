"""The lower bound of Theorems 1-2, certified at one weight point and re-checked from the certificate."""

from verify.authoring import Cases, Claim, NetworkSpec, certify, check_certificate, lower_bound

from ._common import MAIN, Source

CASES = [(2, 10, 1), (2, 10, 2), (2, 12, 2)]


def _case(depth, width, heads):
    holds, reason = check_certificate(certify(NetworkSpec(depth=depth, width=width, heads=heads)))
    return holds, f"L={depth} d_x={width} H={heads}: {reason}"


def _trivial(depth, width, heads):
    """the certified bound is the trivial one (sep >= 1)"""
    m = lower_bound(depth, width, heads)
    return m <= 1, f"bound {m}"


CLAIM = Claim(
    id="levine2020_supp1_lower_bound_certificate",
    source=Source(MAIN, "supplement B.2", "lower bounds of Theorems 1 and 2 (eq. 16, Claims 2-3)"),
    statement="For d_x > 3^L, sep(y_p^i) >= ((floor((d_x - H)/2) over 3^(L-2))) almost everywhere.",
    reading="Certified by a nonsingular grid sub-matrix of that size at seeded integer weights and templates "
            "(verify certify), re-checked from the certificate's own numbers (verify check-certificate).  "
            "Depth 3 (width 28, 455 x 455) takes about a minute each way and is in the slow tests.",
    checks=[Cases(CASES, _case, name="certificates written and re-checked",
                  perturb={"the bound is trivial (<= 1)": _trivial})],
)
