"""The export formats' names and versions (issue 47, item 4): every JSON export carries ``schema``
(``seprank-verify/<kind>``) and ``schema_version``, every CSV the same two as its last columns, and the JSON Schemas
(draft 2020-12) ship as ``verify/schemas/<kind>.schema.json`` (docs/formats.md).  A CSV's columns, in order, are its
row schema's ``x-csv-columns``: the writer takes them from there, so a column cannot be written without its entry in
the column dictionary."""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any

__all__ = ["VERSION", "KINDS", "schema_name", "load", "csv_columns", "stamp", "csv_stamp"]

#: The version of every format this toolkit writes (1: the unversioned formats before issue 47).
VERSION = 2

#: Every kind with a shipped schema.
KINDS = ("probe-n", "table", "table-row", "sep", "results", "results-row", "report", "certificate", "recheck",
         "n_atlas", "n_positional_cells", "reach")


def schema_name(kind: str) -> str:
    return f"seprank-verify/{kind}"


@cache
def _text(kind: str) -> str:
    if kind not in KINDS:
        raise KeyError(f"no schema for {kind!r}")
    return resources.files("verify").joinpath("schemas", f"{kind}.schema.json").read_text(encoding="utf-8")


def load(kind: str) -> dict[str, Any]:
    """The JSON Schema of ``kind`` (a fresh copy)."""
    return json.loads(_text(kind))


def csv_columns(kind: str) -> list[str]:
    """The columns of a CSV kind, in the order its rows are written (the last two: ``schema``, ``schema_version``)."""
    return list(load(kind)["x-csv-columns"])


def stamp(data: dict[str, Any], kind: str) -> dict[str, Any]:
    """``data`` with ``schema`` and ``schema_version`` first (a JSON export's header)."""
    return {"schema": schema_name(kind), "schema_version": VERSION, **data}


def csv_stamp(kind: str) -> dict[str, Any]:
    """The two trailing cells of every row of a CSV kind."""
    return {"schema": schema_name(kind), "schema_version": str(VERSION)}
