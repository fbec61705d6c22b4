"""Drive report.html in headless Chromium: a screenshot, and the page's own script checked in the browser.

After ``verify run`` (the default test suite runs it on a small report where a Chromium is installed,
e.g. ``apt-get install chromium`` on Debian, and skips it elsewhere):

    python tools/report_screenshot.py [verify-report/report.html] [--out report.png] [--width 1280]

It writes a full-page screenshot, then loads a copy of the page with a probe script appended that
works the page as a reader does and prints what it found, one line per check:

* the "unexpected only" filter keeps exactly the rows whose outcome is unexpected, and the count
  beside the filters says how many are shown;
* the margin sort, pressed twice (ascending, descending), keeps each unit together, orders the values
  within a unit, and leaves the claims without a margin last both times;
* every other column's button (focusable, so the keyboard reaches it) orders its column both ways,
  empty cells last, and sets the heading's aria-sort;
* the search box, given a claim id in capitals, keeps exactly the rows that mention it, and says how many;
* every claim's details start collapsed (the page opens short), its anchor opens it, "open all" opens all;
* the header holds no unformatted float;
* the page is no wider than the window (the claims table fits);
* the atlas, scaled to the page, shows at its full size after its button; the rank plot is there
  (where the run used exact ranks; it needs matplotlib, the ``plot`` extra) and has the same button.

Exit status 0 when every check holds, 1 otherwise, 2 when no browser or no page is found.
Chromium's own ``--screenshot`` and ``--dump-dom`` do the work: no driver library is needed.
"""

from __future__ import annotations

import argparse
import html
import json
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

BROWSERS = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")

PROBE = r"""
<script>
(function(){
var out={}, t=document.getElementById('claims'), body=t.tBodies[0];
function rows(){return [].slice.call(body.rows);}
function visible(){return rows().filter(function(r){return r.offsetParent!==null;});}
out.rows=rows().length; out.shown_text=document.getElementById('shown').textContent;
out.visible_at_start=visible().length;
var fu=document.getElementById('f-unexp'); fu.checked=true; fu.dispatchEvent(new Event('change'));
out.unexpected_rows=rows().filter(function(r){return r.classList.contains('unexpected');}).length;
out.filtered_visible=visible().length;
out.filtered_all_unexpected=visible().every(function(r){return r.classList.contains('unexpected');});
out.filtered_shown_text=document.getElementById('shown').textContent;
fu.checked=false; fu.dispatchEvent(new Event('change'));
var b=document.getElementById('by-margin');
function order(){return rows().map(function(r){return [+r.dataset.scale, r.dataset.margin];});}
b.click(); out.ascending=order(); out.aria_ascending=b.parentNode.getAttribute('aria-sort');
b.click(); out.descending=order(); out.aria_descending=b.parentNode.getAttribute('aria-sort');
out.page_width=document.documentElement.scrollWidth; out.window_width=document.documentElement.clientWidth;
var atlas=document.querySelector('#atlas img');
if(atlas){out.atlas_natural=atlas.naturalWidth; out.atlas_scaled=atlas.clientWidth;
 document.getElementById('atlas-size').click(); out.atlas_full=atlas.clientWidth;}
var plot=document.querySelector('#rank-plot img'); out.rank_plot=plot?plot.naturalWidth:0;
if(plot){out.plot_scaled=plot.clientWidth; document.getElementById('plot-size').click(); out.plot_full=plot.clientWidth;}
out.ranks=!!document.getElementById('ranks');
out.sorts=[].map.call(t.querySelectorAll('thead button.sort'),function(s){var i=s.parentNode.cellIndex;
 function keys(){return rows().map(function(r){var c=r.cells[i];return c.hasAttribute('data-sort')?c.dataset.sort:c.textContent.trim();});}
 s.focus(); var focused=document.activeElement===s; s.click(); var up=keys(), a=s.parentNode.getAttribute('aria-sort');
 s.click(); return {name:s.textContent, focused:focused, up:up, down:keys(), aria_up:a, aria_down:s.parentNode.getAttribute('aria-sort')};});
var fs=document.getElementById('search'), first=rows()[0].cells[0].textContent.trim();
fs.value=first.toUpperCase(); fs.dispatchEvent(new Event('input'));
out.search_term=first; out.search_visible=visible().map(function(r){return r.cells[0].textContent.trim();});
out.search_expected=rows().filter(function(r){return r.dataset.search.indexOf(first.toLowerCase())>=0;}).length;
out.search_shown_text=document.getElementById('shown').textContent;
fs.value='no claim says this: zq9'; fs.dispatchEvent(new Event('input')); out.search_none=visible().length;
fs.value=''; fs.dispatchEvent(new Event('input'));
var details=[].slice.call(document.querySelectorAll('details.claim'));
out.details=details.length; out.open_at_start=details.filter(function(d){return d.open;}).length;
out.height_closed=document.documentElement.scrollHeight;
var link=rows()[0].cells[0].querySelector('a'); location.hash=link.getAttribute('href');
window.dispatchEvent(new HashChangeEvent('hashchange'));
var target=document.getElementById(link.getAttribute('href').slice(1)); out.anchor_opens=!!(target&&target.open);
document.getElementById('open-all').click(); out.height_open=document.documentElement.scrollHeight;
out.open_after=details.filter(function(d){return d.open;}).length;
out.header=[].map.call(document.querySelectorAll('dl.head dd'),function(d){return d.textContent;}).join(' | ');
var pre=document.createElement('pre'); pre.id='probe-result'; pre.textContent=JSON.stringify(out);
document.body.appendChild(pre);
})();
</script>
"""  # noqa: E501 (JavaScript the browser runs as written, one statement group a line)


