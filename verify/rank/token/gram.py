"""y = e_p^T F(S) x^i on token inputs, many Gram sums at once, mod a prime below 2^31.

``docs/mathematics.md`` §1 and §6.  With x^j = E_{w_j} + p_j (vocabulary column plus positional
column p_j = P' pi_j of rank R), the Gram sum is

    S = sum_j x^j x^jT = K0 + sum_v c_v E_v E_vT + sum_{v,k} m_{v,k} (E_v u_kT + u_k E_vT),

with c_v the number of positions holding token v, m_v = sum_{j : w_j = v} pi_j in Z^R, u_k = P' e_k
and K0 = sum_j p_j p_jT (the same for every token assignment).  So y depends on the tokens only
through the point z = (c, m) in Z^(V (1 + R)), and z is additive over positions:
z = sum_j zeta_j(w_j) with zeta_j(w) = (e_w, e_w (x) pi_j).  ``GramModel`` holds the basis matrices
of S(z) and evaluates the output row of F(S(z)) for a batch of points z with numpy int64.

Exactness of the int64 arithmetic: every stored value is reduced to [0, p) with p < 2^31, so a
product of two is < 2^62 and the sum of two reduced values is < 2^32; elementwise products are
reduced before they are added, and the products are ``verify.exact.modp.int64_product``, which splits
its right factor into 16-bit limbs so that each matmul's sums stay below 2^62 (argument in its
docstring): nothing exceeds 2^63.
"""

from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor

import numpy as np

from ...exact import tuning
from ...exact.modp import int64_product as _mm
from ...exact.modp import reduce_int64 as _reduce
from ...exact.modp import residues
from ...model.embeddings import VocabularyEmbedding
from ...model.network import layer_maps
from ...model.spec import NetworkSpec, Weights

__all__ = ["TOKEN_PRIME", "GramModel", "token_prime"]

#: The prime of the token routes when the requested field's prime does not fit int64 products.
TOKEN_PRIME = 2**31 - 1
#: Pairs from which ``evaluate_grid`` runs the compiled loop (``grid_loop``) by default: loading it from
#: numba's cache costs about half a second a process (more when it compiles), the numpy passes about 3.6 us a
#: pair at depth 3, so small grids (tests, small probe rows) stay on numpy.
COMPILED_MIN_PAIRS = 1 << 17
#: Threads of the compiled grid (one a core this process may use).
THREADS = max(1, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1))
#: Points evaluated per numpy batch (bounds the temporaries: a few arrays of CHUNK d x d int64).
CHUNK = tuning.TOKEN_BATCH


def token_prime(modulus: int | None) -> int:
    """The prime of the token routes: the field's own when it is below 2^31, else 2^31 - 1."""
    return modulus if modulus is not None and modulus < 2**31 else TOKEN_PRIME


def _compiled_grid():
    """``grid_loop.grid`` (numba, compiled on first use), or None where numba is missing or cannot cache."""
    try:
        from .grid_loop import grid
    except (ImportError, RuntimeError):
        return None
    return grid


