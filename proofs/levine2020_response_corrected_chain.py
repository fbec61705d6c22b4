"""The corrected upper-bound chain of the author response (the '+1' restored)."""

import sympy as sp

from verify.authoring import Claim, InequalityChain

from ._common import ABOVE_THRESHOLD, RESPONSE, C, L, Source, d_x, log3

E = sp.E
SECOND_LINE = log3(d_x * (C + 1) * (2 * E * (d_x + 2 * C) / d_x) ** d_x * (2 * C / d_x + 1) ** d_x)
RESTORED = log3(3**L * d_x * (2 * E) ** d_x * ((3**L - 1) / d_x + 1) ** (2 * d_x))
LARGE_DEPTH = log3(3**L * d_x * (2 * E) ** d_x * (2 * 3**L / d_x) ** (2 * d_x))
#: Second reading of the garbled last factor ('2 · 3 / L−1' in the transcription): ((2 3^L - 1) / d_x)^(2 d_x).
LARGE_DEPTH_MINUS = log3(3**L * d_x * (2 * E) ** d_x * ((2 * 3**L - 1) / d_x) ** (2 * d_x))
CLOSED = (2 * d_x + 1) * L + log3(d_x) - 2 * d_x * log3(d_x / (2 * sp.sqrt(2 * E)))
GRID = {L: list(range(1, 8)), d_x: list(range(1, 61))}

CLAIM = Claim(
    id="levine2020_response_corrected_chain",
    source=Source(RESPONSE, "lines 12-16", "corrected continuation of eq. 6 of the supplement"),
    statement="The second line of the chain is <= log3[3^L d_x (2e)^d_x ((3^L-1)/d_x + 1)^(2 d_x)], and only for "
              "3^L > d_x <= log3[3^L d_x (2e)^d_x (2 3^L/d_x)^(2 d_x)].",
    formulas={"second_line": SECOND_LINE, "restored": RESTORED, "large_depth": LARGE_DEPTH, "closed_form": CLOSED},
    reading="The response's garbled last factor is read as (2 3^L / d_x)^(2 d_x), which follows from "
            "(3^L - 1)/d_x + 1 <= 2 3^L/d_x; its closed form is "
            "(2d_x+1)L + log3 d_x - 2 d_x log3(d_x / (2 sqrt(2e))).  The transcription's '2 · 3 / L−1' also "
            "reads as ((2 3^L - 1)/d_x)^(2 d_x), which lies between the two; both readings are checked.",
    checks=[InequalityChain([SECOND_LINE, RESTORED], ["<="], grid=GRID, search=100,
                            search_ranges={L: (1, 12), d_x: (1, 400)}, name="restored step, every (L, d_x)"),
            InequalityChain([RESTORED, LARGE_DEPTH, CLOSED], ["<=", "="], grid=GRID, regime=ABOVE_THRESHOLD,
                            search=100, search_ranges={L: (1, 12), d_x: (1, 400)},
                            name="large-depth steps for 3^L > d_x", reading="(2 3^L / d_x)^(2 d_x)"),
            InequalityChain([RESTORED, LARGE_DEPTH_MINUS, LARGE_DEPTH], ["<=", "<="], grid=GRID,
                            regime=ABOVE_THRESHOLD, search=30, search_ranges={L: (1, 12), d_x: (1, 400)},
                            name="large-depth step for 3^L > d_x, read as ((2 3^L - 1)/d_x)^(2 d_x)",
                            reading="((2 3^L - 1) / d_x)^(2 d_x)")],
)
