"""The papers' constructions and certificates for claim files (Levine et al. 2020, Wies et al. 2021)."""

from ..constructions.certificate import certify, check_certificate, lower_bound
from ..constructions.grid_eval import grid_values
from ..constructions.levine import DEFECTS, construction, grid_submatrix, hadamard_target, proportional, unit_rows
from ..constructions.omega import bad_omegas, exponent_matrix, hadamard_gram, omega_rows
from ..constructions.one_slot import layout_grid_rank, one_slot_bound
from ..constructions.vocabulary import (
                                        Layout,
                                        carried_columns,
                                        convolution_embedding,
                                        embedding_target,
                                        large_n_construction,
                                        matrix_rank,
                                        vocabulary_matrix,
)
from . import _guard

__all__ = [
    "certify", "check_certificate", "lower_bound", "grid_values", "DEFECTS", "construction", "grid_submatrix",
    "hadamard_target", "proportional", "unit_rows", "bad_omegas", "exponent_matrix", "hadamard_gram", "omega_rows",
    "layout_grid_rank", "one_slot_bound", "Layout", "carried_columns", "convolution_embedding", "embedding_target",
    "large_n_construction", "matrix_rank", "vocabulary_matrix",
]

_guard.check_exports(__name__, __all__, {name for name in dir() if name[0] not in "_@"})  # @: pytest's rewriting
del _guard
