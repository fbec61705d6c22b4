"""The authoring surface: everything a claim file of a registry imports from the engine.

A registry (``verify.claims.registry``) is a package of claim files; each imports from the engine
only this module (the layout test enforces it), so the engine's modules can move without touching
a claim.  Writing a claim needs ``Claim``, ``Source``, a check kind and the symbols; the other names
are the engine's functions a claim's check computes with (a network, a rank, a construction),
exported here deliberately, one by one.  The public names are exactly ``__all__``: a name that is
not listed cannot be imported from here (checked when this module loads, and by a test).

>>> from verify.authoring import Claim, Property, Source
>>> from verify.claims.record import run_claim
>>> claim = Claim(id="example", source=Source("doc", "§1", "eq. 1"), statement="1 + 1 = 2",
...               expected="not-decided",  # a fact with no perturbed statement cannot fail
...               checks=[Property(lambda: (1 + 1 == 2, "1 + 1 = 2", None), name="one plus one")])
>>> run_claim(claim).outcome
'not-decided'
"""

# what a claim is made of: its record, its source, the kinds of check and the formulas' symbols
from .claims.record import Claim, Source, H, L, N, d_a, d_x, k, n, r, r_e
from .claims.checks import Cases, InequalityChain, Property, QuotedNumber, RankBound
# a Property's or Cases' perturbed statements, declared by kind (rule 1's vocabulary)
from .claims.perturb import converse, neighbour, scaled, shifted, strict
# certified arithmetic (arb) and exact numbers
from .exact.arbexpr import compare, evaluate, multichoose, precision
from .exact.compositions import compositions
from .exact.fields import DEFAULT_PRIME, Field
from .exact.gaussian import I, GaussianRational
# the network of eq. 3 and its output polynomial
from .model.embeddings import ConvolutionEmbedding, VocabularyEmbedding
from .model.network import forward, output_coordinate
from .model.partitions import balanced_partitions, default_partition
from .model.polynomial import output_polynomial, variable_index
from .model.spec import LayerWeights, NetworkSpec, Weights, divisors, draw_weights
# ranks: one run at the given seed, the exact ranks of the bound checks' specs, the routes' pieces
from .claims.specsets import default_specs, exact_rank
from .rank.bound import derivative_bound
from .rank.grid import default_template_count
from .rank.token.positional_bound import counting_floor
from .rank.token.route import every_sequence_rank, sampled_minor_rank
from .rank.reduced import embedded_reduced_rank, reduced_polynomials
from .rank.routes import rank_once
from .rank.token.tokens import token_rank
# the papers' constructions and certificates
from .constructions.certificate import certify, check_certificate, lower_bound
from .constructions.grid_eval import grid_values
from .constructions.levine import DEFECTS, construction, grid_submatrix, hadamard_target, proportional, unit_rows
from .constructions.one_slot import layout_grid_rank, one_slot_bound
from .constructions.omega import bad_omegas, exponent_matrix, hadamard_gram, omega_rows
from .constructions.vocabulary import (Layout, carried_columns, convolution_embedding, embedding_target,
                                       large_n_construction, matrix_rank, vocabulary_matrix)
# the probe of the sequence length N and the lower bounds it is compared with
from .rank.bound import conjecture_scale, corollary1_lower_bound, lemma7_lower_bound
from .sweeps.probe import probe_step, probe_tokens

__all__ = [
    "Claim", "Source", "H", "L", "N", "d_a", "d_x", "k", "n", "r", "r_e",
    "Cases", "InequalityChain", "Property", "QuotedNumber", "RankBound",
    "scaled", "shifted", "converse", "neighbour", "strict",
    "compare", "evaluate", "multichoose", "precision", "compositions", "DEFAULT_PRIME", "Field", "I", "GaussianRational",
    "ConvolutionEmbedding", "VocabularyEmbedding", "forward", "output_coordinate", "balanced_partitions", "default_partition",
    "output_polynomial", "variable_index", "LayerWeights", "NetworkSpec", "Weights", "divisors", "draw_weights",
    "default_specs", "exact_rank", "derivative_bound", "default_template_count", "embedded_reduced_rank",
    "reduced_polynomials", "rank_once", "token_rank", "counting_floor", "sampled_minor_rank",
    "every_sequence_rank",
    "certify", "check_certificate", "lower_bound", "grid_values",
    "DEFECTS", "construction", "grid_submatrix", "hadamard_target", "proportional", "unit_rows",
    "bad_omegas", "exponent_matrix", "hadamard_gram", "omega_rows", "layout_grid_rank", "one_slot_bound",
    "Layout", "carried_columns", "convolution_embedding", "embedding_target", "large_n_construction", "matrix_rank",
    "vocabulary_matrix",
    "conjecture_scale", "corollary1_lower_bound", "lemma7_lower_bound", "probe_step", "probe_tokens",
]


def _check_exports(public: set) -> None:
    """The names this module defines without a leading underscore are exactly ``__all__``."""
    if set(__all__) != public or len(__all__) != len(public):
        raise AssertionError(f"authoring surface: listed, not defined {sorted(set(__all__) - public)}; "
                             f"defined, not listed {sorted(public - set(__all__))}")


_check_exports({name for name in dir() if name[0] not in "_@"})  # @: pytest's assertion rewriting
del _check_exports
