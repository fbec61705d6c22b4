"""``verify results --format json|csv``: the results store's rows as an export (formats ``seprank-verify/results``
and ``seprank-verify/results-row``, docs/formats.md), one meaning per field (issue 47, item 3):

* ``requested_field`` is the field the task asked for (``auto``, ``gf:p``, ``qq``); the primes actually used are in
  ``primes`` (the store row's ``field`` disagreed with them under one name);
* ``primes`` and ``value.primes`` are written alike (a JSON list; in the CSV space-separated integers);
* a probe step's own probability (``value.bounds.probability``, eq. 7.4 with H at the positions: Lemma P's
  bound on that bound being below the generic one) is renamed ``at_positions_probability``: it is not the
  probability of the row's rank, which a bare ``probability`` beside ``certainty`` read as;
* ``certainty`` is what the stored value certifies on its own: a probe step whose rank meets its counting cap or
  eq. 7.4 with certified caps (bounds proven for every weight) is ``certified`` with probability 0 (the probe
  prints "certified exact" for it); any other step stays a certified lower bound (its equality with the generic
  rank rests on the probe's limit or Lemma P, which the probe's own export states);
* booleans are ``true``/``false`` in the CSV, as in every other CSV of the toolkit.
"""

from __future__ import annotations

import csv
import io
import json
from typing import Any

from ..schema import csv_stamp, stamp

__all__ = ["results_json", "results_csv", "export_row"]


def _probe_step_certified(row: dict[str, Any]) -> bool:
    """Whether a stored probe step's rank meets a bound proven for every weight: its counting cap (closed form from
    its parameters) or eq. 7.4 with certified caps (stored beside it)."""
    from ..rank.token.caps import count_caps

    params, value = row.get("params") or {}, row.get("value") or {}
    if params.get("continuous") or value.get("rank") is None or not params.get("vocab") or not params.get("tokens"):
        return False
    cap = count_caps(params["vocab"], params["tokens"], bool(params.get("positional_rank"))).cap
    certified = (value.get("bounds") or {}).get("certified")
    return value["rank"] in (cap, certified)


def export_row(row: dict[str, Any]) -> dict[str, Any]:
    """One store row as the export writes it (module doc)."""
    value = dict(row["value"])
    older = value.pop("valid_for_tokens", None)  # stored by 0.2.0 and older: ">= 6" -> 6
    if isinstance(older, str) and older.startswith(">= ") and "valid_from_tokens" not in value:
        value["valid_from_tokens"] = int(older[3:])
    if isinstance(value.get("bounds"), dict) and "probability" in value["bounds"]:
        bounds = dict(value["bounds"])
        bounds["at_positions_probability"] = bounds.pop("probability")
        value["bounds"] = bounds
    out = {"kind": row["kind"], "spec": row["spec"], "method": row["method"], "requested_field": row["field"],
           "seed": row["seed"], "params": row["params"], "version": row["version"], "value": value,
           "seconds": row["seconds"], "created": row["created"], "certainty": row.get("certainty"),
           "probability_bound": row.get("probability_bound"), "primes": row.get("primes")}
    if row["kind"] == "probe_step" and out["certainty"] == "certified lower bound" and _probe_step_certified(row):
        out["certainty"], out["probability_bound"] = "certified", 0.0
    return out


def results_json(path: str, rows: list[dict[str, Any]]) -> str:
    return json.dumps(stamp({"store": path, "results": [export_row(r) for r in rows]}, "results")) + "\n"


def _cell(value):
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, (dict, list)):
        return json.dumps(value)
    return value


def results_csv(rows: list[dict[str, Any]]) -> str:
    """Flat CSV: one line per result; spec fields, params and value fields become columns (in the order they first
    occur), empty where a row has no such key."""
    flat = []
    for row in map(export_row, rows):
        value = row["value"]
        line = {"kind": row["kind"], **{f"spec.{k}": _cell(v) for k, v in row["spec"].items()},
                "method": row["method"], "requested_field": row["requested_field"], "seed": row["seed"],
                "certainty": row["certainty"], "probability_bound": row["probability_bound"],
                "primes": " ".join(map(str, row["primes"] or [])),
                **{f"param.{k}": _cell(v) for k, v in row["params"].items()},
                **{f"value.{k}": (" ".join(map(str, v)) if k == "primes" and isinstance(v, list) else _cell(v))
                   for k, v in value.items()},
                "version": row["version"], "seconds": round(row["seconds"], 3), "created": row["created"]}
        flat.append(line)
    columns: list[str] = []
    for line in flat:
        columns.extend(c for c in line if c not in columns)
    columns += list(csv_stamp("results-row"))
    buf = io.StringIO()
    writer = csv.DictWriter(buf, fieldnames=columns, lineterminator="\n")
    writer.writeheader()
    writer.writerows({**line, **csv_stamp("results-row")} for line in flat)
    return buf.getvalue()
