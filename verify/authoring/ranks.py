"""Ranks for claim files: one run of a route at the given seed, the exact ranks of the bound checks'
specs (read from the rank source of the run in progress), and the routes' pieces a check recomputes."""

from ..claims.specsets import default_specs, exact_rank
from ..rank.bound import derivative_bound
from ..rank.grid import default_template_count
from ..rank.reduced import embedded_reduced_rank, reduced_polynomials
from ..rank.routes import rank_once
from ..rank.token.positional_bound import counting_floor
from ..rank.token.route import every_sequence_rank, sampled_minor_rank
from ..rank.token.tokens import token_rank
from . import _guard

__all__ = [
    "default_specs", "exact_rank", "derivative_bound", "default_template_count", "embedded_reduced_rank",
    "reduced_polynomials", "rank_once", "token_rank", "counting_floor", "sampled_minor_rank", "every_sequence_rank",
]

_guard.check_exports(__name__, __all__, {name for name in dir() if name[0] not in "_@"})  # @: pytest's rewriting
del _guard
