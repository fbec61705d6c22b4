"""A sweep's ``--dry-run`` plan (``verify.sweeps.plan.sweep_plan``) as lines for a terminal."""

from __future__ import annotations

from typing import Any

__all__ = ["plan_text"]


def _size(gib: float | None) -> str:
    """A size in GiB written with a readable unit (1.5 MiB, not 0.00146 GiB)."""
    if gib is None:
        return ""
    for unit, scale in (("GiB", 1.0), ("MiB", 2**-10), ("KiB", 2**-20)):
        if gib >= scale:
            return f"{gib / scale:.3g} {unit}"
    return "under 1 KiB"


def plan_text(plan: dict[str, Any]) -> str:
    """The plan as lines for a terminal."""
    lines = [f"{'task':<10} {'spec':<44} {'memory':>12} {'work':>7}  status"]
    for row in plan["tasks"]:
        memory = _size(row["memory_gib"])
        share = "" if row["stored"] else f"{100 * row['share_of_work']:.1f}%"
        status = "stored" if row["stored"] else \
            "over --max-memory-gib: refused" if row.get("over_limit") else "to compute"
        memory = memory or ("beyond 1e300 B" if row.get("over_limit") else "")
        lines.append(f"{row['kind']:<10} {row['name']:<44} {memory:>12} {share:>7}  {status}")
    over = sum(bool(row.get("over_limit")) for row in plan["tasks"])
    lines.append(f"\nDry run: {plan['to_compute']} tasks to compute"
                 + (f" ({over} over --max-memory-gib, which the run would refuse)" if over else "")
                 + f", {plan['stored']} already stored"
                 + (f" in {plan['store']}" if plan["store"] else " (no store)")
                 + "; work is each task's share of the estimated cost still to compute. Nothing was computed.")
    return "\n".join(lines) + "\n"
