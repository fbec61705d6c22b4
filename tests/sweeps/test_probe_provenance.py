"""Issue 39 item 5: probe-n's provenance names what was computed (the token routes' prime, not --field's) and its
top-level certainty is its weakest row's; each row carries its own."""

import json
from fractions import Fraction

from verify.cli.main import main
from verify.rank.certainty import PRIME_CONDITION, WHP_LABEL
from verify.rank.token.positional_bound import exact_bound_probability

ARGS = ["--depth", "3", "--width", "3", "--vocab", "2", "--rank", "2", "--pos-rank", "1", "--no-store",
        "--workers", "1"]


def _probe(capsys, *extra):
    assert main(["probe-n", *ARGS, *extra, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_field_and_primes_name_the_prime_the_ranks_were_computed_over(capsys):
    data = _probe(capsys, "--max-tokens", "4")  # --field left at its default, a prime near 2^63
    assert data["requested_field"] == "gf:9223372036854775783"
    assert data["field"] == "gf:2147483647" == f"gf:{data['modulus']}" and data["primes"] == [2147483647]


def test_top_level_certainty_is_the_weakest_rows(capsys):
    """N <= 10 rows meet the counting cap (certified); N = 12, 14 are probabilistic: at N = 12 every sequence was
    kept, so its label is the union of Lemma P's 0.00337 and the every-sequence offer 64 * 132 / (2^21 + 1) (docs/
    mathematics.md §7, "A label's union"), 0.00739; at N = 14 Lemma P's 0.00472 and the every-sequence offer,
    on the menu though a sample met eq. 7.4 (128^2 evaluations fit the sample budget; its proven bound the certified
    limit 75: 75 * 132 / (2^21 + 1)), 0.00944: the export is w.h.p. with the larger (N = 14's), never 'certified'."""
    data = _probe(capsys, "--max-tokens", "14")
    rows = {row["tokens"]: (row["certainty"], row["probability_bound"]) for row in data["ranks"]}
    assert all(rows[n] == ("certified", 0.0) for n in (2, 4, 6, 8, 10))
    union = Fraction(exact_bound_probability(3, 2, 1, 12, 2 * 2**20 + 1)) + Fraction(64 * 132, 2**21 + 1)
    assert rows[12][0] == WHP_LABEL and union <= Fraction(rows[12][1]) < union + Fraction(1, 10**15)
    at_14 = Fraction(exact_bound_probability(3, 2, 1, 14, 2 * 2**20 + 1)) + Fraction(75 * 132, 2**21 + 1)
    assert rows[14][0] == WHP_LABEL and at_14 <= Fraction(rows[14][1]) < at_14 + Fraction(1, 10**15)
    assert data["certainty"] == WHP_LABEL and PRIME_CONDITION in data["certainty"]
    assert data["probability_bound"] == max(p for _, p in rows.values()) == rows[14][1]
    assert PRIME_CONDITION in data["meaning"]


def test_all_certified_rows_give_a_certified_export(capsys):
    data = _probe(capsys, "--max-tokens", "6")
    assert {row["certainty"] for row in data["ranks"]} == {"certified"} and data["limit"]["certified_exact"]
    assert (data["certainty"], data["probability_bound"]) == ("certified", 0.0)


def test_a_lower_bound_row_makes_the_export_a_lower_bound():
    from verify.sweeps.provenance import weakest_certainty

    assert weakest_certainty([("certified", 0.0), (WHP_LABEL, 1e-3), ("certified lower bound", None)]) == (
        "certified lower bound", None)
    assert weakest_certainty([("certified", 0.0), (WHP_LABEL, 1e-3), (WHP_LABEL, 2e-3)]) == (WHP_LABEL, 2e-3)


def test_the_plot_title_names_the_computed_field(capsys, monkeypatch, tmp_path):
    from verify.report import formats

    seen = {}
    monkeypatch.setattr(formats, "plot_probe", lambda data, path, field=None, seed=None: seen.update(field=field))
    monkeypatch.setattr("verify.report.plot.require_matplotlib", lambda *a, **k: None, raising=False)
    code = main(["probe-n", *ARGS, "--max-tokens", "4", "--plot", str(tmp_path / "p.png")])
    capsys.readouterr()
    assert code == 0 and seen["field"] == "gf:2147483647"
