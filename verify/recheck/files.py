"""Reading each export kind directly (json, csv, sqlite3 of the standard library) and handing its values to
the checks.  The formats are those of docs/commands.md, docs/store.md, docs/certificates.md,
docs/conjecture_n.md and issue 39; no engine loader is used.
"""

from __future__ import annotations

import csv

from . import arith, blocks, formulas, reading, shapes, token_files
from .certificate import FORMAT, check_certificate
from .core import BadInput, Recheck
from .sep import check_sep_row
from .tokens import Cell, check_token_rank

__all__ = ["recheck_path", "detect"]

SQLITE_MAGIC = b"SQLite format 3\x00"


def detect(path: str) -> str:
    """The export kind of ``path``: store, certificate, probe, table-json, report, atlas, cells, table-csv, reach.

    Read through ``reading`` (bounded, regular files only; issue 46 item 4)."""
    if reading.head(path) == SQLITE_MAGIC:
        return "store"
    return _detect_text(path, reading.text(path))[0]


def _detect_text(path: str, text: str):
    """(kind, the parsed JSON object or None for a CSV table)."""
    stripped = text.lstrip()
    if not stripped:
        raise BadInput(f"{path} is empty; pass an export of verify (JSON, CSV or a store)")
    if stripped[0] in "{[":
        data = reading.json_object(path, text)
        _version(path, [data.get("schema_version")])
        if data.get("format") == FORMAT:
            return "certificate", data
        if "ranks" in data and "mode" in data:
            return "probe", data
        if isinstance(data.get("rows"), list):
            return "table-json", data
        if isinstance(data.get("header"), dict) and "rank_table" in data["header"]:
            return "report", data
        raise BadInput(f"{path} is JSON but no export recheck reads (a probe-n --json, table --json, report.json "
                       f"or certificate); pass one of those")
    try:
        header = next(csv.reader([stripped.splitlines()[0]]))
    except csv.Error as exc:
        raise BadInput(f"{path} line 1: {exc}; pass an export of verify") from None
    columns = set(header)
    for kind, need in (("atlas", {"vocab_r", "ranks", "ranks_labels"}),
                       ("cells", {"counting_floor", "n_reached", "bound"}),
                       ("table-csv", {"depth", "width", "heads", "sep", "certified_exact"}),
                       ("reach", {"depth", "width", "heads", "rank", "upper_bound", "status", "primes"})):
        if need <= columns:
            return kind, None
    raise BadInput(f"{path} is not an export recheck reads (neither a JSON object nor a CSV table whose first line "
                   f"names the known columns); pass a probe-n/table JSON, report.json, a certificate, a store or a "
                   f"results/*.csv table")


#: The format versions this recheck reads (docs/formats.md: version 1 is the unversioned format before it, 2 the
#: format with ``schema`` and ``schema_version``); any other is refused, one line, exit 2.
KNOWN_VERSIONS = (None, 1, 2)


def _version(path: str, values) -> None:
    """Refuse a ``schema_version`` the recheck does not know (issue 46 item 2; contract with the exports)."""
    for value in values:
        version = value
        if isinstance(value, str):
            text = value.strip()
            version = None if not text else (int(text) if text.isdigit() and len(text) < 10 else value)
        if isinstance(version, bool) or version not in KNOWN_VERSIONS:
            shown = repr(value) if len(repr(value)) <= 40 else repr(value)[:37] + "..."
            raise BadInput(f"{path} is of format version {shown}, which this recheck does not read (versions 1 "
                           f"and 2); recheck it with the seprank-verify that wrote it")


def recheck_path(rc: Recheck, path: str) -> str:
    if reading.head(path) == SQLITE_MAGIC:
        kind, data = "store", None
    else:
        text = reading.text(path)
        kind, data = _detect_text(path, text)
        if data is None:
            data = reading.csv_rows(path, text)
            _version(path, {row.get("schema_version") for row in data})
        SHAPES[kind](path, data)  # every field read has its type and range before any check runs
    try:
        if kind == "store":
            _store(rc, path)
        elif kind == "certificate":
            check_certificate(rc, path, data)
        elif kind == "probe":
            token_files.probe(rc, path, data)
        else:
            {"table-json": _table_json, "report": _report, "atlas": token_files.atlas, "cells": token_files.cells,
             "table-csv": _table_csv, "reach": _reach}[kind](rc, path, data)
    except (KeyError, TypeError, ValueError, IndexError, AttributeError, ArithmeticError, RecursionError) as exc:
        if isinstance(exc, BadInput):
            raise
        raise BadInput(f"{path} looks like a {kind} export but a field is missing or malformed ({type(exc).__name__}: "
                       f"{exc}); pass the file as verify wrote it") from exc
    rc.files.append((path, kind))
    return kind


