"""The certificate checker's whole contract, field by field.

A certificate is accepted only when every stored number is the one the checker recomputes from the
file alone.  For every field there is an edit that must be rejected: a failed claim (``check_certificate``
returns False; ``check-certificate`` exits 1) or, when the file is not a certificate at all, an
``InputError`` (exit 2).  The expected verdicts come from the format's definition, not from the
checker's own output.
"""

from __future__ import annotations

import copy
import json

import flint
import pytest

from verify import NetworkSpec
from verify.cli.main import main
from verify.constructions.certificate import BOUND_TEXT, certify, check_certificate, lower_bound
from verify.errors import InputError


@pytest.fixture(scope="module")
def certificate():
    data = certify(NetworkSpec(depth=2, width=10, heads=2))
    assert check_certificate(data)[0]
    return data


def _next_prime(p: int) -> int:
    p += 1
    while not flint.fmpz(p).is_prime():
        p += 1
    return p


def _set(data: dict, path: tuple, value) -> dict:
    out = copy.deepcopy(data)
    target = out
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value(target[path[-1]]) if callable(value) else value
    return out


def _swap(key: str, i: int, j: int):
    def swap(rows):
        rows = list(rows)
        rows[i], rows[j] = rows[j], rows[i]
        return rows
    return swap


#: (name, path, new value or function of the old one): each makes the claim fail (exit 1).
FAILS = [
    ("depth +1", ("depth",), lambda v: v + 1),
    ("depth 1", ("depth",), 1),
    ("width +1", ("width",), lambda v: v + 1),
    ("width -1 (d_x = 3^L)", ("width",), 9),
    ("heads +1", ("heads",), lambda v: v + 1),
    ("heads 0", ("heads",), 0),
    ("heads = width", ("heads",), 10),
    ("attn_dim +1", ("attn_dim",), lambda v: v + 1),
    ("attn_dim 0", ("attn_dim",), 0),
    ("residual flipped", ("residual",), lambda v: not v),
    ("tokens 4", ("tokens",), 4),
    ("partition {1}", ("partition_a",), [1]),
    ("partition {0, 1}", ("partition_a",), [0, 1]),
    ("position 1", ("position",), 1),
    ("output +1", ("output",), lambda v: v + 1),
    ("output = width", ("output",), 10),
    ("output -1", ("output",), -1),
    ("prime +1 (not prime)", ("prime",), lambda v: v + 1),
    ("prime: the next prime", ("prime",), _next_prime),
    ("prime 2", ("prime",), 2),
    ("prime above 2^64", ("prime",), 2**64 + 13),
    ("claimed rank +1", ("claimed_rank",), lambda v: v + 1),
    ("claimed rank -1", ("claimed_rank",), lambda v: v - 1),
    ("claimed rank 0", ("claimed_rank",), 0),
    ("bound text edited", ("bound",), BOUND_TEXT.replace("3^(depth - 2)", "3^(depth - 1)")),
    ("bound text with a space", ("bound",), BOUND_TEXT + " "),
    ("bound text empty", ("bound",), ""),
    ("determinant +1", ("determinant_mod_prime",), lambda v: v + 1),
    ("determinant + p", ("determinant_mod_prime",), None),  # filled in by the test: + prime
    ("determinant negated", ("determinant_mod_prime",), lambda v: -v),
    ("determinant 0", ("determinant_mod_prime",), 0),
    ("first-point output +1", ("outputs_at_first_point", 0), lambda v: v + 1),
    ("first-point outputs truncated", ("outputs_at_first_point",), lambda v: v[:-1]),
    ("first-point outputs extended", ("outputs_at_first_point",), lambda v: v + [0]),
    ("template a, first row", ("templates_a", 0, 0), lambda v: v + 1),
    ("template a, last row", ("templates_a", 3, 9), lambda v: v - 1),
    ("template b, middle row", ("templates_b", 2, 5), lambda v: v + 1),
    ("template a row removed", ("templates_a",), lambda v: v[:-1]),
    ("template b row added", ("templates_b",), lambda v: v + [v[0]]),
    ("template a row repeated", ("templates_a", 3), None),  # filled in: = row 0 (singular grid)
    ("template a rows swapped", ("templates_a",), _swap("templates_a", 1, 2)),
    ("template b entry removed", ("templates_b", 1), lambda v: v[:-1]),
    ("template entry outside the range", ("templates_a", 2, 0), lambda v: 10**9),
    ("templates a and b exchanged", ("templates_a",), None),  # filled in
    ("weight seed +1", ("weights", "seed"), lambda v: v + 1),
    ("weight range +1", ("weights", "weight_range"), lambda v: v + 1),
    ("weight range 0", ("weights", "weight_range"), 0),
    ("a query weight", ("weights", "layers", 0, "query", 0, 0, 0), lambda v: v + 1),
    ("a key weight", ("weights", "layers", 1, "key", 1, 4, 9), lambda v: v - 1),
    ("a value weight", ("weights", "layers", 1, "value", 0, 4, 9), lambda v: v + 1),
    ("an output weight", ("weights", "layers", 0, "output", 1, 3, 0), lambda v: v + 1),
    ("a layer removed", ("weights", "layers"), lambda v: v[:-1]),
    ("a head removed", ("weights", "layers", 0, "query"), lambda v: v[:-1]),
]


