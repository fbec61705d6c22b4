"""The reviewers' table as CSV (``verify table --csv``; format ``seprank-verify/table-row``, docs/formats.md).

Numeric columns hold numbers only; each bound B has three columns: ``B log3`` (its log3, empty iff it has none),
``B holds`` (whether the exact rank obeys it, empty iff it does not apply) and ``B state``, the one reason a cell is
empty: ``value`` (log3 holds the bound), ``nonpositive`` (the bound is <= 0 on the sep scale, so has no log3) or
``not applicable`` (outside the bound's regime or condition) (issue 47, item 3: an empty log3 beside ``holds =
true`` meant a bound of 0, an empty pair "does not apply")."""

from __future__ import annotations

import csv
import io
from typing import TYPE_CHECKING, Any

from ..schema import csv_stamp
from ..sweeps.provenance import certainty_label

if TYPE_CHECKING:
    from ..sweeps.table import BoundColumn

__all__ = ["to_csv", "FIXED"]

#: The columns before the bounds' (the real network's three only with --real), and after them the format's two.
FIXED = ["depth", "width", "heads", "sep", "log3_sep", "regime", "certified_exact", "probability_bound", "seed",
         "primes", "version", "certainty", "registry"]
REAL = ["real_rank_numeric", "real_gap_decades", "real_at_grid_cap"]


def _number(value) -> str:
    return "" if value is None else repr(value)


def _bool(value) -> str:
    return "" if value is None else str(bool(value)).lower()


def to_csv(rows: list[dict[str, Any]], columns: list[BoundColumn], registry: str = "") -> str:
    """The table as CSV (module doc); ``columns``: ``sweeps.table.bound_columns``, in the markdown's order."""
    from ..sweeps.table import _grid

    _, _, used = _grid(rows, columns)
    real = any("real_rank" in r for r in rows)
    header = FIXED + (REAL if real else [])
    for col in used:
        header += [f"{col.label} log3", f"{col.label} holds", f"{col.label} state"]
    stamp = csv_stamp("table-row")
    header += list(stamp)
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(header)
    for r in rows:
        line = [r["depth"], r["width"], r["heads"], r["sep_rank"], _number(r["log3_sep"]), r["regime"],
                _bool(r.get("certified_exact")), _number(r.get("probability_bound")),
                "" if r.get("seed") is None else r["seed"], " ".join(map(str, r.get("primes") or [])),
                r.get("version") or "",
                r.get("certainty") or certainty_label(r.get("certified_lower_bound"), r.get("probability_bound")) or "",
                registry]
        if real:
            extra = r.get("real") or {}
            line += [r.get("real_rank", ""), _number(extra.get("gap_decades")),
                     "" if "at_cap" not in extra else _bool(extra["at_cap"])]
        by_label = {b["bound"]: b for b in r["bounds"]}
        for col in used:
            bound = by_label.get(col.label)
            if bound is None:
                line += ["", "", "not applicable"]
            else:
                line += [_number(bound["log3_value"]), _bool(bound["holds"]),
                         "nonpositive" if bound["log3_value"] is None else "value"]
        writer.writerow(line + list(stamp.values()))
    return buf.getvalue()
