"""Issue 39 item 9: ``verify certify --help`` names each layout's own bound; pinned against the bound each
certificate claims (an independent closed form here: the multiset coefficient ((n over k)) = binom(n + k - 1, k))."""

from math import comb

import pytest

from verify.cli.certify import LAYOUT_BOUNDS
from verify.constructions.certificate import lower_bound
from verify.constructions.one_slot import one_slot_bound


def _from_help(layout: str, depth: int, width: int, heads: int) -> int:
    top, _ = LAYOUT_BOUNDS[layout]
    n = eval(top.replace("d_x", str(width)).replace("H", str(heads))) // 2  # the help's own formula
    k = 3 ** (depth - 2)
    return comb(n + k - 1, k)


@pytest.mark.parametrize("depth,width,heads", [(2, 12, 2), (3, 12, 4), (2, 8, 2), (3, 9, 3)])
def test_help_formula_is_what_each_layout_claims(depth, width, heads):
    assert _from_help("one-slot", depth, width, heads) == one_slot_bound(depth, width)
    assert _from_help("seeded", depth, width, heads) == lower_bound(depth, width, heads)


def test_help_text_states_each_layout_with_its_domain(capsys):
    from verify.cli.main import main

    with pytest.raises(SystemExit):
        main(["certify", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert ("with --layout one-slot: sep >= ((floor((d_x - 1)/2) over 3^(L-2))) for any d_x >= 3 and H dividing d_x"
            in text)
    assert "with --layout seeded: sep >= ((floor((d_x - H)/2) over 3^(L-2))) for d_x > 3^L" in text
    assert text.count("d_x > 3^L") == 2  # the seeded layout's description and its --layout help, not one-slot's
