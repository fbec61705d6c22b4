"""``report.html``: the claims run as one self-contained page for reviewers (issue 33).

One file, no external resource (styles, script and figures are inline; a figure is inline SVG or a
``data:`` PNG), so it opens offline and prints whole: the summary counts; a table of every claim
that filters by paper and outcome and sorts by margin (a few lines of inline script; without
script the table is still complete); one section per claim with the passage quoted, the readings,
the checks with their evidence, the corrected statement and what is left out; the reviewers'
table of the exact ranks the bound checks used, with its plot; the N-atlas figure of
``results/n_atlas.png`` where the checkout holds it (a note otherwise).

Built with ``html.escape`` on every text taken from a record (the page is generated, not
templated: no template library is a dependency here, and the page is one loop over records).
Modelled on coverage.py's HTML report: an index with sortable columns, one section per item.
"""

from __future__ import annotations

import base64
import math
from functools import lru_cache
from html import escape
from pathlib import Path

from ..files import write_output
from .run_report import counts, strength

__all__ = ["html_report", "write_html", "ATLAS_PNG", "rank_table_svg"]

#: The N atlas (``python benchmarks/atlas.py``), found in the checkout this engine runs from.
ATLAS_PNG = Path(__file__).resolve().parents[2] / "results" / "n_atlas.png"

_STYLE = """
body{font:14px/1.45 system-ui,sans-serif;margin:1.5em auto;max-width:72em;padding:0 1em;color:#111}
table{border-collapse:collapse;margin:.6em 0}td,th{border:1px solid #bbb;padding:.2em .45em;vertical-align:top}
th{background:#eee}th.sort{cursor:pointer}.unexpected{background:#fdd}.o-verified{color:#060}
.o-erratum{color:#a40}.o-violated{color:#b00;font-weight:bold}.o-gap,.o-ambiguous{color:#627}
section.claim{border-top:1px solid #999;margin-top:1.2em}blockquote{margin:.4em 1em;color:#333;
border-left:3px solid #bbb;padding-left:.6em}code,.ev{font-family:ui-monospace,monospace;font-size:12px;
white-space:pre-wrap;word-break:break-word}.muted{color:#666}figure{margin:1em 0}img{max-width:100%}
@media print{#filters,th.sort::after{display:none}section.claim{break-inside:avoid-page}
tr.hidden{display:table-row!important}a{color:inherit;text-decoration:none}}
tr.hidden{display:none}
"""

