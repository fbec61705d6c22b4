"""report.html (verify.report.html_report), read back with the standard library's html.parser:
every claim id present, no external resource, the counts those of report.json, the verdict line, the
filters' and the sort's data, the log3 column, the atlas and the plot.  (``tools/report_screenshot.py``
drives the page in headless Chromium, for a maintainer.)"""

import json
import re
import shutil
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path

import pytest

import toy_registry
from verify.cli.main import main
from verify.report.html_report import _SCRIPT, ATLAS_PNG, MARGIN_SCALES, html_report


class Page(HTMLParser):
    """Collects ids, every src/href, the text and the outcome counts of the summary table."""

    def __init__(self):
        super().__init__()
        self.ids, self.links, self.text, self.counts, self._cell = set(), [], [], {}, None
        self.rows, self.tables, self._table = {}, {}, None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if "id" in attrs:
            self.ids.add(attrs["id"])
        if tag == "tr" and attrs.get("id", "").startswith("row-"):
            self.rows[attrs["id"][len("row-claim-"):]] = attrs
        if tag == "table":
            self._table = self.tables.setdefault(attrs.get("id"), [])
        if tag == "tr" and self._table is not None:
            self._table.append([])
        if tag in ("td", "th") and self._table:
            self._table[-1].append("")
        self.links += [(tag, k, v) for k, v in attrs.items() if k in ("src", "href")]
        if tag == "link" or (tag == "script" and "src" in attrs):
            self.links.append((tag, "external", attrs))
        self._cell = attrs.get("data-outcome") if tag == "td" else None

    def handle_endtag(self, tag):
        if tag == "table":
            self._table = None

    def handle_data(self, data):
        self.text.append(data)
        if self._table and self._table[-1]:
            self._table[-1][-1] += data
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


RANKS = [{"depth": 2, "width": 2, "heads": 1, "residual": False, "rank": 18, "certainty": "certified",
          "probability_bound": 0.0, "primes": [1048573]},
         {"depth": 1, "width": 2, "heads": 1, "residual": False, "rank": 3, "certainty": "certified",
          "probability_bound": 0.0, "primes": [1048573]},
         {"depth": 3, "width": 3, "heads": 1, "residual": False, "rank": 27, "certainty": "certified",
          "probability_bound": 0.0, "primes": [1048573]}]


def test_the_atlas_ships_with_the_package_and_opens_at_full_size(report, tmp_path):
    """The atlas is package data (found wherever verify is installed, not in a checkout's results/),
    inline as a data: URL, with a button that shows it unscaled; a missing file is said."""
    data = json.loads((report / "report.json").read_text())
    import verify

    assert ATLAS_PNG.is_file() and ATLAS_PNG.is_relative_to(Path(verify.__file__).parent)
    page = parse(html_report(data["claims"], data["header"]))
    assert [v for t, k, v in page.links if t == "img"][0].startswith("data:image/png;base64,")
    assert {"atlas", "atlas-size"} <= page.ids and external(page) == []
    assert "figure.full img{max-width:none}" in html_report([], {}) and "button.size" in _SCRIPT
    page = parse(html_report(data["claims"], data["header"], atlas=tmp_path / "absent.png"))
    assert "verify/data/n_atlas.png" in "".join(page.text) and external(page) == []


def test_the_rank_table_is_sorted_and_its_log3_column_is_log3():
    """HT03: the log3 column is log base 3 of the exact rank: 3 -> 1, 18 -> 2.631, 27 -> 3 (3^x = rank),
    one row per rank, by depth, width and heads."""
    page = parse(html_report([], {"rank_table": RANKS}))
    head, *body = page.tables["ranks"]
    column = head.index("log3")
    assert [(row[0], row[4], row[column]) for row in body] == [("1", "3", "1.000"), ("2", "18", "2.631"),
                                                               ("3", "27", "3.000")]
    assert all(abs(3 ** float(row[column]) - int(row[4])) < 0.01 * int(row[4]) for row in body)


def test_the_rank_plot_is_embedded_or_its_absence_said():
    png = b"\x89PNG\r\n\x1a\n fake"
    page = parse(html_report([], {"rank_table": RANKS}, rank_plot=png))
    assert {"rank-plot", "plot-size"} <= page.ids and any(
        v.startswith("data:image/png;base64,") for t, k, v in page.links if t == "img") and external(page) == []
    text = "".join(parse(html_report([], {"rank_table": RANKS}, rank_plot=None)).text)
    assert "No plot" in text and "seprank-verify[plot]" in text


def test_the_verdict_line_says_unexpected_outcomes_and_only_then_all_expected(report):
    """HT01: "Every outcome is the expected one." only when it is true; otherwise the unexpected ids."""
    data = json.loads((report / "report.json").read_text())
    records = data["claims"]
    wrong = sorted(r["id"] for r in records if not r["as_expected"])
    assert wrong == ["toy_planted"]  # the toy registry's one planted surprise
    text = "".join(parse(html_report(records, data["header"])).text)
    assert "Every outcome is the expected one." not in text and "UNEXPECTED: toy_planted" in text
    fine = [r for r in records if r["as_expected"]]
    text = "".join(parse(html_report(fine, data["header"])).text)
    assert "Every outcome is the expected one." in text and "UNEXPECTED" not in text


