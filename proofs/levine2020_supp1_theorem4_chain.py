"""The inequality chain after Theorem 4 (first supplement) that yields Theorem 2's upper bound.

It closes section A.3, 'Proof of the upper bound in theorem 2', with 'From here, theorem 2 follows': read inside that
proof, under Theorem 2's hypothesis L > log3 d_x, it holds; read as displayed, for every (L, d_x), step 1->2 fails
at every d_x from FIRST_FAILURES[L] on (12, 36, 108, 323 for L = 2..5; it still holds at 3^L <= d_x < that, e.g.
(2, 9)-(2, 11) and (3, 27)-(3, 35): issue 39 corrected "from the threshold 3^L = d_x down").  Both readings are
kept (issue 34): ambiguous."""

import sympy as sp

from verify.authoring import Claim, InequalityChain

from ._common import ABOVE_THRESHOLD, MAIN, C, L, Source, d_x, log3, multichoose

E = sp.E
STEPS = [
    log3(d_x * (C + 1) * multichoose(d_x, 2 * C) * (2 * C / d_x + 1) ** d_x),
    log3(d_x * (C + 1) * (2 * E * (d_x + 2 * C) / d_x) ** d_x * (2 * C / d_x + 1) ** d_x),
    log3(3**L * d_x * (2 * E) ** (2 * d_x) * ((3**L - 1) / d_x) ** (2 * d_x)),
    L + log3(d_x) + d_x * 2 * log3(2 * E) + 2 * d_x * log3(3**L / d_x),
    (2 * d_x + 1) * L + log3(d_x) + 2 * d_x * (log3(2 * E) - log3(d_x)),
]
GRID = {L: list(range(1, 8)), d_x: list(range(1, 61))}
#: L -> the smallest d_x at which step 1->2 fails (it fails at every larger d_x searched, to 1,200, and holds below);
#: L = 1 fails from d_x = 3 = 3^L.  Pinned against the steps themselves by tests/claims/test_issue39_texts.py.
FIRST_FAILURES = {1: 3, 2: 12, 3: 36, 4: 108, 5: 323}


def chain(regime, name, reading=""):
    return InequalityChain(STEPS, ["<=", "<=", "<=", "="], grid=GRID, regime=regime, search=40,
                           search_ranges={L: (1, 12), d_x: (1, 400)}, name=name, reading=reading)


CLAIM = Claim(
    id="levine2020_supp1_theorem4_chain",
    source=Source(MAIN, "supplement A.3", "chain after Theorem 4 (lines 382-390)"),
    statement="log3 of Theorem 4's bound <= ... <= (2d_x + 1)L + log3 d_x + 2d_x(log3 2e - log3 d_x), "
              "each step as printed.",
    formulas={f"step{i}": s for i, s in enumerate(STEPS)},
    domain="L in 1..7, d_x in 1..60, plus 40 points of a derandomised search up to L = 12, d_x = 400",
    reading="Two readings (issue 34).  'Within Theorem 2's proof' (holds): the chain closes section A.3, headed 'Proof "
            "of the upper bound in theorem 2', and is introduced by 'From here, theorem 2 follows', so Theorem 2's "
            "hypothesis L > log3 d_x is in force (the author response says the same of its corrected chain: 'only for "
            "3^L > d_x').  'As displayed' (fails): the chain starts from Theorem 4's bound, which A.3 proves for every "
            "L and d_x, and its display restates no hypothesis; there step 1->2 (dropping the +1 of (3^L - 1)/d_x + "
            "1, absorbed by a second (2e)^d_x) fails at every d_x from " + ", ".join(
                str(FIRST_FAILURES[depth]) for depth in range(2, 6)) + " on for L = 2..5 (it still holds a little "
            "past the threshold 3^L = d_x: at (L, d_x) = (2, 9)-(2, 11) and (3, 27)-(3, 35)).  The step holds in the "
            "regime it serves and fails outside it: ambiguous.",
    expected="ambiguous",
    checks=[chain(ABOVE_THRESHOLD, "printed chain for L > log3 d_x", reading="within Theorem 2's proof"),
            chain(None, "printed chain for every (L, d_x)", reading="as displayed")],
)
