"""report.html (verify.report.html_report), read back with the standard library's html.parser:
every claim id present, no external resource, and the counts those of report.json."""

import json
from html.parser import HTMLParser

import pytest

import toy_registry
from verify.report.html_report import ATLAS_PNG, html_report, rank_table_svg
from verify.cli.main import main


class Page(HTMLParser):
    """Collects ids, every src/href, the text and the outcome counts of the summary table."""

    def __init__(self):
        super().__init__()
        self.ids, self.links, self.text, self.counts, self._cell = set(), [], [], {}, None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if "id" in attrs:
            self.ids.add(attrs["id"])
        self.links += [(tag, k, v) for k, v in attrs.items() if k in ("src", "href")]
        if tag == "link" or (tag == "script" and "src" in attrs):
            self.links.append((tag, "external", attrs))
        self._cell = attrs.get("data-outcome") if tag == "td" else None

    def handle_data(self, data):
        self.text.append(data)
        if self._cell is not None and data.strip():
            self.counts[self._cell] = int(data)
            self._cell = None


def parse(text: str) -> Page:
    page = Page()
    page.feed(text)
    page.close()
    return page


def external(page: Page) -> list:
    return [link for link in page.links if link[1] == "external"
            or not (str(link[2]).startswith("#") or str(link[2]).startswith("data:"))]


@pytest.fixture
def report(tmp_path, monkeypatch):
    monkeypatch.delenv("VERIFY_REGISTRY", raising=False)
    folder = toy_registry.make(tmp_path)
    argv = ["run", "--registry", str(folder), "--out", str(tmp_path / "r"), "--quiet", "--no-store"]
    main(argv + [arg for claim in toy_registry.CLAIMS for arg in ("--claim", claim)])
    yield tmp_path / "r" / "partial"
    toy_registry.forget(folder)


def test_every_claim_is_present_nothing_is_external_and_the_counts_are_report_jsons(report):
    page = parse((report / "report.html").read_text())
    data = json.loads((report / "report.json").read_text())
    for claim in data["claims"]:
        assert f"claim-{claim['id']}" in page.ids and f"row-claim-{claim['id']}" in page.ids
    assert external(page) == []
    assert page.counts == data["counts"]
    text = "".join(page.text)
    assert 'evidence <1 + 1 & "2">' in text  # escaped in the file, whole once parsed
    assert "a statement with <angle> & ampersand" in text


def test_the_atlas_and_the_rank_table_are_embedded_and_a_missing_atlas_is_said(report, tmp_path):
    data = json.loads((report / "report.json").read_text())
    header = {**data["header"], "rank_table": [
        {"depth": 1, "width": 2, "heads": 1, "residual": False, "rank": 3, "certainty": "certified",
         "probability_bound": 0.0, "primes": [1048573]},
        {"depth": 2, "width": 2, "heads": 1, "residual": False, "rank": 18, "certainty": "certified",
         "probability_bound": 0.0, "primes": [1048573]}]}
    if ATLAS_PNG.is_file():  # the checkout's figure, as a data: URL
        page = parse(html_report(data["claims"], header))
        assert [v for t, k, v in page.links if t == "img"][0].startswith("data:image/png;base64,")
        assert external(page) == []
    page = parse(html_report(data["claims"], header, atlas=tmp_path / "absent.png"))
    assert "results/n_atlas.png" in "".join(page.text) and external(page) == []
    svg = rank_table_svg(header["rank_table"])
    assert svg.startswith("<svg") and "width 2, heads 1" in svg and "href" not in svg


def test_the_html_is_rewritten_with_the_other_reports(report):
    assert {p.name for p in report.iterdir()} >= {"report.md", "report.json", "report.html"}


def test_the_reviewers_table_is_the_one_verify_table_prints(capsys):
    """The grid the report embeds (sweeps.claim_run.reviewers_grid) against ``verify table``'s own
    Markdown for the same spec, depth 1 width 2 (rank 3 = its proven bound 1 + 2)."""
    from verify.exact.fields import DEFAULT_PRIME
    from verify.model.spec import NetworkSpec
    from verify.rank.memory import DEFAULT_MEMORY_GIB
    from verify.sweeps.claim_run import rank_rows, reviewers_grid
    from verify.sweeps.table import sep_task
    from verify.sweeps.tasks import compute_value

    spec = NetworkSpec(depth=1, width=2, heads=1)
    pairs = [(spec, compute_value(sep_task(spec, f"gf:{DEFAULT_PRIME}", 0, DEFAULT_MEMORY_GIB)))]
    grid = reviewers_grid(pairs)
    assert grid["rows"][0][:4] == ["1", "2", "1", "3"]
    assert main(["table", "--depths", "1", "--widths", "2", "--heads", "1", "--no-store", "--quiet"]) == 0
    printed = capsys.readouterr().out
    assert "| " + " | ".join(grid["rows"][0]) + " |" in printed  # the same cells, bound for bound
    page = parse(html_report([], {"reviewers_table": grid, "rank_table": rank_rows(pairs)}))
    assert "reviewers" in page.ids and external(page) == []
    text = "".join(page.text)
    assert all(note in text for note in grid["notes"])
