"""Exact Gaussian rationals a + b i (a, b in Q): the field Q(i) the first supplement's Lemma 4
construction needs (its weights use the imaginary unit).  Enough arithmetic for the generic
eq. 3 forward pass (``network.forward``): +, -, *, division, and mixing with Python ints.
"""

from __future__ import annotations

from fractions import Fraction
from typing import TypeAlias

__all__ = ["GaussianRational", "I"]

#: What mixes with a Gaussian rational: Python ints, Fractions and Gaussian rationals.
Scalar: TypeAlias = "int | Fraction | GaussianRational"


class GaussianRational:
    """a + b i with a, b Fractions; immutable, hashable, equal to ints and Fractions when b = 0."""

    __slots__ = ("re", "im")
    re: Fraction
    im: Fraction

    def __init__(self, re: int | Fraction = 0, im: int | Fraction = 0) -> None:
        self.re = Fraction(re)
        self.im = Fraction(im)

    @staticmethod
    def _of(value: Scalar) -> "GaussianRational":
        return value if isinstance(value, GaussianRational) else GaussianRational(value)

    def __add__(self, other: Scalar) -> GaussianRational:
        other = self._of(other)
        return GaussianRational(self.re + other.re, self.im + other.im)

    __radd__ = __add__

    def __neg__(self) -> GaussianRational:
        return GaussianRational(-self.re, -self.im)

    def __sub__(self, other: Scalar) -> GaussianRational:
        return self + (-self._of(other))

    def __rsub__(self, other: Scalar) -> GaussianRational:
        return self._of(other) - self

    def __mul__(self, other: Scalar) -> GaussianRational:
        other = self._of(other)
        return GaussianRational(self.re * other.re - self.im * other.im, self.re * other.im + self.im * other.re)

    __rmul__ = __mul__

    def __truediv__(self, other: Scalar) -> GaussianRational:
        other = self._of(other)
        norm = other.re * other.re + other.im * other.im
        if norm == 0:
            raise ZeroDivisionError("division by zero in Q(i)")
        return self * GaussianRational(other.re / norm, -other.im / norm)

    def __rtruediv__(self, other: Scalar) -> GaussianRational:
        return self._of(other) / self

    def __pow__(self, exponent: int) -> GaussianRational:
        result, base = GaussianRational(1), self
        if exponent < 0:
            base, exponent = GaussianRational(1) / base, -exponent
        while exponent:
            if exponent & 1:
                result = result * base
            base = base * base
            exponent >>= 1
        return result

    def __eq__(self, other: object) -> bool:
        if isinstance(other, (int, Fraction, GaussianRational)):
            other = self._of(other)
            return self.re == other.re and self.im == other.im
        return NotImplemented

    def __hash__(self) -> int:
        return hash((self.re, self.im))

    def __bool__(self) -> bool:
        return bool(self.re) or bool(self.im)

    def __repr__(self) -> str:
        return f"({self.re} + {self.im}i)"


#: The imaginary unit.
I = GaussianRational(0, 1)
