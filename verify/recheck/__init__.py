"""``verify recheck``: an independent re-checker of every export, sharing no rank code with the engine.

What it shares with the engine: nothing of rank computation.  It imports only the standard library, numpy
(integer arrays) and python-flint (``nmod_mat`` ranks and determinants, primality), and it knows the files'
formats (docs/commands.md, docs/store.md, docs/certificates.md, docs/conjecture_n.md, the schema of issue 39)
and the documented seeded draws of weights and embeddings (``arith``), so that a value "at these weights" is
recomputed at the same weights.  It does not import ``verify.model``, ``verify.rank``, ``verify.exact``,
``verify.sweeps`` or ``verify.constructions``; ``tests/recheck/test_independence.py`` checks that.

Why it is written by hand: a re-checker is trusted because it is small and separate (the de Bruijn
criterion: a proof checker's kernel, not the tactic that found the proof).  Its routes differ from the
engine's on purpose:

- ranks: the literal eq. 3 forward pass of [L20] (per head, with the N x N score matrix) on whole token
  sequences or random continuous inputs, mod p in exact int64 or Python integers, and FLINT's ``nmod_mat``
  rank; no Gram sums, count points, catalecticants, float kernels or repeated runs;
- labels: every closed form (counting caps, eq. 7.4 with its caps, the derivative bound, the block-size
  bounds (B1)-(B4), Theorem 2's proof bound, the Schwartz-Zippel probabilities) is re-derived from
  docs/mathematics.md and the papers in ``formulas``, each citing its statement; eq. 7.4's H at the
  positions is recomputed as ranks of monomial matrices (the engine uses an incremental product basis).

Each value gets one line: recomputed, consistent (a formula checked on a value taken on trust, named), beyond the
budget or contradicted (``core``); the exit status is 0 only when every line is recomputed, 1 on a contradiction,
2 on a file that cannot be read, 3 otherwise (``Recheck.exit_status``).  Entry point:
``recheck(paths, max_seconds)``.
"""

from __future__ import annotations

import time

from .core import (
    BEYOND,
    CONFIRMED,
    CONSISTENT,
    CONTRADICTED,
    EXIT_BAD_INPUT,
    EXIT_CONTRADICTED,
    EXIT_INCOMPLETE,
    EXIT_RECOMPUTED,
    KINDS,
    RECOMPUTED,
    BadInput,
    Finding,
    Recheck,
)
from .files import detect, recheck_path

__all__ = ["recheck", "Recheck", "Finding", "BadInput", "detect", "RECOMPUTED", "CONSISTENT", "CONTRADICTED", "BEYOND",
           "CONFIRMED", "KINDS", "EXIT_RECOMPUTED", "EXIT_CONTRADICTED", "EXIT_BAD_INPUT", "EXIT_INCOMPLETE",
           "DEFAULT_MAX_SECONDS"]

#: Default budget of priced recomputation seconds: a results/ table rechecks in well under a minute.
DEFAULT_MAX_SECONDS = 30.0


def recheck(paths: list[str], max_seconds: float = DEFAULT_MAX_SECONDS) -> Recheck:
    """Recheck every file of ``paths`` within one budget; returns the ``Recheck`` with its findings.

    Raises ``BadInput`` (one line: the problem and the fix) for a file that is not an export."""
    if not max_seconds >= 0:
        raise BadInput(f"--max-seconds must be a number >= 0, got {max_seconds}; e.g. --max-seconds 30")
    rc = Recheck(max_seconds)
    start = time.perf_counter()
    for path in paths:
        detect(path)  # every file readable before any work
    for path in paths:
        recheck_path(rc, path)
    rc.run()
    rc.wall_seconds = time.perf_counter() - start
    return rc