def _edited(certificate, name, path, value):
    if name == "determinant + p":
        value = certificate["prime"] + certificate["determinant_mod_prime"]
    elif name == "template a row repeated":
        value = list(certificate["templates_a"][0])
    elif name == "templates a and b exchanged":
        edited = copy.deepcopy(certificate)
        edited["templates_a"], edited["templates_b"] = edited["templates_b"], edited["templates_a"]
        return edited
    return _set(certificate, path, value)


@pytest.mark.parametrize("name,path,value", FAILS, ids=[f[0] for f in FAILS])
def test_every_field_edit_is_rejected(certificate, name, path, value):
    edited = _edited(certificate, name, path, value)
    try:
        holds, reason = check_certificate(edited)
    except InputError:
        return  # refused as not a certificate: also a rejection (exit 2)
    assert not holds, f"{name}: accepted ({reason})"


def test_a_claim_and_its_bound_edited_together_are_rejected(certificate):
    """A forger who raises the claimed rank and rewrites the bound text to match is still refused:
    the bound is the paper's, recomputed from depth, width and heads."""
    m = certificate["claimed_rank"]
    edited = _set(_set(certificate, ("claimed_rank",), m + 1), ("bound",), BOUND_TEXT.replace("floor", "ceil"))
    assert not check_certificate(edited)[0]
    # the bound the certificate claims is the closed form ((floor((d_x - H)/2) over 3^(L-2)))
    assert m == lower_bound(2, 10, 2) == 4 and certificate["bound"] == BOUND_TEXT


@pytest.mark.parametrize("field", ["format", "depth", "width", "heads", "attn_dim", "residual", "tokens",
                                   "partition_a", "position", "output", "prime", "claimed_rank", "bound",
                                   "weights", "templates_a", "templates_b", "determinant_mod_prime",
                                   "outputs_at_first_point"])
def test_a_missing_field_is_not_a_certificate(certificate, field):
    edited = copy.deepcopy(certificate)
    del edited[field]
    with pytest.raises(InputError, match=field):
        check_certificate(edited)


@pytest.mark.parametrize("path,value", [(("depth",), "2"), (("depth",), True), (("prime",), 65537.0),
                                        (("residual",), 0), (("bound",), 4), (("templates_a", 0, 0), "1"),
                                        (("weights", "seed"), None), (("weights", "layers", 0, "query"), {}),
                                        (("format",), "verify-separation-rank-certificate/2"),
                                        (("unknown",), 1), (("weights", "extra"), 1)])
def test_a_wrongly_typed_or_unknown_field_is_not_a_certificate(certificate, path, value):
    with pytest.raises(InputError):
        check_certificate(_set(certificate, path, value))


