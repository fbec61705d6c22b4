"""The N-independent limit of a token cell recomputed by the recheck's own route (issue 46 item 8;
docs/mathematics.md §7 "The Gram route" and "The N-independent limit", MATH.md §11 "The rank lemma").

By §1 the output at the output position is e_p^T F(S) x^0, and on token inputs
S = K_0 + sum_v c_v E_v E_v^T + sum_{v,k} m_{v,k} (E_v u_k^T + u_k E_v^T) with c the token counts, m_v the sum of
the positional coefficients pi_j over the positions holding v, u_k the columns of P' and K_0 = sum_j p_j p_j^T;
so the token matrix at N is M[(w, s), t] = g_w(zeta_0(w) + s + t) with s, t the two sides' points (c, m) and
zeta_0(w) = (e_w, e_w (x) pi_0) the output position's.  The limit Lambda is the rank of that function with the
points on the sides' affine spaces {sum c = n_A, sum m = sigma_A} at generic side sums and K_0 (the engine draws a
random N, K_0 and side sums).  This module evaluates g_w at such points, which are no token sequences, by the
literal pass with column weights (``batched``): S = X diag(weights) X^T over the virtual columns E_v, E_v + u_k,
u_k, u_k + u_l of ``virtual_columns`` (each mapped by the same T(S), so the output vector x^0 = E_w + p_0 rides
along with weight 0), at the recheck's own random side sums and K_0, k random row points (w cycling over the
tokens) and k random column points:

- every such matrix has rank <= Lambda (it is A B with A of Lambda columns: MATH.md §11's rank lemma, upper side;
  mod p the rank of an integer polynomial matrix only drops), so a rank above a stated limit contradicts it;
- rank = the stated limit recomputes it as a certified lower bound (equal to it, the value's own argument);
- a rank below it (k too small, or a zero of a minor hit) is no contradiction: beyond this recheck.

``check_limit`` checks a file's limit columns (its value against the derivative bound, its label, its
probability and the ranks against it); ``first_even_n`` replaces the scans "the first even N whose counting cap
reaches X" by a doubling search, so a huge X in a file costs a few dozen steps, not X.
"""

from __future__ import annotations

import random
from math import comb

import numpy as np

from . import arith, formulas
from .batched import BatchedPass
from .core import BEYOND, CONFIRMED, CONTRADICTED, RECOMPUTED, Recheck
from .network import rank_seconds, seconds_per_sequence
from .repeats import product_over_runs
from .tokens import Cell, _same_bound

__all__ = ["first_even_n", "limit_rank", "limit_seconds", "check_limit_value", "check_limit", "EXTRA"]

#: Row and column points beyond the stated limit (a k x k matrix of rank Lambda needs k >= Lambda).
EXTRA = 4


