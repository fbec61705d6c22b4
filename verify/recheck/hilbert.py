"""H at the positions by the closure of the degree filtration (issue 46 item 8): the recheck's second route to
eq. 7.4's Hilbert functions, for point sets whose monomial matrices (``formulas.hilbert_at_positions``) are too wide.

W_j is the space of functions s -> f(z(s)) on the points with deg f <= j (docs/mathematics.md eq. 7.4), H(j) = dim
W_j.  Two facts, each a line of proof:

- **closure**: W_j = W_{j-1} + sum_t z_t N_{j-1} for any complement N_{j-1} of W_{j-2} in W_{j-1} (W_{-1} = 0).
  A monomial of degree j is z_t times one of degree j - 1, so W_j = W_{j-1} + sum_t z_t W_{j-1}; and
  z_t W_{j-2} lies in W_{j-1}, so only the complement adds anything.
- **stabilisation**: H(j) = H(j - 1) implies H(i) = H(j) for every i >= j (N_j = 0, so W_{j+1} = W_j), and H
  never exceeds the number of points.

The complement is read off a reduced echelon basis (FLINT's ``nmod_mat.rref``, over GF(p)): the leading positions
of a space's vectors are its echelon rows' pivots, a set that only grows with the space, and the rows of W_{j-1}'s
echelon basis whose pivots W_{j-2} lacks are independent of W_{j-2} (any combination of them leads at one of those
pivots) and as many as dim W_{j-1} - dim W_{j-2}: a complement.  The engine states the same closure and keeps a
different complement (pivot columns of products); this module shares no code with it, and the tests compare it with
the monomial-matrix route and with brute force.

Cost (``closure_seconds``, priced before it runs): each degree eliminates the echelon basis and t-multiples of the
new rows, (h + m |N|) x n; the new rows number at most n over all degrees and h is at most eq. 7.4's proven cap
on H, so the work is at most (sum of the caps + m n) rows of n entries (the rates of ``network``).
"""

from __future__ import annotations

from math import comb

import numpy as np

__all__ = ["closure_hilbert", "closure_seconds", "monomial_seconds"]


def _echelon(stacked: np.ndarray, p: int) -> np.ndarray:
    """The nonzero rows of the reduced echelon form of ``stacked`` over GF(p), as int64 residues."""
    import flint

    reduced, rank = flint.nmod_mat(stacked.tolist(), p).rref()
    if rank == 0:
        return np.zeros((0, stacked.shape[1]), dtype=np.int64)
    rows = reduced.tolist()[:rank]
    return np.array([[int(c) for c in row] for row in rows], dtype=np.int64)


def _pivots(echelon: np.ndarray) -> np.ndarray:
    """The leading (first nonzero) position of each row of an echelon basis."""
    return np.argmax(echelon != 0, axis=1)


def closure_hilbert(points: list[tuple], max_degree: int, p: int) -> list[int]:
    """[H(0), ..., H(max_degree)] of a point set mod p (p < 2^31) by the closure (module doc)."""
    n = len(points)
    if n == 0:
        return [0] * (max_degree + 1)
    m = len(points[0])
    z = np.array([[c % p for c in pt] for pt in points], dtype=np.int64).reshape(n, m)
    basis = np.ones((1, n), dtype=np.int64)  # W_0: the constants, already reduced
    new = basis
    dims = [1]
    while len(dims) <= max_degree:
        if len(basis) == n or len(new) == 0:  # every function on the points, or stabilised (module doc)
            dims.append(len(basis))
            continue
        products = [(new * z[:, t][None, :]) % p for t in range(m)]  # each product of two residues < 2^62
        echelon = _echelon(np.vstack([basis] + products), p)
        old = set(_pivots(basis).tolist())
        new = echelon[[i for i, c in enumerate(_pivots(echelon).tolist()) if c not in old]]
        basis = echelon
        dims.append(len(basis))
    return dims


def closure_seconds(points: int, m: int, caps: list[int], rank_rate: float, convert: float) -> float:
    """An upper bound on ``closure_hilbert``'s seconds (module doc), ``caps[j]`` a proven cap on H(j) for
    j = 0..max_degree - 1 (eq. 7.4's caps): degree j eliminates the basis of W_{j-1} (at most min(caps[j - 1],
    points) rows) and m multiples of each new row (at most ``points`` new rows over all degrees), each row of
    ``points`` entries converted in and out and eliminated against at most ``points`` pivots."""
    rows = sum(min(cap, points) for cap in caps) + m * points
    return 0.05 + rows * points * (2 * convert + points / rank_rate)


def monomial_seconds(points: int, m: int, max_degree: int, rank_rate: float, convert: float) -> float | None:
    """Seconds of ``formulas.hilbert_at_positions`` where its one elimination covers every degree up to
    ``max_degree`` (the columns of every monomial up to it number at most 3 x the points), else None (the route
    would rank degree by degree: the closure is used)."""
    cols = sum(comb(j + m - 1, m - 1) if j else 1 for j in range(max_degree + 1))
    if cols > 3 * points:
        return None
    return 0.05 + points * cols * (convert + min(points, cols) / rank_rate)
