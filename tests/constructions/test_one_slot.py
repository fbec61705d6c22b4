"""The one-slot construction (issue 34): exact ranks at the issue's cases by the engine's forward pass, the
closed form c (V W^T)^{.3^(L-2)} of its grid, and its certificates (accepted; one column too many rejected)."""

import copy
import random
from math import comb

import flint
import pytest

from verify import NetworkSpec
from verify.constructions import certificate as cert
from verify.constructions.one_slot import columns, layout_templates, one_slot_bound, one_slot_weights
from verify.model.network import output_coordinate


def _multichoose(n, k):  # independent of one_slot_bound: count the monomials of degree k in n variables
    if k == 0:
        return 1
    return sum(_multichoose(n - i, k - 1) for i in range(n)) if n else 0


def _grid(width, heads, depth, rows, seed=0):
    spec = NetworkSpec(depth=depth, width=width, heads=heads, tokens=2)
    weights = one_slot_weights(spec)
    rng = random.Random(seed)
    d = columns(width)
    v = [[rng.randint(-9, 9) for _ in range(d)] for _ in range(rows)]
    w = [[rng.randint(-9, 9) for _ in range(d)] for _ in range(rows)]
    a, b = layout_templates(width, v, w)
    grid = [[output_coordinate(spec, weights, [[flint.fmpz(x) for x in s], [flint.fmpz(x) for x in t]])
             for t in b] for s in a]
    return grid, v, w


# (d_x, H, L) and the rank the issue states: (12, 2, 2) where eq. 6 needs 5 and the printed layout reaches
# 4; (8, 2, 2); (8, 4, 3) with d_a = 2; (12, 2, 3) is in the certificate test below (56 s point by point)
CASES = [(12, 2, 2, 5), (8, 2, 2, 3), (8, 4, 3, 10), (12, 12, 2, 5), (12, 1, 2, 5), (9, 3, 2, 4), (8, 8, 3, 10)]


@pytest.mark.parametrize("width, heads, depth, rank", CASES)
def test_exact_rank_of_the_grid_is_the_multiset_coefficient(width, heads, depth, rank):
    assert rank == _multichoose((width - 1) // 2, 3 ** (depth - 2)) == one_slot_bound(depth, width)
    grid, _, _ = _grid(width, heads, depth, rank + 2)  # two rows more than the bound: the rank stops there
    assert flint.fmpz_mat(grid).rank() == rank


@pytest.mark.parametrize("width, heads, depth", [(8, 2, 2), (8, 4, 3), (7, 7, 3)])
def test_grid_is_a_constant_times_the_hadamard_power(width, heads, depth):
    grid, v, w = _grid(width, heads, depth, 4, seed=1)
    power = 3 ** (depth - 2)
    target = [[sum(x * y for x, y in zip(a, b, strict=False)) ** power for b in w] for a in v]
    const = 4 ** power * 2 ** ((power - 1) // 2)  # s_2 = 4 <v, w>, s_l = 2 s_{l-1}^3 at N = 2
    assert all(g == const * t for gr, tr in zip(grid, target, strict=False) for g, t in zip(gr, tr, strict=False))


def test_bound_is_at_least_the_printed_bound_for_every_head_count():
    for width in range(3, 40):
        for heads in (h for h in range(1, width + 1) if width % h == 0):
            for depth in (2, 3, 4):
                k = 3 ** (depth - 2)
                assert one_slot_bound(depth, width) >= comb((width - heads) // 2 + k - 1, k)


@pytest.mark.parametrize("depth, width, heads", [(2, 12, 2), (2, 8, 2), (3, 8, 4), (3, 12, 2), (2, 12, 12),
                                                 (2, 9, 9), (2, 10, 2), (3, 28, 1)])
def test_certificate_of_the_layout_is_accepted(depth, width, heads):
    data = cert.certify(NetworkSpec(depth=depth, width=width, heads=heads), layout="one-slot")
    assert data["claimed_rank"] == _multichoose((width - 1) // 2, 3 ** (depth - 2))
    holds, reason = cert.check_certificate(data)
    assert holds, reason


@pytest.fixture(scope="module")
def one_slot_certificate():
    return cert.certify(NetworkSpec(depth=2, width=12, heads=2), layout="one-slot")


def test_a_changed_layout_weight_is_rejected(one_slot_certificate):
    bad = copy.deepcopy(one_slot_certificate)
    bad["weights"]["layers"][1]["query"][0][0][0] = 0  # head 1 drops pair 0
    holds, reason = cert.check_certificate(bad)
    assert not holds and "one-slot layout" in reason


def test_one_slot_bound_with_seeded_weights_is_rejected():
    data = cert.certify(NetworkSpec(depth=2, width=12, heads=2))
    data["bound"], data["claimed_rank"] = cert.BOUND_TEXT_ONE_SLOT, 5
    assert not cert.check_certificate(data)[0]


def test_one_column_too_many_is_rejected(one_slot_certificate, monkeypatch):
    """A planted layout bound with one column too many, ((D + 1 over 3^(L-2))): the honest checker refuses the
    claim, and with the planted bound in the checker itself the grid of the extra size is singular."""
    data = copy.deepcopy(one_slot_certificate)
    d, m = columns(12), 6  # ((6 over 1)) = 6 > 5
    data["claimed_rank"] = m
    rng = random.Random(7)
    a, b = layout_templates(12, [[rng.randint(-99, 99) for _ in range(d)] for _ in range(m)],
                            [[rng.randint(-99, 99) for _ in range(d)] for _ in range(m)])
    data["templates_a"], data["templates_b"] = a, b
    holds, reason = cert.check_certificate(data)
    assert not holds and "is not the bound 5" in reason
    monkeypatch.setattr(cert, "one_slot_bound", lambda depth, width: comb(columns(width) + 1, 1))
    layers = cert._layers(data["weights"], data["prime"])
    data["outputs_at_first_point"] = cert._fingerprint(layers, a, b, data["prime"], False)
    holds, reason = cert.check_certificate(data)
    assert not holds and "singular" in reason
    with pytest.raises(cert.InputError, match="no nonsingular 6 x 6"):
        cert.certify(NetworkSpec(depth=2, width=12, heads=2), layout="one-slot")


def test_cli_round_trip_of_a_one_slot_certificate(tmp_path, capsys):
    import json

    from verify.cli.main import main

    path = tmp_path / "one_slot.json"
    assert main(["certify", "--layout", "one-slot", "--depth", "3", "--width", "8", "--heads", "4",
                 "--out", str(path), "--quiet"]) == 0
    assert json.loads(path.read_text())["claimed_rank"] == 10  # ((3 over 3)) = binom(5, 3), d_a = 2
    capsys.readouterr()
    assert main(["check-certificate", str(path), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["holds"]
    assert main(["certify", "--layout", "one-slot", "--depth", "2", "--width", "12", "--heads", "5"]) == 2