_SCRIPT = """
(function(){
var t=document.getElementById('claims'),rows=[].slice.call(t.tBodies[0].rows);
var fp=document.getElementById('f-paper'),fo=document.getElementById('f-outcome'),fu=document.getElementById('f-unexp');
function apply(){rows.forEach(function(r){var ok=(!fp.value||r.dataset.paper===fp.value)&&
(!fo.value||r.dataset.outcome===fo.value)&&(!fu.checked||r.dataset.asExpected==='false');
r.classList.toggle('hidden',!ok);});
document.getElementById('shown').textContent=rows.filter(function(r){return !r.classList.contains('hidden');}).length;}
[fp,fo,fu].forEach(function(e){e.addEventListener('change',apply);});
var up=true;document.getElementById('by-margin').addEventListener('click',function(){
rows.sort(function(a,b){var x=parseFloat(a.dataset.margin),y=parseFloat(b.dataset.margin);
x=isNaN(x)?Infinity:x;y=isNaN(y)?Infinity:y;return up?x-y:y-x;});up=!up;
rows.forEach(function(r){t.tBodies[0].appendChild(r);});});apply();})();
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
        return ('<p class="muted">The N-atlas figure is not in this installation (it lives in the checkout\'s '
                '<code>results/n_atlas.png</code>; <code>python benchmarks/atlas.py</code> regenerates it).</p>')
    return (f'<figure><img alt="N atlas: exact separation rank against sequence length N" '
            f'src="{_png_data(str(atlas), atlas.stat().st_mtime)}"><figcaption>The N atlas '
            f'(results/n_atlas.png): exact token-input ranks against N per (depth, vocabulary rank, heads); '
            f'docs/conjecture_n.md reads it.</figcaption></figure>')


def rank_table_svg(rows: list[dict], width: int = 560, height: int = 300) -> str:
    """Inline SVG: log3 of each exact rank against depth, one polyline per (width, heads) of the
    plain networks (the reviewers' table's plot, drawn without matplotlib)."""
    points = [(r["depth"], math.log(r["rank"], 3), (r["width"], r["heads"])) for r in rows
              if r.get("rank") and not r.get("residual")]
    if not points:
        return ""
    pad, top_y = 40, max(y for _, y, _ in points) or 1.0
    depths = sorted({x for x, _, _ in points})
    span = max(depths[-1] - depths[0], 1)

    def xy(x, y):
        return (pad + (x - depths[0]) / span * (width - 2 * pad), height - pad - y / top_y * (height - 2 * pad))

    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" role="img" '
             f'aria-label="log3 separation rank against depth">',
             f'<line x1="{pad}" y1="{height - pad}" x2="{width - pad}" y2="{height - pad}" stroke="#000"/>',
             f'<line x1="{pad}" y1="{pad}" x2="{pad}" y2="{height - pad}" stroke="#000"/>',
             f'<text x="{width / 2}" y="{height - 8}" text-anchor="middle" font-size="12">depth L</text>',
             f'<text x="12" y="{height / 2}" font-size="12" transform="rotate(-90 12 {height / 2})" '
             f'text-anchor="middle">log3 sep</text>']
    for d in depths:
        x, _ = xy(d, 0)
        parts.append(f'<text x="{x:.1f}" y="{height - pad + 14}" text-anchor="middle" font-size="11">{d}</text>')
    parts.append(f'<text x="{pad - 4}" y="{pad + 4}" text-anchor="end" font-size="11">{top_y:.1f}</text>')
    series: dict = {}
    for x, y, key in points:
        series.setdefault(key, []).append((x, y))
    for i, (key, pts) in enumerate(sorted(series.items())):
        colour = f"hsl({(i * 47) % 360},60%,40%)"
        coords = " ".join("{:.1f},{:.1f}".format(*xy(x, y)) for x, y in sorted(pts))
        parts.append(f'<polyline fill="none" stroke="{colour}" points="{coords}"><title>width {key[0]}, '
                     f'heads {key[1]}</title></polyline>')
        lx, ly = xy(*sorted(pts)[-1])
        parts.append(f'<text x="{lx + 3:.1f}" y="{ly:.1f}" font-size="10" fill="{colour}">d{key[0]}h{key[1]}</text>')
    return "".join(parts) + "</svg>"


def _rank_section(rows: list[dict]) -> str:
    if not rows:
        return '<p class="muted">No exact rank was needed by the claims of this run.</p>'
    out = ["<table><thead><tr><th>depth</th><th>width</th><th>heads</th><th>residual</th><th>exact rank</th>"
           "<th>log3</th><th>certainty</th><th>probability bound</th><th>primes</th></tr></thead><tbody>"]
    for r in rows:
        log3 = f"{math.log(r['rank'], 3):.3f}" if r.get("rank") else ""
        out.append(f"<tr><td>{r['depth']}</td><td>{r['width']}</td><td>{r['heads']}</td><td>{_e(r['residual'])}</td>"
                   f"<td>{_e(r['rank'])}</td><td>{log3}</td><td>{_e(r.get('certainty'))}</td>"
                   f"<td>{_e(r.get('probability_bound'))}</td><td>{_e(' '.join(map(str, r.get('primes') or [])))}"
                   f"</td></tr>")
    return "".join(out) + "</tbody></table>" + rank_table_svg(rows)


def _reviewers_section(grid: dict | None) -> str:
    """The reviewers' table as ``verify table`` prints it (cells from ``sweeps.claim_run.reviewers_grid``)."""
    if not grid:
        return ""
    out = ['<table id="reviewers"><thead><tr>' + "".join(f"<th>{_e(c)}</th>" for c in grid["columns"])
           + "</tr></thead><tbody>"]
    out += ["<tr>" + "".join(f"<td>{_e(cell)}</td>" for cell in row) + "</tr>" for row in grid["rows"]]
    out.append("</tbody></table><p class=\"muted\">Bounds on the log3 scale; \u2717 marks a bound the exact rank "
               "violates; \u00b7 not applicable (outside the bound's regime or condition).</p><ul>")
    out += [f"<li>{_e(note)}</li>" for note in grid.get("notes", [])]
    return "".join(out) + "</ul>"


def _checks(title: str, checks: list[dict]) -> str:
    if not checks:
        return ""
    out = [f"<h4>{_e(title)}</h4><table><tr><th>check</th><th>status</th><th>evidence</th></tr>"]
    out += [f'<tr><td>{_e(c["name"])}</td><td>{_e(c["status"])}</td><td class="ev">{_e(c["evidence"])}'
            + (f'<br>counterexample: <code>{_e(c["counterexample"])}</code>' if c.get("counterexample") else "")
            + "</td></tr>" for c in checks]
    return "".join(out) + "</table>"


