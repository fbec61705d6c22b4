"""The Hadamard-power rank bound used in the first supplement's B.2 (citing Amini et al. 2012): a rank-r
matrix raised to the Hadamard power p has rank <= ((r over p)); and rank V V^T <= the columns of V."""

import random
from math import comb

import flint
from hypothesis import strategies as st

from verify.authoring import Cases, Claim, neighbour

from ._common import MAIN, Source

#: (r, p): r = 1 and p = 1 are the edges; up to ((3 over 4)) = 15.
CASES = [(1, 1), (1, 3), (2, 1), (2, 2), (2, 3), (3, 2), (3, 3), (2, 5), (3, 4)]


def _case(r, p, stated=lambda r, p: comb(r + p - 1, p)):
    """Random integer U (n x r), W (n x r), n = ((r over p)) + 2: rank (U W^T)^{.p} and (U U^T)^{.p}."""
    n = comb(r + p - 1, p) + 2
    rng = random.Random(f"hadamard:{r}:{p}")
    u = [[rng.randint(-9, 9) for _ in range(r)] for _ in range(n)]
    w = [[rng.randint(-9, 9) for _ in range(r)] for _ in range(n)]
    gram = flint.fmpz_mat([[sum(a * b for a, b in zip(x, y, strict=False)) ** p for y in u] for x in u])
    cross = flint.fmpz_mat([[sum(a * b for a, b in zip(x, y, strict=False)) ** p for y in w] for x in u])
    plain = flint.fmpz_mat([[sum(a * b for a, b in zip(x, y, strict=False)) for y in u] for x in u]).rank()
    bound = stated(r, p)
    ranks = (gram.rank(), cross.rank())
    ok = plain <= r and all(k <= bound for k in ranks)
    return ok, f"r={r} p={p}: rank U U^T = {plain} <= r; Hadamard power ranks {ranks} <= {bound} ({n} rows)", \
        None if ok else {"r": r, "p": p, "ranks": list(ranks), "bound": bound}


CLAIM = Claim(
    id="levine2020_supp1_hadamard_rank",
    source=Source(MAIN, "supplement B.2", "'raising a rank r matrix to the Hadamard power of p results in a matrix "
                                          "upper bounded by ((r over p))'; 'the rank of V V^T is upper bounded by "
                                          "(d_x-H)/2'"),
    statement="rank(A^{.p}) <= ((r over p)) for rank A = r; rank(V V^T) <= the number of columns of V.",
    domain="r = 1..3, p = 1..5, n = ((r over p)) + 2 rows, random integer factors (Gram U U^T and U W^T), exact ranks; "
           "a hypothesis search of 15 (r, p) with r, p <= 4",
    reading="The printed bound on rank V V^T reads binom((d_x - H), 2) in this transcription; V has (d_x - H)/2 "
            "columns, which is read (the other reading is a weaker bound that is also true for d_x - H >= 2).",
    checks=[Cases(CASES, _case, name="exact ranks of Hadamard powers",
                  strategy=st.tuples(st.integers(1, 4), st.integers(1, 4)), search=15,
                  perturb={"rank <= ((r over p)) - 1 (the bound one lower)":
                           neighbour(_case, stated=lambda r, p: comb(r + p - 1, p) - 1)})],
)
