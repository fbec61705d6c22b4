"""What a computed rank certifies (``../shared/MATH.md`` §3).

* Certified: weights and templates are integers, so a rank computed mod p at these weights is
  <= the rank over Q at these weights (reduction mod p can only drop rank), which is <= the
  generic rank (Claim 3 of the first supplement: the rank at one point never exceeds the rank
  almost everywhere).  So "rank = r" certifies sep >= r almost everywhere.
* Probabilistic: equality with the generic rank fails only if a nonzero r x r minor, a
  polynomial of degree <= r * deg in the random values, vanishes at the drawn point.  By
  Schwartz-Zippel that happens with probability <= r * deg / |sample set|.  The bound is for
  the generic rank over the field used, which equals the generic rank over Q except for
  finitely many primes.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

__all__ = ["Certainty", "schwartz_zippel", "residue_sample_size"]


def schwartz_zippel(rank: int, degree: int, sample_size) -> float:
    """Upper bound min(1, rank * degree / sample_size), rounded up to the next float.

    >>> schwartz_zippel(10, 4, 1000)
    0.04000000000000001
    """
    bound = Fraction(rank * degree, sample_size)
    return 1.0 if bound >= 1 else math.nextafter(float(bound), 1.0)


def residue_sample_size(count: int, modulus: int | None) -> Fraction:
    """Effective Schwartz-Zippel set size of ``count`` consecutive integers read modulo ``modulus``.

    Each residue is hit at most ceil(count/p) times, so every value has probability at most
    ceil(count/p)/count; Schwartz-Zippel for such product distributions bounds the chance of a
    zero by degree times that, i.e. degree / (count / ceil(count/p)).  Over Q (no modulus), count.

    >>> residue_sample_size(11, 7)
    Fraction(11, 2)
    >>> residue_sample_size(11, None)
    Fraction(11, 1)
    """
    if modulus is None or modulus >= count:
        return Fraction(count)
    return Fraction(count, -(-count // modulus))


@dataclass(frozen=True)
class Certainty:
    """How far a computed rank can be trusted.

    Attributes
    ----------
    certified_lower_bound : bool
        The value is a proven lower bound on the generic separation rank.
    probability_bound : float or None
        Upper bound on the probability that the value is below the generic rank over the field;
        ``None`` when equality is not claimed at all (e.g. a grid with too few templates).
    explanation : str
        One sentence saying why.
    """

    certified_lower_bound: bool
    probability_bound: float | None
    explanation: str

    @property
    def label(self) -> str:
        if self.certified_lower_bound and self.probability_bound == 0.0:
            return "certified"
        if self.certified_lower_bound:
            return "certified lower bound; equal to generic w.h.p."
        return "probabilistic"
