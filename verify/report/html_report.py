"""``report.html``: the claims run as one self-contained page for reviewers (issue 33).

One file, no external resource (styles, script and figures are inline; a figure is inline SVG or a
``data:`` PNG), so it opens offline and prints whole: the run's provenance, its numbers formatted with
their certainty and condition; the summary counts; a table of every claim that filters by paper and
outcome, searches claim ids, statements and papers, and sorts by every column from a button (keyboard-
usable; a few lines of inline script; without script the table is still complete), papers cited by
authors, year, venue and arXiv id (``verify.report.citations``, from the registry's coverage index) with
the section and equation; one collapsed section (``<details>``, opened by its anchor) per claim with the
passage quoted, the readings,
the checks with their evidence, the corrected statement and what is left out; the reviewers'
table of the exact ranks the bound checks used, with its plot (drawn by matplotlib, the ``plot`` extra,
by the caller: ``rank_plot``; a note without it); the N-atlas figure, shipped with the package
(``verify/data/n_atlas.png``, a copy of the published ``results/n_atlas.png``), with a button that
shows it at full size.

Margins are sorted within one unit: a margin's scale (log3 units of a rank bound, rhs - lhs of an
inequality chain, tolerance - |difference| of a quoted number) is its own column, the sort orders by
scale first and by value within it, and claims without a margin stay last in either direction.

Built with ``html.escape`` on every text taken from a record (the page is generated, not
templated: no template library is a dependency here, and the page is one loop over records).
Modelled on coverage.py's HTML report: an index with sortable columns, one section per item.
"""

from __future__ import annotations

import base64
import importlib.resources
import math
from functools import lru_cache
from html import escape
from pathlib import Path
from typing import Any

from ..files import write_output
from ..rank.certainty import PRIME_CONDITION, format_bound
from .citations import Citation
from .run_report import counts, raised_checks, strength

__all__ = ["html_report", "write_html", "ATLAS_PNG", "MARGIN_SCALES", "margin_scale"]

#: The N atlas, package data of ``verify`` (a copy of ``results/n_atlas.png``, which
#: ``python benchmarks/atlas.py --replot`` redraws): found wherever the package is installed.
ATLAS_PNG = Path(str(importlib.resources.files("verify") / "data" / "n_atlas.png"))

#: Short names of the margins' scales (``CheckResult.margin["scale"]``), in the order the sort groups them.
MARGIN_SCALES = {"log3 units (float)": "log3 units", "rhs - lhs (float)": "rhs \u2212 lhs",
                 "tolerance - |recomputed - printed| (float)": "tolerance \u2212 |difference|"}


def margin_scale(margin: dict[Any, Any] | None) -> tuple[int, str]:
    """(rank of the scale in ``MARGIN_SCALES``, its short name) of a record's tightest margin; an unknown
    scale sorts after the known ones under its own name, no margin last of all."""
    if not margin:
        return len(MARGIN_SCALES) + 1, ""
    names = list(MARGIN_SCALES)
    scale = margin.get("scale") or ""
    return (names.index(scale), MARGIN_SCALES[scale]) if scale in MARGIN_SCALES else (len(names), scale)


_STYLE = """
body{font:14px/1.45 system-ui,sans-serif;margin:1.5em auto;max-width:72em;padding:0 1em;color:#111}
table{border-collapse:collapse;margin:.6em 0}td,th{border:1px solid #bbb;padding:.2em .45em;vertical-align:top}
th{background:#eee}.unexpected{background:#fdd}.o-verified{color:#060}
.o-erratum{color:#a40}.o-violated{color:#b00;font-weight:bold}.o-gap,.o-ambiguous{color:#627}
section.claim{border-top:1px solid #999;margin-top:1.2em}blockquote{margin:.4em 1em;color:#333;
border-left:3px solid #bbb;padding-left:.6em}code,.ev{font-family:ui-monospace,monospace;font-size:12px;
white-space:pre-wrap;word-break:break-word}.muted{color:#666}figure{margin:1em 0}img{max-width:100%}
#claims{width:100%;table-layout:fixed}#claims td{overflow-wrap:anywhere;font-size:13px}
#claims .num{text-align:right;white-space:nowrap}.wide{overflow-x:auto;max-width:100%}
#reviewers td,#reviewers th,#ranks td{white-space:nowrap;font-size:12px}
th button{font:inherit;font-weight:bold;background:none;border:0;padding:0;cursor:pointer;text-decoration:underline dotted}
figure.full img{max-width:none}figure .wide{max-height:90vh;overflow:auto}
@media print{#filters,th button::after,button.size{display:none}section.claim{break-inside:avoid-page}
tr.hidden{display:table-row!important}a{color:inherit;text-decoration:none}}
tr.hidden{display:none}th button.sort{text-align:left}#search{min-width:22em}
details.claim{border-top:1px solid #999;margin-top:.6em}details.claim>summary{cursor:pointer;padding:.3em 0}
details.claim>summary h3{display:inline;font-size:1.05em}dl.head{display:grid;grid-template-columns:max-content auto;
gap:.15em 1em}dl.head dt{font-weight:bold}dl.head dd{margin:0}
"""  # noqa: E501 (CSS written byte-for-byte into report.html, one rule a line)

