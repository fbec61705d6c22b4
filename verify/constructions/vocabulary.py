"""The embedding constructions of the vocabulary paper's lower bound, in exact integers.

``wies2021_vocabulary_bottleneck.md`` appendix B.2: Lemma 5 (convolution embedding, eq. 15),
Lemma 6 (vocabulary embedding with V >= 2((n over 3^(L-2))) + 1) and Lemma 7 (V >= r, large N,
the first self-attention layer summing the embeddings, eqs. 17-22).  Each builds an embedding
whose outputs are "template vectors" that carry the rows of a matrix A, one row in the first
half of every head's coordinates and one in the second, a constant in each head's last
coordinate.  All indices below are 1-based, as printed.

``printed=True`` follows the text: phi(j) = floor((j-1)/d_a) (d_a-1) + ((j-1) mod d_a) + 1 and
half = (d_a-1)/2 (d_a odd), Lemma 6's M_V without the bound phi <= n that eq. 15 has, Lemma 7's
segment index floor(t/E).  ``printed=False`` is the corrected construction the registry
verifies: phi numbers the first-half coordinates consecutively,
phi(j) = floor((j-1)/d_a) * half + ((j-1) mod d_a) + 1 with half = floor((d_a-1)/2), and
Lemma 7's segment of t is floor((t-1)/E), with the first-half/second-half split of eq. 15.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import flint

from ..model.network import forward, layer_maps
from ..model.spec import LayerWeights, NetworkSpec, Weights

__all__ = ["Layout", "embedding_target", "vocabulary_matrix", "convolution_embedding", "carried_columns",
           "large_n_construction", "matrix_rank"]


@dataclass(frozen=True)
class Layout:
    """The coordinate layout of the construction: width d_x, H heads, n columns of A carried."""

    width: int
    heads: int
    carried: int  # n = (r - H)/2 (Lemmas 5-6) or (r - 1 - H)/2 (Lemma 7)
    printed: bool = False

    @property
    def attn_dim(self) -> int:
        return self.width // self.heads

    @property
    def half(self) -> int:
        d_a = self.attn_dim
        return (d_a - 1) // 2

    def offset(self, alpha: int) -> int:
        return (alpha - 1) % self.attn_dim

    def phi(self, j: int) -> int:
        head, offset = divmod(j - 1, self.attn_dim)
        step = self.attn_dim - 1 if self.printed else self.half
        return head * step + offset + 1

    def kind(self, alpha: int) -> str:
        """first / second half of a head's coordinates, its constant (last) coordinate, or unused."""
        o, d_a = self.offset(alpha), self.attn_dim
        if o == d_a - 1:
            return "const"
        if o < self.half:
            return "first"
        if o < (d_a - 1 if self.printed else 2 * self.half):
            return "second"
        return "unused"

    def column(self, alpha: int) -> int | None:
        """The column of A that coordinate alpha carries under eq. 15's guards, or None."""
        kind = self.kind(alpha)
        if kind == "first":
            col = self.phi(alpha)
        elif kind == "second":
            col = self.phi(alpha - self.half)
        else:
            return None
        return col if col <= self.carried else None


def embedding_target(layout: Layout, a_matrix: list[list[int]], token: int, const: int = 1) -> list[int]:
    """Eq. 15: the embedding output for token i in [E + 1], E = 2 * rows(A)."""
    rows = len(a_matrix)
    out = []
    for alpha in range(1, layout.width + 1):
        kind, col = layout.kind(alpha), layout.column(alpha)
        if kind == "const":
            out.append(const)
        elif kind == "first" and col is not None and token <= rows:
            out.append(a_matrix[token - 1][col - 1])
        elif kind == "second" and col is not None and rows < token <= 2 * rows:
            out.append(a_matrix[token - rows - 1][col - 1])
        else:
            out.append(0)
    return out


def vocabulary_matrix(layout: Layout, a_matrix: list[list[int]], vocab: int) -> list[list[int]]:
    """Lemma 6's M_V (d_x x V).  Printed: no phi <= n guard, so a column of A beyond n is read
    (IndexError when A has only n columns); corrected: exactly eq. 15's entries."""
    rows = len(a_matrix)
    if not layout.printed:
        columns = [embedding_target(layout, a_matrix, i) for i in range(1, vocab + 1)]
        return [[columns[i][alpha] for i in range(vocab)] for alpha in range(layout.width)]
    m = [[0] * vocab for _ in range(layout.width)]
    for alpha in range(1, layout.width + 1):
        kind = layout.kind(alpha)
        for i in range(1, vocab + 1):
            if kind == "const":
                m[alpha - 1][i - 1] = 1
            elif kind in ("first", "second"):
                col = layout.phi(alpha if kind == "first" else alpha - layout.half)
                if kind == "first" and i <= rows:
                    m[alpha - 1][i - 1] = a_matrix[i - 1][col - 1]
                elif kind == "second" and rows < i <= 2 * rows:
                    m[alpha - 1][i - 1] = a_matrix[i - rows - 1][col - 1]
    return m


