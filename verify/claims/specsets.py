"""The default specs the registry compares bounds against, and where their exact ranks come from.

"All that the engine finishes quickly": every head count of widths 2-6 at depths 1-2, width 2
at depths 3-4, width 3 at depth 3, width 10 with 2 heads at depth 2 (the smallest depth-2 spec
inside Theorem 1's regime L < log3 d_x, about 90 s), and residual variants of the small ones.
``extended`` adds depth 5 width 2.  Ranks come from the reduced route (valid for N >= 2(d_x+1))
at seed 0.

A claim run reads its ranks from a ``RankSource`` (the field, what each rank certifies, the ranks
already known, whether the slow specs are in), handed to it with ``using(source)``: a context, not
a module global, so nothing a run learnt is left behind for the next one.
"""

from __future__ import annotations

from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from dataclasses import field as dc_field
from functools import lru_cache
from typing import Any

from ..exact.fields import DEFAULT_PRIME, parse_field
from ..model.spec import NetworkSpec, divisors
from ..rank.routes import rank_once

__all__ = ["RankSource", "using", "current", "default_specs", "exact_rank", "remember"]


@dataclass
class RankSource:
    """Exact ranks for the bound checks: reduced-route ranks at seeded integer weights over ``field``,
    each a certified lower bound on the generic rank (``certainty``); ``known`` holds the ranks
    computed elsewhere (a sweep, the results store) or already here, by (spec, seed)."""

    field: str = f"gf:{DEFAULT_PRIME}"
    certainty: str = "certified lower bound on the generic rank (reduced route, one run at seeded integer weights)"
    extended: bool = False
    known: dict[Any, Any] = dc_field(default_factory=dict)
    #: Called once, with this source, the first time a rank is missing (``verify run`` computes the
    #: default specs through the sweep executor then); None computes each missing rank here.
    on_missing: object = None

    def remember(self, spec: NetworkSpec, seed: int, rank: int) -> None:
        self.known[_key(spec, seed)] = rank

    def rank(self, spec: NetworkSpec, seed: int = 0) -> int:
        key = _key(spec, seed)
        if key not in self.known and self.on_missing is not None:
            fill, self.on_missing = self.on_missing, None
            fill(self)
        if key not in self.known:
            self.known[key] = _reduced_rank(*key, self.field)
        return self.known[key]


@lru_cache(maxsize=None)
def _reduced_rank(depth: int, width: int, heads: int, attn_dim: int, residual: bool, seed: int, field: str) -> int:
    """The reduced-route rank at seeded weights: a function of its arguments alone, so memoised per
    process (nothing a caller sets can change what it returns)."""
    plain = NetworkSpec(depth=depth, width=width, heads=heads, attn_dim=attn_dim, residual=residual)
    return rank_once(plain, "reduced", field=parse_field(field), seed=seed).rank


_SOURCE: ContextVar[RankSource | None] = ContextVar("verify_rank_source", default=None)


@contextmanager
def using(source: RankSource | None = None):
    """Run the enclosed claim checks with ``source`` (a fresh one if None) as their rank source."""
    token = _SOURCE.set(source if source is not None else RankSource())
    try:
        yield _SOURCE.get()
    finally:
        _SOURCE.reset(token)


def current() -> RankSource:
    """The rank source of the claim run in progress (a fresh, empty one outside any run)."""
    return _SOURCE.get() or RankSource()


def default_specs(residual: bool = False, extended: bool | None = None) -> list[NetworkSpec]:
    """The registry's spec set, smallest first; ``extended`` (default: the rank source's) adds the
    slow ones: depth 5 width 2 (about 3 minutes here)."""
    plan = [(1, w) for w in range(2, 7)] + [(2, w) for w in range(2, 7)] + [(3, 2), (4, 2), (3, 3)]
    if residual:
        plan = [(1, 2), (1, 3), (2, 2), (2, 3), (3, 2)]
    specs = [NetworkSpec(depth=depth, width=width, heads=h, residual=residual)
             for depth, width in plan for h in divisors(width)]
    if extended is None:
        extended = current().extended
    if not residual:
        specs.append(NetworkSpec(depth=2, width=10, heads=2))  # Theorem 1's regime at depth 2 (~90 s)
    if extended and not residual:
        specs.append(NetworkSpec(depth=5, width=2, heads=1))
    return specs


def _key(spec: NetworkSpec, seed: int) -> tuple[Any, ...]:
    return (spec.depth, spec.width, spec.heads, spec.attn_dim, spec.residual, seed)


def remember(spec: NetworkSpec, seed: int, rank: int) -> None:
    """Record a rank computed elsewhere in the current rank source (``RankSource.remember``)."""
    current().remember(spec, seed, rank)


def exact_rank(spec: NetworkSpec, seed: int = 0) -> int:
    """The reduced-route separation rank of ``spec``, from the current rank source."""
    return current().rank(spec, seed)