#: The filters and the sort. A row's ``data-unexpected`` is "1" when its outcome is not the expected one;
#: its ``data-scale`` ranks the margin's unit (MARGIN_SCALES; no margin: last) and ``data-margin`` is the
#: value: the sort orders by unit, then by value (ascending or descending), rows without a margin last.
_SCRIPT = """
(function(){
var t=document.getElementById('claims'),rows=[].slice.call(t.tBodies[0].rows);
var fp=document.getElementById('f-paper'),fo=document.getElementById('f-outcome'),fu=document.getElementById('f-unexp');
var fs=document.getElementById('search');
function shown(r){return (!fp.value||r.dataset.paper===fp.value)&&(!fo.value||r.dataset.outcome===fo.value)&&
(!fu.checked||r.dataset.unexpected==='1')&&(!fs.value||r.dataset.search.indexOf(fs.value.toLowerCase())>=0);}
function apply(){rows.forEach(function(r){r.classList.toggle('hidden',!shown(r));});
document.getElementById('shown').textContent=rows.filter(shown).length;}
[fp,fo,fu].forEach(function(e){e.addEventListener('change',apply);});fs.addEventListener('input',apply);
function key(r,i){var c=r.cells[i];return c.hasAttribute('data-sort')?c.dataset.sort:c.textContent.trim();}
function mark(th,dir){[].forEach.call(t.tHead.rows[0].cells,function(h){h.setAttribute('aria-sort','none');});
th.setAttribute('aria-sort',dir);}
[].forEach.call(document.querySelectorAll('#claims button.sort'),function(s){var down=false;
s.addEventListener('click',function(){var i=s.parentNode.cellIndex;rows.sort(function(x,y){
var a=key(x,i),c=key(y,i);if(a===''||c==='')return (a==='')-(c==='');var m=parseFloat(a),n=parseFloat(c);
var d=(isNaN(m)||isNaN(n))?a.localeCompare(c):m-n;return down?-d:d;});
mark(s.parentNode,down?'descending':'ascending');down=!down;rows.forEach(function(r){t.tBodies[0].appendChild(r);});});});
function opened(){var h=decodeURIComponent(location.hash.slice(1)),d=h&&document.getElementById(h);
if(d&&d.tagName==='DETAILS'){d.open=true;d.scrollIntoView();}}
window.addEventListener('hashchange',opened);opened();
window.addEventListener('beforeprint',function(){[].forEach.call(document.querySelectorAll('details'),
function(d){d.open=true;});});
[].forEach.call(document.querySelectorAll('button.fold'),function(f){f.addEventListener('click',function(){
var open=f.id==='open-all';[].forEach.call(document.querySelectorAll('details.claim'),function(d){d.open=open;});});});
var b=document.getElementById('by-margin'),th=b.parentNode,up=true;
b.addEventListener('click',function(){rows.sort(function(x,y){
var s=(+x.dataset.scale)-(+y.dataset.scale);if(s)return s;if(x.dataset.margin===''||y.dataset.margin==='')return 0;
var d=parseFloat(x.dataset.margin)-parseFloat(y.dataset.margin);return up?d:-d;});
mark(th,up?'ascending':'descending');b.textContent='margin '+(up?'\\u25B2':'\\u25BC');up=!up;
rows.forEach(function(r){t.tBodies[0].appendChild(r);});});
[].forEach.call(document.querySelectorAll('button.size'),function(a){a.addEventListener('click',function(){
var f=a.closest('figure');f.classList.toggle('full');
a.textContent=f.classList.contains('full')?'fit to the page':'full size';});});
apply();})();
"""


