"""Theorem 1's printed lower bound from the quantity its construction certifies.

The proof (sketch in §4.1, formal proof in the first supplement) exhibits a grid sub-matrix of
rank Q = ((floor((d_x - H)/2) over 3^(L-2))) for L >= 2 and turns it into eq. 6's left side
3^(L-2) (log3(d_x - H) - L + 2 - log3 2) = 3^(L-2) log3((d_x - H) / (2 3^(L-2))).  Each step is
checked here over the whole regime grid, parities of d_x - H included; L = 1, where the
construction does not exist (3^(L-2) = 1/3), is checked against the one-layer rank d_x + 1.
"""

import sympy as sp

from verify.authoring import Claim, InequalityChain

from ._common import BELOW_THRESHOLD, MAIN, H, L, Source, d_x, log3, multichoose

K = 3 ** (L - 2)
HALF = sp.floor((d_x - H) / 2)
Q = multichoose(HALF, K)
PRINTED = sp.Rational(1, 9) * 3**L * (log3(d_x - H) - L + 2 - log3(2))
#: The same estimate with the integer floor((d_x - H)/2) the construction actually has.
FLOORED = K * (log3(HALF) - (L - 2))
#: binom(m, k) >= (m/k)^k with m = floor((d_x - H)/2) + 3^(L-2) - 1.
POWER = K * log3((HALF + K - 1) / K)


def _heads(p) -> bool:
    """Theorem 1's heads: 1 < H < d_x, H dividing d_x (d_a = d_x / H)."""
    return 1 < p[H] < p[d_x] and p[d_x] % p[H] == 0


def _even(p) -> bool:
    return _heads(p) and (p[d_x] - p[H]) % 2 == 0


def _deep_or_even(p) -> bool:
    return _heads(p) and (p[L] >= 3 or (p[d_x] - p[H]) % 2 == 0)


GRID = {L: [2, 3, 4], d_x: list(range(10, 100)), H: list(range(2, 50))}
SEARCH = {L: (2, 7), d_x: (10, 5000), H: (2, 12)}

CLAIM = Claim(
    id="levine2020_theorem1_lower_construction",
    source=Source(MAIN, "§4.1", "Theorem 1, eq. 6 (lower bound) and its proof sketch: the bound from the "
                                "construction's rank ((floor((d_x - H)/2) over 3^(L-2)))"),
    statement="For 2 <= L < log3 d_x and 1 < H < d_x, log3 ((floor((d_x - H)/2) over 3^(L-2))) >= "
              "a_1 3^L (log3(d_x - H) + a_2); for L = 1, log3(d_x + 1) >= the same expression.",
    formulas={"construction_rank": Q, "printed": PRINTED, "floored": FLOORED, "power_step": POWER},
    domain="L = 1-4 with d_x = 10..99 (4..199 at L = 1) and every divisor 1 < H < d_x, plus seeded points up "
           "to L = 7, d_x = 5000",
    regime=BELOW_THRESHOLD,
    reading="The proof's quantity is the rank of the construction's grid sub-matrix (first supplement, Lemma 4 / "
            "eq. 16); at L = 1 the one-layer rank d_x + 1 (claim levine2020_single_layer_linear) stands in for it.",
    checks=[InequalityChain([PRINTED, log3(Q)], ["<="], grid=GRID, regime=BELOW_THRESHOLD, condition=_heads,
                            search=60, search_ranges=SEARCH, name="printed bound <= log3 of the construction's rank"),
            InequalityChain([PRINTED, log3(d_x + 1)], ["<="], grid={L: [1], d_x: list(range(4, 200)),
                                                                    H: list(range(2, 100))},
                            regime=BELOW_THRESHOLD, condition=_heads, search=0,
                            name="L = 1: printed bound <= log3(d_x + 1)")],
    expected="erratum",
    corrected_statement="log3 Q >= 3^(L-2) log3((floor((d_x-H)/2) + 3^(L-2) - 1) / 3^(L-2)) >= "
                        "3^(L-2) (log3 floor((d_x-H)/2) - L + 2) for every 2 <= L < log3 d_x; this equals the printed "
                        "bound when d_x - H is even, and the printed bound follows from Q for L >= 3 at either parity. "
                        "At L = 2 with d_x - H odd the printed bound exceeds log3 Q = log3((d_x-H-1)/2) by "
                        "log3((d_x-H)/(d_x-H-1)): there it needs floor((d_x-H)/2) in place of (d_x-H)/2."
                        "  Q is the rank the proof assumes; the construction with its corrected weights reaches H "
                        "floor((d_a-1)/2) columns, floor((d_x-H)/2) only for odd d_a (claim "
                        "levine2020_supp1_lemma4_construction), so at even d_a this step bounds a rank the "
                        "construction does not provide (the proof gap of levine2020_theorem1_lower).",
    corrected_checks=[InequalityChain([FLOORED, POWER, log3(Q)], ["<=", "<="], grid=GRID, regime=BELOW_THRESHOLD,
                                      condition=_heads, search=60, search_ranges=SEARCH,
                                      name="floored chain, every parity"),
                      InequalityChain([FLOORED, PRINTED], ["="], grid=GRID, regime=BELOW_THRESHOLD,
                                      condition=_even, search=60, search_ranges=SEARCH,
                                      name="floored = printed for even d_x - H"),
                      InequalityChain([PRINTED, log3(Q)], ["<="], grid=GRID, regime=BELOW_THRESHOLD,
                                      condition=_deep_or_even, search=60, search_ranges=SEARCH,
                                      name="printed bound from Q for L >= 3 or even d_x - H")],
)
