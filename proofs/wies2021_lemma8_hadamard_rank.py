"""Lemma 8 (vocabulary paper): a natural-number matrix with constant row norms whose
Hadamard power (A A^T)^{.lambda} has full rank ((d over lambda)), exhibited and ranked exactly."""

from itertools import product
from math import comb

import flint

from verify.authoring import Claim, Property, shifted

from ._common import WIES, Source

CASES = [(1, 1), (1, 3), (2, 1), (2, 2), (2, 3), (3, 1), (3, 2), (2, 4), (3, 3), (4, 2)]  # d = 1: the edge


def find_matrix(d: int, lam: int):
    """Rows: non-negative integer vectors of one squared norm c, the smallest c with enough of them,
    taken in lexicographic order until (A A^T)^{.lam} reaches rank ((d over lam)) (greedy, exact)."""
    need = comb(d + lam - 1, lam)
    for c in range(1, 5000):
        bound = int(c**0.5) + 1
        vectors = [v for v in product(range(bound), repeat=d) if sum(x * x for x in v) == c]
        if len(vectors) < need:
            continue
        chosen = []
        for v in vectors:
            trial = chosen + [v]
            gram = [[sum(a * b for a, b in zip(x, y, strict=False)) ** lam for y in trial] for x in trial]
            if flint.fmpz_mat(gram).rank() == len(trial):
                chosen = trial
            if len(chosen) == need:
                return c, chosen
    return None, None


def _check(extra: int = 0):
    """extra > 0: the count + extra (one more row, any non-negative integer vector) at full rank."""
    rows = []
    for d, lam in CASES:
        c, rows_of_a = find_matrix(d, lam)
        if c is None:
            return False, f"no matrix found for d={d}, lambda={lam}", {"d": d, "lambda": lam}
        if extra:
            more = list(rows_of_a) + [tuple(range(2, d + 2))] * extra
            gram = [[sum(a * b for a, b in zip(x, y, strict=False)) ** lam for y in more] for x in more]
            if flint.fmpz_mat(gram).rank() < len(more):
                return False, f"d={d} lambda={lam}: {len(more)} rows reach rank {flint.fmpz_mat(gram).rank()} " \
                              f"only", None
        rows.append(f"d={d} lambda={lam}: {len(rows_of_a)} rows of squared norm {c}")
    return True, "exhibited, full rank checked exactly over Z: " + "; ".join(rows), None


CLAIM = Claim(
    id="wies2021_lemma8_hadamard_rank",
    source=Source(WIES, "appendix B.3", "Lemma 8, eq. 23"),
    statement="For any d, lambda there is A in N^{((d over lambda)) x d} with constant row norm such that "
              "rank((A A^T)^{.lambda}) = ((d over lambda)).",
    reading="The transcription writes binom(d, lambda); the proof counts compositions k_1 + ... + k_d = lambda, "
            "i.e. the multiset coefficient ((d over lambda)), which is what is checked.",
    checks=[Property(_check, name="explicit natural-number matrices, exact rank",
                     perturb={"((d over lambda)) + 1 rows at full rank": shifted(_check, extra=1)})],
)