def _e(value) -> str:
    return escape("" if value is None else str(value))


def _anchor(claim_id: str) -> str:
    return "claim-" + "".join(ch if ch.isalnum() or ch in "_-" else "_" for ch in claim_id)


@lru_cache(maxsize=4)
def _png_data(path: str, mtime: float) -> str:
    """The PNG at ``path`` as a ``data:`` URL (read once per file version: the report is rewritten
    after every claim)."""
    return "data:image/png;base64," + base64.b64encode(Path(path).read_bytes()).decode("ascii")


def _atlas_figure(atlas: Path | None) -> str:
    if atlas is None or not atlas.is_file():
        return ('<p class="muted">The N-atlas figure is not in this installation (the package data '
                '<code>verify/data/n_atlas.png</code> is missing; <code>python benchmarks/atlas.py --replot</code> '
                'in the checkout draws <code>results/n_atlas.png</code>).</p>')
    return (f'<figure id="atlas"><div class="wide"><img alt="N atlas: exact separation rank against sequence '
            f'length N" src="{_png_data(str(atlas), atlas.stat().st_mtime)}"></div><figcaption>The N atlas: exact '
            f'token-input ranks against N per (depth, vocabulary rank, heads); docs/conjecture_n.md reads it '
            f'(published as results/n_atlas.png). <button type="button" class="size" id="atlas-size">full size</button>'
            f'</figcaption></figure>')


def _by_spec(row: dict[Any, Any]) -> tuple[Any, ...]:
    return (bool(row.get("residual")), row["depth"], row["width"], row["heads"])


def _rank_section(rows: list[dict[Any, Any]], plot: bytes | None) -> str:
    """The exact ranks used, by depth, width and heads, then the plot ``plot`` (PNG) or why there is none."""
    if not rows:
        return '<p class="muted">No exact rank was needed by the claims of this run.</p>'
    out = ['<div class="wide"><table id="ranks"><thead><tr><th>depth</th><th>width</th><th>heads</th><th>residual</th>'
           "<th>exact rank</th><th>log3</th><th>certainty</th><th>probability bound</th><th>primes</th></tr></thead>"
           "<tbody>"]
    for r in sorted(rows, key=_by_spec):
        log3 = f"{math.log(r['rank'], 3):.3f}" if r.get("rank") else ""
        out.append(f"<tr><td>{r['depth']}</td><td>{r['width']}</td><td>{r['heads']}</td><td>{_e(r['residual'])}</td>"
                   f"<td>{_e(r['rank'])}</td><td>{log3}</td><td>{_e(r.get('certainty'))}</td>"
                   f"<td>{_e(r.get('probability_bound'))}</td><td>{_e(' '.join(map(str, r.get('primes') or [])))}"
                   f"</td></tr>")
    out.append("</tbody></table></div>")
    if plot:
        out.append('<figure id="rank-plot"><div class="wide"><img alt="log3 of the exact separation rank against '
                   'depth, one panel per width" src="data:image/png;base64,' + base64.b64encode(plot).decode("ascii")
                   + '"></div><figcaption>The plain networks\' exact ranks against depth, as <code>verify table '
                   '--plot</code> draws them. <button type="button" class="size" id="plot-size">full size</button>'
                   '</figcaption></figure>')
    else:
        out.append('<p class="muted" id="rank-plot">No plot: it is drawn by matplotlib, which is not installed '
                   "here (the <code>plot</code> extra: <code>pip install 'seprank-verify[plot]'</code>); the "
                   "table above holds every value.</p>")
    return "".join(out)