def test_the_command_exits_1_for_a_failed_claim_and_2_for_a_non_certificate(tmp_path, capsys, certificate):
    good = tmp_path / "good.json"
    good.write_text(json.dumps(certificate))
    assert main(["check-certificate", str(good), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["holds"] is True
    for name in ("bound text edited", "claimed rank +1", "determinant + p", "prime: the next prime"):
        _, path, value = next(f for f in FAILS if f[0] == name)
        bad = tmp_path / "bad.json"
        bad.write_text(json.dumps(_edited(certificate, name, path, value)))
        assert main(["check-certificate", str(bad), "--json"]) == 1, name
        assert json.loads(capsys.readouterr().out)["holds"] is False
    missing = copy.deepcopy(certificate)
    del missing["bound"]
    (tmp_path / "missing.json").write_text(json.dumps(missing))
    assert main(["check-certificate", str(tmp_path / "missing.json")]) == 2
    assert "bound" in capsys.readouterr().err


def test_a_consistent_certificate_for_less_than_the_bound_is_rejected(certificate):
    """A forger keeps m - 1 of the templates, re-derives the determinant of the smaller grid and sets
    claimed_rank = m - 1: every stored number then agrees, but the file states the theorem's bound
    (m), which m - 1 templates do not prove."""
    from verify.constructions import certificate as module

    m, p = certificate["claimed_rank"], certificate["prime"]
    forged = copy.deepcopy(certificate)
    forged["claimed_rank"] = m - 1
    layers = module._layers(forged["weights"], p)
    for drop in range(m):  # some (m-1) x (m-1) minor of a nonsingular matrix is nonsingular
        rows = [t for i, t in enumerate(certificate["templates_a"]) if i != drop]
        cols = certificate["templates_b"][:-1]
        det = int(module._grid(layers, rows, cols, p, forged["output"], forged["residual"]).det())
        if det:
            break
    forged.update(templates_a=rows, templates_b=cols, determinant_mod_prime=det,
                  outputs_at_first_point=module._fingerprint(layers, rows, cols, p, forged["residual"]))
    assert det and not check_certificate(forged)[0]


def test_a_zero_bound_is_refused_not_an_internal_error():
    """d_x - H < 2 makes the bound 0: certify refuses with one line, and a hand-made file with an
    empty grid is a failed claim, not an IndexError."""
    from verify.constructions.certificate import FORMAT
    from verify.model.spec import draw_weights

    spec = NetworkSpec(depth=2, width=10, heads=9, attn_dim=1)
    assert lower_bound(2, 10, 9) == 0
    with pytest.raises(InputError, match="nothing to certify"):
        certify(spec)
    empty = {"format": FORMAT, "depth": 2, "width": 10, "heads": 9, "attn_dim": 1, "residual": False, "tokens": 2,
             "partition_a": [0], "position": 0, "output": 0, "prime": 1048573, "claimed_rank": 0,
             "bound": BOUND_TEXT, "weights": draw_weights(spec, 0, 3).as_dict(), "templates_a": [],
             "templates_b": [], "determinant_mod_prime": 1, "outputs_at_first_point": []}
    holds, reason = check_certificate(empty)
    assert not holds and "bound is 0" in reason


@pytest.mark.parametrize("output,residual", [(3, False), (9, True)])
def test_an_honest_certificate_for_another_output_coordinate_holds(output, residual):
    """A certificate of y_p with p != 0 is as valid as one of y_0: the checker must accept it (a checker
    comparing the grid with the wrong coordinate of the first-point outputs rejected every one, issue 35).
    Expected, independently: the stored determinant is that of the grid of the literal forward pass
    (``verify.model.network.output_coordinate``, eq. 4) at coordinate p over GF(prime)."""
    from verify import Field, draw_weights
    from verify.model.network import output_coordinate

    spec = NetworkSpec(depth=2, width=10, heads=2, output=output, residual=residual)
    data = certify(spec)
    assert data["output"] == output
    field = Field(data["prime"])
    weights = draw_weights(spec, data["weights"]["seed"], data["weights"]["weight_range"])
    grid = [[int(output_coordinate(spec.with_tokens(2), weights,
                                   [[field.scalar(v) for v in a], [field.scalar(v) for v in b]]))
             for b in data["templates_b"]] for a in data["templates_a"]]
    det = int(flint.nmod_mat(grid, data["prime"]).det())
    assert det != 0 and det == data["determinant_mod_prime"]
    holds, reason = check_certificate(data)
    assert holds, reason
