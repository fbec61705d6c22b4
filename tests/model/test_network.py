"""The forward pass and the exact polynomial against an independent element-wise eq. 3."""

import flint
from hypothesis import given
from hypothesis import strategies as st

from naive import naive_forward
from strategies import small_specs
from verify import Field, NetworkSpec, draw_weights
from verify.model.network import forward, output_coordinate
from verify.model.polynomial import output_polynomial, variable_index


@given(small_specs(tokens=3), st.integers(0, 10**6), st.randoms(use_true_random=False))
def test_forward_equals_elementwise_eq3(spec, seed, rnd):
    weights = draw_weights(spec, seed, weight_range=50)
    inputs = [[rnd.randint(-9, 9) for _ in range(spec.width)] for _ in range(spec.tokens)]
    expected = naive_forward(spec, weights, inputs)
    got = forward(spec, weights, [[flint.fmpz(v) for v in x] for x in inputs])
    assert [[int(v) for v in y] for y in got] == expected
    assert int(output_coordinate(spec, weights, [[flint.fmpz(v) for v in x] for x in inputs])) == \
        expected[spec.position][spec.output]


@given(small_specs(depths=(1, 2), widths=(2, 3), tokens=2), st.randoms(use_true_random=False))
def test_polynomial_evaluated_at_a_point_equals_the_forward_pass(spec, rnd):
    weights = draw_weights(spec, 3)
    poly = output_polynomial(spec, weights, Field(None))
    inputs = [[rnd.randint(-5, 5) for _ in range(spec.width)] for _ in range(spec.tokens)]
    point = [0] * (spec.tokens * spec.width)
    for j in range(spec.tokens):
        for a in range(spec.width):
            point[variable_index(spec, j, a)] = inputs[j][a]
    assert int(poly(*point)) == naive_forward(spec, weights, inputs)[spec.position][spec.output]


def test_polynomial_mod_p_is_the_reduction_of_the_integer_polynomial():
    spec = NetworkSpec(depth=2, width=2, heads=2, tokens=2)
    weights = draw_weights(spec, 1)
    p = 1_000_003
    over_z = output_polynomial(spec, weights, Field(None))
    mod_p = output_polynomial(spec, weights, Field(p))
    reduced = {m: int(c) % p for m, c in zip(over_z.monoms(), over_z.coeffs(), strict=False) if int(c) % p}
    assert dict(zip(mod_p.monoms(), map(int, mod_p.coeffs()), strict=False)) == reduced


def test_weights_are_reproducible_and_depend_on_the_seed():
    spec = NetworkSpec(depth=2, width=4, heads=2)
    assert draw_weights(spec, 7) == draw_weights(spec, 7)
    assert draw_weights(spec, 7) != draw_weights(spec, 8)
    values = [v for layer in draw_weights(spec, 7).layers for m in layer.query for row in m for v in row]
    assert len(set(values)) == len(values)  # a wide range: no repeats, no accidental zeros


@given(small_specs(tokens=2), st.randoms(use_true_random=False))
def test_forward_over_rationals_equals_elementwise_eq3_with_fractions(spec, rnd):
    from fractions import Fraction

    weights = draw_weights(spec, 2, weight_range=20)
    inputs = [[Fraction(rnd.randint(-9, 9), rnd.randint(1, 9)) for _ in range(spec.width)]
              for _ in range(spec.tokens)]
    expected = naive_forward(spec, weights, inputs)
    got = forward(spec, weights, [[flint.fmpq(v.numerator, v.denominator) for v in x] for x in inputs])
    assert [[Fraction(int(v.p), int(v.q)) for v in y] for y in got] == expected