def _reviewers_section(grid: dict[Any, Any] | None) -> str:
    """The reviewers' table as ``verify table`` prints it (cells from ``sweeps.claim_run.reviewers_grid``:
    rows by depth, width, heads; bound ids B<n> as in ``verify table``, each naming one claim)."""
    if not grid:
        return ""
    named = dict(note.split(": ", 1) for note in grid.get("notes", []) if ": " in note)  # B<n> -> its claim
    out = ['<div class="wide"><table id="reviewers"><thead><tr>'
           + "".join(f'<th title="{_e(named[c].split(",")[0])}">{_e(c)}</th>' if c in named else f"<th>{_e(c)}</th>"
                     for c in grid["columns"]) + "</tr></thead><tbody>"]
    out += ["<tr>" + "".join(f"<td>{_e(cell)}</td>" for cell in row) + "</tr>" for row in grid["rows"]]
    out.append("</tbody></table></div><p class=\"muted\">Bounds on the log3 scale; \u2717 marks a bound the exact "
               "rank violates; \u00b7 not applicable (outside the bound's regime or condition).</p><ul>")
    out += [f"<li>{_e(note)}</li>" for note in grid.get("notes", [])]
    return "".join(out) + "</ul>"


def _checks(title: str, checks: list[dict[Any, Any]]) -> str:
    if not checks:
        return ""
    out = [f"<h4>{_e(title)}</h4><table><tr><th>check</th><th>status</th><th>evidence</th></tr>"]
    out += [f'<tr><td>{_e(c["name"])}</td><td>{_e(c["status"])}</td><td class="ev">{_e(c["evidence"])}'
            + (f'<br>counterexample: <code>{_e(c["counterexample"])}</code>' if c.get("counterexample") else "")
            + "</td></tr>" for c in checks]
    return "".join(out) + "</table>"


def _where(rec: dict[Any, Any], papers: dict[str, Citation]) -> str:
    """The paper by authors, year, venue and arXiv id, then the section and equation (the registry's
    file name where its coverage index gives no citation)."""
    paper = papers.get(rec["document"])
    place = ", ".join(str(rec[k]) for k in ("section", "label") if rec.get(k))
    return f"{paper.line if paper else rec['document']}: {place}" if place else (paper.line if paper else
                                                                                rec["document"])


def _claim_section(rec: dict[Any, Any], papers: dict[str, Citation]) -> str:
    margin, refuted = strength(rec)
    expected = "" if rec["as_expected"] else f' <b>(expected {_e(rec["expected"])})</b>'
    paper = papers.get(rec["document"])
    out = [f'<details class="claim" id="{_anchor(rec["id"])}"><summary><h3>{_e(rec["id"])}</h3> &middot; '
           f'<span class="o-{_e(rec["outcome"])}">{_e(rec["outcome"])}</span>{expected} &middot; '
           f'{_e(_where(rec, papers))}</summary>',
           (f'<p><i>Cited:</i> {_e(paper.text)}</p>' if paper else ""),
           f'<p>{_e(rec["source"])} &middot; passage <code>{_e(rec["passage"])}</code> &middot; margin {_e(margin)}'
           f' &middot; strengthenings refuted {_e(refuted)}</p>',
           f"<blockquote>{_e(rec['statement'])}</blockquote>"]
    if rec.get("domain"):
        out.append(f"<p><i>Domain:</i> {_e(rec['domain'])}</p>")
    readings = rec.get("readings") or {}
    if readings:
        out.append("<h4>Readings</h4><ul>" + "".join(
            f'<li><i>{_e(name)}</i>: {_e(r["outcome"])} <span class="ev">{_e(r["evidence"])}</span></li>'
            for name, r in readings.items()) + "</ul>")
    else:
        out.append(f"<p><i>Reading:</i> {_e(rec.get('reading') or 'the only one')}</p>")
    out.append(_checks("Checks", rec.get("checks", [])))
    if rec.get("counterexample") is not None:
        out.append(f"<p><i>Smallest counterexample:</i> <code>{_e(rec['counterexample'])}</code></p>")
    if rec.get("corrected_statement"):
        out.append(f"<p><i>Corrected statement:</i> {_e(rec['corrected_statement'])}</p>")
    out.append(_checks("Checks of the corrected statement", rec.get("corrected_checks", [])))
    if rec.get("gap"):
        out.append(f"<p><i>Proof gap:</i> {_e(rec['gap'])}</p>" + _checks("Gap checks", rec.get("gap_checks", [])))
    if rec.get("left_out"):
        out.append(f"<p><i>Left out of the stated domain:</i> {_e(rec['left_out'])}</p>")
    out.append(f'<p><i>Closest to failing:</i> {_e(rec.get("closest") or "-")}</p><p><a href="#claims">back to the '
               f"table</a></p></details>")
    return "".join(out)


