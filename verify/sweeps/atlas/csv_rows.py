"""The atlas's tables as CSV text: the two sections' columns, the key naming each row, and merging rerun rows
into a committed table (the drivers in ``benchmarks/`` write the text atomically with ``verify.files``)."""

from __future__ import annotations

import csv
import io
from typing import Any

from ...errors import InputError
from ...schema import VERSION
from .bound import BOUND_COLUMNS
from .grid import COLUMNS
from .plan import Cell

__all__ = ["SECTIONS", "row_key", "read_rows", "csv_text", "merge_rows"]

#: section -> (file name under the results folder, columns)
SECTIONS = {"grid": ("n_atlas.csv", COLUMNS), "bound": ("n_positional_cells.csv", BOUND_COLUMNS)}


def row_key(section: str, row: dict[str, Any]) -> tuple[str, ...]:
    """The cell a row belongs to, as ``plan.Cell.key`` names it (every value as the CSV writes it).  A grid row of
    the unversioned format (schema version 1: ``pos_rank`` "R (full)", no ``pos_full``) is keyed as its cell, so a
    rerun of some cells replaces their old rows."""
    if section == "grid":
        pos, full = str(row["pos_rank"]), str(row.get("pos_full", ""))
        if not full:
            full = "true" if pos.endswith(" (full)") else "false"
            pos = pos.split()[0]
        return ("grid", *(str(row[k]) for k in ("depth", "vocab_r", "heads")), pos, full)
    return ("bound", *(str(row[k]) for k in ("depth", "r", "heads", "pos_rank")))


def read_rows(text: str) -> list[dict[str, Any]]:
    return list(csv.DictReader(io.StringIO(text)))


def csv_text(section: str, rows: list[dict[str, Any]]) -> str:
    """The section's table: its columns in order, a missing value empty, an unknown column refused, and a row of
    another format version (an older table's row beside rerun cells) refused: the table is then regenerated whole."""
    for row in rows:
        if str(row.get("schema_version", "")) != str(VERSION):
            raise InputError(f"{SECTIONS[section][0]} holds rows of format version {row.get('schema_version') or 1}, "
                             f"these cells are version {VERSION}: regenerate the whole table (python "
                             "benchmarks/atlas.py --jobs 2 --out results), not --cells")
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=SECTIONS[section][1], restval="")  # csv's \r\n, as committed
    writer.writeheader()
    writer.writerows(rows)
    return out.getvalue()


def merge_rows(section: str, old: list[dict[str, Any]], new: dict[Cell, dict[str, Any]],
               order: list[Cell]) -> list[dict[str, Any]]:
    """``old`` with each row of ``new`` in place of the old row of its cell; a new cell's row goes where
    ``order`` (the section's cells) puts it, else at the end."""
    rows = {row_key(section, row): row for row in old}
    for row in new.values():
        rows[row_key(section, row)] = row
    rank = {cell.key: i for i, cell in enumerate(order)}
    keys = list(rows)
    return [rows[k] for k in sorted(keys, key=lambda k: (rank.get(k, len(rank)), keys.index(k)))]