def _kebab(name: str) -> str:
    return "data-" + re.sub(r"([A-Z])", lambda m: "-" + m.group(1).lower(), name)


def test_the_unexpected_only_filter_keeps_exactly_the_unexpected_rows(report):
    """HT02: the script's own 'unexpected only' test (``fu.checked`` and a row attribute equal to a
    value), applied to the rows as parsed, keeps exactly the claims whose outcome is not the expected
    one (report.json's ``as_expected``), so the filter neither hides every row nor keeps others."""
    data = json.loads((report / "report.json").read_text())
    page = parse(html_report(data["claims"], data["header"]))
    [(attribute, value)] = re.findall(r"!fu\.checked\|\|r\.dataset\.(\w+)==='([^']*)'", _SCRIPT)
    kept = {claim for claim, attrs in page.rows.items() if attrs.get(_kebab(attribute)) == value}
    assert kept == {r["id"] for r in data["claims"] if not r["as_expected"]} != set()
    assert "f-unexp" in page.ids


def test_margins_carry_their_unit_and_sort_within_it():
    """Each row's sort key is its margin's unit (``data-scale``, the order of MARGIN_SCALES) and value;
    a claim without a margin sorts after every unit; the unit is shown beside the value."""
    def rec(claim, scale, value):
        margin = None if scale is None else {"value": value, "scale": scale, "where": "x"}
        return {"id": claim, "document": "d.md", "outcome": "verified", "expected": "verified", "as_expected": True,
                "source": "s", "passage": "p", "statement": "s", "tightest_margin": margin}
    scales = list(MARGIN_SCALES)
    records = [rec("a", scales[1], 0.5), rec("b", None, None), rec("c", scales[0], 2.0), rec("d", scales[2], 0.1)]
    page = parse(html_report(records, {}))
    assert {c: (a["data-scale"], a["data-margin"]) for c, a in page.rows.items()} == {
        "a": ("1", "0.5"), "b": (str(len(scales) + 1), ""), "c": ("0", "2.0"), "d": ("2", "0.1")}
    head, *body = page.tables["claims"]
    unit = [h.replace(" \u21C5", "") for h in head].index("unit")
    assert [row[unit] for row in body] == ["rhs \u2212 lhs", "", "log3 units", "tolerance \u2212 |difference|"]
    assert '<button type="button" id="by-margin">' in html_report(records, {})  # keyboard: a button


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


def _fake(spec, rank):
    return spec, {"rank": rank, "certified_lower_bound": True, "probability_bound": 0.0, "certified_exact": True}


def test_the_reviewers_table_is_sorted_and_its_bound_ids_name_one_claim_everywhere():
    """Rows by depth, width, heads whatever the order of the ranks; each B<n> names the same claim in
    grids of different spec sets (depth 1 against depth 3 use different bounds) and in ``verify table``'s
    Markdown (the numbering is the registry's, not the order of the bounds one table happens to use)."""
    from verify.model.spec import NetworkSpec
    from verify.sweeps.claim_run import _plain_rows, reviewers_grid
    from verify.sweeps.table import bound_columns, markdown

    small = [_fake(NetworkSpec(depth=1, width=4, heads=h), 10) for h in (4, 2, 1)] + [
        _fake(NetworkSpec(depth=1, width=2, heads=1), 3)]
    large = [_fake(NetworkSpec(depth=3, width=2, heads=1), 2000)]
    grid = reviewers_grid(small)
    assert [tuple(row[:3]) for row in grid["rows"]] == [("1", "2", "1"), ("1", "4", "1"), ("1", "4", "2"),
                                                        ("1", "4", "4")]

    def ids(notes):
        return dict(re.match(r"-? ?(B\d+): (\w+),", note).groups() for note in notes)

    first, second = ids(grid["notes"]), ids(reviewers_grid(large)["notes"])
    shared = set(first.values()) & set(second.values())
    assert set(first.values()) != set(second.values()) and shared  # different bounds, some in both
    assert {k: v for k, v in first.items() if v in shared} == {k: v for k, v in second.items() if v in shared}
    printed = [line for line in markdown(_plain_rows(large), bound_columns()).splitlines() if line.startswith("- B")]
    assert ids(printed) == second


@pytest.mark.skipif(not any(shutil.which(b) for b in ("chromium", "chromium-browser", "google-chrome")),
                    reason="no Chromium on this machine (tools/report_screenshot.py needs one)")