def _claim_row(rec: dict[Any, Any], papers: dict[str, Citation]) -> str:
    margin, refuted = strength(rec)
    where = _where(rec, papers)
    search = " ".join([rec["id"], rec.get("statement") or "", where, rec["document"]]).lower()
    tried = rec.get("perturbations_tried", 0)
    share = f"{rec.get('perturbations_refuted', 0) / tried!r}" if tried else ""
    tightest = rec.get("tightest_margin")
    rank, scale = margin_scale(tightest)
    value = "" if not tightest or tightest.get("value") is None else repr(float(tightest["value"]))
    unexpected = not rec["as_expected"]
    return (f'<tr id="row-{_anchor(rec["id"])}" data-paper="{_e(rec["document"])}" data-outcome="{_e(rec["outcome"])}"'
            f' data-unexpected="{int(unexpected)}" data-scale="{rank}" data-margin="{value}"'
            f' data-search="{_e(search)}"'
            + (' class="unexpected"' if unexpected else "")
            + f'><td><a href="#{_anchor(rec["id"])}">{_e(rec["id"])}</a></td><td>{_e(where)}</td>'
            f'<td class="o-{_e(rec["outcome"])}">{_e(rec["outcome"])}</td><td>{_e(rec["expected"])}</td>'
            f'<td class="num" data-sort="{value}">{_e(margin)}</td><td>{_e(scale)}</td>'
            f'<td class="num" data-sort="{share}">{_e(refuted)}</td>'
            f'<td>{_e(rec.get("closest") or "-")}</td></tr>')


def header_lines(header: dict[Any, Any]) -> list[tuple[str, str]]:
    """The run's provenance as (name, text) lines, numbers formatted, a probability with its event,
    certainty and condition (never a bare float)."""
    lines = [(name, str(header[key])) for name, key in (("version", "version"), ("registry", "registry"),
                                                        ("spec set", "spec_set"), ("field", "field"))
             if header.get(key) is not None]
    if header.get("primes"):
        lines.append(("primes", ", ".join(f"{p:,}" for p in header["primes"])))
    ranks, exact, bound = header.get("ranks"), header.get("ranks_certified_exact") or 0, header.get("probability_bound")
    if not ranks:
        lines.append(("exact ranks", "none was needed by these claims"))
        return lines
    lines.append(("exact ranks", f"{ranks:,} used, {exact:,} certified exact (each meets its proven upper bound)"))
    if header.get("certainty"):
        lines.append(("certainty", str(header["certainty"])))
    if bound is None:
        lines.append(("probability", "not recorded for every rank, so none is stated"))
    elif ranks == exact:
        lines.append(("probability", "none needed: every exact rank used is certified exact"))
    else:
        lines.append(("probability", f"each of the {ranks - exact:,} ranks not certified exact is below the generic "
                      f"rank over GF(p) with probability at most {format_bound(float(bound))} (the largest of their "
                      f"bounds, over the draw of the seeded weights); the generic rank over GF(p) is the one over Q "
                      f"{PRIME_CONDITION}"))
    return lines


