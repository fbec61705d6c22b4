"""A bound at the smallest N (issue 20, rule 2 "whole domains").

The registry's ``RankBound`` checks compare with reduced-route ranks, which hold from N = 2(d_x + 1)
on; a statement "for every N > 1" also speaks of N = 2, its smallest N.  ``at_small_n(check)`` is
a second check with the same bound, regime and condition, compared with exact ranks by the
coefficient route (valid at every N, over Q at seeded integer weights: like the reduced route's, a
certified lower bound on the generic rank) at N = 2 and 4 on the specs where that costs at most
about a second: depth 1 up to d_x = 6, depth 2 up to d_x = 4 (N = 4 up to d_x = 3), depth 3 at
d_x = 2 (N = 2).  Timed here: the largest, L = 2, d_x = 4, N = 2, 0.2 s; L = 2, d_x = 4, N = 4
takes 55 s and d_x = 5, N = 2 7 s, so they are left out.  The ranks are cached across claims.
"""

from functools import lru_cache

from verify.authoring import Cases, H, L, N, d_a, d_x
from verify.authoring.network import Field, NetworkSpec, divisors
from verify.authoring.ranks import rank_once as separation_rank  # one run at the given seed

#: (L, d_x, N) within about a second each (module docstring), smallest first.
PLAN = ([(1, w, 2) for w in range(1, 7)] + [(1, w, 4) for w in range(1, 7)] + [(2, w, 2) for w in range(1, 5)]
        + [(2, w, 4) for w in range(1, 4)] + [(3, 2, 2)])


def small_specs(residual: bool = False) -> list:
    """(L, d_x, H, N) of ``PLAN``, every head count (H = d_x included); residual: d_x <= 3 at L = 1 and
    d_x <= 2 at L = 2 (the specs of levine2020_revised_residual_small_n; residual L = 2, d_x = 3 takes minutes)."""
    plan = [p for p in PLAN if not residual or p[1] <= (3 if p[0] == 1 else 2 if p[0] == 2 else 0)]
    return [(depth, width, heads, tokens) for depth, width, tokens in plan for heads in divisors(width)]


@lru_cache(maxsize=None)
def coefficient_rank(depth: int, width: int, heads: int, tokens: int, residual: bool) -> int:
    spec = NetworkSpec(depth=depth, width=width, heads=heads, tokens=tokens, residual=residual)
    return separation_rank(spec, "coefficients", Field(None)).rank


def at_small_n(check, name: str = "bound at the smallest N (coefficient route, N = 2 and 4)") -> Cases:
    """A ``Cases`` check of ``check``'s bound (a ``RankBound``) at N = 2 and 4 on ``small_specs``.
    Specs outside its regime or condition pass as "not in the statement's domain"."""

    def per_case(depth, width, heads, tokens):
        spec = NetworkSpec(depth=depth, width=width, heads=heads, tokens=tokens, residual=check.residual)
        values = {L: depth, d_x: width, H: heads, d_a: spec.attn_dim, N: tokens}
        where = f"L={depth} d_x={width} H={heads} N={tokens}"
        if not check.applies_to(spec, values):
            return True, f"{where}: outside the statement's domain"
        rank = coefficient_rank(depth, width, heads, tokens, check.residual)
        holds = check.holds_for(rank, values)
        if holds is None:
            return False, f"{where}: sep {rank} against the bound undecided", {"spec": where, "sep": rank}
        word = "within" if holds else "VIOLATES"
        return holds, f"{where}: sep {rank} {word} the {check.kind} bound", {"spec": where, "sep": rank}

    return Cases(small_specs(check.residual), per_case, name=name)
