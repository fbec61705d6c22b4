"""The probe of the sequence length N for claim files, and the vocabulary paper's lower bounds it is
compared with (Corollary 1; Theorem 2's proof bound, Lemma 7) and the conjectured scale r L / log3 r."""

from ..rank.bound import conjecture_scale, corollary1_lower_bound, lemma7_lower_bound
from ..sweeps.probe import probe_step, probe_tokens
from . import _guard

__all__ = [
    "conjecture_scale", "corollary1_lower_bound", "lemma7_lower_bound", "probe_step", "probe_tokens",
]

_guard.check_exports(__name__, __all__, {name for name in dir() if name[0] not in "_@"})  # @: pytest's rewriting
del _guard
