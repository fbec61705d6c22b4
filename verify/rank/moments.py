"""Moment values c~_k[gamma] = coeff_gamma(q_k) * gamma! looked up at sums alpha + beta.

Every catalecticant entry of the reduced route (docs/mathematics.md §2, route 3) is c~_k[alpha + beta]; the
blocks are filled by looking these values up for all row/column pairs at once.  Two exact lookups:

* ``SearchMoments`` (any q): additive integer keys (``AdditiveEncoder``), a sorted search, or a
  verified hash for multi-word keys.
* ``DenseMoments`` (homogeneous q of degree C, moderate size): every monomial of degree C gets a
  dense position computed from two additive half-keys through small direct tables, so a lookup
  is a few array passes and one gather from a dense value array, with no search at all.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import comb
from typing import TYPE_CHECKING, Any

import numpy as np

from ..exact.compositions import compositions
from ..exact.fields import Field

if TYPE_CHECKING:
    from types import ModuleType

    from numpy.typing import DTypeLike

    from ..exact.device import DeviceArray

__all__ = ["Terms", "AdditiveEncoder", "moment_values", "moment_terms", "search_gather", "SearchMoments",
           "DenseMoments", "moment_table"]

#: Largest direct table (entries) a half of the variables may need for ``DenseMoments``.
DENSE_TABLE_CAP = 2**23
#: Entries gathered per chunk (bounds the temporaries of one gather).
GATHER_CHUNK = 2**22


@dataclass
class Terms:
    keys: np.ndarray  # encoded exponents, sorted (1-D), or one row of words per term (2-D)
    values: np.ndarray  # c~ values aligned with keys (int64 mod p, or object over Q)


class AdditiveEncoder:
    """Exact additive keys for exponent vectors with entries < ``base``.

    The variables are split into chunks whose mixed-radix value fits in an int64; a key is one
    word per chunk.  key(alpha) + key(beta) = key(alpha + beta) as long as no entry reaches
    ``base``, which the caller guarantees.
    """

    chunks: list[list[int]]  # the variables of each word
    weights: np.ndarray  # nvars x words: base^j at (variable, its word)

    def __init__(self, nvars: int, base: int, word_limit: int = 2**62) -> None:
        per_word = 1
        while base ** (per_word + 1) < word_limit and per_word < nvars:
            per_word += 1
        self.chunks = [list(range(i, min(i + per_word, nvars))) for i in range(0, nvars, per_word)]
        self.weights = np.zeros((nvars, len(self.chunks)), dtype=np.int64)
        for w, chunk in enumerate(self.chunks):
            for j, v in enumerate(chunk):
                self.weights[v, w] = base**j

    @property
    def words(self) -> int:
        return len(self.chunks)

    def encode(self, exps: np.ndarray) -> np.ndarray:
        keys = exps @ self.weights
        return keys[:, 0] if self.words == 1 else keys


def moment_values(exponents: list[Any], coefficients: list[Any], field: Field) -> list[np.ndarray]:
    """Per component q_k, the values c~ = coeff * gamma! (mod p) aligned with its exponent rows.

    Only exponents >= 2 contribute a factorial, so the Python loop runs over those entries only.
    """
    top = max((int(e.max()) for e in exponents if len(e)), default=0)
    fact = [1] * (top + 1)
    for i in range(1, top + 1):
        fact[i] = fact[i - 1] * i
    if field.modulus is not None:
        fact = [f % field.modulus for f in fact]
    out = []
    for exps, coeffs in zip(exponents, coefficients, strict=False):
        vals = [int(c) for c in coeffs]
        big_rows, big_cols = np.nonzero(exps >= 2)
        for row, e in zip(big_rows.tolist(), exps[big_rows, big_cols].tolist(), strict=False):
            vals[row] *= fact[e]
        if field.modulus is not None:
            vals = [v % field.modulus for v in vals]
        out.append(np.array(vals, dtype=np.int64 if field.modulus is not None else object))
    return out


def moment_terms(exponents: list[Any], coefficients: list[Any], field: Field, encoder: AdditiveEncoder) -> list[Terms]:
    """Per component q_k, its terms as additive keys (sorted when one word) and values c~."""
    out = []
    for exps, values in zip(exponents, moment_values(exponents, coefficients, field), strict=False):
        keys = encoder.encode(exps)
        if keys.ndim == 1:
            order = np.argsort(keys)
            out.append(Terms(keys[order], values[order]))
        else:
            out.append(Terms(keys, values))
    return out


def search_gather(terms: Terms, row_keys: np.ndarray, col_keys: np.ndarray, dtype: DTypeLike) -> np.ndarray:
    """Values of ``terms`` at every key row_keys[i] + col_keys[j], zero where absent (exact).

    One-word keys: a sorted search.  Multi-word keys: an additive 64-bit hash (random odd
    multipliers, arithmetic mod 2^64) locates candidates, and every candidate is verified word by
    word.  A true term is always found (its hash is its own), distinct terms have distinct hashes
    (checked, else the exact ``np.unique`` route runs), and verification removes false hits.
    """
    shape = (len(row_keys), len(col_keys))
    out = np.zeros(shape, dtype=dtype)
    if len(terms.keys) == 0:
        return out
    if row_keys.ndim == 1:
        keys = row_keys[:, None] + col_keys[None, :]
        pos = np.clip(np.searchsorted(terms.keys, keys), 0, len(terms.keys) - 1)
        hit = terms.keys[pos] == keys
        out[hit] = terms.values[pos[hit]]
        return out
    multipliers = (np.random.default_rng(12345).integers(1, 2**62, size=row_keys.shape[1], dtype=np.int64)
                   * 2 + 1).astype(np.uint64)
    with np.errstate(over="ignore"):
        term_hash = (terms.keys.astype(np.uint64) * multipliers).sum(axis=1, dtype=np.uint64)
        row_hash = (row_keys.astype(np.uint64) * multipliers).sum(axis=1, dtype=np.uint64)
        col_hash = (col_keys.astype(np.uint64) * multipliers).sum(axis=1, dtype=np.uint64)
        order = np.argsort(term_hash)
        sorted_hash = term_hash[order]
        if len(np.unique(sorted_hash)) != len(sorted_hash):
            return gather_unique(terms, row_keys, col_keys, dtype)
        query = row_hash[:, None] + col_hash[None, :]
    pos = np.clip(np.searchsorted(sorted_hash, query), 0, len(sorted_hash) - 1)
    candidate = sorted_hash[pos] == query
    rows, cols = np.nonzero(candidate)
    found = order[pos[rows, cols]]
    exact = (terms.keys[found] == row_keys[rows] + col_keys[cols]).all(axis=1)
    out[rows[exact], cols[exact]] = terms.values[found[exact]]
    return out


def gather_unique(terms: Terms, row_keys: np.ndarray, col_keys: np.ndarray, dtype: DTypeLike) -> np.ndarray:
    """The slow exact route for multi-word keys: equal rows get equal ids by one joint sort."""
    keys = row_keys[:, None, :] + col_keys[None, :, :]
    out = np.zeros(keys.shape[:2], dtype=dtype)
    flat = keys.reshape(-1, keys.shape[2])
    _, ids = np.unique(np.vstack([terms.keys, flat]), axis=0, return_inverse=True)
    ids = ids.ravel()
    term_ids, query_ids = ids[: len(terms.keys)], ids[len(terms.keys):]
    order = np.argsort(term_ids)
    sorted_ids = term_ids[order]
    pos = np.clip(np.searchsorted(sorted_ids, query_ids), 0, len(sorted_ids) - 1)
    hit = sorted_ids[pos] == query_ids
    out.reshape(-1)[hit] = terms.values[order][pos[hit]]
    return out


class SearchMoments:
    """Moment values of q_1..q_d found by ``search_gather`` on additive keys (any q)."""

    terms: list[Terms]
    encoder: AdditiveEncoder
    dtype: DTypeLike

    def __init__(self, terms: list[Terms], encoder: AdditiveEncoder, dtype: DTypeLike) -> None:
        self.terms = terms
        self.encoder = encoder
        self.dtype = dtype

    @property
    def count(self) -> int:
        return len(self.terms)

    def keys(self, exps: np.ndarray) -> np.ndarray:
        return self.encoder.encode(exps)

    def gather(self, k: int, row_keys: np.ndarray, col_keys: np.ndarray) -> np.ndarray:
        return search_gather(self.terms[k], row_keys, col_keys, self.dtype)


def _half_table(parts: int, degree: int, base: int):
    """Direct table: base-``base`` code of an exponent vector in ``parts`` variables (total <= degree)
    -> its position among the vectors of the same total; and the count of each total."""
    table = np.full(base**parts, -1, dtype=np.int64)
    counts = np.zeros(degree + 1, dtype=np.int64)
    weights = base ** np.arange(parts, dtype=np.int64)
    for total in range(degree + 1):
        exps = compositions(total, parts) if parts else np.zeros((1 if total == 0 else 0, 0), dtype=np.int64)
        counts[total] = len(exps)
        table[exps @ weights] = np.arange(len(exps))
    return table, counts, weights


class DenseMoments:
    """Moment values of a homogeneous q of degree C at dense positions of the degree-C monomials.

    The variables split into halves H1, H2.  A monomial gamma of degree C is placed at
    offset[d1] + rank1(gamma|H1) * count2[C - d1] + rank2(gamma|H2) with d1 = |gamma|H1|, which
    enumerates the degree-C monomials exactly once (grouped by d1).  The half codes
    code_i(gamma) = sum_j gamma_j base^j and d1 are additive, so for gamma = alpha + beta they are
    sums of per-row and per-column keys (no entry of gamma exceeds C < base), and rank_i is one
    read from a direct table of base^|H_i| entries.
    """

    degree: int
    dtype: DTypeLike
    xp: ModuleType  # the array module of the tables below (numpy, or a device's: ``on``)
    split: int
    rank1: DeviceArray
    rank2: DeviceArray
    weights1: np.ndarray
    weights2: np.ndarray
    stride: DeviceArray
    offset: DeviceArray
    tables: list[DeviceArray]

    def __init__(self, nvars: int, degree: int, exponents: list[Any], values: list[Any], dtype: DTypeLike) -> None:
        base = degree + 1
        self.degree, self.dtype, self.xp, self._on = degree, dtype, np, {}
        self.split = nvars // 2
        self.rank1, count1, self.weights1 = _half_table(self.split, degree, base)
        self.rank2, count2, self.weights2 = _half_table(nvars - self.split, degree, base)
        self.stride = count2[degree - np.arange(degree + 1)]
        sizes = count1 * self.stride
        self.offset = np.concatenate([[0], np.cumsum(sizes)[:-1]])
        size = int(sizes.sum())
        assert size == comb(degree + nvars - 1, nvars - 1)
        self.tables = []
        for exps, vals in zip(exponents, values, strict=False):
            dense = np.zeros(size, dtype=dtype)
            if len(exps):
                dense[self._position(self.keys(exps))] = vals
            self.tables.append(dense)

    def __getstate__(self) -> dict[Any, Any]:
        """Pickled without its array module and device copies (a degree block sent to another process as a
        task, ``verify.rank.block_tasks``): the host table only."""
        if self.xp is not np:
            raise TypeError("a device copy of a moment table is not sent; send the host table")
        return {k: v for k, v in self.__dict__.items() if k not in ("xp", "_on")}

    def __setstate__(self, state: dict[Any, Any]) -> None:
        self.__dict__.update(state, xp=np, _on={})

    @staticmethod
    def fits(nvars: int, degree: int) -> bool:
        """Whether both half tables stay within ``DENSE_TABLE_CAP`` entries."""
        return (degree + 1) ** (nvars - nvars // 2) <= DENSE_TABLE_CAP

    @property
    def count(self) -> int:
        return len(self.tables)

    def on(self, xp: ModuleType) -> DenseMoments:
        """This table with its arrays in array module ``xp`` (a device's; made once and kept), so that its
        ``gather`` builds a block's lines on that device: only the keys cross to it, never the lines."""
        if xp is self.xp:
            return self
        if id(xp) not in self._on:
            copy = object.__new__(DenseMoments)
            copy.__dict__.update(self.__dict__, xp=xp, _on={})
            for name in ("rank1", "rank2", "stride", "offset"):
                setattr(copy, name, xp.asarray(getattr(self, name)))
            copy.tables = [xp.asarray(table) for table in self.tables]
            self._on[id(xp)] = copy
        return self._on[id(xp)]

    def keys(self, exps: np.ndarray) -> np.ndarray:
        """Additive keys (code1, code2, d1), one row per exponent vector."""
        half = exps[:, : self.split]
        return np.stack([half @ self.weights1, exps[:, self.split:] @ self.weights2, half.sum(axis=1)], axis=1)

    def _position(self, keys: np.ndarray) -> np.ndarray:
        d1 = keys[..., 2]
        return self.offset[d1] + self.rank1[keys[..., 0]] * self.stride[d1] + self.rank2[keys[..., 1]]

    def gather(self, k: int, row_keys: np.ndarray, col_keys: np.ndarray, out: np.ndarray | None = None) -> np.ndarray:
        """Values at every row_keys[i] + col_keys[j] (each sum must have total degree C), written into
        ``out`` (a len(row_keys) x len(col_keys) view, e.g. columns of a larger array) when given; in the
        table's array module (``on``), keys given as numpy arrays."""
        xp = self.xp
        row_keys, col_keys = xp.asarray(row_keys), xp.asarray(col_keys)
        if out is None:
            out = xp.empty((len(row_keys), len(col_keys)), dtype=self.dtype)
        table = self.tables[k]
        step = max(1, GATHER_CHUNK // max(1, len(col_keys)))
        for start in range(0, len(row_keys), step):
            rows = row_keys[start:start + step]
            d1 = rows[:, 2, None] + col_keys[None, :, 2]
            pos = self.rank1[rows[:, 0, None] + col_keys[None, :, 0]]
            pos *= self.stride[d1]
            pos += self.offset[d1]
            pos += self.rank2[rows[:, 1, None] + col_keys[None, :, 1]]
            out[start:start + step] = table[pos]
        return out


def moment_table(exponents: list[Any], coefficients: list[Any], field: Field, nvars: int, degree: int,
                 homogeneous: bool) -> DenseMoments | SearchMoments:
    """The lookup for q's moment values: ``DenseMoments`` for a homogeneous q whose half tables fit,
    else ``SearchMoments`` (keys wide enough for sums up to ``degree`` (homogeneous) or 2 * degree)."""
    dtype = np.int64 if field.modulus is not None else object
    if homogeneous and DenseMoments.fits(nvars, degree):
        return DenseMoments(nvars, degree, exponents, moment_values(exponents, coefficients, field), dtype)
    encoder = AdditiveEncoder(nvars, degree + 1 if homogeneous else 2 * degree + 1)
    return SearchMoments(moment_terms(exponents, coefficients, field, encoder), encoder, dtype)
