"""A separation rank shown in a notebook (issue 41 item 8): the rank, the network and what it certifies."""

from verify import NetworkSpec, separation_rank
from verify.rank.certainty import Certainty
from verify.rank.result import SepResult


def test_a_certified_rank_shows_its_value_network_and_label():
    result = separation_rank(NetworkSpec(depth=2, width=2))  # 18: the README's example, certified exact
    text = result._repr_markdown_()
    assert text.startswith("**sep = 18** for depth 2, width 2, 1 head(s): certified") and "probability" not in text
    assert result._repr_html_().startswith("<p><b>sep = 18 for depth 2, width 2, 1 head(s)</b>: certified")


def test_a_probabilistic_rank_shows_its_bound():
    spec = NetworkSpec(depth=1, width=3)
    certainty = Certainty(True, 2.5e-4, "a minor met w.h.p.")
    result = SepResult(1234, "grid", "gf:101", spec, 7, None, certainty)
    text = result._repr_markdown_()
    assert "**sep = 1,234**" in text and "at most 0.00025" in text and "grid route over gf:101, seed 7" in text
    assert "at most 0.00025" in result._repr_html_()
