"""The batched float64 grid (verify.constructions.grid_eval) equals the point-by-point forward pass of
verify.model.network (nmod arithmetic, eq. 3 per point) at every grid entry, on random small specs."""

import random

import flint
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from verify import NetworkSpec
from verify.constructions.grid_eval import fits, grid_values, largest_fitting_prime
from verify.exact import tuning
from verify.model.network import output_coordinate
from verify.model.spec import draw_weights


def _pointwise(spec, weights, rows, cols, p):
    """Expected grid by the independent route: the engine's forward pass, one point at a time, over GF(p)."""
    return [[int(output_coordinate(spec, weights, [[flint.nmod(x, p) for x in a], [flint.nmod(x, p) for x in b]]))
             for b in cols] for a in rows]


@settings(max_examples=12, deadline=None)
@given(depth=st.integers(1, 3), width=st.integers(2, 5), heads=st.integers(1, 3), attn_dim=st.integers(1, 3),
       residual=st.booleans(), seed=st.integers(0, 10**6), small_prime=st.booleans())
def test_batched_grid_equals_pointwise_forward_pass(depth, width, heads, attn_dim, residual, seed, small_prime):
    spec = NetworkSpec(depth=depth, width=width, heads=heads, attn_dim=attn_dim, residual=residual, tokens=2,
                       output=seed % width)
    p = 101 if small_prime else largest_fitting_prime(width, heads)
    weights = draw_weights(spec, seed, 2**31)  # weights far above p: reduced exactly before use
    rng = random.Random(seed)
    draw = lambda: [rng.randint(-2**31, 2**31) for _ in range(width)]  # noqa: E731
    rows, cols = [draw() for _ in range(3)], [draw() for _ in range(4)]
    got = grid_values(weights.as_dict(), rows, cols, p, spec.output, residual)
    assert got.tolist() == _pointwise(spec, weights, rows, cols, p)


def test_batched_grid_spans_several_blocks_and_reports_progress(monkeypatch):

    monkeypatch.setattr(tuning, "GRID_BLOCK_POINTS", 6)  # 2 rows of 3 columns per block: 3 blocks for 5 rows
    spec = NetworkSpec(depth=2, width=4, heads=2, tokens=2, residual=True, output=1)
    weights, p = draw_weights(spec, 7, 50), largest_fitting_prime(4, 2)
    rng = random.Random(1)
    rows = [[rng.randint(-50, 50) for _ in range(4)] for _ in range(5)]
    cols = [[p - 1] * 4, [0] * 4, [rng.randint(-50, 50) for _ in range(4)]]  # entries p - 1 and 0 included
    seen = []
    got = grid_values(weights.as_dict(), rows, cols, p, 1, True,
                      progress=lambda done, total: seen.append((done, total)))
    assert seen == [(2, 5), (4, 5), (5, 5)]
    assert got.tolist() == _pointwise(spec, weights, rows, cols, p)


def test_fits_is_the_float64_exactness_bound():
    # (H d_x + 3) p^2 < 2^53: p = 2^20 at H d_x + 3 = 2^13 is exactly 2^53, one over
    assert not fits(2**13 - 3, 1, 2**20) and fits(2**13 - 4, 1, 2**20)
    assert not fits(2**12 - 1, 2, 2**20) and fits(2**12 - 2, 2, 2**20) and fits(1, 1, 5) and not fits(1, 1, 3)
    p = largest_fitting_prime(30, 2)
    assert flint.fmpz(p).is_prime() and fits(30, 2, p) and p < 2**20
    with pytest.raises(ValueError):
        grid_values(draw_weights(NetworkSpec(depth=1, width=2), 0, 3).as_dict(), [[1, 2]], [[3, 4]],
                    2**61 - 1, 0, False)
    assert np.iinfo(np.int64).max > p


@pytest.mark.parametrize("p", [5, 101, 1048573])
def test_float64_reduction_is_exact_up_to_the_fits_bound(p):
    from verify.exact.modp import floor_mod

    top = 2**53 - p  # the largest value a layer can form below the fits bound is under this
    rng = random.Random(p)
    values = [0, 1, p - 1, p, p + 1, top - 1, top] + [k * p + e for k in (2**20, top // p - 1, top // p)
                                                       for e in (-1, 0, 1) if 0 <= k * p + e <= top]
    values += [rng.randrange(top) for _ in range(200)]
    got = floor_mod(np.array(values, dtype=np.float64), p)
    assert [int(v) for v in got] == [v % p for v in values]  # Python integers: the independent route


def test_a_certificate_at_the_63_bit_prime_still_checks_point_by_point():
    from verify.constructions.certificate import certify, check_certificate
    from verify.exact.fields import DEFAULT_PRIME

    cert = certify(NetworkSpec(depth=2, width=10, heads=2), prime=DEFAULT_PRIME)  # as files written before
    assert cert["prime"] == DEFAULT_PRIME and not fits(10, 2, DEFAULT_PRIME)
    assert check_certificate(cert)[0]
    cert["templates_b"][2][3] += 1
    assert not check_certificate(cert)[0]


def test_default_certificates_use_a_prime_where_the_batched_grid_is_exact():
    from verify.constructions.certificate import certify, check_certificate

    cert = certify(NetworkSpec(depth=2, width=10, heads=2))
    assert fits(10, 2, cert["prime"]) and flint.fmpz(cert["prime"]).is_prime() and check_certificate(cert)[0]


def test_a_batched_grid_disagreeing_with_the_forward_pass_is_rejected(monkeypatch):
    import verify.constructions.grid_eval as grid_eval
    from verify.constructions.certificate import certify, check_certificate

    cert = certify(NetworkSpec(depth=2, width=10, heads=1))
    honest = grid_eval.grid_values

    def wrong_first_entry(*args, **kwargs):
        values = honest(*args, **kwargs)
        values[0, 0] = (values[0, 0] + 1) % args[3]
        return values

    monkeypatch.setattr(grid_eval, "grid_values", wrong_first_entry)
    holds, reason = check_certificate(cert)
    assert not holds and "first entry" in reason
