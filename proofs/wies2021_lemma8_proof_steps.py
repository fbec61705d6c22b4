"""Appendix B.3, proof of Lemma 8 (eqs. 24-26), on the matrices Lemma 8's claim exhibits: the multinomial
expansion of (A A^T)^{.lambda} entry by entry, its ((d over lambda)) rank-one terms, the factorisation
(A A^T)^{.lambda} = C D C^T with C's columns a^{(k)} and D the multinomial coefficients, so that
rank (A A^T)^{.lambda} = rank C; and the binomial reading of the transcription."""

from itertools import product
from math import comb, factorial

import flint

from verify.authoring import Claim, Property, shifted

from ._common import WIES, Source
from .wies2021_lemma8_hadamard_rank import CASES, find_matrix


def _compositions(d: int, lam: int):
    return [k for k in product(range(lam + 1), repeat=d) if sum(k) == lam]


def _multinomial(lam: int, ks) -> int:
    out = factorial(lam)
    for x in ks:
        out //= factorial(x)
    return out


def _power(v, ks) -> int:
    out = 1
    for x, e in zip(v, ks, strict=False):
        out *= x**e
    return out


def _steps(extra_terms: int = 0, extra_rows: int = 0):
    """eqs. 25-26 entry by entry; eq. 24 as C D C^T; rank = rank C = ((d over lambda)).
    extra_terms: claim ((d over lambda)) + extra_terms terms; extra_rows: rows beyond ((d over lambda))."""
    lines = []
    for d, lam in CASES:
        _, rows = find_matrix(d, lam)
        rows = [list(v) for v in rows]
        if extra_rows:  # one more non-negative integer row (any norm): the rank cannot grow past ((d over lambda))
            rows = rows + [[alpha + 2 for alpha in range(d)]]
        ks = _compositions(d, lam)
        if len(ks) != comb(d + lam - 1, lam) + extra_terms:
            return False, f"d={d} lambda={lam}: {len(ks)} terms", {"d": d, "lambda": lam}
        hadamard = [[sum(x * y for x, y in zip(a, b, strict=False)) ** lam for b in rows] for a in rows]
        expanded = [[sum(_multinomial(lam, k) * _power(a, k) * _power(b, k) for k in ks) for b in rows] for a in rows]
        c = flint.fmpz_mat([[_power(a, k) for k in ks] for a in rows])
        dmat = flint.fmpz_mat([[_multinomial(lam, k) if i == j else 0 for j, k in enumerate(ks)]
                               for i, _ in enumerate(ks)])
        if hadamard != expanded or flint.fmpz_mat(hadamard) != c * dmat * c.transpose():
            return False, f"d={d} lambda={lam}: expansion differs", {"d": d, "lambda": lam}
        rank_h, rank_c = flint.fmpz_mat(hadamard).rank(), c.rank()
        if rank_h != rank_c or rank_h != len(rows):
            return False, f"d={d} lambda={lam}: rank (AA^T)^lambda = {rank_h}, rank C = {rank_c}, rows {len(rows)}", \
                {"d": d, "lambda": lam}
        lines.append(f"d={d} lambda={lam}: {len(ks)} terms, rank {rank_h} = rank C")
    return True, "; ".join(lines), None


def _binomial_reading():
    """binom(d, lambda) rows (the transcription's binomial): the first binom(d, lambda) rows of the exhibited
    A are a principal submatrix of a positive definite Gram-Hadamard matrix, hence full rank."""
    lines = []
    for d, lam in CASES:
        need = comb(d, lam)
        _, rows = find_matrix(d, lam)
        sub = [[sum(x * y for x, y in zip(a, b, strict=False)) ** lam for b in rows[:need]] for a in rows[:need]]
        rank = flint.fmpz_mat(sub).rank() if need else 0
        if rank != need:
            return False, f"d={d} lambda={lam}: rank {rank} < binom = {need}", {"d": d, "lambda": lam}
        lines.append(f"d={d} lambda={lam}: binom {need}, rank {rank}")
    return True, "; ".join(lines), None


CLAIM = Claim(
    id="wies2021_lemma8_proof_steps",
    source=Source(WIES, "appendix B.3", "proof of Lemma 8, eqs. 24-26"),
    statement="((A A^T)^{.lambda})_{ab} = (sum_r v_r^a v_r^b)^lambda = sum_{k_1+..+k_d = lambda} multinomial(lambda; "
              "k) prod (v_r^a)^{k_r} prod (v_r^b)^{k_r}: a sum of ((d over lambda)) rank-one terms a^{(k)} (x) "
              "b^{(k)}, full rank iff the a^{(k)} are independent (det C != 0).",
    domain="(d, lambda) in " + ", ".join(f"({d}, {lam})" for d, lam in CASES) + ", with Lemma 8's exhibited A",
    reading="Checked with the natural-number matrices found by wies2021_lemma8_hadamard_rank; the transcription's "
            "binom(d, lambda) rows are checked as a second reading (a principal submatrix of the full-rank matrix), "
            "which Lemma 8 then also satisfies.",
    checks=[Property(_steps, name="eqs. 24-26 exactly, rank = rank C",
                     perturb={"((d over lambda)) + 1 terms": shifted(_steps, extra_terms=1),
                              "((d over lambda)) + 1 independent rows": shifted(_steps, extra_rows=1)}),
            Property(_binomial_reading, name="binomial reading: binom(d, lambda) rows, full rank")],
)
