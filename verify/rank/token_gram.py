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
product of two is < 2^62 and the sum of two reduced values is < 2^32; ``_mm`` reduces after every
product and every addition, so nothing exceeds 2^63.
"""

from __future__ import annotations

import numpy as np

from ..model.embeddings import VocabularyEmbedding
from ..model.network import layer_maps
from ..model.spec import NetworkSpec, Weights

__all__ = ["TOKEN_PRIME", "GramModel", "token_prime"]

#: The prime of the token routes when the requested field's prime does not fit int64 products.
TOKEN_PRIME = 2**31 - 1
#: Points evaluated per numpy batch (bounds the temporaries: a few arrays of CHUNK d x d int64).
CHUNK = 1 << 15


def token_prime(modulus: int | None) -> int:
    """The prime of the token routes: the field's own when it is below 2^31, else 2^31 - 1."""
    return modulus if modulus is not None and modulus < 2**31 else TOKEN_PRIME


def _mm(a: np.ndarray, b: np.ndarray, p: int) -> np.ndarray:
    """(a b) mod p for stacks of square matrices (broadcast), entries in [0, p), p < 2^31."""
    d = a.shape[-1]
    out = None
    for k in range(d):
        term = (a[..., :, k:k + 1] * b[..., k:k + 1, :]) % p
        out = term if out is None else (out + term) % p
    return out


def _mod_array(rows, p: int) -> np.ndarray:
    return np.array([[int(v) % p for v in row] for row in rows], dtype=np.int64)


class GramModel:
    """The network's output row as a function of the token point z = (c, m), mod p.

    Coordinates: z[v] = c_v for v < V, then z[V + v R + k] = m_{v,k}.  ``evaluate(z, w)`` is
    e_p^T F(S(z)) x for the query vector x = E_w + p_query (eq. 3 through docs/mathematics.md §1).
    """

    def __init__(self, spec: NetworkSpec, weights: Weights, embedding: VocabularyEmbedding, p: int,
                 query_position: int = 0, constant=None):
        if p >= 2**31:
            raise ValueError("GramModel needs a prime below 2^31 (int64 products)")
        self.spec, self.embedding, self.p = spec, embedding, p
        d, vocab, big_r = spec.width, embedding.vocab, embedding.positional_rank
        self.maps = [[(_mod_array(a, p), _mod_array(b, p)) for a, b in layer] for layer in layer_maps(weights)]
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
        self.queries = np.array([[int(x) % p for x in (np.array(c, dtype=object) + query)] for c in embedding.columns],
                                dtype=np.int64)

    def position_vector(self, j: int) -> list[int]:
        """pi_j in Z^R: position j's coordinates in the columns u_k of P' (embedding.position(j) = P' pi_j)."""
        import random

        from ..model.embeddings import EMBEDDING_RANGE
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

    def gram(self, z: np.ndarray) -> np.ndarray:
        """S(z) mod p for a batch of points (n x dim, entries in [0, p)) -> n x d x d."""
        p = self.p
        s = np.broadcast_to(self.constant, (len(z),) + self.constant.shape).copy()
        for t in range(self.dim):
            s = (s + (z[:, t, None, None] * self.basis[t]) % p) % p
        return s

    def output_rows(self, s: np.ndarray) -> np.ndarray:
        """Row p of F(S) for a batch of Gram matrices (n x d x d) -> n x d, mod p."""
        p, d, spec = self.p, self.spec.width, self.spec
        eye = np.eye(d, dtype=np.int64)
        f = None
        for layer, pairs in enumerate(self.maps):
            g = None
            for a, b in pairs:
                term = _mm(_mm(a, s, p), b, p)
                g = term if g is None else (g + term) % p
            if spec.residual:
                g = (g + eye) % p
            if layer == len(self.maps) - 1:
                row = g[:, spec.output, :]
                if f is None:
                    return row
                out = np.zeros((len(s), d), dtype=np.int64)
                for m in range(d):
                    out = (out + (row[:, m, None] * f[:, m, :]) % p) % p
                return out
            f = g if f is None else _mm(g, f, p)
            s = _mm(_mm(g, s, p), np.swapaxes(g, -1, -2), p)
        raise AssertionError("unreachable")

    def evaluate(self, z: np.ndarray, query: np.ndarray) -> np.ndarray:
        """y = e_p^T F(S(z)) x_{query} for each point z (rows) and query token (same length), mod p."""
        p = self.p
        out = np.empty(len(z), dtype=np.int64)
        for start in range(0, len(z), CHUNK):
            part = slice(start, start + CHUNK)
            rows = self.output_rows(self.gram(z[part]))
            x = self.queries[query[part]]
            acc = np.zeros(len(rows), dtype=np.int64)
            for m in range(self.spec.width):
                acc = (acc + (rows[:, m] * x[:, m]) % p) % p
            out[part] = acc
        return out
