"""Where a degree block's seconds go: gather, products, leaves and check, recorded by the kernels.

``record()`` opens an accumulator for one degree block (``verify.rank.degree_blocks``); inside it the
kernels mark their phases with ``phase(name)``: the block LU its leaf inverses (``"leaves"``) and its
checks (``"check"``), the float PLUQ its factorization check, the degree blocks their gathers
(``"gather"``).  What the block's elimination spent outside those is its products (``split``).  Outside
``record()`` a phase costs one context-variable read: nothing is timed.  On a GPU a phase waits for the
device at its end (``sync``), so its seconds are the device's, not the launch queue's.  Timings are
figures, never part of a result's meaning.
"""

from __future__ import annotations

import contextlib
import contextvars
import time
from typing import Any

__all__ = ["PHASES", "phase", "record", "split"]

#: The phases a degree block's seconds are split into.
PHASES = ("gather", "products", "leaves", "check")
_OPEN: contextvars.ContextVar = contextvars.ContextVar("verify_phases", default=None)


@contextlib.contextmanager
def phase(name: str, sync=None):
    """Add the seconds inside to ``name`` of the open record (if any); ``sync`` waits for a device first.
    A phase inside another of the same record is counted once, by the outer one."""
    seconds = _OPEN.get()
    if seconds is None or seconds.get("_inside"):
        yield
        return
    seconds["_inside"] = True
    start = time.perf_counter()
    try:
        yield
    finally:
        if sync is not None:
            sync()
        seconds[name] = seconds.get(name, 0.0) + time.perf_counter() - start
        seconds["_inside"] = False


@contextlib.contextmanager
def record():
    """An accumulator for the phases inside (a dict of seconds, filled as they end)."""
    seconds: dict[Any, Any] = {}
    token = _OPEN.set(seconds)
    try:
        yield seconds
    finally:
        _OPEN.reset(token)


def split(seconds: dict[Any, Any], total: float) -> dict[Any, Any]:
    """The block's seconds by phase: the recorded gather, leaves and check, and its products as the rest of
    ``total`` (rounded to milliseconds).

    >>> split({"gather": 1.0, "leaves": 0.5, "_inside": False}, 4.0)
    {'gather': 1.0, 'products': 2.5, 'leaves': 0.5, 'check': 0.0}
    """
    out = {name: round(seconds.get(name, 0.0), 3) for name in PHASES if name != "products"}
    out["products"] = round(max(0.0, total - sum(seconds.get(n, 0.0) for n in PHASES if n != "products")), 3)
    return {name: out[name] for name in PHASES}
