"""What the lower-bound proof establishes (first supplement B.2 with Lemma 4), executed: the
construction's grid sub-matrix with M/2 = ((d over lambda)) unit rows of V has rank ((d over lambda)),
at lambda = 3^(L-2) = 1 and at lambda = 3 (a true Hadamard power), exactly over Q(i)."""

import random
from fractions import Fraction
from math import comb

import flint

from verify.authoring import Cases, Claim, shifted
from verify.authoring.constructions import grid_submatrix, hadamard_target, proportional

from ._common import MAIN, Source

#: (d_x, H, L): d_a = 5 (H = 1), 3 (H = 2) and 4 (H = 2, even: d = 2 < floor((d_x-H)/2) = 3); L = 2 and 3.
CASES = [(5, 1, 2), (5, 1, 3), (6, 2, 3), (8, 2, 3)]


def unit_rows(count: int, dim: int, seed: int) -> list[list[Fraction]]:
    """``count`` rational unit vectors in Q^dim, no two equal up to sign (inverse stereographic projection of
    random rational points; a repeated row, or its negative, would lower the rank for a trivial reason)."""
    rng = random.Random(seed)
    rows: list[list[Fraction]] = []
    while len(rows) < count:
        t = [Fraction(rng.randint(-60, 60), rng.randint(1, 25)) for _ in range(dim - 1)]
        norm = sum(x * x for x in t)
        row = [2 * x / (norm + 1) for x in t] + [(norm - 1) / (norm + 1)]
        if row not in rows and [-x for x in row] not in rows:
            rows.append(row)
    return rows


def _case(extra_rows=0, claimed=lambda m, extra: m):
    """Rank of the grid sub-matrix with ((d over lambda)) + extra_rows rows of V; ``claimed`` is the stated rank."""
    def per_case(width, heads, depth):
        d_a, lam = width // heads, 3 ** (depth - 2)
        d = heads * ((d_a - 1) // 2)
        m = comb(d + lam - 1, lam)
        v = unit_rows(m + extra_rows, d, 1000 * width + 10 * heads + depth)
        target = hadamard_target(v, lam)
        holds, const = proportional(grid_submatrix(width, heads, depth, 2, v), target)
        rank = flint.fmpq_mat([[flint.fmpq(x.numerator, x.denominator) for x in row] for row in target]).rank()
        want = claimed(m, extra_rows)
        ok = holds and rank == want
        printed_d = (width - heads) // 2
        line = (f"d_x={width} H={heads} L={depth}: d = H floor((d_a-1)/2) = {d} (floor((d_x-H)/2) = {printed_d}), "
                f"{m + extra_rows} rows, grid = Const (V V^T)^(.{lam}): {holds}, rank {rank}, stated {want}")
        return ok, line, None if ok else {"d_x": width, "H": heads, "L": depth, "rank": rank, "stated": want}
    return per_case


CLAIM = Claim(
    id="levine2020_supp1_lower_quantity_construction",
    source=Source(MAIN, "supplement B.2", "choice M/2 = ((d over 3^(L-2))) with Lemma 4 (eq. 16): the sub-matrix "
                                          "has full rank"),
    statement="With M/2 = ((d over lambda)) rows of V, lambda = 3^(L-2), the grid sub-matrix of Lemma 4's construction "
              "is Const (V V^T)^{.lambda} of full rank ((d over lambda)); with more rows its rank stays ((d over "
              "lambda)).",
    domain="L = 2 (lambda = 1) and L = 3 (lambda = 3), d_x = 5, 6, 8, H = 1, 2, N = 2; V of random rational unit rows",
    reading="Executed with the corrected construction (claim levine2020_supp1_lemma4_construction), whose V has "
            "d = H floor((d_a-1)/2) columns: d = (d_x-H)/2 when d_a is odd, but for even d_a it is (d_x-2H)/2, so for "
            "even d_a with H >= 2 the construction reaches only ((H(d_a-2)/2 over lambda)) (d_x = 8, H = 2, L = 3: 4, "
            "where the certificates' bound ((floor((d_x-H)/2) over lambda)) is 10).  Rows are random rational unit "
            "vectors, no two equal up to sign, not the Omega rows (those need square roots); their full rank is "
            "checked, not assumed.",
    checks=[Cases(CASES, _case(), name="full rank ((d over lambda)) from the executed construction",
                  perturb={"one row more gives rank ((d over lambda)) + 1":
                           shifted(_case, factory=True, given=dict(claimed=lambda m, extra: m + extra),
                                   extra_rows=1)})],
)
