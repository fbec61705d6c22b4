"""The engine's defaults and limits, in one module that imports nothing, so that the command line's
parser reads them without loading the engine (issue 46.6, 50.5: a refusal at start-up speed).

Each value is the one its engine module uses and re-exports (``verify.rank.sep.SEP``,
``verify.sweeps.table.TABLE``, ``verify.exact.fields.DEFAULT_PRIME``, ...): it is defined here and
nowhere else.  ``METHODS`` and ``RESULT_KINDS`` name what the engine registers at import time; their
modules check the two agree (``verify.rank.routes``, ``verify.api``).
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["DEFAULT_PRIME", "FAST_PRIME", "DEFAULT_WEIGHT_RANGE", "DEFAULT_MEMORY_GIB", "DEFAULT_MAX_EVALUATIONS",
           "DEFAULT_TARGET", "DEFAULT_MAX_RUNS", "DEFAULT_TEMPLATES", "MAX_DEPTH", "METHODS", "RESULT_KINDS",
           "SepDefaults", "SEP", "ProbeDefaults", "PROBE", "TableDefaults", "TABLE", "NetworkDefaults", "MONOMIALS"]

#: The largest prime below 2^63: a "large word-size prime" for nmod arithmetic.
DEFAULT_PRIME = 2**63 - 25
#: The largest prime below 2^20: products fit one float64 limb with inner chunks of 32,767 between
#: reductions (512 below 2^23), the fastest exact elimination (``verify.exact.elimination``); the first
#: run of ``verify sep`` when no field is given.  Its size only weakens that run's probability bound,
#: which the later runs at 2^63 - 25 supply; certification (meeting the upper bound) needs no size.
FAST_PRIME = 1048573
#: Weights are drawn uniformly from [-DEFAULT_WEIGHT_RANGE, DEFAULT_WEIGHT_RANGE].  Wide, so that
#: accidental zeros and cancellations are rare (docs/mathematics.md §3); it is the "sample set" of the
#: Schwartz-Zippel bound reported with every probabilistic number.
DEFAULT_WEIGHT_RANGE = 2**31
#: Refuse computations estimated to need more than this many GiB unless told otherwise.
DEFAULT_MEMORY_GIB = 16.0
#: Refuse grids with more network evaluations than this unless told otherwise (about a minute).
DEFAULT_MAX_EVALUATIONS = 2_000_000
#: Stop once the bound on missing the generic rank is at most this.
DEFAULT_TARGET = 1e-9
#: Never make more runs than this.
DEFAULT_MAX_RUNS = 8
#: Templates per position for the real-network grid: a 576 x 576 matrix at N = 4.
DEFAULT_TEMPLATES = 24
#: Largest depth a table takes (C(L) = (3^L - 1)/2 is above 10^9 at L = 20; every estimate stays
#: closed-form below this).
MAX_DEPTH = 64
#: The names of the routes on continuous inputs, for messages and ``--method`` (registration order of
#: ``verify.rank.routes``, which asserts it registers exactly these).
METHODS = ("coefficients", "grid", "reduced")
#: What a results-store row can be: a task kind of ``verify.sweeps.tasks``, or a ``verify sep --store``
#: run's finished degree block (``verify.api`` asserts the registered kinds are these).
RESULT_KINDS = ("sep", "real_rank", "probe_step", "degree_block")


@dataclass(frozen=True)
class SepDefaults:
    """The defaults of ``separation_rank`` and of ``verify sep`` (the parser reads them from ``SEP``)."""

    method: str = "auto"
    field: str | None = None  # None: escalating primes for the reduced route, else gf:2^63-25
    seed: int = 0
    weight_range: int | None = None  # None: uniform over GF(p), 2^31 over Q
    max_memory_gib: float = DEFAULT_MEMORY_GIB
    max_evaluations: int = DEFAULT_MAX_EVALUATIONS
    templates: int | None = None
    target_probability: float = DEFAULT_TARGET
    max_runs: int = DEFAULT_MAX_RUNS
    device: str = "auto"  # verify.exact.device: the GPU where present and it pays, else the CPU


SEP = SepDefaults()


@dataclass(frozen=True)
class ProbeDefaults:
    """The defaults of ``verify.probe_n`` and ``verify probe-n`` (the parser reads them from ``PROBE``)."""

    max_tokens: int = 40
    patience: int = 4
    positional_rank: int = 0
    field: str = f"gf:{DEFAULT_PRIME}"
    seed: int = 0
    weight_range: int = DEFAULT_WEIGHT_RANGE
    max_memory_gib: float = DEFAULT_MEMORY_GIB
    device: str = "auto"  # verify.exact.device: the --continuous limit only (probe_sweep.probe_device)


PROBE = ProbeDefaults()

#: The table's default field: each cell repeated like ``verify sep`` until certified (see ``TableDefaults``).
AUTO = "auto"


@dataclass(frozen=True)
class TableDefaults:
    """The defaults of ``verify.reviewers_table`` and ``verify table`` (the parser reads ``TABLE``)."""

    depths: str = "1-2"
    widths: str = "2-4"
    heads: str = "all"
    templates: int = DEFAULT_TEMPLATES
    real_tokens: int = 4
    seed: int = 0
    #: ``auto``: every cell through ``verify sep``'s repeat loop (a fast prime first, then 2^63 - 25 and
    #: below or 2^40 - 87 and below by expected cost, block-level) until certified exact or its bound is at most 1e-9;
    #: ``gf:P``/``qq``: one run there.
    field: str = AUTO
    max_memory_gib: float = DEFAULT_MEMORY_GIB
    #: ``verify.exact.device``: each cell on the GPU where present and its largest slice pays, else the CPU.
    device: str = "auto"


TABLE = TableDefaults()


@dataclass(frozen=True)
class NetworkDefaults:
    """The defaults of a command that ranks one network at seeded weights (``verify monomials``)."""

    seed: int = 0
    weight_range: int = DEFAULT_WEIGHT_RANGE
    field: str = f"gf:{DEFAULT_PRIME}"
    max_memory_gib: float = DEFAULT_MEMORY_GIB


MONOMIALS = NetworkDefaults()
