"""What a computed rank certifies (``docs/mathematics.md`` §3).

* Certified: weights and templates are integers, so a rank computed mod p at these weights is
  <= the rank over Q at these weights (reduction mod p can only drop rank), which is <= the
  generic rank (Claim 3 of the first supplement: the rank at one point never exceeds the rank
  almost everywhere).  So "rank = r" certifies sep >= r almost everywhere.
* Probabilistic: equality with the generic rank fails only if a nonzero r x r minor, a
  polynomial of degree <= r * deg in the random values, vanishes at the drawn point.  By
  Schwartz-Zippel that happens with probability <= r * deg / |sample set|.  The bound is for
  the generic rank over the field used, which equals the generic rank over Q except for
  finitely many primes.
* Exact from two sides (docs/mathematics.md §2-3): the rank r at any weights is <= the generic rank g, and g is
  <= a proven upper bound u (``verify.rank.bound``).  When r = u the generic rank is r, with no
  probability involved.  Otherwise the event to bound is a g x g minor vanishing, of degree
  <= g * deg <= u * deg: the probability bound uses u, never the rank found (which is smaller
  exactly when the rank has dropped).
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction

__all__ = ["Certainty", "format_bound", "schwartz_zippel", "residue_sample_size", "against_upper_bound",
           "BAD_PRIME_NOTE", "PRIME_CONDITION", "WHP_LABEL", "ProbabilityBound", "union_bound",
           "RunBound", "independent_product", "REPEAT_TARGET", "REPEATS_PRIME_CONDITION"]

#: The prime condition (docs/mathematics.md §3), stated on every probabilistic statement over GF(p): Schwartz-Zippel
#: over GF(p) bounds the chance that a minor nonzero mod p vanishes; if p divides the content of every witness minor
#: (every g x g minor nonzero over Z), the rank mod p is below the generic rank over Q at every point.  The other
#: direction is certain: a rank mod p is always a certified lower bound on the generic rank over Q.
PRIME_CONDITION = "unless p divides the content of every witness minor"

#: What every probability over GF(p) is about (said wherever such a number is printed).
BAD_PRIME_NOTE = ("the probability bound is for the generic rank over GF(p), which equals the generic rank over Q "
                  f"{PRIME_CONDITION} (a g x g minor nonzero over Z; finitely many such primes)")

#: ``Certainty.label`` of a certified lower bound equal to the generic rank except with a stated probability.
WHP_LABEL = f"certified lower bound; equal to generic w.h.p. {PRIME_CONDITION}"


def format_bound(value: float, digits: int = 3) -> str:
    """A probability bound in ``digits`` significant digits, rounded up, never down (a printed bound
    must stay a bound).

    >>> format_bound(4.2861e-16), format_bound(0.04000000000000001), format_bound(0.0), format_bound(1.0)
    ('4.29e-16', '0.0401', '0', '1')
    """
    if value <= 0:
        return "0"
    from decimal import ROUND_CEILING, Decimal

    exact = Decimal(value)  # the float's exact value
    up = exact.quantize(Decimal(1).scaleb(exact.adjusted() - digits + 1), rounding=ROUND_CEILING)
    return f"{float(up):.{digits}g}"


def schwartz_zippel(rank: int, degree: int, sample_size: int | Fraction) -> float:
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


def against_upper_bound(rank: int, upper: int, degree: int, sample: int | Fraction,
                        mixing_sample: int | Fraction | None = None) -> tuple[bool, float]:
    """(certified exact, probability bound) for a certified lower bound ``rank`` beside a proven
    upper bound ``upper`` on the generic rank g.

    Certified exact when rank = upper (then g = rank; the bound is 0).  Otherwise Schwartz-Zippel
    for a g x g minor, g <= upper, of degree <= upper * ``degree`` in values drawn from a set of
    size ``sample``; ``mixing_sample`` (the field's size) adds upper / |field| for random
    combinations (column compression, mixed null space) whose own minor has degree <= g <= upper.

    >>> against_upper_bound(18, 18, 16, 2**32 + 1)
    (True, 0.0)
    >>> against_upper_bound(17, 18, 16, 2**10)
    (False, 0.28125000000000006)
    """
    if rank > upper:
        raise AssertionError(f"rank {rank} above the proven upper bound {upper}: the engine is wrong")
    if rank == upper:
        return True, 0.0
    bound = Fraction(upper * degree) / Fraction(sample)
    if mixing_sample is not None:
        bound += Fraction(upper, mixing_sample)
    return False, 1.0 if bound >= 1 else math.nextafter(float(bound), 1.0)


@dataclass(frozen=True)
class ProbabilityBound:
    """A probability the tool prints, built from a named event and a proven bound on it (issue 39).

    ``event``: what can go wrong; ``bound``: an exact rational proven to bound its probability (``argument`` says
    how, naming where the proof is); ``value``: the bound rounded up to the next float (at most 1), never down."""

    event: str
    bound: Fraction
    argument: str

    @property
    def value(self) -> float:
        if self.bound >= 1:
            return 1.0
        return 0.0 if self.bound == 0 else math.nextafter(float(self.bound), 1.0)


def union_bound(event: str, terms: Iterable[Fraction], argument: str) -> ProbabilityBound:
    """The union bound over ``terms`` [Fraction, ...], each a proven bound on one event whose union contains
    ``event``: their exact sum.

    >>> bound = union_bound("either coin lands heads", [Fraction(1, 4), Fraction(1, 4)], "two events")
    >>> bound.bound, bound.value  # exact, and the float printed: one step above the nearest, never below
    (Fraction(1, 2), 0.5000000000000001)
    """
    return ProbabilityBound(event, sum(terms, Fraction(0)), argument)


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
    certified_exact : bool
        The value meets a proven upper bound: it is the generic rank (probability bound 0).
    """

    certified_lower_bound: bool
    probability_bound: float | None
    explanation: str
    certified_exact: bool = False

    @property
    def label(self) -> str:
        if self.certified_lower_bound and self.probability_bound is None:  # no equality with the generic rank claimed
            return "certified lower bound"
        if self.certified_lower_bound and self.probability_bound == 0.0:
            return "certified"
        if self.certified_lower_bound:
            return WHP_LABEL
        return "probabilistic"


#: A repeated probabilistic row stops once the product of its runs' bounds is at most this (issue 47, item 5).
REPEAT_TARGET = Fraction(1, 10**6)

#: The prime condition of a product over runs at distinct primes (docs/mathematics.md §7, Lemma R): the primes are
#: fixed, not drawn, so a bad prime is a condition, not an event; a run whose prime is bad contributes 1, not its bound.
REPEATS_PRIME_CONDITION = ("unless, for some run, its prime p divides the content of every witness minor (that run's "
                           "factor is then 1)")


@dataclass(frozen=True)
class RunBound:
    """One run of a repeated computation: its ``seed`` (the weights, embedding, positions and samples are all drawn
    from it), its ``prime`` (fixed, not drawn: docs/mathematics.md §10 a) and ``bound``, a proven bound (exact
    rational) on the probability of the run's own event E_i, a function of that run's draws alone."""

    seed: int
    prime: int
    bound: Fraction


def independent_product(event: str, runs: list[RunBound], argument: str) -> ProbabilityBound:
    """Lemma R (docs/mathematics.md §7, the product rule): runs with independent draws, each bounding its own event
    E_i (Pr[E_i] <= ``bound``), jointly bound the intersection of the E_i by the product of their bounds.

    Independence is what makes it a product, so the runs must draw from distinct seeds: a seed used twice gives the
    same draws, the same event twice, and a product that is no bound (Pr[E and E] = Pr[E], not its square).  That is
    refused.  The caller counts only runs whose event the statement implies (Lemma R: a prefix of the runs)."""
    seeds = [run.seed for run in runs]
    if len(set(seeds)) != len(seeds):
        raise ValueError(f"runs {seeds} repeat a seed: runs drawn from the same seed are not independent, and "
                         "their bounds do not multiply")
    if not runs:
        raise ValueError("a product over no runs bounds nothing")
    product = Fraction(1)
    for run in runs:
        if not 0 <= run.bound:
            raise ValueError(f"a probability bound is at least 0, got {run.bound}")
        product *= min(Fraction(1), Fraction(run.bound))
    return ProbabilityBound(event, product, argument)
