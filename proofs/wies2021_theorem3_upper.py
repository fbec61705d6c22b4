from verify.authoring import Claim, RankBound

from ._common import WIES, Source
from ._small_n import at_small_n
from ._wies import EQ9, FULL_RANK, READING

CLAIM = Claim(
    id="wies2021_theorem3_upper",
    source=Source(WIES, "appendix A.2", "Theorem 3, eq. 9 (vocabulary embedding)"),
    statement="sep(y_p^{i,L,d_x,H,r}) <= ((r + r_e over 3^L)) ((4 over 3^L)) (3^L + 1)^(r + r_e) for any partition.",
    formulas={"sep_upper": EQ9},
    reading=READING,
    left_out="embeddings of rank r < d_x and positional embeddings (r_e >= 1): compared on the plain network (r = "
             "d_x, r_e = 0) only (r < d_x by exact token ranks in wies2021_theorem3_rank_sweep, r_e = 1 in "
             "wies2021_theorem3_positional); N from 2 up to 2(d_x + 1) beyond the small specs: exact ranks at N = "
             "2 and 4 (coefficient route, check 'bound at the smallest N') reach only L = 1 with d_x <= 6, L = 2 "
             "with d_x <= 4 (N = 4: d_x <= 3) and L = 3 with d_x = 2 (one more, L = 2, d_x = 4, N = 4, takes about "
             "55 s); the reduced-route ranks hold from N = 2(d_x + 1) on.",
    checks=[RankBound(EQ9.xreplace(FULL_RANK), "upper", "sep")],
    # eq. 9 never beats the trivial bound (the monomial count) on the default specs; it would from L=3 d_x=5.
    expected="not-decided",
)

# rule 2 (whole domains): the same bound at the smallest N (proofs/_small_n.py)
CLAIM.checks.append(at_small_n(next(c for c in CLAIM.checks if isinstance(c, RankBound))))
