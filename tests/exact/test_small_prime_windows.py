"""The exact windows of the small-prime integer kernels (verify.exact.floatmod.small_prime_windows, which
benchmarks/small_primes.py prints and docs/performance.md quotes): the longest inner dimension k of
int8 x int8 -> int32 and of float32 products at a small prime, against the inequalities they come
from, k h^2 + h < 2^31 and k h^2 + h <= 2^24 - 2p, at k and k + 1."""

import pytest

from verify.exact.floatmod import small_prime_windows


@pytest.mark.parametrize("p", [31, 127, 251])
def test_windows_are_the_largest_exact_inner_dimensions(p):
    h = (p - 1) // 2 + 2
    int8, single = small_prime_windows(p)
    assert int8 * h * h + h < 2**31 <= (int8 + 1) * h * h + h
    assert single * h * h + h <= 2**24 - 2 * p < (single + 1) * h * h + h


def test_no_int8_window_beyond_251():
    assert small_prime_windows(257)[0] == 0  # h = 130 > 127: no int8 operand holds it
    assert small_prime_windows(251)[0] == 133144
