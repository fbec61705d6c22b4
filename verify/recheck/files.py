"""Reading each export kind directly (json, csv, sqlite3 of the standard library) and handing its values to
the checks.  The formats are those of docs/commands.md, docs/store.md, docs/certificates.md,
docs/conjecture_n.md and issue 39; no engine loader is used.
"""

from __future__ import annotations

import csv
import json
import sqlite3

from . import arith, formulas, token_files
from .certificate import FORMAT, check_certificate
from .core import BadInput, Recheck
from .sep import check_sep_row
from .tokens import Cell, check_token_rank

__all__ = ["recheck_path", "detect"]

SQLITE_MAGIC = b"SQLite format 3\x00"


def detect(path: str) -> str:
    """The export kind of ``path``: store, certificate, probe, table-json, report, atlas, cells, table-csv, reach."""
    try:
        with open(path, "rb") as handle:
            head = handle.read(16)
    except OSError as exc:
        raise BadInput(f"cannot read {path}: {exc.strerror or exc}; "
                       "pass an export of verify (JSON, CSV or a store)") from exc
    if head == SQLITE_MAGIC:
        return "store"
    text = _text(path)
    stripped = text.lstrip()
    if stripped.startswith("{"):
        data = _json(path, text)
        if data.get("format") == FORMAT:
            return "certificate"
        if "ranks" in data and "mode" in data:
            return "probe"
        if isinstance(data.get("rows"), list):
            return "table-json"
        if isinstance(data.get("header"), dict) and "rank_table" in data["header"]:
            return "report"
        raise BadInput(f"{path} is JSON but no export recheck reads (a probe-n --json, table --json, report.json "
                       f"or certificate); pass one of those")
    header = next(csv.reader([stripped.splitlines()[0] if stripped else ""]))
    if {"vocab_r", "ranks", "ranks_labels"} <= set(header):
        return "atlas"
    if {"counting_floor", "n_reached", "bound"} <= set(header):
        return "cells"
    if {"depth", "width", "heads", "sep", "certified_exact"} <= set(header):
        return "table-csv"
    if {"depth", "width", "heads", "rank", "upper_bound", "status", "primes"} <= set(header):
        return "reach"
    raise BadInput(f"{path} is not an export recheck reads (its first line names none of the known columns); "
                   f"pass a probe-n/table JSON, report.json, a certificate, a store or a results/*.csv table")


def _text(path: str) -> str:
    try:
        with open(path, encoding="utf-8") as handle:
            return handle.read()
    except UnicodeDecodeError as exc:
        raise BadInput(f"{path} is neither UTF-8 text nor an SQLite store; pass an export of verify") from exc


def _json(path: str, text: str) -> dict:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise BadInput(f"{path} is not valid JSON ({exc.msg} at line {exc.lineno}); "
                       "pass the file verify wrote") from exc
    if not isinstance(data, dict):
        raise BadInput(f"{path} holds JSON but not an object; pass the file verify wrote")
    return data


def recheck_path(rc: Recheck, path: str) -> str:
    kind = detect(path)
    try:
        if kind == "store":
            _store(rc, path)
        elif kind == "certificate":
            check_certificate(rc, path, _json(path, _text(path)))
        elif kind == "probe":
            token_files.probe(rc, path, _json(path, _text(path)))
        elif kind == "table-json":
            _table_json(rc, path, _json(path, _text(path)))
        elif kind == "report":
            _report(rc, path, _json(path, _text(path)))
        else:
            with open(path, newline="", encoding="utf-8") as handle:
                rows = list(csv.DictReader(handle))
            {"atlas": token_files.atlas, "cells": token_files.cells, "table-csv": _table_csv,
             "reach": _reach}[kind](rc, path, rows)
    except (KeyError, TypeError, ValueError, IndexError) as exc:
        if isinstance(exc, BadInput):
            raise
        raise BadInput(f"{path} looks like a {kind} export but a field is missing or malformed ({type(exc).__name__}: "
                       f"{exc}); pass the file as verify wrote it") from exc
    rc.files.append((path, kind))
    return kind


# ----------------------------------------------------------------------------------------------- sep rows

def _table_json(rc: Recheck, path, data) -> None:
    for i, row in enumerate(data["rows"]):
        bounds = [(b["bound"], b["kind"], b.get("log3_value"), b.get("holds")) for b in row.get("bounds") or ()]
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

def _store(rc: Recheck, path):
    try:
        connection = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        rows = connection.execute("SELECT key, kind, spec, method, field, seed, params, version, value "
                                  "FROM results ORDER BY rowid").fetchall()
    except sqlite3.DatabaseError as exc:
        raise BadInput(f"{path} is not a readable results store ({exc}); pass a store verify wrote (--store)") from exc
    finally:
        try:
            connection.close()
        except Exception:  # noqa: BLE001 - connect itself failed
            pass
    for i, (key, kind, spec, method, field, seed, params, version, value) in enumerate(rows):
        where = f"{path} row {i + 1} ({kind})"
        spec_d, params_d, value_d = json.loads(spec), json.loads(params), json.loads(value)
        stated = json.loads(key)
        columns = {"kind": kind, "spec": spec_d, "method": method, "field": field, "seed": seed, "params": params_d,
                   "version": version}
        rc.check(where, "key", stated == columns, "the key is the row's own columns (docs/store.md)",
                 f"the key and the columns differ in {sorted(k for k in columns if stated.get(k) != columns[k])}")
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
