"""Input embeddings of the vocabulary-bottleneck paper (``wies2021_vocabulary_bottleneck.md`` §2.1).

Vocabulary embedding (eq. 3): token w in [V] becomes x = M e_w with M = P Q of rank r
(P is d_x x r, Q is r x V).  Optional positional embedding of rank r_e: position j adds column j
of P' Q' (P' is d_x x r_e).  Integer entries, seeded, so every route sees the same embedding.
Any linear embedding only changes what the x^j are (``docs/mathematics.md`` §1, §4).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from ..errors import InputError

__all__ = ["VocabularyEmbedding", "ConvolutionEmbedding"]

#: Embedding entries are uniform in [-EMBEDDING_RANGE, EMBEDDING_RANGE].
EMBEDDING_RANGE = 2**20


@dataclass(frozen=True)
class VocabularyEmbedding:
    """A rank-``rank`` vocabulary embedding of ``vocab`` tokens into ``width`` dimensions.

    Examples
    --------
    >>> emb = VocabularyEmbedding(width=4, vocab=3, rank=2)
    >>> len(emb.columns), len(emb.columns[0])
    (3, 4)
    """

    width: int
    vocab: int
    rank: int
    positional_rank: int = 0
    seed: int = 0

    def __post_init__(self) -> None:
        if self.vocab < 1:
            raise InputError(f"vocabulary size must be >= 1, got {self.vocab}; use --vocab 2 or more")
        if not 1 <= self.rank <= min(self.width, self.vocab):
            raise InputError(f"embedding rank {self.rank} must be between 1 and min(width, vocab) = "
                             f"{min(self.width, self.vocab)}; choose --rank in that range")
        if not 0 <= self.positional_rank <= self.width:
            raise InputError(f"positional rank {self.positional_rank} must be between 0 and the width "
                             f"{self.width}; choose --pos-rank in that range")

    def _rng(self, what: str) -> random.Random:
        return random.Random(f"verify-embedding:{what}:{self.seed}")

    @staticmethod
    def _matrix(rng, rows, cols):
        return [[rng.randint(-EMBEDDING_RANGE, EMBEDDING_RANGE) for _ in range(cols)] for _ in range(rows)]

    @cached_property
    def factors(self) -> tuple[list[list[int]], list[list[int]]]:
        """(P, Q): the d_x x r and r x V integer factors of the embedding matrix M = P Q."""
        rng = self._rng("vocab")
        return self._matrix(rng, self.width, self.rank), self._matrix(rng, self.rank, self.vocab)

    @cached_property
    def columns(self) -> list[list[int]]:
        """E_w = P Q e_w for each token w: V integer vectors of length d_x (rank r together)."""
        left, right = self.factors
        return [[sum(left[i][k] * right[k][w] for k in range(self.rank)) for i in range(self.width)]
                for w in range(self.vocab)]

    def position(self, j: int) -> list[int]:
        """Column j of the rank-r_e positional embedding (zero when r_e = 0); independent of N."""
        if self.positional_rank == 0:
            return [0] * self.width
        left = self._matrix(self._rng("pos-left"), self.width, self.positional_rank)
        rng = random.Random(f"verify-embedding:pos:{self.seed}:{j}")  # one stream: R independent entries
        right = [rng.randint(-EMBEDDING_RANGE, EMBEDDING_RANGE) for _ in range(self.positional_rank)]
        return [sum(left[i][k] * right[k] for k in range(self.positional_rank)) for i in range(self.width)]

    def embed(self, tokens: list[int]) -> list[list[int]]:
        """The input vectors x^j = E_{w_j} + pos_j of a token sequence."""
        return [[a + b for a, b in zip(self.columns[w], self.position(j), strict=False)] for j, w in enumerate(tokens)]


@dataclass(frozen=True)
class ConvolutionEmbedding:
    """The convolution embedding of eq. 2: position i gets sum_j W_j x^{(M/N)(i-1)+j} (+ p^i).

    ``kernel`` = M/N raw input vectors of dimension ``input_dim`` per position.  The kernel,
    reshaped to d_x x (kernel * input_dim), is P Q of rank ``rank`` (eq. 4).

    Examples
    --------
    >>> emb = ConvolutionEmbedding(width=3, input_dim=2, kernel=2, rank=2)
    >>> len(emb.factors[0]), len(emb.factors[1][0])
    (3, 4)
    """

    width: int
    input_dim: int
    kernel: int
    rank: int
    seed: int = 0

    def __post_init__(self) -> None:
        if self.input_dim < 1 or self.kernel < 1:
            raise InputError(f"input dimension and kernel must be >= 1, got {self.input_dim} and {self.kernel}")
        if not 1 <= self.rank <= min(self.width, self.kernel * self.input_dim):
            raise InputError(f"convolution rank {self.rank} must be between 1 and min(width, kernel * input_dim) = "
                             f"{min(self.width, self.kernel * self.input_dim)}")

    @cached_property
    def factors(self) -> tuple[list[list[int]], list[list[int]]]:
        """(P, Q): d_x x r and r x (kernel * input_dim) integer factors of the reshaped kernel."""
        rng = random.Random(f"verify-conv:{self.seed}")
        left = VocabularyEmbedding._matrix(rng, self.width, self.rank)
        return left, VocabularyEmbedding._matrix(rng, self.rank, self.kernel * self.input_dim)

    def embed(self, raw: list[Any]) -> list[Any]:
        """x^i = P Q [x^{k(i-1)+1}; ...; x^{k i}] for raw inputs (numbers or mpolys), N = len(raw)/kernel."""
        left, right = self.factors
        width = self.kernel * self.input_dim
        out = []
        for i in range(len(raw) // self.kernel):
            flat = [c for j in range(self.kernel) for c in raw[self.kernel * i + j]]
            inner = [sum((flat[c] * right[k][c] for c in range(width) if right[k][c]), flat[0] * 0)
                     for k in range(self.rank)]
            out.append([sum((inner[k] * left[a][k] for k in range(self.rank)), flat[0] * 0)
                        for a in range(self.width)])
        return out
