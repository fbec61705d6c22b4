"""The exact windows benchmarks/small_primes.py prints (and docs/performance.md quotes): the longest
inner dimension k of int8 x int8 -> int32 and of float32 products at a small prime, against the
inequalities they come from, k h^2 + h < 2^31 and k h^2 + h <= 2^24 - 2p, at k and k + 1."""

import re
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

import small_primes  # noqa: E402


@pytest.mark.parametrize("p", [31, 127, 251])
def test_windows_are_the_largest_exact_inner_dimensions(p):
    h = (p - 1) // 2 + 2
    int8, single = (int(x.replace(",", "")) for x in re.findall(r"k <= ([\d,]+)", small_primes.window_text(p)))
    assert int8 * h * h + h < 2**31 <= (int8 + 1) * h * h + h
    assert single * h * h + h <= 2**24 - 2 * p < (single + 1) * h * h + h


def test_no_int8_window_beyond_251():
    assert small_primes.window_text(257).startswith("int8: no")
    assert "k <= 133,144" in small_primes.window_text(251)
