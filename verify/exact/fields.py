"""Exact fields: GF(p) for word-size primes p, and Q (computed fraction-free over Z).

Ranks mod p are certified lower bounds on ranks over Q for integer matrices (docs/mathematics.md §3).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import flint

from ..defaults import DEFAULT_PRIME, FAST_PRIME
from ..errors import InputError

if TYPE_CHECKING:
    import random

    import numpy as np

__all__ = ["Field", "parse_field", "as_field", "DEFAULT_PRIME", "FAST_PRIME", "MID_PRIME"]


#: The largest prime below 2^40: products in two float64 limbs by Karatsuba (``verify.exact.karatsuba``),
#: a family of later runs that ranks large blocks for less than 2^63 - 25 (``verify.rank.repeat.later_family``).
MID_PRIME = 2**40 - 87


@dataclass(frozen=True)
class Field:
    """A field in which ranks are computed.

    ``modulus`` is a prime p for GF(p), or ``None`` for Q.  Integer data (weights, templates)
    map into either; over Q everything stays integral, so matrices are ``fmpz_mat`` and the
    rank over Z equals the rank over Q.
    """

    modulus: int | None

    @property
    def name(self) -> str:
        return "qq" if self.modulus is None else f"gf:{self.modulus}"

    @property
    def elimination(self) -> str:
        """How results name the rank of this field's own matrices (``from_rows``, ``matrix``): FLINT's
        kernel (``verify.exact.kernels.FLINT``, which imports no FLINT itself)."""
        from .kernels import FLINT

        return FLINT

    @property
    def elimination_detail(self) -> str:
        """The same, with the matrix type: what a route that ranks only the field's own matrices used."""
        return "flint fmpz_mat (fraction-free over Z)" if self.modulus is None else "flint nmod_mat"

    @property
    def is_exact_rational(self) -> bool:
        return self.modulus is None

    def scalar(self, value: int) -> flint.fmpz | flint.nmod:
        """The integer ``value`` as an element of this field's ring (nmod or fmpz)."""
        if self.modulus is None:
            return flint.fmpz(value)
        return flint.nmod(value, self.modulus)

    def poly_context(self, names: tuple[str, int],
                     ordering: str = "lex") -> flint.fmpz_mpoly_ctx | flint.nmod_mpoly_ctx:
        """An mpoly context with generators ``names`` (``('x', n)`` form) over Z or GF(p); ``ordering``
        is FLINT's term order ("lex", or "deglex": by total degree first)."""
        if self.modulus is None:
            return flint.fmpz_mpoly_ctx.get(names, ordering)
        return flint.nmod_mpoly_ctx.get(names, modulus=self.modulus, ordering=ordering)

    def matrix(self, rows: int, cols: int, entries: list[Any]) -> flint.fmpz_mat | flint.nmod_mat:
        """A dense matrix over this field from a flat row-major list of integers."""
        if self.modulus is None:
            return flint.fmpz_mat(rows, cols, entries)
        return flint.nmod_mat(rows, cols, entries, self.modulus)

    def zeros(self, rows: int, cols: int) -> flint.fmpz_mat | flint.nmod_mat:
        """A zero matrix over this field, to be filled entry by entry."""
        if self.modulus is None:
            return flint.fmpz_mat(rows, cols)
        return flint.nmod_mat(rows, cols, self.modulus)

    def from_rows(self, array: np.ndarray) -> flint.fmpz_mat | flint.nmod_mat:
        """A FLINT matrix from a 2-D numpy integer array, filled row by row (no full Python list)."""
        rows, cols = array.shape
        if self.modulus is None:
            return flint.fmpz_mat(rows, cols, [int(v) for v in array.ravel().tolist()])
        mat = self.zeros(rows, cols)
        for i in range(rows):
            line = array[i].tolist()
            for j in range(cols):
                if line[j]:
                    mat[i, j] = line[j]
        return mat

    def random_matrix(self, rows: int, cols: int, rng: random.Random) -> flint.fmpz_mat | flint.nmod_mat:
        """A matrix of uniform random field elements (entries in [0, p), or [-2^31, 2^31] over Q)."""
        if self.modulus is None:
            bound = 2**31
            return flint.fmpz_mat(rows, cols, [rng.randint(-bound, bound) for _ in range(rows * cols)])
        p = self.modulus
        return flint.nmod_mat(rows, cols, [rng.randrange(p) for _ in range(rows * cols)], p)

    @property
    def sample_size(self) -> int | None:
        """Size of the set random compression entries are drawn from (for Schwartz-Zippel)."""
        return 2 * 2**31 + 1 if self.modulus is None else self.modulus