def html_report(records: list[dict[Any, Any]], header: dict[Any, Any], atlas: Path | None = ATLAS_PNG,
                rank_plot: bytes | None = None, papers: dict[str, Citation] | None = None) -> str:
    """The page (text) of the claim ``records`` (report.json's ``claims``) and the run's ``header``
    (its ``rank_table``, when present, is the reviewers' table of the exact ranks used); ``rank_plot``
    is the PNG of those ranks (``sweeps.claim_run.rank_plot``), None without matplotlib; ``papers``:
    document -> its ``Citation`` (``citations.registry_citations``; without it, file names)."""
    papers = papers or {}
    tally = counts(records)
    surprises = [r["id"] for r in records if not r["as_expected"]]
    documents = sorted({r["document"] for r in records})
    head = "".join(f"<dt>{_e(name)}</dt><dd>{_e(text)}</dd>" for name, text in header_lines(header))
    out = ['<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">',
           '<meta name="viewport" content="width=device-width, initial-scale=1">',
           f"<title>Verification report: {len(records)} claims</title><style>{_STYLE}</style></head><body>",
           "<h1>Verification report</h1>",
           f'<p>{len(records)} claims in {float(header.get("seconds", 0.0)):.1f} s.</p><dl class="head">{head}</dl>',
           '<h2 id="summary">Summary</h2><table id="counts"><tr><th>outcome</th><th>claims</th></tr>']
    out += [f'<tr><td>{_e(kind)}</td><td data-outcome="{_e(kind)}">{n}</td></tr>' for kind, n in tally.items()]
    out.append(f'<tr><th>all</th><th id="total">{len(records)}</th></tr></table>')
    out.append('<p id="verdict"><b>' + (f"UNEXPECTED: {_e(', '.join(surprises))}" if surprises
                                        else "Every outcome is the expected one.") + "</b></p>")
    raised = [r["id"] for r in records if raised_checks(r)]
    if raised:  # an error in the JUnit file and in verify run's exit status: the page says it too
        out.append(f'<p id="errors"><b>ERROR: a check raised, so it decided nothing, in {_e(", ".join(raised))}.'
                   '</b></p>')
    out.append('<h2>Claims</h2><p id="filters">paper <select id="f-paper"><option value="">all</option>'
               + "".join(f'<option value="{_e(d)}">{_e(papers[d].line if d in papers else d)}</option>'
                         for d in documents)
               + '</select> outcome <select id="f-outcome"><option value="">all</option>'
               + "".join(f'<option value="{_e(k)}">{_e(k)}</option>' for k in tally)
               + '</select> <label><input type="checkbox" id="f-unexp"> unexpected only</label> '
               '<label>search <input type="search" id="search" placeholder="claim id, statement or paper"></label> '
               '&middot; <span id="shown"></span> shown; every column sorts from its heading; <i>margin</i> sorts '
               'by unit, then by value (smallest: closest to failing); claims without a margin stay last</p>')
    out.append('<table id="claims"><colgroup><col style="width:20%"><col style="width:13%"><col style="width:8%">'
               '<col style="width:8%"><col style="width:7.5%"><col style="width:9%"><col style="width:6.5%"><col>'
               '</colgroup><thead><tr>' + "".join(f'<th aria-sort="none"><button type="button" class="sort">{name} '
                                                 f'\u21C5</button></th>' for name in ("claim", "paper", "outcome",
                                                                                      "expected"))
               + '<th aria-sort="none"><button type="button" id="by-margin">margin \u21C5</button></th>'
               + "".join(f'<th aria-sort="none"><button type="button" class="sort">{name} \u21C5</button></th>'
                         for name in ("unit", "refuted", "closest to failing")) + '</tr></thead><tbody>')
    out += [_claim_row(rec, papers) for rec in records]
    out.append("</tbody></table>")
    out.append("<h2 id=\"reviewers-table\">The reviewers' table: the exact ranks beside the bounds</h2>"
               + _reviewers_section(header.get("reviewers_table"))
               + "<h3>What each exact rank certifies, and its plot</h3>"
               + _rank_section(header.get("rank_table") or [], rank_plot))
    out.append('<h2 id="n-atlas">The N atlas</h2>' + _atlas_figure(atlas))
    out.append('<h2 id="per-claim">Every claim</h2><p><button type="button" class="fold" id="open-all">open all'
               '</button> <button type="button" class="fold" id="close-all">close all</button> (each opens from '
               'its row in the table, or its own anchor: report.html#claim-ID)</p>'
               + "".join(_claim_section(rec, papers) for rec in records))
    out.append(f"<script>{_SCRIPT}</script></body></html>")
    return "\n".join(out) + "\n"


def write_html(out_dir: Path, records: list[dict[Any, Any]], header: dict[Any, Any], rank_plot: bytes | None = None,
               papers: dict[str, Citation] | None = None) -> Path:
    """``report.html`` in ``out_dir``, replaced atomically (written beside ``report.write_reports``)."""
    path = out_dir / "report.html"
    write_output(path, html_report(records, header, rank_plot=rank_plot, papers=papers))
    return path
