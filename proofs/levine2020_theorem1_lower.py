import sympy as sp

from verify.authoring import Claim, Property, RankBound

from ._common import BELOW_THRESHOLD, MAIN, H, L, Source, d_x, log3
from ._reach import REPAIRED, gap_check
from ._small_n import at_small_n

A1 = sp.Rational(1, 9)
A2 = -L + (2 - log3(2))
BOUND = A1 * 3**L * (log3(d_x - H) + A2)

CLAIM = Claim(
    id="levine2020_theorem1_lower",
    source=Source(MAIN, "§4.1", "Theorem 1, eq. 6 (lower bound), a_1 = 1/9, a_2 = -L + 2 - log3 2"),
    statement="For L < log3 d_x and H > 1, almost everywhere "
              "a_1 3^L (log3(d_x - H) + a_2) <= log3 sep(y_p^i).",
    formulas={"log3_sep_lower": BOUND, "a_1": A1, "a_2": A2},
    domain="H > 1 heads, H < d_x (log3(d_x - H) defined)",
    regime=BELOW_THRESHOLD,
    passage="levine2020_theorem1_lower_bound",
    expected="gap",  # rule 1: no strengthening refuted on the specs in reach; rule 5: the proof falls short
    gap="d_a even: the printed proof (its per-head layout) takes the construction's rank ((floor((d_x - H)/2) over "
        "3^(L-2))), but the construction with its corrected weights reaches only H floor((d_a - 1)/2) columns of V "
        "(claim levine2020_supp1_lemma4_construction), and there eq. 6 exceeds log3 of what it reaches.  Smallest case "
        "(d_x, H, L) = (10, 5, 2) (d_a = 2: the printed layout places no column at all); smallest with d_a >= 3 (where "
        "the construction is built) (12, 2, 2): eq. 6 gives log3 5, the printed construction proves sep >= "
        "4." + REPAIRED,
    gap_checks=[Property(gap_check(BOUND, BELOW_THRESHOLD, (10, 2, 5), heads_min=2),
                         name="eq. 6 against the construction's corrected reach, d_a even")],
    left_out="Three of the four in-regime specs are at L = 1, where the construction (L >= 2) does not exist; "
             "the depth-2 spec in regime is d_x = 10, H = 2 (d_a = 5, odd).  N from 2 up to 2(d_x + 1) (where sep may "
             "be smallest) beyond the small specs: exact ranks at N = 2 and 4 (check 'bound at the smallest N') "
             "reach only L = 1 (d_x = 4, 6) in the regime; the reduced-route ranks hold from N = 2(d_x + 1) on.",
    checks=[RankBound(BOUND, "lower", "log3", regime=BELOW_THRESHOLD,
                      condition=lambda s: 1 < s.heads < s.width)],
)

# rule 2 (whole domains): the same bound at the smallest N (proofs/_small_n.py)
CLAIM.checks.append(at_small_n(next(c for c in CLAIM.checks if isinstance(c, RankBound))))