def test_the_page_works_in_a_real_browser(report, tmp_path):
    """tools/report_screenshot.py in headless Chromium on the toy report: the filter, the sort of every
    column from a focusable button, the search, the collapsed claims and their anchors, the header's
    numbers, the layout and the atlas, worked by the page's own script (issue 48.3)."""
    root = Path(__file__).resolve().parents[2]
    done = subprocess.run([sys.executable, str(root / "tools" / "report_screenshot.py"), str(report / "report.html"),
                           "--out", str(tmp_path / "shot.png"), "--height", "1200"], capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "FAIL" not in done.stdout and (tmp_path / "shot.png").stat().st_size > 10_000
    for check in ("sort: claim", "sort: paper", "sort: outcome", "sort: expected", "sort: unit", "sort: refuted",
                  "sort: closest to failing", "search:", "details:", "header:", "sort: ascending within each unit"):
        assert f"ok   {check}" in done.stdout, (check, done.stdout)


LEVINE = "levine2020_limits_to_depth_efficiencies.md"


def _record(claim="levine_claim", document=LEVINE, section="§4.1", label="Theorem 1, eq. 6"):
    return {"id": claim, "document": document, "section": section, "label": label, "outcome": "verified",
            "expected": "verified", "as_expected": True, "source": f"{document} {section}, {label}", "passage": "p",
            "statement": "A Statement about sep(y)", "tightest_margin": None}


def test_papers_are_cited_by_authors_year_venue_and_arxiv_id_with_the_section_and_equation():
    """Issue 48.3: the registry's coverage index names the papers; the page cites them (the expected texts
    written from the papers: Levine et al., NeurIPS 2020, arXiv:2006.12467; Wies et al., ICML 2021,
    arXiv:2105.03928), with the claim's section and equation, in the table, the filter and the details."""
    from verify.report.citations import registry_citations

    papers = registry_citations("levine-wies")
    records = [_record(), _record("wies_claim", "wies2021_vocabulary_bottleneck.md", "§3", "Theorem 2")]
    text = html_report(records, {}, papers=papers)
    page = parse(text)
    head, *body = page.tables["claims"]
    paper = [h.replace(" \u21C5", "") for h in head].index("paper")
    assert [row[paper] for row in body] == [
        "Levine et al. 2020, NeurIPS 2020, arXiv:2006.12467: §4.1, Theorem 1, eq. 6",
        "Wies et al. 2021, ICML 2021, arXiv:2105.03928: §3, Theorem 2"]
    assert '<option value="wies2021_vocabulary_bottleneck.md">Wies et al. 2021, ICML 2021, arXiv:2105.03928</option>' \
        in text
    assert "Which Transformer Architecture Fits My Data? A Vocabulary Bottleneck in Self-Attention" in text
    assert "wies2021_vocabulary_bottleneck.md" not in "".join(row[paper] for row in body)


def test_every_column_sorts_from_a_button_the_search_reads_ids_statements_and_papers_and_claims_are_collapsed():
    from verify.report.citations import registry_citations

    text = html_report([_record()], {}, papers=registry_citations("levine-wies"))
    head = re.search(r"<thead>(.*?)</thead>", text).group(1)
    cells = re.findall(r"<th[^>]*>(.*?)</th>", head)
    assert len(cells) == 8 and all(c.startswith('<button type="button"') for c in cells)  # keyboard: buttons
    assert '<input type="search" id="search"' in text and "r.dataset.search.indexOf(fs.value.toLowerCase())" in _SCRIPT
    [row] = parse(text).rows.values()
    assert row["data-search"] == ("levine_claim a statement about sep(y) levine et al. 2020, neurips 2020, "
                                  "arxiv:2006.12467: §4.1, theorem 1, eq. 6 " + LEVINE)
    assert re.search(r'<details class="claim" id="claim-levine_claim"><summary>', text)  # collapsed: no "open"
    assert "<details open" not in text and "d.open=true" in _SCRIPT


@pytest.mark.parametrize("header, expected", [
    ({"ranks": 30, "ranks_certified_exact": 20, "probability_bound": 2.8088688844114464e-06,
      "certainty": "certified lower bound on the generic rank"},
     "each of the 10 ranks not certified exact is below the generic rank over GF(p) with probability at most "
     "2.81e-06 (the largest of their bounds, over the draw of the seeded weights); the generic rank over GF(p) is "
     "the one over Q unless p divides the content of every witness minor"),
    ({"ranks": 3, "ranks_certified_exact": 3, "probability_bound": 0.0},
     "none needed: every exact rank used is certified exact"),
    ({"ranks": 0, "probability_bound": None}, "none was needed by these claims"),
])
def test_the_header_formats_its_numbers_with_their_event_certainty_and_condition(header, expected):
    """Issue 48.3: not ``probability_bound 2.8088688844114464e-06``: 2.81e-06 is that bound rounded up to
    three digits, with the event it bounds and its condition."""
    text = html_report([_record()], {"version": "0", "primes": [1048573, 2**63 - 25], **header})
    shown = "".join(parse(text).text)
    assert expected in shown and "2.8088688844114464e-06" not in shown
    if header["ranks"]:
        assert "1,048,573, 9,223,372,036,854,775,783" in shown
