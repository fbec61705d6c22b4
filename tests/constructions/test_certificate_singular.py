"""A singular certificate is refused: the checker's determinant-is-zero test (issue 14, item 6).

A certificate whose grid matrix has two equal columns is singular whatever the weights (the same
template twice gives the same column), so "determinant 0 mod p" is known here without computing
one.  Storing that 0 makes every other recomputed number agree, so only the checker's own
``det == 0`` refusal stands between it and a false "sep >= m".
"""

import copy

import pytest

from verify import NetworkSpec
from verify.constructions.certificate import certify, check_certificate


@pytest.fixture(scope="module")
def certificate():
    return certify(NetworkSpec(depth=2, width=10, heads=2))


def test_a_certificate_with_a_repeated_template_and_stored_determinant_zero_is_refused(certificate):
    assert check_certificate(certificate)[0]  # the honest one holds
    singular = copy.deepcopy(certificate)
    singular["templates_b"][1] = list(singular["templates_b"][0])  # two equal grid columns
    singular["determinant_mod_prime"] = 0  # what a singular matrix has; the first grid point is untouched
    holds, reason = check_certificate(singular)
    assert not holds
    assert "singular" in reason
