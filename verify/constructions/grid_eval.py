"""The certificate's grid matrix M[i, j] = y_p^0(t^A_i, t^B_j) for all m_A x m_B template pairs at once,
exactly modulo a small prime, in float64 BLAS.

The layer is the vectorised eq. 3 for N = 2 positions (supplement eq. 1 and eq. 9):

    y_i = sum_h W^O_h W^V_h (x_1 x_1^T + x_2 x_2^T) (W^K_h)^T W^Q_h x_i  (+ x_i when residual),

evaluated as y_i = sum_h OV_h (x_1 c_{1i} + x_2 c_{2i}) with c_{ji} = x_j . (KQ_h x_i), for a whole block
of grid points per numpy call.  Every residue is an integer in [0, p) held in a float64; a product of two
is below p^2 and every sum the layer forms has at most H d_x + 1 such terms, so when
(H d_x + 3) p^2 < 2^53 (``fits``) every float64 operation is an exact integer operation.  The reduction
is ``verify.exact.modp.floor_mod``, exact for 0 <= a < 2^53 - p (argument in its docstring); the largest
value reduced here, a layer's total, is at most H d_x (p - 1)^2 + p - 1 < (H d_x + 3) p^2 - p < 2^53 - p.
Nothing is rounded: the result is the same residue the point-by-point forward pass
(``verify.model.network``) gives, which the tests check.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from ..exact import tuning
from ..exact.modp import floor_mod, residues

if TYPE_CHECKING:
    from collections.abc import Callable

__all__ = ["fits", "head_maps", "grid_values", "largest_fitting_prime"]

# ``tuning.GRID_BLOCK_POINTS``: grid points evaluated per numpy block (a few MiB of float64 per array at d_x = 30).


def fits(width: int, heads: int, prime: int) -> bool:
    """Whether every intermediate value stays an exact float64 integer: (H d_x + 3) p^2 < 2^53."""
    return 5 <= prime and (heads * width + 3) * prime**2 < 2**53


def largest_fitting_prime(width: int, heads: int, ceiling: int = 2**20) -> int | None:
    """The largest prime p < ``ceiling`` with ``fits(width, heads, p)``, or None when there is none."""
    import flint

    p = ceiling - 1
    while p > 2 and not (fits(width, heads, p) and flint.fmpz(p).is_prime()):
        p = min(p - 1, int(np.sqrt(2**53 / (heads * width + 3))))
    return p if p > 2 else None


def head_maps(weights: dict[Any, Any], p: int) -> list[list[tuple[np.ndarray, np.ndarray]]]:
    """Per layer, per head, (W^O W^V mod p, (W^K)^T W^Q mod p) as float64 arrays, from the stored integers
    (``Weights.as_dict()`` layout); the products are formed in Python integers, so any weight size is exact."""
    out = []
    for layer in weights["layers"]:
        heads = []
        for q, k, v, o in zip(layer["query"], layer["key"], layer["value"], layer["output"], strict=False):
            q, k, v, o = (residues(a, p, dtype=object) for a in (q, k, v, o))
            heads.append((np.mod(o.dot(v), p).astype(np.float64), np.mod(k.T.dot(q), p).astype(np.float64)))
        out.append(heads)
    return out


def _layer(xs, heads, p: int, residual: bool):
    """One layer (eq. 3) on a block: ``xs`` = [x_1, x_2], each (points x d_x) residues as float64."""
    ys = []
    kxs = [[floor_mod(x @ kq.T, p) for x in xs] for _, kq in heads]  # KQ_h x_i, per head and position
    for i in range(2):
        total = None
        for (ov, _), kx in zip(heads, kxs, strict=False):
            c = [floor_mod(np.einsum("ij,ij->i", xs[j], kx[i]), p)[:, None] for j in range(2)]
            z = floor_mod(xs[0] * c[0] + xs[1] * c[1], p)
            term = z @ ov.T
            total = term if total is None else total + term
        if residual:
            total = total + xs[i]
        ys.append(floor_mod(total, p))
    return ys


def grid_values(weights: dict[Any, Any], rows: list[list[int]], cols: list[list[int]], p: int, output: int,
                residual: bool, progress: Callable[[int, int], object] | None = None) -> np.ndarray:
    """M[i, j] = y_p^0(rows[i], cols[j]) mod p for the network of ``weights`` (N = 2, position 0).

    Parameters
    ----------
    weights : dict
        The stored weights (``Weights.as_dict()``: per layer query, key, value, output, per head).
    rows, cols : list of list of int
        Integer templates of position 0 (A) and position 1 (B), each of length d_x.
    p : int
        The prime; must satisfy ``fits(width, heads, p)`` (else ValueError).
    output : int
        The output coordinate read.
    residual : bool
        Whether each layer adds its input (Y + X).
    progress : callable, optional
        Called as ``progress(rows_done, len(rows))`` after each block of grid rows.

    Returns
    -------
    numpy.ndarray
        int64 array (len(rows) x len(cols)) of residues in [0, p).
    """
    layers = head_maps(weights, p)
    width, heads = len(rows[0]), max((len(h) for h in layers), default=1)
    if not fits(width, heads, p):
        raise ValueError(f"float64 is not exact for p = {p} at width {width} with {heads} heads")
    a = np.mod(np.array(rows, dtype=object), p).astype(np.float64)
    b = np.mod(np.array(cols, dtype=object), p).astype(np.float64)
    m_a, m_b = len(rows), len(cols)
    out = np.empty((m_a, m_b), dtype=np.int64)
    step = max(1, tuning.GRID_BLOCK_POINTS // max(m_b, 1))
    for start in range(0, m_a, step):
        stop = min(m_a, start + step)
        xs = [np.repeat(a[start:stop], m_b, axis=0), np.tile(b, (stop - start, 1))]
        for heads_of_layer in layers:
            xs = _layer(xs, heads_of_layer, p, residual)
        out[start:stop] = xs[0][:, output].reshape(stop - start, m_b).astype(np.int64)
        if progress is not None:
            progress(stop, m_a)
    return out
