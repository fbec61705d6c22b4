"""The network specification of eq. 3 and its seeded integer weights.

Source: ``levine2020_limits_to_depth_efficiencies.md`` §2, eqs. 3-4 (linearised multi-head
self-attention); ``docs/mathematics.md`` §1 and §3 (why weights are integers from a wide range).
"""

from __future__ import annotations

import random
from dataclasses import asdict, dataclass, replace
from typing import Any

from ..defaults import DEFAULT_WEIGHT_RANGE
from ..errors import InputError
from ..validate import MAX_SPEC_DEPTH, MAX_TOKENS, MAX_WIDTH, flag, integer

__all__ = ["NetworkSpec", "Weights", "LayerWeights", "draw_weights", "divisors", "DEFAULT_WEIGHT_RANGE"]


@dataclass(frozen=True)
class NetworkSpec:
    """A depth-L linearised self-attention network (eq. 3) and the scalar output studied.

    Parameters
    ----------
    depth : int
        Number of layers L >= 1.
    width : int
        Embedding dimension d_x >= 1.
    heads : int
        Attention heads H per layer, H >= 1.
    attn_dim : int or None
        Attention dimension d_a; ``None`` means d_x / H, which requires H to divide d_x.
    tokens : int or None
        Sequence length N; ``None`` for computations that do not depend on N (reduced route).
    output : int
        Output coordinate p in [0, d_x).
    position : int
        Output position i in [0, N).
    residual : bool
        Each layer is I + T_l instead of T_l (revised supplement, residual connections).
    """

    depth: int
    width: int
    heads: int = 1
    attn_dim: int | None = None
    tokens: int | None = None
    output: int = 0
    position: int = 0
    residual: bool = False

    def __post_init__(self) -> None:
        for name in ("depth", "width", "heads", "attn_dim", "tokens", "output", "position"):
            value = getattr(self, name)
            if isinstance(value, bool):  # True is an int to Python, never a depth
                raise InputError(f"{name} must be an integer, got {value!r}; e.g. NetworkSpec(depth=2, width=3)")
        flag(self.residual, "residual")
        limits = {"depth": MAX_SPEC_DEPTH, "width": MAX_WIDTH, "heads": MAX_WIDTH, "attn_dim": MAX_WIDTH,
                  "tokens": MAX_TOKENS}
        for name, high in limits.items():  # before 3^depth or a width-sized allocation is ever attempted
            value = getattr(self, name)
            if isinstance(value, int) and value > high:
                shown = f"{value:,}" if value < 10**30 else f"about 10^{len(str(value)) - 1}"
                raise InputError(f"{name} must be at most {high:,}, got {shown}; e.g. NetworkSpec(depth=2, width=3)")
        if not isinstance(self.depth, int) or self.depth < 1:
            raise InputError(f"depth must be an integer >= 1, got {self.depth!r}; use --depth 1 or more")
        if not isinstance(self.width, int) or self.width < 1:
            raise InputError(f"width must be an integer >= 1, got {self.width!r}; use --width 1 or more")
        if not isinstance(self.heads, int) or self.heads < 1:
            raise InputError(f"heads must be an integer >= 1, got {self.heads!r}; use --heads 1 or more")
        if self.attn_dim is None:
            if self.width % self.heads:
                raise InputError(
                    f"width {self.width} is not divisible by heads {self.heads}; choose heads among "
                    f"{divisors(self.width)} or give --attn-dim explicitly")
            object.__setattr__(self, "attn_dim", self.width // self.heads)
        elif not isinstance(self.attn_dim, int) or self.attn_dim < 1:
            raise InputError(f"attention dimension must be an integer >= 1, got {self.attn_dim!r}")
        if self.tokens is not None:
            if not isinstance(self.tokens, int) or self.tokens < 1:
                raise InputError(f"tokens must be an integer >= 1, got {self.tokens!r}; use --tokens 2 or more")
            if not 0 <= self.position < self.tokens:
                raise InputError(f"position {self.position} is outside 0..{self.tokens - 1}; "
                                 f"choose --position below --tokens")
        if not isinstance(self.output, int) or not isinstance(self.position, int):
            raise InputError(f"output and position must be integers, got {self.output!r} and {self.position!r}")
        if not 0 <= self.output < self.width:
            raise InputError(f"output coordinate {self.output} is outside 0..{self.width - 1}; "
                             f"choose --output below --width")

    @property
    def layer_degree(self) -> int:
        """C(L) = (3^L - 1)/2, the degree of F(S) in S (Lemma 1 of the first supplement)."""
        return (3**self.depth - 1) // 2

    @property
    def degree(self) -> int:
        """3^L, the degree of y_p^i in the inputs (docs/mathematics.md §1)."""
        return 3**self.depth

    @property
    def weight_degree(self) -> int:
        """Degree of y_p^i (and of F) in the weights: D_L = 4 + 3 D_{L-1}, D_0 = 0, so 2(3^L - 1)."""
        return 2 * (3**self.depth - 1)

    def with_tokens(self, tokens: int | None) -> "NetworkSpec":
        return replace(self, tokens=tokens)

    def as_dict(self) -> dict[Any, Any]:
        return asdict(self)


def divisors(n: int) -> list[int]:
    """The head counts a width admits."""
    return [k for k in range(1, n + 1) if n % k == 0]


@dataclass(frozen=True)
class LayerWeights:
    """One layer's weights, per head: query, key, value (d_a x d_x) and output (d_x x d_a).

    The transcription of eq. 3 calls the output matrix W^Q; it is W^O (docs/mathematics.md §1).
    """

    query: tuple[Any, ...]
    key: tuple[Any, ...]
    value: tuple[Any, ...]
    output: tuple[Any, ...]


@dataclass(frozen=True)
class Weights:
    """Integer weights for every layer, drawn from a seeded generator."""

    layers: tuple[Any, ...]
    seed: int
    weight_range: int

    def as_dict(self) -> dict[Any, Any]:
        return {
            "seed": self.seed,
            "weight_range": self.weight_range,
            "layers": [
                {name: [[list(row) for row in m] for m in getattr(layer, name)]
                 for name in ("query", "key", "value", "output")}
                for layer in self.layers
            ],
        }


def draw_weights(spec: NetworkSpec, seed: int = 0, weight_range: int = DEFAULT_WEIGHT_RANGE) -> Weights:
    """Draw integer weights uniformly from [-weight_range, weight_range], reproducibly.

    The draw depends only on (depth, width, heads, attn_dim, seed, weight_range), not on N, the
    output coordinate or the field, so every route sees the same network.
    """
    if not isinstance(spec, NetworkSpec):
        raise InputError(f"spec must be a NetworkSpec, got {type(spec).__name__}; e.g. NetworkSpec(depth=2, width=3)")
    integer(seed, "seed", 0)  # as --seed: 'x' or -1 would draw some other, unreproducible network
    integer(weight_range, "weight range", 1, 2**62)
    rng = random.Random(f"verify-weights:{seed}")
    d_x, d_a = spec.width, spec.attn_dim

    def matrix(rows: int, cols: int) -> tuple[Any, ...]:
        return tuple(tuple(rng.randint(-weight_range, weight_range) for _ in range(cols)) for _ in range(rows))

    layers = []
    for _ in range(spec.depth):
        query, key, value, output = [], [], [], []
        for _ in range(spec.heads):
            query.append(matrix(d_a, d_x))
            key.append(matrix(d_a, d_x))
            value.append(matrix(d_a, d_x))
            output.append(matrix(d_x, d_a))
        layers.append(LayerWeights(tuple(query), tuple(key), tuple(value), tuple(output)))
    return Weights(tuple(layers), seed, weight_range)