def _next_prime(n: int) -> int:
    n += 1
    while not flint.fmpz(n).is_prime():
        n += 1
    return n


_MODULUS = re.compile(r"(\d+)(?:(?:\^|\*\*)(\d+))?(?:([+-])(\d+))?")


def _modulus(body: str) -> int:
    """The integer written as decimal digits or as ``B^E+C`` / ``B**E-C`` (the form ``--help`` uses,
    e.g. ``2^63-25``); the power is computed only when it has at most 70 bits (larger is refused anyway)."""
    import math

    if len(body) > 40 and body.isdigit() and body.isascii():
        raise InputError(f"field modulus {body[:20]}... has {len(body):,} digits, far above 2^64; use a word-size "
                         f"prime such as gf:2^63-25")
    match = _MODULUS.fullmatch(body.replace("_", "").replace(" ", "")) if len(body) <= 40 else None
    if match is None:
        raise InputError(f"field modulus {body[:40]!r} is not an integer; use --field gf:P with P prime, written "
                         f"in decimal or as 2^61-1, e.g. gf:2^63-25")
    base, exponent, sign, offset = match.groups()
    value = int(base)
    if exponent is not None:
        if value > 1 and int(exponent) * math.log2(value) > 70:
            raise InputError(f"field modulus {body} is above 2^64; use a word-size prime such as 2^63-25")
        value **= int(exponent)
    if offset is not None:
        value = value + int(offset) if sign == "+" else value - int(offset)
    return value


def parse_field(text: str) -> Field:
    """Parse ``qq`` or ``gf:P`` (P prime, 2 < P < 2^64, in decimal or as ``2^61-1`` or ``2**61-1``);
    ``gf`` alone means the default prime.

    >>> parse_field("gf:101").modulus
    101
    >>> parse_field("gf:2^61-1").modulus == parse_field("gf:2**61-1").modulus == 2**61 - 1
    True
    >>> parse_field("qq").name
    'qq'
    """
    if not isinstance(text, str):
        raise InputError(f"a field is 'qq' or 'gf:P' (P prime), got {text!r:.40}; e.g. 'gf:2^63-25'")
    text = text.strip().lower()
    if text in ("qq", "q"):
        return Field(None)
    if text == "gf":
        return Field(DEFAULT_PRIME)
    if text.startswith("gf:"):
        p = _modulus(text[3:])
        if p < 3:
            raise InputError(f"field modulus {p} is below 3 (GF(2) is not supported: the routes need an odd "
                             f"prime); use a word-size prime such as 2^63-25")
        if p >= 2**64:
            raise InputError(f"field modulus {p} is 2^64 or more; use a word-size prime such as 2^63-25")
        if not flint.fmpz(p).is_prime():
            raise InputError(f"field modulus {p} is not prime; use a prime, e.g. gf:{_next_prime(p)}")
        return Field(p)
    raise InputError(f"unknown field {text[:40]!r}; use --field qq or --field gf:P with P prime")


def as_field(value: Field | str) -> Field:
    """A ``Field``, or the text of one (``"gf:2^61-1"``, ``"qq"``) parsed by ``parse_field``; anything
    else raises ``InputError`` (the Python API takes either form)."""
    if isinstance(value, Field):
        return value
    return parse_field(value)