SHAPES = {"certificate": shapes.certificate, "probe": shapes.probe, "table-json": shapes.table_json,
          "report": shapes.report, "atlas": shapes.atlas_rows, "cells": shapes.cells_rows,
          "table-csv": shapes.table_csv_rows, "reach": shapes.reach_rows}


# ----------------------------------------------------------------------------------------------- sep rows

def _table_json(rc: Recheck, path, data) -> None:
    for i, row in enumerate(data["rows"]):
        bounds = [(b["bound"], b["kind"], b.get("log3_value"), b.get("holds"), b.get("scale"))
                  for b in row.get("bounds") or ()]
        check_sep_row(rc, f"{path} row {i + 1}", {
            "depth": row["depth"], "width": row["width"], "heads": row["heads"], "attn_dim": row.get("attn_dim"),
            "rank": row["sep_rank"], "certified_exact": row.get("certified_exact"),
            "upper_bound": row.get("upper_bound"), "probability_bound": row.get("probability_bound"),
            "seed": row.get("seed", 0), "tokens": row.get("valid_from_tokens"), "certainty": row.get("certainty"),
            "log3": row.get("log3_sep"), "regime": row.get("regime"), "bounds": bounds})


def _bool(text: str):
    return {"true": True, "false": False, "": None}[text.strip().lower()]


_int = token_files.int_or_none


def _table_csv(rc: Recheck, path, rows) -> None:
    for i, row in enumerate(rows):
        bounds = []
        for name in row:
            if name.endswith(" log3") and row[name]:
                bound = name[:-len(" log3")]
                kind = "lower" if "(lower)" in bound or "lower" in bound.split(":")[-1] else "upper"
                holds = row.get(f"{bound} holds", "")
                bounds.append((bound, kind, float(row[name]), _bool(holds) if holds else None))
        check_sep_row(rc, f"{path} row {i + 1}", {
            "depth": int(row["depth"]), "width": int(row["width"]), "heads": int(row["heads"]),
            "rank": int(row["sep"]), "certified_exact": _bool(row["certified_exact"]),
            "probability_bound": float(row["probability_bound"]) if row.get("probability_bound") else None,
            "seed": int(row.get("seed") or 0), "certainty": row.get("certainty"),
            "log3": float(row["log3_sep"]) if row.get("log3_sep") else None, "regime": row.get("regime"),
            "bounds": bounds})


def _report(rc: Recheck, path, data) -> None:
    header = data["header"]
    table = header["rank_table"]
    for i, row in enumerate(table):
        check_sep_row(rc, f"{path} rank_table[{i}]", {
            "depth": row["depth"], "width": row["width"], "heads": row["heads"], "attn_dim": row.get("attn_dim"),
            "residual": row.get("residual", False), "rank": row["rank"],
            "certified_exact": row.get("certified_exact"), "probability_bound": row.get("probability_bound"),
            "seed": row.get("seed", 0), "certainty": row.get("certainty")})
        if header.get("primes") is not None and row.get("primes") is not None:
            rc.check(f"{path} rank_table[{i}]", f"primes {row['primes']}", set(row["primes"]) <= set(header["primes"]),
                     "among the header's primes", f"not among the header's primes {header['primes']}")
    where = f"{path} header"
    exact = sum(1 for row in table if row.get("certified_exact"))
    if "ranks" in header:
        rc.check(where, f"ranks {header['ranks']}", header["ranks"] == len(table), "the rank_table's length",
                 f"the rank_table has {len(table)} rows")
    if "ranks_certified_exact" in header:
        rc.check(where, f"ranks_certified_exact {header['ranks_certified_exact']}",
                 header["ranks_certified_exact"] == exact, "the rank_table's certified rows",
                 f"the rank_table has {exact} certified exact rows")
    if header.get("probability_bound") is not None:
        worst = max((row.get("probability_bound") or 0.0 for row in table), default=0.0)
        rc.check(where, f"probability_bound {header['probability_bound']}", header["probability_bound"] >= worst,
                 "at least every row's", f"below a row's {worst}")
    _field_primes(rc, where, header.get("field"), header.get("primes"))


def _field_primes(rc: Recheck, where: str, field, primes) -> None:
    """A field gf:P names the prime used: every prime listed is P (field 'auto' lists what was used)."""
    if field is None or primes is None or not str(field).startswith("gf:"):
        return
    p = int(str(field)[3:])
    rc.check(where, f"field {field} / primes {primes}", list(primes) == [p], "the field names the prime used",
             f"the ranks were computed mod {primes}, not mod {p}")


def _reach(rc: Recheck, path, rows) -> None:
    for i, row in enumerate(rows):
        if not row["rank"].strip():  # a spec the run refused: no value to recheck
            continue
        exact = row["status"] == "certified-exact"
        check_sep_row(rc, f"{path} row {i + 1}", {
            "depth": int(row["depth"]), "width": int(row["width"]), "heads": int(row["heads"]),
            "rank": int(row["rank"]), "certified_exact": exact, "upper_bound": _int(row["upper_bound"]),
            "probability_bound": float(row["probability_bound"]) if row.get("probability_bound") else None})