def _claim_section(rec: dict) -> str:
    margin, refuted = strength(rec)
    expected = "" if rec["as_expected"] else f' <b>(expected {_e(rec["expected"])})</b>'
    out = [f'<section class="claim" id="{_anchor(rec["id"])}"><h3>{_e(rec["id"])}</h3>',
           f'<p><span class="o-{_e(rec["outcome"])}">{_e(rec["outcome"])}</span>{expected} &middot; '
           f'{_e(rec["source"])} &middot; passage <code>{_e(rec["passage"])}</code> &middot; margin {_e(margin)}'
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
               f"table</a></p></section>")
    return "".join(out)


def html_report(records: list[dict], header: dict, atlas: Path | None = ATLAS_PNG) -> str:
    """The page (text) of the claim ``records`` (report.json's ``claims``) and the run's ``header``
    (its ``rank_table``, when present, is the reviewers' table of the exact ranks used)."""
    tally = counts(records)
    surprises = [r["id"] for r in records if not r["as_expected"]]
    papers = sorted({r["document"] for r in records})
    head = ", ".join(f"{_e(k)} {_e(header[k])}" for k in ("version", "registry", "spec_set", "field", "certainty",
                                                          "probability_bound") if header.get(k) is not None)
    out = ['<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">',
           '<meta name="viewport" content="width=device-width, initial-scale=1">',
           f"<title>Verification report: {len(records)} claims</title><style>{_STYLE}</style></head><body>",
           "<h1>Verification report</h1>",
           f'<p>{len(records)} claims in {float(header.get("seconds", 0.0)):.1f} s; {head}.</p>',
           '<h2 id="summary">Summary</h2><table id="counts"><tr><th>outcome</th><th>claims</th></tr>']
    out += [f'<tr><td>{_e(kind)}</td><td data-outcome="{_e(kind)}">{n}</td></tr>' for kind, n in tally.items()]
    out.append(f'<tr><th>all</th><th id="total">{len(records)}</th></tr></table>')
    out.append("<p><b>" + (f"UNEXPECTED: {_e(', '.join(surprises))}" if surprises
                           else "Every outcome is the expected one.") + "</b></p>")
    out.append('<h2>Claims</h2><p id="filters">paper <select id="f-paper"><option value="">all</option>'
               + "".join(f'<option value="{_e(p)}">{_e(p)}</option>' for p in papers)
               + '</select> outcome <select id="f-outcome"><option value="">all</option>'
               + "".join(f'<option value="{_e(k)}">{_e(k)}</option>' for k in tally)
               + '</select> <label><input type="checkbox" id="f-unexp"> unexpected only</label> &middot; '
               '<span id="shown"></span> shown; click <i>margin</i> to sort (smallest margin: closest to failing)</p>')
    out.append('<table id="claims"><thead><tr><th>claim</th><th>paper</th><th>outcome</th><th>expected</th>'
               '<th class="sort" id="by-margin">margin &#x21C5;</th><th>refuted</th><th>closest to failing</th>'
               "</tr></thead><tbody>")
    for rec in records:
        margin, refuted = strength(rec)
        value = (rec.get("tightest_margin") or {}).get("value")
        out.append(f'<tr id="row-{_anchor(rec["id"])}" data-paper="{_e(rec["document"])}" '
                   f'data-outcome="{_e(rec["outcome"])}" data-as-expected="{str(bool(rec["as_expected"])).lower()}" '
                   f'data-margin="{"" if value is None else repr(float(value))}"'
                   + ("" if rec["as_expected"] else ' class="unexpected"')
                   + f'><td><a href="#{_anchor(rec["id"])}">{_e(rec["id"])}</a></td><td>{_e(rec["document"])}</td>'
                   f'<td class="o-{_e(rec["outcome"])}">{_e(rec["outcome"])}</td><td>{_e(rec["expected"])}</td>'
                   f'<td>{_e(margin)}</td><td>{_e(refuted)}</td><td>{_e(rec.get("closest") or "-")}</td></tr>')
    out.append("</tbody></table>")
    out.append("<h2 id=\"reviewers-table\">The reviewers' table: the exact ranks beside the bounds</h2>"
               + _reviewers_section(header.get("reviewers_table"))
               + "<h3>What each exact rank certifies, and its plot</h3>" + _rank_section(header.get("rank_table") or []))
    out.append('<h2 id="n-atlas">The N atlas</h2>' + _atlas_figure(atlas))
    out.append('<h2 id="per-claim">Every claim</h2>' + "".join(_claim_section(rec) for rec in records))
    out.append(f"<script>{_SCRIPT}</script></body></html>")
    return "\n".join(out) + "\n"


def write_html(out_dir: Path, records: list[dict], header: dict) -> Path:
    """``report.html`` in ``out_dir``, replaced atomically (written beside ``report.write_reports``)."""
    path = out_dir / "report.html"
    write_output(path, html_report(records, header))
    return path