class GramModel:
    """The network's output row as a function of the token point z = (c, m), mod p.

    Coordinates: z[v] = c_v for v < V, then z[V + v R + k] = m_{v,k}.  ``evaluate(z, w)`` is
    e_p^T F(S(z)) x for the query vector x = E_w + p_query (eq. 3 through docs/mathematics.md §1).
    """

    spec: NetworkSpec
    embedding: VocabularyEmbedding
    p: int
    #: per layer, per head, the pair (A, B) of d x d residue arrays of ``layer_maps``
    maps: list[list[tuple[np.ndarray, np.ndarray]]]
    pi: list[np.ndarray]
    #: the columns u_k of P' (object arrays), empty without positional embeddings
    u: list[np.ndarray]
    basis: np.ndarray
    dim: int
    constant: np.ndarray
    compiled: bool | None
    queries: np.ndarray

    def __init__(self, spec: NetworkSpec, weights: Weights, embedding: VocabularyEmbedding, p: int,
                 query_position: int = 0, constant: np.ndarray | None = None) -> None:
        if p >= 2**31:
            raise ValueError("GramModel needs a prime below 2^31 (int64 products)")
        self.spec, self.embedding, self.p = spec, embedding, p
        d, vocab, big_r = spec.width, embedding.vocab, embedding.positional_rank
        self.maps = [[(residues(a, p), residues(b, p)) for a, b in layer] for layer in layer_maps(weights)]
        cols = [np.array(c, dtype=object) for c in embedding.columns]
        basis = [np.outer(e, e) for e in cols]
        self.pi, self.u = [], []
        if big_r:
            left = VocabularyEmbedding._matrix(embedding._rng("pos-left"), d, big_r)  # P' as in embedding.position
            self.u = [np.array([left[i][k] for i in range(d)], dtype=object) for k in range(big_r)]
            basis += [np.outer(cols[v], self.u[k]) + np.outer(self.u[k], cols[v]) for v in range(vocab)
                      for k in range(big_r)]
        self.basis = np.array([[[int(x) % p for x in row] for row in m] for m in basis], dtype=np.int64)
        self.dim = len(basis)
        self.constant = np.zeros((d, d), dtype=np.int64) if constant is None else np.asarray(constant) % p
        query = np.array(embedding.position(query_position), dtype=object) if big_r else 0
        #: the layer maps as layers x heads x d x d arrays, for the compiled grid (``grid_loop``)
        self._stacked_a = np.array([[a for a, _ in layer] for layer in self.maps], dtype=np.int64)
        self._stacked_b = np.array([[b for _, b in layer] for layer in self.maps], dtype=np.int64)
        #: whether ``evaluate_grid`` runs the compiled loop: True always, False never (the numpy passes, the
        #: reference), None from ``COMPILED_MIN_PAIRS`` pairs on
        self.compiled = None
        self.queries = np.array([[int(x) % p for x in (np.array(c, dtype=object) + query)] for c in embedding.columns],
                                dtype=np.int64)

    def position_vector(self, j: int) -> list[int]:
        """pi_j in Z^R: position j's coordinates in the columns u_k of P' (embedding.position(j) = P' pi_j)."""
        import random

        from ...model.embeddings import EMBEDDING_RANGE
        rng = random.Random(f"verify-embedding:pos:{self.embedding.seed}:{j}")
        return [rng.randint(-EMBEDDING_RANGE, EMBEDDING_RANGE) for _ in range(self.embedding.positional_rank)]

    def zeta(self, j: int) -> np.ndarray:
        """zeta_j(w) for every token w: a V x dim integer array (rows: tokens), reduced mod p."""
        vocab, big_r = self.embedding.vocab, self.embedding.positional_rank
        out = np.zeros((vocab, self.dim), dtype=np.int64)
        out[np.arange(vocab), np.arange(vocab)] = 1
        if big_r:
            pi = [x % self.p for x in self.position_vector(j)]
            for v in range(vocab):
                out[v, vocab + v * big_r:vocab + (v + 1) * big_r] = pi
        return out

    def positions_constant(self, tokens: int) -> np.ndarray:
        """K0 = sum_{j < N} p_j p_jT mod p (zero without positional embeddings)."""
        d = self.spec.width
        acc = np.zeros((d, d), dtype=object)
        if self.embedding.positional_rank:
            for j in range(tokens):
                pos = np.array(self.embedding.position(j), dtype=object)
                acc = acc + np.outer(pos, pos)
        return np.array([[int(x) % self.p for x in row] for row in acc], dtype=np.int64)

    def gram(self, z: np.ndarray, constant: bool = True) -> np.ndarray:
        """S(z) mod p for a batch of points (n x dim, entries in [0, p)) -> n x d x d; K0 is added unless
        ``constant`` is False (S is affine in z, so two sides' linear parts add: ``evaluate_grid``)."""
        p = self.p
        d = self.spec.width
        flat = _mm(np.ascontiguousarray(z), self.basis.reshape(self.dim, d * d), p)  # sum_t z_t B_t
        flat = flat.reshape(len(z), d, d)
        return _reduce(flat + self.constant, p) if constant else flat

    def _layer_map(self, layer: int, s: np.ndarray, identity: bool = True) -> np.ndarray:
        """G_l = sum_h A_h S B_h (+ I with residuals, unless ``identity`` is False) for a batch of S."""
        p = self.p
        g = None
        for a, b in self.maps[layer]:
            term = _mm(_mm(a, s, p), b, p)
            g = term if g is None else _reduce(g + term, p)
        if identity and self.spec.residual:
            g = _reduce(g + np.eye(self.spec.width, dtype=np.int64), p)
        return g

    def _rows_from(self, s: np.ndarray, g: np.ndarray | None) -> np.ndarray:
        """Row p of F(S) = G_L ... G_1 for a batch of S = S_1, given G_1 = g where known (``None``: from S).

        S_{l+1} = G_l S_l G_l^T; of the last layer only row p is formed, e_p^T (sum_h A_h S_L B_h [+ I]),
        and S_L itself never is: with G = G_{L-1}, e_p^T A_h S_L B_h = (((e_p^T A_h) G) S_{L-1}) (G^T B_h),
        four vector-matrix products instead of two matrix products.  Then the row is multiplied by
        G_{L-1}, ..., G_1 one vector-matrix product at a time."""
        p, spec = self.p, self.spec
        last = len(self.maps) - 1
        maps = []
        for layer in range(last):
            g = self._layer_map(layer, s) if (layer or g is None) else g
            maps.append(g)
            if layer < last - 1:
                s = _mm(_mm(g, s, p), np.swapaxes(g, -1, -2), p)
        row = None
        for a, b in self.maps[last]:
            term = a[spec.output:spec.output + 1]
            if maps:  # e_p^T A_h G S_{L-1} G^T
                term = _mm(_mm(_mm(term, maps[-1], p), s, p), np.swapaxes(maps[-1], -1, -2), p)
            else:
                term = _mm(term, s, p)
            term = _mm(term, b, p)
            row = term if row is None else _reduce(row + term, p)
        if spec.residual:
            row = _reduce(row + np.eye(spec.width, dtype=np.int64)[spec.output:spec.output + 1], p)
        for g in reversed(maps):
            row = _mm(row, g, p)
        return row[:, 0, :]

    def output_rows(self, s: np.ndarray) -> np.ndarray:
        """Row p of F(S) for a batch of Gram matrices (n x d x d) -> n x d, mod p."""
        return self._rows_from(s, None)

    def _dot_queries(self, rows: np.ndarray, query: np.ndarray) -> np.ndarray:
        """rows . x_w for each row and its query token w, mod p."""
        x = self.queries[query]
        return _mm(rows[:, None, :], x[:, :, None], self.p)[:, 0, 0]

    def evaluate(self, z: np.ndarray, query: np.ndarray) -> np.ndarray:
        """y = e_p^T F(S(z)) x_{query} for each point z (rows) and query token (same length), mod p."""
        out = np.empty(len(z), dtype=np.int64)
        for start in range(0, len(z), CHUNK):
            part = slice(start, start + CHUNK)
            out[part] = self._dot_queries(self.output_rows(self.gram(z[part])), query[part])
        return out

    def evaluate_grid(self, left: np.ndarray, right: np.ndarray, query: np.ndarray) -> np.ndarray:
        """The matrix [y(z_left + z_right)] (row i's query token ``query[i]``), mod p, equal to ``evaluate``
        of every pairwise sum.  S and layer 1's map G_1 are affine in z (G_1 linear in S), so both are
        formed once per side point and added (k_a + k_b of them instead of k_a k_b); only layers 2..L
        run on every pair.  With one layer G_1 is the last map, of which only row p is formed."""
        p, d = self.p, self.spec.width
        s_left, s_right = self.gram(left), self.gram(right, constant=False)
        first = len(self.maps) > 1
        if first:
            g_left, g_right = self._layer_map(0, s_left), self._layer_map(0, s_right, identity=False)
        out = np.empty((len(left), len(right)), dtype=np.int64)
        wanted = self.compiled if self.compiled is not None else out.size >= COMPILED_MIN_PAIRS
        loop = _compiled_grid() if wanted else None
        if loop is not None and out.size:
            if not first:
                g_left = g_right = np.zeros((1, d, d), dtype=np.int64)
            queries = self.queries[query]

            def band(part: slice) -> None:  # rows of ``part``: each band writes only its own rows of ``out``
                loop(s_left[part], s_right, g_left[part] if first else g_left, g_right, self._stacked_a,
                       self._stacked_b, int(self.spec.residual), self.spec.output, queries[part], p, out[part])

            bands = [slice(i * len(left) // THREADS, (i + 1) * len(left) // THREADS) for i in range(THREADS)]
            with ThreadPoolExecutor(THREADS) as pool:  # the compiled loop releases the GIL
                list(pool.map(band, [part for part in bands if part.stop > part.start]))
            return out
        block = max(1, CHUNK // max(1, len(right)))
        for start in range(0, len(left), block):
            part = slice(start, start + block)
            s = _reduce(s_left[part, None] + s_right[None], p).reshape(-1, d, d)
            g = _reduce(g_left[part, None] + g_right[None], p).reshape(-1, d, d) if first else None
            rows = self._rows_from(s, g)
            out[part] = self._dot_queries(rows, np.repeat(query[part], len(right))).reshape(-1, len(right))
        return out
