"""Two one-line bugs of the certificate checker no test caught (issue 43, CC01 and CC02): each test
forges a one-slot certificate whose every stored number is consistent (weights, first-point outputs
and determinant recomputed), so only the checker's regime rule can reject it. The expected verdict
comes from the one-slot construction's stated regime (``verify.constructions.one_slot``: depth >= 2,
d_a = d_x / H, no residual connections), not from the checker."""

from __future__ import annotations

import copy

import pytest

from verify import NetworkSpec
from verify.constructions import certificate as module
from verify.constructions.certificate import certify, check_certificate


@pytest.fixture(scope="module")
def one_slot():
    data = certify(NetworkSpec(depth=2, width=6, heads=2), layout="one-slot")
    assert check_certificate(data)[0]
    return data


def _recomputed(data: dict) -> dict:
    """``data`` with its first-point outputs and determinant recomputed from its own weights and templates."""
    p, rows, cols = data["prime"], data["templates_a"], data["templates_b"]
    layers = module._layers(data["weights"], p)
    det = int(module._grid(layers, rows, cols, p, data["output"], data["residual"]).det())
    return {**data, "determinant_mod_prime": det,
            "outputs_at_first_point": module._fingerprint(layers, rows, cols, p, data["residual"])}


def test_a_consistent_one_slot_certificate_of_a_residual_network_is_rejected(one_slot):
    # CC01: the one-slot bound is proven without residual connections; I + T_l changes the function
    forged = _recomputed({**copy.deepcopy(one_slot), "residual": True})
    assert forged["determinant_mod_prime"] != 0  # a nonsingular grid: only the regime rule can reject it
    holds, reason = check_certificate(forged)
    assert not holds and "no residual" in reason


def test_a_consistent_one_slot_certificate_with_d_a_not_d_x_over_h_is_rejected(one_slot):
    # CC02: d_a = d_x/H + 1 with the extra attention row and column zero computes the same function, so
    # every stored number stays consistent; the construction's regime (d_a = d_x / H) still excludes it
    forged = copy.deepcopy(one_slot)
    forged["attn_dim"] += 1
    for layer in forged["weights"]["layers"]:
        for name in ("query", "key", "value"):
            layer[name] = [mat + [[0] * forged["width"]] for mat in layer[name]]
        layer["output"] = [[row + [0] for row in mat] for mat in layer["output"]]
    forged = _recomputed(forged)
    assert forged["determinant_mod_prime"] == one_slot["determinant_mod_prime"] != 0
    holds, reason = check_certificate(forged)
    assert not holds and "d_a = d_x / H" in reason
