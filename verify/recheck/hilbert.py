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

from . import arith, formulas, network

__all__ = ["closure_hilbert", "closure_seconds", "monomial_seconds", "rows_seconds", "side_route", "eq74_key",
           "eq74_price", "eq74_at", "eq74_settled"]


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


def closure_hilbert(points: list[tuple], max_degree: int, p: int, work: list | None = None) -> list[int]:
    """[H(0), ..., H(max_degree)] of a point set mod p (p < 2^31) by the closure (module doc); ``work``: a list
    that receives the number of rows of each elimination (what ``closure_seconds`` bounds)."""
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
        stacked = np.vstack([basis] + products)
        if work is not None:
            work.append(len(stacked))
        echelon = _echelon(stacked, p)
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
    return rows_seconds(sum(min(cap, points) for cap in caps) + m * points, points, rank_rate, convert)


def rows_seconds(rows: int, points: int, rank_rate: float, convert: float) -> float:
    """Seconds of eliminating ``rows`` rows of ``points`` entries in all (``closure_seconds``; with the rows a run
    of ``closure_hilbert`` counted in ``work``, the price it settles at: a function of the points alone)."""
    return 0.05 + rows * points * (2 * convert + points / rank_rate)


def monomial_seconds(points: int, m: int, max_degree: int, rank_rate: float, convert: float) -> float | None:
    """Seconds of ``formulas.hilbert_at_positions`` where its one elimination covers every degree up to
    ``max_degree`` (the columns of every monomial up to it number at most 3 x the points), else None (the route
    would rank degree by degree: the closure is used)."""
    cols = sum(comb(j + m - 1, m - 1) if j else 1 for j in range(max_degree + 1))
    if cols > 3 * points:
        return None
    return 0.05 + points * cols * (convert + min(points, cols) / rank_rate)


# ------------------------------------------------------------------ eq. 7.4 at a cell's seeded positions

#: Eq. 7.4 at the positions and its settled price by ``eq74_key`` (pure functions of the key: shared between cells
#: and runs).
_EQ74_AT: dict = {}


def side_route(cell, size: int) -> tuple[float, object]:
    """(price, route) of H at the positions on a side of ``size`` positions: the monomial matrix
    (``formulas.hilbert_at_positions``) where one elimination covers every degree, else the closure, whichever is
    priced lower."""
    points, c = cell.vocab**size, formulas.layer_degree(cell.depth)
    m = (cell.vocab - 1) * (1 + cell.positional_rank)
    caps = [formulas.hilbert_cap(size, j, cell.vocab, cell.positional_rank) for j in range(c)]
    routes = [(closure_seconds(points, m, caps, network.RANK_RATE, network.CONVERT), closure_hilbert)]
    wide = monomial_seconds(points, m, c, network.RANK_RATE, network.CONVERT)
    if wide is not None:
        routes.append((wide, formulas.hilbert_at_positions))
    return min(routes, key=lambda r: r[0])


def eq74_key(cell, tokens: int) -> tuple:
    """What eq. 7.4 at the positions depends on: cells that differ only in heads share it (``Recheck.later``)."""
    return ("eq. 7.4 at the positions", cell.vocab, cell.positional_rank, cell.seed, tokens, cell.depth, cell.p)


def eq74_price(cell, tokens: int) -> float:
    half = tokens // 2
    return sum(side_route(cell, size)[0] for size in (half, half - 1) if size >= 1)


def eq74_at(cell, tokens: int) -> int:
    """Eq. 7.4 with H_B and H_A' computed at the cell's seeded positions mod p (``side_route``), once per
    ``eq74_key``; ``eq74_settled`` is then its price from the work done."""
    key = eq74_key(cell, tokens)
    if key not in _EQ74_AT:
        half, c = tokens // 2, formulas.layer_degree(cell.depth)
        pis = [arith.positional_coefficients(cell.positional_rank, cell.seed, j) for j in range(tokens)]
        settled = [0.0]

        def side(size, chosen):
            price, route = side_route(cell, size)
            points = formulas.side_points(cell.vocab, chosen)
            if route is not closure_hilbert:
                settled[0] += price
                return route(points, c, cell.p)
            work: list = []
            dims = route(points, c, cell.p, work)
            settled[0] += rows_seconds(sum(work), len(points), network.RANK_RATE, network.CONVERT)
            return dims
        h_b = side(half, pis[half:])
        h_a = side(half - 1, pis[1:half]) if half > 1 else [1] * (c + 1)
        _EQ74_AT[key] = (formulas.eq74(cell.depth, cell.vocab, tokens, lambda j: h_b[j], lambda j: h_a[j]),
                         settled[0])
    return _EQ74_AT[key][0]


def eq74_settled(cell, tokens: int) -> float:
    """The price of ``eq74_at`` at N from the rows its closure eliminated (deterministic: a function of the
    positions), at most ``eq74_price``."""
    return min(_EQ74_AT[eq74_key(cell, tokens)][1], eq74_price(cell, tokens))
