"""The network of eq. 3 for claim files: spec and weights, the forward pass, the output polynomial,
embeddings and partitions, and the fields and exact numbers it is computed in."""

from ..exact.compositions import compositions
from ..exact.fields import DEFAULT_PRIME, Field
from ..exact.gaussian import GaussianRational, I
from ..model.embeddings import ConvolutionEmbedding, VocabularyEmbedding
from ..model.network import forward, output_coordinate
from ..model.partitions import balanced_partitions, default_partition
from ..model.polynomial import output_polynomial, variable_index
from ..model.spec import LayerWeights, NetworkSpec, Weights, divisors, draw_weights
from . import _guard

__all__ = [
    "compositions", "DEFAULT_PRIME", "Field", "I", "GaussianRational", "ConvolutionEmbedding",
    "VocabularyEmbedding", "forward", "output_coordinate", "balanced_partitions", "default_partition",
    "output_polynomial", "variable_index", "LayerWeights", "NetworkSpec", "Weights", "divisors", "draw_weights",
]

_guard.check_exports(__name__, __all__, {name for name in dir() if name[0] not in "_@"})  # @: pytest's rewriting
del _guard
