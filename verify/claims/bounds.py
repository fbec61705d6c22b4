"""``RankBound``: a stated bound against exact separation ranks, and how strong that verdict is.

Besides deciding the bound on every spec of the spec set, the check records per spec

* the **margin** in log3 units: log3 sep - log3 bound for a lower bound, log3 bound - log3 sep for
  an upper bound (None where a lower bound on sep is <= 0: there is no log);
* whether the bound **beats the trivial one** there.  Trivial lower bound: sep >= 1 (y_p^i is not
  the zero polynomial).  Trivial upper bound: the size of the coefficient matrix of y_p^i
  (docs/mathematics.md §2), min(#monomials in x_A, #monomials in x_B).  y_p^i has degree <= 3^L in the inputs
  (each layer is cubic, eq. 3; homogeneous of degree 3^L without residual connections), and the
  ranks are those at N = 2(d_x + 1) (``spec_values``), so each side has m = (N/2) d_x = d_x(d_x + 1)
  coordinates and at most C(m + 3^L, 3^L) monomials of degree <= 3^L: ``trivial_upper``;

and the **perturbed statements**, each made stronger by one unit, decided against the same ranks
(never a new rank): lower bound x3 (+1 on the log3 scale), upper bound /3 (-1 on the log3 scale),
and for bounds on sep itself also the integer bound +1 (lower) / -1 (upper).

The check *could have failed* only when a perturbed (strengthened) statement is refuted on a spec
where the statement applies (docs/claims.md, rule 1).  Beating the trivial bound is recorded per
spec as information and no longer counts.  When no strengthening is refuted, ``bites_at`` names the
smallest spec (by the size of the reduced problem, C(L) d_x(d_x+1)/2) of a search grid where a
strengthening is *certainly* refuted, with the reduced route's memory estimate there: for a lower
bound, where bound x3 exceeds a proven upper bound on sep (the derivative-space bound,
``verify.rank.bound``); for an upper bound, where bound / 3 falls below a proven lower bound (the
first supplement's construction with its corrected reach, ``construction_lower``).  The actual rank
may refute it earlier; none of this is a computed rank.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import comb
from typing import Any, Callable

import flint
import sympy as sp

from ..exact.arbexpr import compare, evaluate
from ..model.spec import NetworkSpec, divisors
from ..rank.bound import derivative_bound
from ..rank.reduced import tokens_threshold
from ..rank.reduced_memory import estimate_block_bytes
from .record import Check, CheckResult, H, L, N, d_a, d_x
from .specsets import default_specs, exact_rank

__all__ = ["RankBound", "spec_values", "trivial_upper", "construction_lower", "BITE_SEARCH"]

#: Depths and widths searched for the smallest spec where a bound that could not fail would bite.
BITE_SEARCH = {"depth": range(1, 13), "width": range(2, 65)}
#: Specs whose reduced route would hold more than this many bytes (the closed-form estimate) are not
#: examined by ``bites_at``: 2^50 bytes (1 PiB) is beyond any machine, and the proven bounds' exact
#: comparisons at the larger specs (binomials of thousands of digits, for every spec of the grid) were
#: what made a bound that never bites take minutes.
BITE_COST_CAP = 2**50


def spec_values(spec: NetworkSpec) -> dict[Any, Any]:
    """Symbol values of a spec: L, d_x, H, d_a and N = 2(d_x+1), the smallest N the rank holds for."""
    return {L: spec.depth, d_x: spec.width, H: spec.heads, d_a: spec.attn_dim, N: tokens_threshold(spec)}


def trivial_upper(spec: NetworkSpec) -> int:
    """min(#monomials in x_A, #monomials in x_B) of degree <= 3^L, at N = 2(d_x + 1) (module doc).

    >>> trivial_upper(NetworkSpec(depth=1, width=2))  # m = 6 coordinates a side, degree <= 3
    84
    """
    side = tokens_threshold(spec) // 2 * spec.width
    return comb(side + 3**spec.depth, 3**spec.depth)


def construction_lower(spec: NetworkSpec) -> int:
    """A proven lower bound on sep: ((H floor((d_a - 1)/2) over 3^(L-2))) for L >= 2 without residual
    connections (first supplement Lemma 4 / revised Lemma 6, with the reach its corrected weights
    have: H floor((d_a-1)/2) columns of V, i.e. floor((d_x - H)/2) for odd d_a and one column a head
    fewer for even d_a; claim levine2020_supp1_lemma4_construction), else 1 (y_p^i is not zero).

    >>> (construction_lower(NetworkSpec(depth=2, width=12, heads=2)),
    ...  construction_lower(NetworkSpec(depth=3, width=9, heads=3)))
    (4, 10)
    """
    columns = spec.heads * ((spec.attn_dim - 1) // 2)
    if spec.depth < 2 or spec.residual or columns < 1:
        return 1
    k = 3 ** (spec.depth - 2)
    return comb(columns + k - 1, k)


def _in_regime(regime, values) -> bool | None:
    if regime is None:
        return True
    lhs, rhs = regime.lhs, regime.rhs
    rel = {sp.StrictLessThan: "<", sp.LessThan: "<=", sp.StrictGreaterThan: ">",
           sp.GreaterThan: ">="}[type(regime)]
    return compare(lhs, rhs, rel, values)


def _spec_name(spec: NetworkSpec) -> str:
    return f"L={spec.depth} d_x={spec.width} H={spec.heads}" + (" residual" if spec.residual else "")


def _holds(bound, kind: str, scale: str, rank: int, values: dict[Any, Any]):
    measured = sp.Integer(rank) if scale == "sep" else sp.log(sp.Integer(rank), 3)
    lhs, rhs = (measured, bound) if kind == "upper" else (bound, measured)
    return compare(lhs, rhs, "<=", values)


@dataclass
class RankBound(Check):
    """Compare ``bound`` with exact ranks: ``sep <= bound`` (upper) or ``bound <= sep`` (lower).

    ``scale`` is ``"sep"`` (the bound is on sep) or ``"log3"`` (on log3 sep).  Specs where
    ``regime`` (a sympy relation) certainly holds decide the check; the others are reported as
    information.  ``condition`` (callable on a spec) restricts the specs considered at all.
    ``reading`` labels the reading of the claim this check belongs to (see ``Claim.readings``).
    """

    bound: object
    kind: str = "upper"
    scale: str = "sep"
    regime: object = None
    residual: bool = False
    condition: Callable[..., Any] | None = None
    specs: list[Any] | None = None
    name: str = "bound vs exact ranks"
    reading: str = ""

    def holds_for(self, rank: int, values: dict[Any, Any]) -> bool | None:
        """Whether ``rank`` obeys the bound at ``values`` (True / False / None when arb cannot decide)."""
        return _holds(self.bound, self.kind, self.scale, rank, values)

    def applies_to(self, spec: NetworkSpec, values: dict[Any, Any]) -> bool:
        """The condition holds for ``spec`` and its regime certainly holds at ``values``."""
        return (self.condition is None or bool(self.condition(spec))) and bool(_in_regime(self.regime, values))

    def margin(self, rank: int, values: dict[Any, Any]) -> flint.arb | None:
        """log3 sep - log3 bound (lower) or log3 bound - log3 sep (upper), an arb ball; None when a
        bound on sep is <= 0 (a vacuous lower bound, an impossible upper one)."""
        b = evaluate(self.bound, values)
        if self.scale == "sep":
            if not b > 0:
                return None
            b = b.log() / flint.arb(3).log()
        measured = flint.arb(rank).log() / flint.arb(3).log()
        return measured - b if self.kind == "lower" else b - measured

    def beats_trivial(self, spec: NetworkSpec, values: dict[Any, Any]) -> bool:
        """Certainly stronger than sep >= 1 (lower) or sep <= ``trivial_upper(spec)`` (upper)."""
        if self.kind == "lower":
            return compare(self.bound, sp.Integer(0 if self.scale == "log3" else 1), ">", values) is True
        limit = sp.Integer(trivial_upper(spec))
        return compare(self.bound, sp.log(limit, 3) if self.scale == "log3" else limit, "<", values) is True

    def perturbed(self) -> list[tuple[str, object]]:
        """The bound made stronger by one unit: (description, bound) pairs."""
        if self.scale == "log3":
            return [("lower bound +1 on log3 (x3)", self.bound + 1)] if self.kind == "lower" else \
                [("upper bound -1 on log3 (/3)", self.bound - 1)]
        if self.kind == "lower":
            return [("lower bound x3", 3 * self.bound), ("lower bound +1", self.bound + 1)]
        return [("upper bound /3", self.bound / 3), ("upper bound -1", self.bound - 1)]

    def run(self) -> CheckResult:
        specs = self.specs if self.specs is not None else default_specs(self.residual)
        inside, outside, failures, details, decisive = 0, 0, [], [], []
        for spec in specs:
            if self.condition is not None and not self.condition(spec):
                continue
            values = spec_values(spec)
            rank = exact_rank(spec)
            holds = self.holds_for(rank, values)
            in_regime = _in_regime(self.regime, values)
            details.append({"spec": _spec_name(spec), "rank": rank,
                            "bound": str(evaluate(self.bound, values).mid()), "holds": holds,
                            "in_regime": bool(in_regime)})
            if in_regime:
                inside += 1
                decisive.append((spec, values, rank, details[-1]))
                if holds is not True:
                    failures.append((spec, rank, values))
            else:
                outside += 1
        if failures:
            spec, rank, values = failures[0]
            return CheckResult(self.name, "fail",
                               f"{len(failures)} of {inside} in-regime specs violate the bound; "
                               f"smallest: {_spec_name(spec)} has sep {rank}",
                               {"spec": _spec_name(spec), "rank": rank,
                                "bound": str(evaluate(self.bound, values))}, details)
        if inside == 0:
            return CheckResult(self.name, "not-applicable",
                               f"no default spec in the regime ({outside} outside, reported as information)",
                               None, details)
        held_outside = sum(1 for d in details if not d["in_regime"] and d["holds"])
        if self.regime is None:
            result = CheckResult(self.name, "pass", f"holds on all {inside} specs", None, details)
        else:
            result = CheckResult(self.name, "pass",
                                 f"holds on all {inside} in-regime specs; outside the regime it holds on "
                                 f"{held_outside} of {outside} (information)", None, details)
        return self._strength(result, decisive)

    def _strength(self, result: CheckResult, decisive: list[Any]) -> CheckResult:
        """Margins, trivial-bound comparison and perturbations over the in-regime specs."""
        tightest, beats = None, []
        for spec, values, rank, row in decisive:
            m = self.margin(rank, values)
            row["margin_log3"] = None if m is None else round(float(m.mid()), 4)
            row["beats_trivial"] = self.beats_trivial(spec, values)
            if row["beats_trivial"]:
                beats.append(row["spec"])
            if m is not None and (tightest is None or m.mid() < tightest[0].mid()):
                tightest = (m, row["spec"])
        if tightest is not None:
            result.margin = {"value": round(float(tightest[0].mid()), 4), "scale": "log3 units (float)",
                             "where": tightest[1]}
        for text, bound in self.perturbed():
            refuted = next(((spec, value) for spec, values, rank, _ in decisive
                            for value in [self.refuting_value(spec, rank)]
                            if _holds(bound, self.kind, self.scale, value, values) is False), None)
            what = "sep" if self.kind == "upper" else "sep <= proven upper bound"
            result.perturbations.append({
                "statement": text, "refuted": refuted is not None,
                "evidence": (f"refuted at {_spec_name(refuted[0])} ({what} {refuted[1]})" if refuted else
                             f"holds on all {len(decisive)} in-regime specs")})
        result.could_fail = any(p["refuted"] for p in result.perturbations)  # rule 1: a strengthening refuted
        trivial = "sep >= 1" if self.kind == "lower" else "the monomial count"
        result.evidence += (f"; beats the trivial bound ({trivial}, information only) on {len(beats)} of "
                            f"{len(decisive)} specs; strengthenings refuted "
                            f"{sum(p['refuted'] for p in result.perturbations)} of {len(result.perturbations)}")
        if not result.could_fail:
            result.bites_at = self.bites_at()
            result.evidence += f"; no strengthening refuted: {result.bites_at}"
        return result

    def refuting_value(self, spec: NetworkSpec, rank: int) -> int:
        """The value a strengthening is decided against at ``spec``.  A computed rank (one seeded
        run) is a certified *lower* bound on the generic rank, so it refutes a strengthened upper
        bound soundly, but a strengthened lower bound only through a proven *upper* bound on the
        generic rank: the derivative-space bound (B1-B4, ``verify.rank.bound``), which equals the
        computed rank wherever that rank is certified exact."""
        return rank if self.kind == "upper" else max(rank, derivative_bound(spec).total)

    def certainly_refuted(self, spec: NetworkSpec, values: dict[Any, Any]) -> bool:
        """A strengthened statement is refuted at ``spec`` by proven bounds on sep alone (module doc)."""
        strongest = self.perturbed()[0][1]
        if self.kind == "lower":
            proven = sp.Integer(derivative_bound(spec).total)
            limit = sp.log(proven, 3) if self.scale == "log3" else proven
            return compare(strongest, limit, ">", values) is True
        proven = sp.Integer(construction_lower(spec))
        limit = sp.log(proven, 3) if self.scale == "log3" else proven
        return compare(strongest, limit, "<", values) is True

    def bites_at(self) -> str:
        """The smallest spec of ``BITE_SEARCH`` where the statement applies and a strengthening is
        certainly refuted (``certainly_refuted``), with the reduced route's memory estimate there."""
        known = {_spec_name(s) for s in default_specs(self.residual, extended=True)}
        candidates = sorted(((3**depth - 1) // 2 * width * (width + 1) // 2, depth, width, heads)
                            for depth in BITE_SEARCH["depth"] for width in BITE_SEARCH["width"]
                            for heads in divisors(width))
        for _, depth, width, heads in candidates:
            spec = NetworkSpec(depth=depth, width=width, heads=heads, residual=self.residual)
            if self.condition is not None and not self.condition(spec):
                continue
            if estimate_block_bytes(spec) > BITE_COST_CAP:
                continue
            values = spec_values(spec)
            if _in_regime(self.regime, values) and self.certainly_refuted(spec, values):
                name = _spec_name(spec)
                where = " (in the spec set)" if name in known else " (not in the spec set, default or extended)"
                return (f"a strengthening is certainly refuted first at {name}{where}; estimated cost there: "
                        f"{_cost(spec)}")
        return (f"none reachable: no spec with L <= {BITE_SEARCH['depth'][-1]}, d_x <= {BITE_SEARCH['width'][-1]} "
                f"and an estimated cost under 2^{BITE_COST_CAP.bit_length() - 1} bytes where proven "
                f"bounds on sep refute a strengthening (the {'upper' if self.kind == 'lower' else 'lower'} "
                "bounds proven stay on the statement's side)")


def _cost(spec: NetworkSpec) -> str:
    """The reduced route's memory estimate for ``spec`` (closed form), in words."""
    need = estimate_block_bytes(spec)
    if need == float("inf"):
        return "beyond any memory (over 2^4096 entries)"
    return f"about {need / 2**30:.3g} GiB held at once by the reduced route (depth 2 took about 10 s per GiB here)"
