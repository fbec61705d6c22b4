"""The inequality chain after Theorem 4 (first supplement) that yields Theorem 2's upper bound."""

import sympy as sp

from verify.authoring import Claim, InequalityChain

from ._common import ABOVE_THRESHOLD, C, MAIN, L, Source, d_x, log3, multichoose

E = sp.E
STEPS = [
    log3(d_x * (C + 1) * multichoose(d_x, 2 * C) * (2 * C / d_x + 1) ** d_x),
    log3(d_x * (C + 1) * (2 * E * (d_x + 2 * C) / d_x) ** d_x * (2 * C / d_x + 1) ** d_x),
    log3(3**L * d_x * (2 * E) ** (2 * d_x) * ((3**L - 1) / d_x) ** (2 * d_x)),
    L + log3(d_x) + d_x * 2 * log3(2 * E) + 2 * d_x * log3(3**L / d_x),
    (2 * d_x + 1) * L + log3(d_x) + 2 * d_x * (log3(2 * E) - log3(d_x)),
]
GRID = {L: list(range(1, 8)), d_x: list(range(1, 61))}


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
    reading="The chain is printed without a regime ('From here, theorem 2 follows'); its conclusion is used only for "
            "L > log3 d_x, Theorem 2's regime.  Two readings: every (L, d_x) as printed (step 1->2 fails when 3^L <= "
            "d_x), or Theorem 2's regime, where it is used (every step holds); they disagree, so the claim is ambiguous.",
    checks=[chain(None, "printed chain, every (L, d_x)", reading="every (L, d_x)"),
            chain(ABOVE_THRESHOLD, "printed chain for L > log3 d_x", reading="Theorem 2's regime L > log3 d_x")],
    expected="ambiguous",
    corrected_statement="Step 1->2 (dropping the +1 of (3^L - 1)/d_x + 1, absorbed by a second (2e)^d_x) "
                        "fails when 3^L <= d_x; every step holds for 3^L > d_x, Theorem 2's regime, so its "
                        "upper bound stands.",
    corrected_checks=[chain(ABOVE_THRESHOLD, "printed chain for L > log3 d_x")],
)