def convolution_embedding(layout: Layout, a_matrix: list[list[int]], tokens: list[int],
                          kernel: int) -> tuple[list[list[list[int]]], list[list[int]], int]:
    """Lemma 5: a 0/1 kernel W (kernel x d_x x d_input) and templates x^(j,l) in R^d_input with
    y^(0,j) = sum_l W_l x^(j,l); d_input = ceil(d_x / kernel).  Coordinate alpha is read from
    template l, entry lambda, where alpha = kernel (lambda - 1) + l, only for carried and constant
    coordinates.  Returns (kernel weights, outputs per token, rank of the kernel as d_x x (k d_input))."""
    d_input = -(-layout.width // kernel)
    live = [layout.kind(a) == "const" or layout.column(a) is not None for a in range(1, layout.width + 1)]
    weights = [[[1 if (alpha == kernel * (lam - 1) + l and live[alpha - 1]) else 0
                 for lam in range(1, d_input + 1)] for alpha in range(1, layout.width + 1)]
               for l in range(1, kernel + 1)]
    outputs = []
    for token in tokens:
        target = embedding_target(layout, a_matrix, token)
        templates = [[target[kernel * (lam - 1) + l - 1] if kernel * (lam - 1) + l <= layout.width else 0
                      for lam in range(1, d_input + 1)] for l in range(1, kernel + 1)]
        outputs.append([sum(weights[l][alpha][lam] * templates[l][lam] for l in range(kernel)
                            for lam in range(d_input)) for alpha in range(layout.width)])
    flat = [[weights[l][alpha][lam] for l in range(kernel) for lam in range(d_input)]
            for alpha in range(layout.width)]
    return weights, outputs, matrix_rank(flat)


def carried_columns(layout: Layout) -> tuple[list[int], list[int]]:
    """Columns of A that the first-half and the second-half coordinates carry, with repeats."""
    first = [layout.column(a) for a in range(1, layout.width + 1) if layout.kind(a) == "first"]
    second = [layout.column(a) for a in range(1, layout.width + 1) if layout.kind(a) == "second"]
    return sorted(c for c in first if c is not None), sorted(c for c in second if c is not None)


def matrix_rank(rows: list[list[int]]) -> int:
    if not rows or not rows[0]:
        return 0
    return flint.fmpz_mat(rows).rank()


def _segment_token(printed: bool, a_row: list[int], t: int, biggest: int, shift: int) -> int:
    """Eqs. 21-22: the token at the t-th position (1-based) of a half for row a_row of A."""
    segment = t // biggest if printed else (t - 1) // biggest
    if segment >= len(a_row):
        return 1
    return segment + 2 + shift if (t - 1) % biggest < a_row[segment] else 1


def large_n_construction(layout: Layout, a_matrix: list[list[int]], value_output: list[tuple[Any, ...]], j1: int,
                         j2: int,
                         printed_segments: bool | None = None,
                         printed_embedding: bool | None = None) -> tuple[list[Any], list[int], list[int], int]:
    """Lemma 7 on the sequence pi_P(j1), pi_Q(j2) through the exact first layer of eq. 3.

    ``value_output``: per head (W^V, W^O) (any integers).  P = the first N/2 positions, Q the
    rest, N = 2 E n with E the largest entry of A.  Returns (layer outputs y^(1,i), target
    (sum_h W^O W^V) u, u, N).  Printed: M_V column i (1 < i <= r - H) has ones where phi = i - 1
    over every non-constant coordinate; corrected: P tokens light the first halves, Q tokens
    the second halves, as eq. 15's split needs.  ``printed_segments`` / ``printed_embedding``
    (default: ``layout.printed``) switch the two printed pieces separately, to locate a failure.
    """
    printed_segments = layout.printed if printed_segments is None else printed_segments
    printed_embedding = layout.printed if printed_embedding is None else printed_embedding
    printed_phi = Layout(layout.width, layout.heads, layout.carried, True)
    n, width, d_a = layout.carried, layout.width, layout.attn_dim
    biggest = max(max(row) for row in a_matrix)
    half_tokens = biggest * n
    tokens = 2 + 2 * n  # token 1 is the "zero" template; P tokens 2..n+1; Q tokens n+2..2n+1
    embed = [[0] * tokens for _ in range(width)]
    for alpha in range(1, width + 1):
        kind = layout.kind(alpha)
        for i in range(1, tokens + 1):
            if kind == "const":
                embed[alpha - 1][i - 1] = 1
            elif printed_embedding:
                if kind != "unused" and 1 < i <= 2 * n + 1 and printed_phi.phi(alpha) == i - 1:
                    embed[alpha - 1][i - 1] = 1
            else:
                col = layout.column(alpha)
                if col is not None and ((kind == "first" and i == col + 1) or (kind == "second" and i == col + 1 + n)):
                    embed[alpha - 1][i - 1] = 1
    sequence = ([_segment_token(printed_segments, a_matrix[j1 - 1], t, biggest, 0) for t in range(1, half_tokens + 1)]
                + [_segment_token(printed_segments, a_matrix[j2 - 1], t, biggest, n)
                   for t in range(1, half_tokens + 1)])
    inputs = [[embed[alpha][tok - 1] for alpha in range(width)] for tok in sequence]
    selector = tuple(tuple(1 if (row == 0 and col == d_a - 1) else 0 for col in range(width)) for row in range(d_a))
    layer = LayerWeights(query=tuple(selector for _ in value_output), key=tuple(selector for _ in value_output),
                         value=tuple(v for v, _ in value_output), output=tuple(o for _, o in value_output))
    spec = NetworkSpec(depth=1, width=width, heads=layout.heads)
    weights = Weights((layer,), 0, 0)
    outputs = forward(spec, weights, inputs)
    row1, row2 = a_matrix[j1 - 1], a_matrix[j2 - 1]
    u = []
    for alpha in range(1, width + 1):
        kind, col = layout.kind(alpha), layout.column(alpha)
        u.append(len(sequence) if kind == "const" else row1[col - 1] if kind == "first" and col else
                 row2[col - 1] if kind == "second" and col else 0)
    # sum_h W^O W^V: the A_h of every head of the layer (network.layer_maps)
    target = [sum(a_h[r][c] * u[c] for a_h, _ in layer_maps(weights)[0] for c in range(width)) for r in range(width)]
    return outputs, target, u, len(sequence)
