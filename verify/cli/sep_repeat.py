"""``verify sep``: independent runs until the bound on missing the generic rank meets a target.

Kept apart from ``main`` so the run loop (``verify.rank.repeat``) and what it prints live together.
"""

from __future__ import annotations

from ..errors import InputError
from ..exact.fields import Field
from ..model.spec import DEFAULT_WEIGHT_RANGE
from ..exact.fields import FAST_PRIME
from ..rank.repeat import (DEFAULT_MAX_RUNS, DEFAULT_TARGET, bad_prime_note, escalating_primes, field_weight_range,
                           repeat_until)

__all__ = ["add_repeat_args", "weight_range_for", "repeated_sep", "certainty_rows"]


def add_repeat_args(sep) -> None:
    """``--target-probability`` and ``--max-runs``; weights default to uniform over the whole field."""
    sep.add_argument("--target-probability", type=float, default=DEFAULT_TARGET,
                     help=f"repeat with independent weights and primes until the bound on missing the generic "
                          f"rank is at most this (default {DEFAULT_TARGET:g}); a rank meeting the proven upper "
                          f"bound stops at once")
    sep.add_argument("--max-runs", type=int, default=DEFAULT_MAX_RUNS,
                     help=f"at most this many runs (default {DEFAULT_MAX_RUNS})")
    sep.set_defaults(weight_range=None, field=None)
    for action in sep._actions:
        if action.dest == "weight_range":
            action.help = "weights uniform in [-R, R] (default: uniform over GF(p), all p residues; 2^31 over qq)"
        if action.dest == "field":
            action.help = (f"qq (exact rationals) or gf:P for a prime P (every run in GF(P) and the primes below). "
                           f"Default, reduced route: one run in GF({FAST_PRIME}) with the float64 BLAS elimination "
                           f"(certified exact if it meets the upper bound), then runs in GF(2^63-25) and below until "
                           f"the target; other routes: gf:2^63-25")


def weight_range_for(given: int | None, field: Field) -> int:
    """The user's range, or one full residue system of GF(p) (Schwartz-Zippel sample p), or 2^31 over Q."""
    if given is not None:
        return given
    return field_weight_range(field) or DEFAULT_WEIGHT_RANGE


def repeated_sep(run, field: Field, seed: int, target: float, max_runs: int, escalate: bool = False) -> dict:
    """Run ``run(seed, field, weight_range)`` (one ``SepResult``) repeatedly; the best run's JSON with
    the combined certainty, the primes, the runs and the elimination.  ``escalate``: the primes of
    ``escalating_primes`` (a fast one first) instead of ``field``'s and those below it."""
    if not 0 < target < 1:
        raise InputError(f"--target-probability must be between 0 and 1, got {target}; e.g. 1e-9")
    if max_runs < 1:
        raise InputError(f"--max-runs must be at least 1, got {max_runs}; e.g. --max-runs 8")
    repeated = repeat_until(run, field, seed, target, max_runs, escalating_primes() if escalate else None)
    out = repeated.best.as_dict()
    out.update(repeated.as_dict())
    out["seconds"] = round(sum(r.seconds for r in repeated.runs), 3)  # every run, not just the best
    note = bad_prime_note(repeated)
    if note:
        out["notes"] = out["notes"] + [note]
    if not repeated.certified_exact and (repeated.probability_bound is None or repeated.probability_bound > target):
        out["notes"] = out["notes"] + [f"target probability {target:g} not reached: {repeated.stopped}"]
    return out


def certainty_rows(out: dict) -> list[tuple[str, object]]:
    """The lines ``verify sep`` prints about what the number certifies."""
    if out.get("certified_exact"):
        rows = [("certified", f"exact: meets the derivative-space upper bound {out['upper_bound']:,}"),
                ("P(below generic)", "0")]
    else:
        over = "" if out["field"] == "qq" else " over GF(p)"
        rows = [("certified", "lower bound on the generic rank" if out["certified_lower_bound"] else "no"),
                ("upper bound", f"{out['upper_bound']:,} (derivative-space count, {out.get('upper_bound_kind')})"),
                (f"P(below generic{over})", f"<= {out['probability_bound']:.3g}" if out["probability_bound"] is not None
                 else "not claimed")]
    if "runs" in out:
        primes = ", ".join(map(str, out["primes"])) or "none (qq)"
        rows.append(("runs", f"{out['runs']} ({out['runs_at_rank']} at this rank); primes {primes}; "
                             f"elimination {out['elimination']}"))
    return rows
