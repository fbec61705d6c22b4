from verify.authoring import Claim, InequalityChain

from ._common import MAIN, C, H, L, Source, d_x, log3

STEPS = [log3((H * (d_x / H + 1)) ** C), (3**L - 1) / 2 * log3(d_x + H)]

CLAIM = Claim(
    id="levine2020_supp1_eq7_identity",
    source=Source(MAIN, "supplement A.2", "step after Theorem 3 (eq. 7 of the revised supplement)"),
    statement="log3((H(d_a + 1))^C(L)) = (3^L - 1)/2 log3(d_x + H) when d_a = d_x/H: Theorem 3 gives "
              "Theorem 1's upper bound.",
    formulas={"lhs": STEPS[0], "rhs": STEPS[1]},
    checks=[InequalityChain(STEPS, ["="], grid={L: list(range(1, 6)), d_x: list(range(1, 30)),
                                                H: list(range(1, 30))},
                            condition=lambda p: p[d_x] % p[H] == 0, search=0, name="identity")],
)
