"""Exact verification of the separation-rank theory of self-attention.

The public surface is small:

* ``NetworkSpec`` (``spec``): a linearised self-attention network (eq. 3) and the output studied;
* ``separation_rank``: its separation rank by the coefficient, grid or reduced route, with what the
  number certifies;
* ``Field`` / ``parse_field``: GF(p) or Q.

Everything else lives in modules named for what they compute: ``network`` (forward pass),
``polynomial`` (y_p^i and its monomials), ``coefficients``, ``grid``, ``reduced`` (the three
routes), ``blocks`` (block-diagonal exact ranks), ``partitions``, ``certainty``, ``cli``.
"""

from .version import __version__  # noqa: E402

from .errors import InputError  # noqa: E402
from .exact.fields import DEFAULT_PRIME, Field, parse_field  # noqa: E402
from .rank.sep import SepResult, separation_rank  # noqa: E402
from .model.spec import NetworkSpec, draw_weights  # noqa: E402

__all__ = ["NetworkSpec", "draw_weights", "separation_rank", "SepResult", "Field", "parse_field",
           "DEFAULT_PRIME", "InputError", "__version__"]
