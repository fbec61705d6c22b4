import sympy as sp

from verify.authoring import Claim, RankBound

from ._common import REVISED, H, N, Source, d_x
from ._small_n import at_small_n

BOUND = N * d_x**4 / H  # K = 1: the inputs of the first layer are coordinates, each of sep 1

CLAIM = Claim(
    id="levine2020_revised_lemma2_layer_bound",
    source=Source(REVISED, "A.4 (residual connections)", "Lemma 2"),
    statement="If every input entry has separation rank <= K, one self-attention layer's output has "
              "separation rank <= N d_x^4 K^3 / H.",
    formulas={"sep_upper": BOUND * sp.Symbol("K") ** 3},
    reading="Checked for the first layer (K = 1) at N = 2(d_x+1), the smallest N the exact rank holds for "
            "(the bound grows with N).",
    expected="not-decided",  # rule 1 (issue 20): no strengthening refuted on the specs in reach
    left_out="N from 2 up to 2(d_x + 1) beyond the small specs: exact ranks at N = 2 and 4 (coefficient route, "
             "check 'bound at the smallest N') reach only L = 1 with d_x <= 6, L = 2 with d_x <= 4 (N = 4: d_x <= "
             "3) and L = 3 with d_x = 2 (one more, L = 2, d_x = 4, N = 4, takes about 55 s); the reduced-route "
             "ranks hold from N = 2(d_x + 1) on; deeper layers (K > 1) are not checked (K = 1, the first layer "
             "only).",
    checks=[RankBound(BOUND, "upper", "sep", condition=lambda s: s.depth == 1)],
)

# rule 2 (whole domains): the same bound at the smallest N (proofs/_small_n.py)
CLAIM.checks.append(at_small_n(next(c for c in CLAIM.checks if isinstance(c, RankBound))))
