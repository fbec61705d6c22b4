"""Degree and monomial counts of y_p^i against the closed form and a brute-force count."""

from itertools import product

import pytest
from hypothesis import given

from strategies import small_specs
from verify import Field, NetworkSpec, draw_weights
from verify.model.polynomial import expected_monomial_count, monomial_report


def brute_force_count(spec):
    """Exponent vectors of degree 2c+1 with position i odd and the others even, enumerated."""
    n, d, i = spec.tokens, spec.width, spec.position
    degrees = [spec.layer_degree] if not spec.residual else range(spec.layer_degree + 1)
    total = 0
    for c in degrees:
        deg = 2 * c + 1
        count = 0
        for exps in product(range(deg + 1), repeat=n * d):
            if sum(exps) != deg:
                continue
            per_pos = [sum(exps[j * d:(j + 1) * d]) for j in range(n)]
            if all((per_pos[j] % 2 == 1) == (j == i) for j in range(n)):
                count += 1
        # residual: the degree-1 part is x^i_p alone (F has constant term I)
        total += 1 if (spec.residual and c == 0) else count
    return total


@pytest.mark.parametrize("depth,width,tokens,residual", [
    (1, 1, 2, False), (1, 2, 2, False), (1, 2, 3, False), (1, 3, 2, False), (2, 1, 2, False),
    (2, 2, 2, False), (1, 2, 2, True), (1, 2, 3, True), (2, 1, 3, True)])
def test_closed_form_count_equals_brute_force_enumeration(depth, width, tokens, residual):
    spec = NetworkSpec(depth=depth, width=width, tokens=tokens, residual=residual)
    assert expected_monomial_count(spec) == brute_force_count(spec)


@given(small_specs(depths=(1, 2), widths=(2, 3), tokens=2))
def test_generic_network_has_exactly_the_closed_form_monomials_and_degree_3_to_the_L(spec):
    report = monomial_report(spec, draw_weights(spec, 11), Field(2**61 - 1))
    assert report["count"] == report["expected_count"]
    assert report["degree"] == 3**spec.depth


def test_count_on_the_issue_speed_case():
    spec = NetworkSpec(depth=2, width=3, heads=3, tokens=6)
    report = monomial_report(spec, draw_weights(spec, 0), Field(2**63 - 25))
    assert report["count"] == report["expected_count"] == 136815