# ----------------------------------------------------------------------------------------------- store

def _store(rc, path):
    rows = reading.store_rows(path, "key, kind, spec, method, field, seed, params, version, value")
    for i, (key, kind, spec, method, field, seed, params, version, value) in enumerate(rows):
        where = f"{path} row {i + 1} ({kind})"
        decoded = []
        for name, column in (("spec", spec), ("params", params), ("value", value), ("key", key)):
            if not isinstance(column, str):
                raise BadInput(f"{path} row {i + 1}: column '{name}' is not JSON text; pass a store verify wrote")
            decoded.append(reading.json_object(path, column, f"{path} row {i + 1} column '{name}'"))
        spec_d, params_d, value_d, stated = decoded
        shapes.store_row(path, f"row {i + 1}", kind, seed, field, spec_d, params_d, value_d)
        columns = {"kind": kind, "spec": spec_d, "method": method, "field": field, "seed": seed, "params": params_d,
                   "version": version}
        rc.check(where, "key", stated == columns, "the key is the row's own columns (docs/store.md)",
                 f"the key and the columns differ in {sorted(k for k in columns if stated.get(k) != columns[k])}")
        _store_row(rc, where, kind, spec_d, field, seed, params_d, value_d)


def _store_row(rc, where, kind, spec_d, field, seed, params_d, value_d):
    if kind == "sep":
        check_sep_row(rc, where, {
            "depth": spec_d["depth"], "width": spec_d["width"], "heads": spec_d["heads"],
            "attn_dim": spec_d.get("attn_dim"), "residual": spec_d.get("residual", False),
            "output": spec_d.get("output", 0), "position": spec_d.get("position", 0), "rank": value_d["rank"],
            "certified_exact": value_d.get("certified_exact"), "upper_bound": value_d.get("upper_bound"),
            "probability_bound": value_d.get("probability_bound"), "seed": seed,
            "tokens": value_d.get("valid_from_tokens")})
        if str(field).startswith("gf:") and value_d.get("primes") is not None:
            _field_primes(rc, where, field, value_d["primes"])
    elif kind == "probe_step" and not params_d.get("continuous"):
        _store_probe_step(rc, where, spec_d, field, seed, params_d, value_d)
    elif kind == "degree_block":  # a `verify sep --store` block: its rank recomputed (blocks)
        blocks.check_block_row(rc, where, spec_d, field, seed, params_d, value_d)
    elif kind != "probe_step":  # real_rank: a numerical rank of a float network, no exact route to recompute
        rc.skipped += 1
    else:  # a continuous probe step
        check_sep_row(rc, where, {
            "depth": spec_d["depth"], "width": spec_d["width"], "heads": spec_d["heads"],
            "attn_dim": spec_d.get("attn_dim"), "residual": spec_d.get("residual", False),
            "rank": value_d["rank"], "seed": seed, "tokens": params_d["tokens"], "certified_exact": None})


def _store_probe_step(rc: Recheck, where: str, spec, field, seed, params, value) -> None:
    modulus = value.get("modulus")
    field_prime = int(str(field)[3:]) if str(field).startswith("gf:") else None
    expect = field_prime if field_prime is not None and field_prime < 2**31 else arith.TOKEN_PRIME
    rc.check(where, f"modulus {modulus}", modulus == expect,
             "the token routes' prime for this field (2^31 - 1 unless the field's prime is below 2^31)",
             f"the field {field} gives {expect}")
    cell = Cell(spec["depth"], spec["width"], spec["heads"], spec.get("attn_dim"), params["vocab"], params["rank"],
                params.get("positional_rank") or 0, seed, params.get("weight_range") or 2**31, modulus or expect,
                output=spec.get("output", 0), position=spec.get("position", 0))
    n = params["tokens"]
    bounds = value.get("bounds") or {}
    label = "sampled" if value.get("sampled") else None  # a sample's rank: a lower bound, no label stored
    check_token_rank(rc, where, cell, n, value["rank"], label,
                     at_positions=bounds.get("at_positions") if cell.positional_rank and bounds else "unknown",
                     stated_eq74=bounds.get("certified") if bounds else None)
    if bounds.get("probability") is not None and bounds.get("at_positions") is not None:
        exact = formulas.union_probability(cell.depth, cell.vocab, cell.positional_rank, n, cell.p)
        from .tokens import _same_bound

        rc.check(where, f"bounds.probability {bounds['probability']}", _same_bound(bounds["probability"], exact),
                 "the union over every j on both sides (issue 39 item 1)",
                 f"the proof gives {formulas.round_up(exact)} (issue 39 item 1: the union over every j)")
