"""Property-based counterexample search through hypothesis, deterministic and bounded.

A check's domain is a hypothesis strategy; ``search`` draws at most ``max_examples`` examples
with a derandomised generator and no example database, so ``verify run`` and CI see the same
examples every time, and a counterexample is shrunk by hypothesis to its smallest before it is
reported.  What hypothesis still stores (its cache of the constants in the source it reads) goes to
``hypothesis/`` in verify's cache folder, not to ``./.hypothesis/`` of the user's working directory;
``HYPOTHESIS_STORAGE_DIRECTORY`` or a home folder set with ``set_hypothesis_home_dir`` is respected.
"""

from __future__ import annotations

import os
from contextlib import contextmanager
from typing import Any, Callable

import hypothesis.configuration as _configuration
from hypothesis import HealthCheck, Verbosity, given, settings
from hypothesis import strategies as st
from hypothesis.errors import Flaky

__all__ = ["search", "integer_points"]


class _Found(Exception):
    """Raised inside the hypothesis test to mark a counterexample (never escapes ``search``)."""


#: hypothesis' own record of its home folder (None until first used or set; then the one chosen with
#: ``set_hypothesis_home_dir`` or ``HYPOTHESIS_STORAGE_DIRECTORY``, or its default ./.hypothesis)
_HOME, _DEFAULT = "__hypothesis_home_directory", "__hypothesis_home_directory_default"


@contextmanager
def _storage_in_cache():
    """hypothesis' storage in verify's cache folder while a search runs, unless the user chose one;
    hypothesis' own setting is restored afterwards."""
    before = getattr(_configuration, _HOME, None)
    if (before is not None and before != getattr(_configuration, _DEFAULT, None)) or os.environ.get(
            "HYPOTHESIS_STORAGE_DIRECTORY"):
        yield
        return
    from ..files import cache_home

    _configuration.set_hypothesis_home_dir(cache_home() / "hypothesis")
    try:
        yield
    finally:
        setattr(_configuration, _HOME, before)


def integer_points(ranges: dict[Any, Any]) -> st.SearchStrategy[dict[Any, int]]:
    """A strategy of points: symbol -> integer in ``ranges[symbol] = (lo, hi)`` (inclusive)."""
    return st.fixed_dictionaries({s: st.integers(lo, hi) for s, (lo, hi) in ranges.items()})


def search(strategy: st.SearchStrategy[Any], failure: Callable[..., Any], max_examples: int) -> Any | None:
    """Look for an example of ``strategy`` where ``failure(example)`` is not None.

    Parameters
    ----------
    strategy : hypothesis strategy
        The domain.
    failure : callable
        ``failure(example)`` returns None when the statement holds there (or the example is out of
        the domain), else a description of the failure.
    max_examples : int
        Examples generated at most (shrinking adds its own, bounded by hypothesis).

    Returns
    -------
    tuple or None
        ``(example, description)`` of the smallest counterexample hypothesis shrank to, or None.

    Examples
    --------
    >>> search(st.integers(0, 1000), lambda n: "too big" if n * n > 300 else None, 100)
    (18, 'too big')
    """
    if max_examples <= 0:
        return None
    found: list[Any] = []

    @settings(max_examples=max_examples, derandomize=True, database=None, deadline=None,
              verbosity=Verbosity.quiet, suppress_health_check=list(HealthCheck), print_blob=False)
    @given(strategy)
    def probe(example):
        description = failure(example)
        if description is not None:
            found.append((example, description))
            raise _Found

    try:
        with _storage_in_cache():
            probe()
    except (_Found, Flaky):
        pass  # hypothesis replays the shrunk example last: found[-1] is the smallest
    return found[-1] if found else None
