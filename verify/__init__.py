"""Exact verification of the separation-rank theory of self-attention.

The public surface is small; everything else is internal and may move.

* ``NetworkSpec``: a linearised multi-head self-attention network (eq. 3 of Levine et al. 2020) and
  the output coordinate y_p^i studied; ``draw_weights`` its seeded integer weights.
* ``separation_rank``: the separation rank of y_p^i by the coefficient, grid or reduced route,
  repeated with fresh weights and primes until certified, as ``verify sep`` gives it, with what the
  number certifies (``SepResult``); ``max_runs=1`` gives one run.
* ``Field`` / ``parse_field`` / ``DEFAULT_PRIME``: GF(p) or Q, the field ranks are computed in.
* ``list_claims`` / ``run_claims``: the claims registry of the papers and its checks.
* ``reviewers_table`` / ``probe_n``: the sweeps behind ``verify table`` and ``verify probe-n``.
* ``InputError``: raised for input the engine refuses, with a one-line message.
* ``verify.authoring``: the one module a claim file of a registry imports (Claim, Source, the check
  kinds, the symbols and the helpers its checks compute with).

The package is layered along the flow spec -> network -> polynomial or matrix -> rank -> claim:
``exact`` (fields and exact arithmetic), ``model`` (spec, network, embeddings), ``rank`` (the three
routes), ``constructions`` (the papers' constructions and certificates), ``claims`` (the registry
machinery), ``sweeps`` (executor, store, table, probe), ``api`` (the engine's entry points) and
``cli`` (parses, calls ``api``, prints).

Examples
--------
Two layers of width 2: q(S) = F(S)^T e_p has degree C = 4 in the n = 3 entries of S, so the degree
blocks of its catalecticant have at most min(C(a+2, 2), 2 C(6-a, 2)) = 1, 3, 6, 6, 2 independent rows,
18 in all; the rank at seeded integer weights (a certified lower bound) reaches that count:

>>> import verify
>>> spec = verify.NetworkSpec(depth=2, width=2, heads=1)
>>> result = verify.separation_rank(spec, method="reduced")
>>> result.rank, result.certainty.certified_lower_bound
(18, True)
"""

from importlib import import_module
from typing import TYPE_CHECKING

from .version import __version__  # noqa: E402

if TYPE_CHECKING:  # what type checkers see (PEP 562 + PEP 561, as numpy and scipy do): the real signatures
    from .api import list_claims, probe_n, reviewers_table, run_claims, separation_rank
    from .errors import InputError
    from .exact.fields import DEFAULT_PRIME, Field, parse_field
    from .model.spec import NetworkSpec, draw_weights
    from .rank.result import SepResult

#: Where each public name lives (the ``TYPE_CHECKING`` imports above say the same to type checkers;
#: tests/test_packaging.py checks the two agree).  They load on first use (PEP 562), so that the numpy/cupy kernel
#: (``verify.exact.kernels``, ``verify.exact.elimination``) imports without python-flint, e.g. on a
#: GPU machine: ``import verify.exact.elimination`` runs this file but loads nothing else.
_PUBLIC = {
    "NetworkSpec": ".model.spec", "draw_weights": ".model.spec",
    "separation_rank": ".api", "SepResult": ".rank.result",
    "Field": ".exact.fields", "parse_field": ".exact.fields", "DEFAULT_PRIME": ".exact.fields",
    "list_claims": ".api", "run_claims": ".api", "reviewers_table": ".api", "probe_n": ".api",
    "InputError": ".errors",
}

__all__ = ["NetworkSpec", "draw_weights", "separation_rank", "SepResult", "Field", "parse_field",
           "DEFAULT_PRIME", "list_claims", "run_claims", "reviewers_table", "probe_n", "InputError",
           "__version__"]
assert set(__all__) == set(_PUBLIC) | {"__version__"}, "verify.__all__ and its loader disagree"


if not TYPE_CHECKING:  # hidden from type checkers, so that a misspelt name is an error there, not Any

    def __getattr__(name: str):
        if name in _PUBLIC:
            value = getattr(import_module(_PUBLIC[name], __name__), name)
            globals()[name] = value
            return value
        raise AttributeError(f"module 'verify' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
