"""Real BERT layers (main text eqs. 1-2) and the linearised layer of eq. 3, in floating point.

NUMERIC, never certified: these evaluate the networks the theory is about to compare with it,
in float64 (numpy, batched) and, to confirm individual values, in mpmath at higher precision.

Eq. 1 (self-attention sublayer), with the printed second W^Q read as W^O (as eq. 3 and the
parameter list beside it do):

    f_SA^i = sum_j sum_h SM_j{ <W^Q x^i, W^K x^j> / sqrt(d_a) } W^O W^V x^j

Eq. 2 (one BERT layer): y^i = W^FF2 ReLU(W^FF1 LayerNorm(f_SA^i + x^i)), with W^FF1 of size
4 d_x x d_x and W^FF2 of size d_x x 4 d_x.  LayerNorm has no learned gain or bias (the paper
gives none) and eps = 1e-5.  Eq. 3 (the analysed network) drops softmax, 1/sqrt(d_a), the
residual, LayerNorm and the feed-forward sublayer.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import mpmath
import numpy as np

from .spec import NetworkSpec

__all__ = ["RealWeights", "draw_real_weights", "forward", "forward_mp", "LAYER_NORM_EPS"]

LAYER_NORM_EPS = 1e-5


@dataclass
class RealWeights:
    """Per layer: query, key, value (heads x d_a x d_x), output (heads x d_x x d_a), FF1, FF2."""

    query: list[Any]
    key: list[Any]
    value: list[Any]
    output: list[Any]
    ff1: list[Any]
    ff2: list[Any]


def draw_real_weights(spec: NetworkSpec, seed: int = 0) -> RealWeights:
    """Seeded Gaussian weights with standard deviation 1/sqrt(fan-in) (the usual initialisation)."""
    rng = np.random.default_rng([seed, spec.depth, spec.width, spec.heads, 7])
    d, h, a = spec.width, spec.heads, spec.attn_dim

    def gauss(*shape):
        return rng.standard_normal(shape) / np.sqrt(shape[-1])

    w = RealWeights([], [], [], [], [], [])
    for _ in range(spec.depth):
        w.query.append(gauss(h, a, d))
        w.key.append(gauss(h, a, d))
        w.value.append(gauss(h, a, d))
        w.output.append(gauss(h, d, a))
        w.ff1.append(gauss(4 * d, d))
        w.ff2.append(gauss(d, 4 * d))
    return w


def _layer_norm(v: np.ndarray) -> np.ndarray:
    mean = v.mean(axis=-1, keepdims=True)
    var = ((v - mean) ** 2).mean(axis=-1, keepdims=True)
    return (v - mean) / np.sqrt(var + LAYER_NORM_EPS)


def forward(x: np.ndarray, weights: RealWeights, real: bool = True) -> np.ndarray:
    """The network on a batch: x has shape (batch, N, d_x); returns the same shape (float64).

    ``real=True``: eqs. 1-2 per layer.  ``real=False``: eq. 3 per layer with the same weights.
    """
    for layer in range(len(weights.query)):
        q = np.einsum("had,bnd->bhna", weights.query[layer], x)
        k = np.einsum("had,bnd->bhna", weights.key[layer], x)
        v = np.einsum("had,bnd->bhna", weights.value[layer], x)
        scores = np.einsum("bhia,bhja->bhij", q, k)
        if real:
            scores = scores / np.sqrt(q.shape[-1])
            scores = np.exp(scores - scores.max(axis=-1, keepdims=True))
            scores = scores / scores.sum(axis=-1, keepdims=True)
        mixed = np.einsum("bhij,bhja->bhia", scores, v)
        attended = np.einsum("hda,bhia->bid", weights.output[layer], mixed)
        if real:
            hidden = np.maximum(_layer_norm(attended + x) @ weights.ff1[layer].T, 0.0)
            x = hidden @ weights.ff2[layer].T
        else:
            x = attended
    return x


def forward_mp(x: list[list[float]], weights: RealWeights, real: bool = True, dps: int = 40) -> list[list[Any]]:
    """The same network on one sequence (N lists of d_x numbers) in mpmath at ``dps`` digits.

    Float64 weights and inputs are converted exactly; only the arithmetic is more precise, so the
    difference from ``forward`` measures float64 rounding alone.
    """
    with mpmath.workdps(dps):
        seq = [[mpmath.mpf(float(v)) for v in token] for token in x]
        for layer in range(len(weights.query)):
            wq, wk, wv, wo = (weights.query[layer], weights.key[layer], weights.value[layer],
                              weights.output[layer])
            heads, attn, width = wq.shape
            mat = lambda m: mpmath.matrix([[mpmath.mpf(float(v)) for v in row] for row in m])  # noqa: E731
            cols = [mpmath.matrix(token) for token in seq]
            out = [mpmath.matrix(width, 1) for _ in seq]
            for h in range(heads):
                q = [mat(wq[h]) * c for c in cols]
                k = [mat(wk[h]) * c for c in cols]
                ov = mat(wo[h]) * mat(wv[h])
                for i in range(len(seq)):
                    s = [sum(q[i][r] * k[j][r] for r in range(attn)) for j in range(len(seq))]
                    if real:
                        s = [val / mpmath.sqrt(attn) for val in s]
                        top = max(s)
                        e = [mpmath.exp(val - top) for val in s]
                        total = sum(e)
                        s = [val / total for val in e]
                    for j in range(len(seq)):
                        out[i] += s[j] * (ov * cols[j])
            if real:
                f1, f2 = mat(weights.ff1[layer]), mat(weights.ff2[layer])
                new = []
                for i in range(len(seq)):
                    v = [out[i][r] + cols[i][r] for r in range(width)]
                    mean = sum(v) / width
                    var = sum((t - mean) ** 2 for t in v) / width
                    normed = mpmath.matrix([(t - mean) / mpmath.sqrt(var + mpmath.mpf(LAYER_NORM_EPS)) for t in v])
                    hidden = f1 * normed
                    hidden = mpmath.matrix([max(t, 0) for t in hidden])
                    new.append([t for t in f2 * hidden])
                seq = new
            else:
                seq = [[t for t in o] for o in out]
        return seq