def first_even_n(vocab: int, target: int, positional: bool) -> int | None:
    """The first even N >= 2 whose counting cap (V^(N/2) with positions, binom(N/2 + V - 1, V - 1) without;
    docs/mathematics.md §7) reaches ``target``, None if none does (V = 1); the cap grows with N, so doubling then
    bisection finds it."""
    def cap(n):
        half = n // 2
        return vocab**half if positional else comb(half + vocab - 1, vocab - 1)
    if vocab <= 1 and cap(2) < target:
        return None
    high = 2
    while cap(high) < target:
        high *= 2
    low = max(2, high // 2)
    if cap(low) >= target:
        return low
    while high - low > 2:  # cap(low) < target <= cap(high), both even
        mid = (low + high) // 2
        mid += mid % 2
        if cap(mid) >= target:
            high = mid
        else:
            low = mid
    return high


def limit_seconds(cell, k: int) -> float:
    """Price of ``limit_rank``: k^2 weighted passes over the virtual columns, a k x k rank, building the network."""
    big_r = cell.positional_rank
    columns = 2 * cell.vocab + cell.vocab * big_r + big_r + big_r * (big_r - 1) // 2  # E_v and the V output vectors
    return (k * k * seconds_per_sequence(cell.depth, cell.width, cell.heads, cell.attn_dim, columns)
            + rank_seconds(k, k) + cell.net.setup_seconds())


def _hyperplane(rng, count: int, v: int, total, p: int) -> np.ndarray:
    """``count`` points of GF(p)^V uniform on {sum = total} (total: a residue, or a vector of R residues for the
    positional sums: then points of GF(p)^(V x R)): V - 1 free coordinates, the last one fixed."""
    shape = (count, v - 1) + np.shape(total)
    free = np.array([rng.randrange(p) for _ in range(int(np.prod(shape)))], dtype=np.int64).reshape(shape)
    last = (np.asarray(total, dtype=np.int64) - free.sum(axis=1) % p) % p
    return np.concatenate([free, last[:, None]], axis=1) % p


def virtual_columns(cell) -> tuple[np.ndarray, int]:
    """The columns X (d_x, n) whose weighted Gram X diag(weights) X^T is S (module doc): E_v (v < V), E_v + u_k,
    u_k, u_k + u_l (k < l < R), and the output vectors E_w + p_0 (weight 0); returns X and the index of E_0 + p_0.

    S = K_0 + sum_v c_v E_v E_v^T + sum_{v,k} m_{v,k} (E_v u_k^T + u_k E_v^T) (docs/mathematics.md §7, the Gram
    route) is sum of weights times outer products with E_v u^T + u E_v^T = (E_v + u)(E_v + u)^T - E_v E_v^T - u u^T
    and K_0's off-diagonal terms written the same way (``weights``)."""
    p, v, big_r = cell.p, cell.vocab, cell.positional_rank
    e = cell.net.columns.T                                             # (d_x, V)
    u = np.array(arith._embedding_matrix(random.Random(f"verify-embedding:pos-left:{cell.seed}"), cell.width, big_r),
                 dtype=object).reshape(cell.width, big_r)
    u = (u % p).astype(np.int64)                                       # (d_x, R): the columns of P'
    pi0 = arith.positional_coefficients(big_r, cell.seed, 0)
    p0 = np.array([sum(int(u[i, k]) * pi0[k] for k in range(big_r)) % p for i in range(cell.width)], dtype=np.int64)
    cols = [e[:, w] for w in range(v)]
    cols += [(e[:, w] + u[:, k]) % p for w in range(v) for k in range(big_r)]
    cols += [u[:, k] for k in range(big_r)]
    cols += [(u[:, k] + u[:, j]) % p for k in range(big_r) for j in range(k + 1, big_r)]
    first_output = len(cols)
    cols += [(e[:, w] + p0) % p for w in range(v)]
    return np.array(cols, dtype=np.int64).T.reshape(cell.width, len(cols)), first_output


def weights(c: np.ndarray, m: np.ndarray, kappa: np.ndarray, p: int) -> np.ndarray:
    """Column weights (B, n) of ``virtual_columns`` for counts c (B, V), positional sums m (B, V, R) and K_0's
    coefficients kappa (R x R symmetric): c_v - sum_k m_vk, m_vk, kappa_kk - sum_v m_vk - sum_{l != k} kappa_kl,
    kappa_kl (k < l), and 0 for the output vectors."""
    b, v = c.shape
    big_r = m.shape[2]
    off = kappa.sum(axis=1) - np.diag(kappa)
    parts = [(c - m.sum(axis=2)) % p, m.reshape(b, v * big_r),
             (np.diag(kappa)[None, :] - m.sum(axis=1) - off[None, :]) % p,
             np.broadcast_to(np.array([kappa[k, j] for k in range(big_r) for j in range(k + 1, big_r)],
                                      dtype=np.int64), (b, big_r * (big_r - 1) // 2)),
             np.zeros((b, v), dtype=np.int64)]
    return np.concatenate(parts, axis=1) % p


def limit_rank(cell, k: int, seed: str) -> int:
    """Rank mod p of [g_w(zeta_0(w) + s_i + t_j)] at k random row points (w_i = i mod V, s_i) and k random column
    points t_j on the two sides' affine spaces, at random side sums and K_0 (module doc); a lower bound on the
    limit Lambda."""
    p, v, big_r = cell.p, cell.vocab, cell.positional_rank
    rng = random.Random(f"recheck-limit:{seed}:{k}")
    alpha, beta = rng.randrange(p), rng.randrange(p)
    sigma_a, sigma_b = [rng.randrange(p) for _ in range(big_r)], [rng.randrange(p) for _ in range(big_r)]
    kappa = np.array([[0] * big_r for _ in range(big_r)], dtype=np.int64).reshape(big_r, big_r)
    for i in range(big_r):
        for j in range(i, big_r):
            kappa[i, j] = kappa[j, i] = rng.randrange(p)
    rows_c, cols_c = _hyperplane(rng, k, v, alpha, p), _hyperplane(rng, k, v, beta, p)
    rows_m = _hyperplane(rng, k, v, sigma_a, p).reshape(k, v, big_r)
    cols_m = _hyperplane(rng, k, v, sigma_b, p).reshape(k, v, big_r)
    pi0 = np.array(arith.positional_coefficients(big_r, cell.seed, 0), dtype=np.int64) % p
    x, first_output = virtual_columns(cell)
    run = BatchedPass(cell.net.layers, p)
    tokens = np.arange(k) % v
    matrix = np.zeros((k, k), dtype=np.int64)
    for w in range(v):
        rows = np.flatnonzero(tokens == w)
        if not len(rows):
            continue
        c = (rows_c[rows][:, None, :] + cols_c[None, :, :]).reshape(-1, v) % p   # (rows k, V)
        c[:, w] = (c[:, w] + 1) % p                                               # zeta_0(w): the output's token
        m = (rows_m[rows][:, None] + cols_m[None, :]).reshape(len(rows) * k, v, big_r) % p
        m[:, w, :] = (m[:, w, :] + pi0[None, :]) % p                              # and its positional coefficients
        batch = np.broadcast_to(x, (len(c),) + x.shape)
        matrix[rows] = run.output(batch, cell.output, first_output + w,
                                  weights(c, m, kappa, p)).reshape(len(rows), k)
    return arith.nmod_rank(matrix, p)


def check_limit_value(rc, where: str, cell, stated: int, at_least: bool):
    """One line: the limit ``stated`` (``at_least``: a partial result '>= stated') recomputed (module doc); returns
    its finding."""
    shown = f"limit {'>= ' if at_least else ''}{stated}"
    k = stated + EXTRA

    def run():
        found = limit_rank(cell, k, where)
        if found < stated:
            found = max(found, limit_rank(cell, k + 8, where + ":more"))
        how = (f"the V-token weighted literal pass at {k} random row and column points on random side sums, mod "
               f"{cell.p}: rank {found}")
        if found > stated and not at_least:
            return CONTRADICTED, how + ", a certified lower bound on the limit above the stated limit"
        if found >= stated:
            return CONFIRMED, how + (", a certified lower bound" + (" at least" if at_least else " equal to")
                                     + " the stated limit")
        return BEYOND, how + f" < {stated}; not a contradiction (a random matrix is a lower bound)"
    return rc.later(where, f"{shown} recomputed", limit_seconds(cell, k), run)


def recheck_stated_limit(rc, where: str, cell, limit_text: str, at_least_text: str | None = None):
    """The atlas's or probe's limit as written ('661', '>= 299', or empty with ``limit_at_least``), recomputed
    by ``check_limit_value`` where one is stated; returns that finding, None where none is stated."""
    text = (limit_text or "").strip()
    at_least = text.startswith(">= ") or (not text and bool((at_least_text or "").strip()))
    value = text[3:] if text.startswith(">= ") else (text or (at_least_text or "").strip())
    if value.isdigit():
        return check_limit_value(rc, where, cell, int(value), at_least)
    return None


def check_limit(rc: Recheck, where: str, cell: Cell, limit, certified, upper, probability=None,
                ranks: dict | None = None, found: dict | None = None):
    """The N-independent limit: its upper bound is the derivative bound (docs/mathematics.md §7), certified
    exactly when it meets it, else its probability is docs/mathematics.md §7, the limit.  A rank that reaches it
    (``found``: N -> that rank's finding) proves it a lower bound; with a certified limit that proves its value.
    Returns the finding that stands for the limit's value (``recomputed`` only when it is proven), or None."""
    found = found or {}
    bound = formulas.derivative_bound(cell.depth, cell.width, cell.vocab, cell.positional_rank)
    if upper is not None:
        rc.check(where, f"limit upper bound {upper}", upper == bound,
                 "min over j0 of V sum_{j<j0} binom(j+m-1, m-1) + binom(C-j0+m, m)", f"the derivative bound is {bound}")
    if limit is None:
        return None
    reached = [n for n, r in sorted((ranks or {}).items()) if r == limit]
    reach = found.get(reached[0]) if reached else None
    trust = ("" if certified and limit == bound and reach is not None else
             f"the limit {limit} (the engine's limit route, not recomputed here" +
             ("; no rank of the file reaches it)" if reach is None else "; only its lower side is recomputed)"))
    value = rc.check(where, f"limit {limit} against the derivative bound", limit <= bound, f"at most {bound}",
                     f"above the derivative bound {bound}, which holds at every weight", needs=[reach], trust=trust)
    if certified is not None:
        rc.check(where, f"limit certified = {certified}", bool(certified) == (limit == bound),
                 "certified exactly when it meets the derivative bound",
                 f"the limit {'meets' if limit == bound else 'is below'} the derivative bound {bound}",
                 needs=[value])
    if probability is not None and not certified:
        exact = product_over_runs(lambda p: formulas.limit_probability(bound, cell.depth, cell.weight_range, p),
                                  cell.p, cell.limit_runs)
        rc.check(where, f"limit probability {probability}", _same_bound(probability, exact),
                 "the union over the doublings of min(k, upper) (entry_degree / |S'| + 1 / p) (docs/mathematics.md §7, "
                 "the limit)" + (f", multiplied over {cell.limit_runs} runs (Lemma R)" if cell.limit_runs > 1 else ""),
                 f"the proof gives {formulas.round_up(exact)} (docs/mathematics.md §7, the limit)",
                 trust=f"that the limit {limit} was computed by the doubling route of docs/mathematics.md §7")
    if ranks:
        above = [n for n, r in ranks.items() if r > limit]
        if certified:
            rc.check(where, f"limit {limit} above every rank", not above, "no rank exceeds a certified limit",
                     f"ranks above it at N = {above}", needs=[value] + [found.get(n) for n in ranks])
        if reached:
            rc.add(where, f"limit {limit} as a lower bound", RECOMPUTED,
                   f"the rank at N = {reached[0]} (rechecked on its own line) reaches it", needs=[reach])
    return value
