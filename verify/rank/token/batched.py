"""Token matrices by the literal forward pass of eq. 3, batched over sequences (``batched_loop``).

``batched_grid(model, tokens, left, right)`` is the token matrix [y(left_i, right_j)] mod p of a grid of
token sequences (left_i on positions 0..N/2-1, right_j on N/2..N-1, the query at position 0): the same
values as ``GramModel.evaluate_grid`` of the two sides' points (``tests/rank/test_batched_pass.py``), by a
different computation.  The Gram route carries S (d x d) through the layers, d^3 products a map; the
literal pass carries X (d x N), H (2 d^2 N + 2 d N^2) a layer, fewer wherever N < d (the bound cells:
d = 11, 13 at N = 8, 10), and its layer 1 reads tables.  ``route.sequence_grid`` takes whichever of the two a
price (multiply-adds a pair, ``pass_prices``) says is cheaper.

Exactness: the argument is in ``batched_loop``; it needs p < 2^31 and every sum to have fewer than
``MAX_TERMS`` terms, checked here before anything is allocated.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import numpy as np

from .gram import THREADS, GramModel

__all__ = ["batched_grid", "batched_values", "pass_prices", "tables", "MAX_TERMS", "BLOCK"]

#: Terms a sum of the pass may add (each below 2^32 after ``fold``): 2^20 2^32 < 2^63 (``batched_loop``).
MAX_TERMS = 2**20
#: Sequences a block: the innermost axis of the pass's arrays (a few d x N x BLOCK int64 arrays; 256 measured
#: fastest of 64 to 512 at the bound cells' shapes).
BLOCK = 256


def tables(model: GramModel, tokens: int):
    """(cols, tab_w, tab_s, a, b) for ``batched_loop.block_pass``, every entry reduced mod p in Python integers:
    cols[n, w] = x_n(w) = E_w + pos_n; tab_w[h, n, w] = A_h x_n(w); tab_s[h, n, m, w, w'] = x_n(w)^T B_h x_m(w')."""
    p, emb = model.p, model.embedding
    vocab, d = emb.vocab, model.spec.width
    cols = np.array([[[int(e) + int(q) for e, q in zip(emb.columns[w], emb.position(n), strict=True)]
                      for w in range(vocab)] for n in range(tokens)], dtype=object)
    maps = layer_maps_mod(model)
    flat = cols.reshape(tokens * vocab, d)
    tab_w, tab_s = [], []
    for a_h, b_h in maps[0]:
        tab_w.append((flat @ a_h.T).reshape(tokens, vocab, d))
        scores = flat @ (flat @ b_h.T).T  # [(n, w), (m, w')] = x_n(w)^T B_h x_m(w')
        tab_s.append(scores.reshape(tokens, vocab, tokens, vocab).transpose(0, 2, 1, 3))

    def residues(x) -> np.ndarray:
        return np.array(np.asarray(x, dtype=object) % p, dtype=np.int64)

    return (residues(cols), residues(tab_w), residues(tab_s), residues([[a for a, _ in layer] for layer in maps]),
            residues([[b for _, b in layer] for layer in maps]))


def layer_maps_mod(model: GramModel) -> list:
    """The model's layer maps (A_h, B_h) of ``network.layer_maps``, residues mod p, as object arrays (Python
    integers, so the tables' products are exact), per layer, per head."""
    return [[(a.astype(object), b.astype(object)) for a, b in layer] for layer in model.maps]


def _check(model: GramModel, tokens: int) -> None:
    d = model.spec.width
    if model.p >= 2**31:
        raise ValueError("the batched pass needs a prime below 2^31 (int64 products)")
    if max(d, tokens) + 1 >= MAX_TERMS:
        raise ValueError(f"the batched pass adds at most {MAX_TERMS:,} terms a sum; d = {d}, N = {tokens}")
    if model.spec.position != 0:
        raise ValueError("the batched pass puts the query at position 0")


def batched_grid(model: GramModel, tokens: int, left: np.ndarray, right: np.ndarray) -> np.ndarray:
    """The token matrix [y(left_i ++ right_j)] mod p (module notes), rows split into one band a thread."""
    from .batched_loop import block_pass

    _check(model, tokens)
    left, right = np.ascontiguousarray(left, dtype=np.int64), np.ascontiguousarray(right, dtype=np.int64)
    if left.shape[1] + right.shape[1] != tokens:
        raise ValueError(f"a sequence has {tokens} positions; got {left.shape[1]} + {right.shape[1]}")
    cols, tab_w, tab_s, a, b = tables(model, tokens)
    out = np.empty((len(left), len(right)), dtype=np.int64)
    if not out.size:
        return out

    def band(part: slice) -> None:  # each band writes only its own rows of ``out``
        block_pass(left[part], right, cols, tab_w, tab_s, a, b, int(model.spec.residual), model.spec.output,
                   model.p, out[part], BLOCK)

    bands = [slice(i * len(left) // THREADS, (i + 1) * len(left) // THREADS) for i in range(THREADS)]
    with ThreadPoolExecutor(THREADS) as pool:  # the compiled pass releases the GIL
        list(pool.map(band, [part for part in bands if part.stop > part.start]))
    return out


def batched_values(model: GramModel, sequences: np.ndarray) -> np.ndarray:
    """y of each token sequence (rows of ``sequences``, the query at position 0) mod p: ``batched_loop.block_pass``
    with every sequence on the right of an empty left side, so a block vectorises across sequences; the rows split
    into one band a thread."""
    from .batched_loop import block_pass

    sequences = np.ascontiguousarray(sequences, dtype=np.int64)
    tokens = sequences.shape[1]
    _check(model, tokens)
    cols, tab_w, tab_s, a, b = tables(model, tokens)
    out = np.empty((1, len(sequences)), dtype=np.int64)
    empty = np.zeros((1, 0), dtype=np.int64)

    def band(part: slice) -> None:
        block_pass(empty, sequences[part], cols, tab_w, tab_s, a, b, int(model.spec.residual), model.spec.output,
                   model.p, out[:, part], BLOCK)

    bands = [slice(i * len(sequences) // THREADS, (i + 1) * len(sequences) // THREADS) for i in range(THREADS)]
    with ThreadPoolExecutor(THREADS) as pool:
        list(pool.map(band, [part for part in bands if part.stop > part.start]))
    return out[0]


def pass_prices(spec, tokens: int) -> dict:
    """Multiply-adds a pair of each pass (the terms of their recursions; an op count, not a timing):
    ``literal``: layer 1 H d N^2, layers 2..L-1 H (2 d^2 N + 2 d N^2), layer L H (d^2 + 2 d N + N);
    ``gram``: layers 2..L-1 H 2 d^3 for G_l, 2 d^3 for each S_(l+1) = G S G^T (layers 1..L-2), layer L
    H (4 d^2) and the row times L - 1 maps, (L - 1) d^2."""
    d, n, heads, depth = spec.width, tokens, spec.heads, spec.depth
    last = heads * (d * d + 2 * d * n + n)
    middle = max(depth - 2, 0)
    literal = (heads * d * n * n if depth > 1 else 0) + middle * heads * (2 * d * d * n + 2 * d * n * n) + last
    gram = middle * heads * 2 * d**3 + middle * 2 * d**3 + heads * 4 * d * d + (depth - 1) * d * d
    return {"literal": literal, "gram": gram}
