"""The default specs the registry compares bounds against, and their exact ranks (cached).

"All that the engine finishes quickly": every head count of widths 2-6 at depths 1-2, width 2
at depths 3-4, width 3 at depth 3, width 10 with 2 heads at depth 2 (the smallest depth-2 spec
inside Theorem 1's regime L < log3 d_x, about 90 s), and residual variants of the small ones.
``extended`` adds depth 5 width 2.  Ranks come from the reduced
route (valid for N >= 2(d_x+1)) at seed 0.
"""

from __future__ import annotations

from ..rank.routes import rank_once
from ..model.spec import NetworkSpec, divisors

__all__ = ["default_specs", "exact_rank", "remember", "EXTENDED"]

#: Set by ``verify run --extended``: include the slow specs in every bound check.
EXTENDED = False


def default_specs(residual: bool = False, extended: bool | None = None) -> list[NetworkSpec]:
    """The registry's spec set, smallest first; ``extended`` adds the slow ones.

    Extended adds depth 5 width 2 (about 3 minutes here).
    """
    plan = [(1, w) for w in range(2, 7)] + [(2, w) for w in range(2, 7)] + [(3, 2), (4, 2), (3, 3)]
    if residual:
        plan = [(1, 2), (1, 3), (2, 2), (2, 3), (3, 2)]
    specs = [NetworkSpec(depth=depth, width=width, heads=h, residual=residual)
             for depth, width in plan for h in divisors(width)]
    if extended is None:
        extended = EXTENDED
    if not residual:
        specs.append(NetworkSpec(depth=2, width=10, heads=2))  # Theorem 1's regime at depth 2 (~90 s)
    if extended and not residual:
        specs.append(NetworkSpec(depth=5, width=2, heads=1))
    return specs


#: Exact ranks by (depth, width, heads, attn_dim, residual, seed): computed here on first use, or
#: handed in by a sweep (``remember``).
_KNOWN: dict = {}


def _key(spec: NetworkSpec, seed: int) -> tuple:
    return (spec.depth, spec.width, spec.heads, spec.attn_dim, spec.residual, seed)


def remember(spec: NetworkSpec, seed: int, rank: int) -> None:
    """Record a rank computed elsewhere (a sweep, the results store) for ``exact_rank``."""
    _KNOWN[_key(spec, seed)] = rank


def exact_rank(spec: NetworkSpec, seed: int = 0) -> int:
    """The reduced-route separation rank of ``spec`` (cached per process)."""
    key = _key(spec, seed)
    if key not in _KNOWN:
        plain = NetworkSpec(depth=spec.depth, width=spec.width, heads=spec.heads, attn_dim=spec.attn_dim,
                            residual=spec.residual)
        _KNOWN[key] = rank_once(plain, "reduced", seed=seed).rank
    return _KNOWN[key]