def browser(given: str | None) -> str | None:
    return given if given else next((found for name in BROWSERS if (found := shutil.which(name))), None)


def run(chromium: str, args: list[str]) -> subprocess.CompletedProcess:
    return subprocess.run([chromium, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", *args],
                          capture_output=True, text=True, timeout=120)


def sorted_within_units(order: list, descending: bool) -> bool:
    """Units in ascending rank, the values of each unit monotone, no-margin rows (empty) last."""
    units = [unit for unit, _ in order]
    if units != sorted(units):
        return False
    for unit in set(units):
        values = [float(v) for u, v in order if u == unit and v != ""]
        if values != sorted(values, reverse=descending):
            return False
    return True


def _ordered(keys: list[str], descending: bool) -> bool:
    """The column's keys in order, numbers as numbers, empty cells last both ways (the page's own rule)."""
    filled = [k for k in keys if k != ""]
    if keys != filled + [""] * (len(keys) - len(filled)):
        return False
    try:
        values = [float(k) for k in filled]
    except ValueError:
        values = filled
    return values == sorted(values, reverse=descending) if all(isinstance(v, float) for v in values) \
        else [v.lower() for v in values] == sorted((v.lower() for v in values), reverse=descending) or \
        values == sorted(values, reverse=descending)


def sort_checks(found: dict) -> list[tuple[str, bool, str]]:
    """Each column's button: reached by the keyboard (focusable), orders its column both ways."""
    return [(f"sort: {s['name'].strip()} orders its column both ways from a focusable button",
             s["focused"] and _ordered(s["up"], False) and _ordered(s["down"], True)
             and (s["aria_up"], s["aria_down"]) == ("ascending", "descending"), f"{s['up'][:3]} / {s['down'][:3]}")
            for s in found["sorts"]]


def checks(found: dict) -> list[tuple[str, bool, str]]:
    full = found.get("atlas_full")
    return sort_checks(found) + [
        ("sort: every column but the margin has a button", len(found["sorts"]) == 7, f"{len(found['sorts'])} buttons"),
        ("search: a claim id (any case) keeps the rows that mention it, and the count says so",
         found["search_term"] in found["search_visible"] and len(found["search_visible"]) == found["search_expected"]
         and found["search_shown_text"] == str(found["search_expected"]) and found["search_none"] == 0,
         f"{found['search_term']!r}: {len(found['search_visible'])} shown"),
        ("details: the page opens short, every claim collapsed, its anchor opens it",
         found["details"] == found["rows"] and found["open_at_start"] == 0 and found["anchor_opens"]
         and found["open_after"] == found["details"] and found["height_closed"] < found["height_open"],
         f"{found['height_closed']} px closed, {found['height_open']} px open"),
        ("header: no unformatted float", not re.search(r"\d\.\d{7,}", found["header"]), found["header"][:160]),
        ("filter: unexpected only keeps exactly the unexpected rows",
         found["filtered_visible"] == found["unexpected_rows"] and found["filtered_all_unexpected"]
         and found["filtered_shown_text"] == str(found["unexpected_rows"]),
         f"{found['filtered_visible']} shown ('{found['filtered_shown_text']}'), "
         f"{found['unexpected_rows']} unexpected"),
        ("filter: every row shown at the start", found["visible_at_start"] == found["rows"]
         and found["shown_text"] == str(found["rows"]), f"{found['visible_at_start']} of {found['rows']}"),
        ("sort: ascending within each unit, no margin last", sorted_within_units(found["ascending"], False)
         and found["aria_ascending"] == "ascending", str(found["ascending"][:6])),
        ("sort: descending within each unit, no margin last", sorted_within_units(found["descending"], True)
         and found["aria_descending"] == "descending", str(found["descending"][:6])),
        ("layout: the page is no wider than the window", found["page_width"] <= found["window_width"],
         f"{found['page_width']} px in {found['window_width']} px"),
        ("atlas: full size after its button", full is not None and full == found["atlas_natural"],
         f"{found.get('atlas_scaled')} px scaled, {full} px after the button, {found.get('atlas_natural')} px natural"),
        ("rank plot: drawn where the run used exact ranks, full size after its button",
         (found["rank_plot"] > 0 and found.get("plot_full") == found["rank_plot"]) or not found["ranks"],
         f"{found.get('plot_scaled')} px scaled, {found.get('plot_full')} px after the button, {found['rank_plot']} px"
         f" natural" if found["ranks"] else "no exact rank in this run"),
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("page", nargs="?", default="verify-report/report.html")
    parser.add_argument("--out", default="report.png", help="the screenshot (default report.png)")
    parser.add_argument("--width", type=int, default=1280, help="window width in px (default 1280)")
    parser.add_argument("--height", type=int, default=6000, help="screenshot height in px (default 6000)")
    parser.add_argument("--browser", default=None, help="the Chromium binary (default: found on PATH)")
    args = parser.parse_args(argv)
    page = Path(args.page)
    chromium = browser(args.browser)
    if not page.is_file():
        print(f"no page at {page}; run 'verify run' first or give the path of a report.html", file=sys.stderr)
        return 2
    if chromium is None:
        print(f"no Chromium found ({', '.join(BROWSERS)}); install one or give --browser", file=sys.stderr)
        return 2
    shot = run(chromium, [f"--window-size={args.width},{args.height}", f"--screenshot={Path(args.out).resolve()}",
                          page.resolve().as_uri()])
    print(f"screenshot: {args.out}" if Path(args.out).is_file() else f"no screenshot: {shot.stderr[-500:]}")
    with tempfile.TemporaryDirectory() as folder:
        probed = Path(folder) / "probed.html"
        probed.write_text(page.read_text(encoding="utf-8").replace("</body>", PROBE + "</body>"), encoding="utf-8")
        dom = run(chromium, [f"--window-size={args.width},1000", "--virtual-time-budget=5000", "--dump-dom",
                             probed.as_uri()])
    match = re.search(r'<pre id="probe-result">(.*?)</pre>', dom.stdout, flags=re.S)
    if not match:
        print(f"the probe did not run: {dom.stderr[-800:]}", file=sys.stderr)
        return 1
    found = json.loads(html.unescape(match.group(1)))
    results = checks(found)
    for name, ok, detail in results:
        print(f"{'ok  ' if ok else 'FAIL'} {name}: {detail}")
    return 0 if all(ok for _, ok, _ in results) else 1


if __name__ == "__main__":
    sys.exit(main())
