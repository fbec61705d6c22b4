"""Notebook views (issue 41): a claim's result and the reviewers' table show themselves as Markdown and
HTML, and the table is still the dict existing callers read."""

from __future__ import annotations

import json
from html.parser import HTMLParser

import pytest

import toy_registry
import verify
from verify.report import formats


class _Text(HTMLParser):
    def __init__(self):
        super().__init__()
        self.text, self.cells, self.inside = [], [], False

    def handle_starttag(self, tag, attrs):
        if tag == "td":
            self.cells.append("")
            self.inside = True

    def handle_endtag(self, tag):
        self.inside = self.inside and tag != "td"

    def handle_data(self, data):
        self.text.append(data)
        if self.inside:
            self.cells[-1] += data


def _parse(html: str) -> _Text:
    page = _Text()
    page.feed(html)
    return page


@pytest.fixture
def results(tmp_path, monkeypatch):
    monkeypatch.delenv("VERIFY_REGISTRY", raising=False)
    folder = toy_registry.make(tmp_path)
    yield {r.claim.id: r for r in verify.run_claims(registry=str(folder))}
    toy_registry.forget(folder)


def test_a_claim_result_shows_its_outcome_against_the_expected_one(results):
    planted, fine = results["toy_planted"], results["toy_as_expected"]
    assert "**toy_planted**: not-decided (expected **verified**)" in planted._repr_markdown_()
    assert "(expected" not in fine._repr_markdown_()
    assert "> a statement with <angle> & ampersand" in fine._repr_markdown_()
    html = fine._repr_html_()
    assert "&lt;angle&gt;" in html and "<angle>" not in html  # escaped, and whole once parsed
    text = "".join(_parse(html).text)
    assert "a statement with <angle> & ampersand" in text and 'evidence <1 + 1 & "2">' in text


def test_the_reviewers_table_is_the_dict_it_was_and_shows_as_the_printed_table():
    table = verify.reviewers_table(depths=[1], widths=[2], heads="1")
    assert isinstance(table, dict) and {"rows", "skipped", "sweep", "registry"} <= set(table)
    assert json.loads(json.dumps(table))["rows"][0]["sep_rank"] == 3  # 1 + 2 (module example)
    markdown = table._repr_markdown_()
    assert markdown == formats.table_markdown(table["rows"])
    row = next(line for line in markdown.splitlines() if line.startswith("| 1 | 2 | 1 |"))
    cells = [cell.strip() for cell in row.strip("|").split("|")]
    assert _parse(table._repr_html_()).cells == cells
