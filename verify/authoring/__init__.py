"""The authoring surface: everything a claim file of a registry imports from the engine.

A registry (``verify.claims.registry``) is a package of claim files; each imports from the engine
only this package (the layout test enforces it), so the engine's modules can move without touching
a claim.  This module is the vocabulary of writing a claim: ``Claim``, ``Source``, the check kinds,
the perturbed statements, the formulas' symbols and certified arithmetic.  The engine's functions a
claim's check computes with are exported deliberately, one by one, in four namespaces:

* ``verify.authoring.network``: the network of eq. 3, its weights, embeddings, output polynomial and the
  fields and exact numbers it is computed in;
* ``verify.authoring.ranks``: one run of a route, the exact ranks of the bound checks' specs, the routes'
  pieces (reduced, grid, token);
* ``verify.authoring.constructions``: the papers' constructions and certificates;
* ``verify.authoring.probe``: the probe of the sequence length N and the lower bounds it is compared with.

The public names of each are exactly its ``__all__``: a name that is not listed cannot be imported
from it (checked when each module loads, and by a test).

>>> from verify.authoring import Claim, Property, Source
>>> from verify.claims.record import run_claim
>>> claim = Claim(id="example", source=Source("doc", "§1", "eq. 1"), statement="1 + 1 = 2",
...               expected="not-decided",  # a fact with no perturbed statement cannot fail
...               checks=[Property(lambda: (1 + 1 == 2, "1 + 1 = 2", None), name="one plus one")])
>>> run_claim(claim).outcome
'not-decided'
"""

# what a claim is made of: its record, its source, the kinds of check and the formulas' symbols
from ..claims.checks import Cases, InequalityChain, Property, QuotedNumber, RankBound

# a Property's or Cases' perturbed statements, declared by kind (rule 1's vocabulary)
from ..claims.perturb import converse, neighbour, scaled, shifted, strict
from ..claims.record import Claim, H, L, N, Source, d_a, d_x, k, n, r, r_e

# certified arithmetic (arb)
from ..exact.arbexpr import compare, evaluate, multichoose, precision
from . import _guard

__all__ = [
    "Claim", "Source", "H", "L", "N", "d_a", "d_x", "k", "n", "r", "r_e",
    "Cases", "InequalityChain", "Property", "QuotedNumber", "RankBound",
    "scaled", "shifted", "converse", "neighbour", "strict",
    "compare", "evaluate", "multichoose", "precision",
]

# the namespaces (``from verify.authoring.ranks import ...``) are submodules, not names of this module
_guard.check_exports(__name__, __all__,
                     {name for name in dir() if name[0] not in "_@" and name not in _guard.NAMESPACES})
del _guard
