from verify.authoring import Claim, RankBound

from ._common import REVISED, C, Source, d_x, multichoose
from ._small_n import at_small_n

BOUND = d_x * (C + 1) ** 2 * multichoose(d_x, 2 * C) * (2 * C / d_x + 1) ** d_x

CLAIM = Claim(
    id="levine2020_revised_theorem4_residual",
    source=Source(REVISED, "A.4 (residual connections)", "Theorem 4"),
    statement="With residual connections, for any partition, "
              "sep <= d_x (C+1)^2 ((d_x over 2C)) (2C/d_x + 1)^d_x.",
    formulas={"sep_upper": BOUND},
    expected="not-decided",  # rule 1 (issue 20): no strengthening refuted on the specs in reach
    left_out="N from 2 up to 2(d_x + 1) beyond the small specs: exact residual ranks at N = 2 and 4 (coefficient "
             "route, check 'bound at the smallest N') reach only d_x <= 3 at L = 1 and d_x <= 2 at L = 2 (residual "
             "L = 2, d_x = 3 takes minutes); the reduced-route ranks hold from N = 2(d_x + 1) on; residual "
             "reduced-route specs only up to L = 3 at d_x = 2.",
    checks=[RankBound(BOUND, "upper", "sep", residual=True)],
)

# rule 2 (whole domains): the same bound at the smallest N (proofs/_small_n.py)
CLAIM.checks.append(at_small_n(next(c for c in CLAIM.checks if isinstance(c, RankBound))))
