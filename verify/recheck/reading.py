"""Reading an export as untrusted input: bounded, non-blocking, and refused in one line when it is not a file
the recheck can read (issue 46 item 4).

Why by hand: the standard library's readers trust their input (``open`` blocks on a FIFO with no writer,
``read()`` reads /dev/zero forever, ``json`` recurses until the interpreter's limit and reads integers of any
length, ``csv`` raises on a long field, ``sqlite3`` reads a path with ``?`` or ``#`` as a URI and leaves
``-shm`` files beside a WAL database).  This module puts a named limit on each, before anything is allocated:

- ``MAX_BYTES`` per file, checked on the file's size before it is read, and again while reading (a file that
  grows is cut at the limit and refused);
- only regular files: a FIFO, device, socket or folder is refused from ``os.stat`` before ``open``, and the
  file is opened ``O_NONBLOCK`` and checked again with ``fstat`` (a FIFO swapped in between does not block);
- JSON: nesting deeper than ``MAX_JSON_DEPTH`` and integers longer than ``MAX_INT_DIGITS`` digits are refused
  (an integer too long becomes a ``TooLong`` marker, so the field's own check names the field); ``NaN`` and
  ``Infinity`` become ``NotFinite`` markers, refused by the field checks;
- CSV: at most ``MAX_ROWS`` rows, each field under ``csv.field_size_limit()``;
- SQLite: opened read-only through a ``file:`` URI built from the percent-encoded absolute path, with
  ``immutable=1`` unless a ``-wal`` file lies beside it, and at most ``MAX_ROWS`` rows read; a ``-shm`` or
  ``-wal`` file that reading created is removed again.
"""

from __future__ import annotations

import csv
import io
import json
import os
import sqlite3
import stat
import urllib.parse

from .core import BadInput

__all__ = ["MAX_BYTES", "MAX_STORE_BYTES", "MAX_ROWS", "MAX_JSON_DEPTH", "MAX_INT_DIGITS", "TooLong", "NotFinite",
           "read_bytes", "head", "text", "load_json", "json_object", "csv_rows", "store_rows"]

#: Bytes read from one text file at most (the largest export in results/ is about 120 kB).
MAX_BYTES = 16 * 2**20
#: Bytes of one SQLite store at most (SQLite reads pages on demand; the rows read are capped by ``MAX_ROWS``).
MAX_STORE_BYTES = 1024 * 2**20
#: Rows of a CSV table or a store read at most (results/n_atlas.csv has 160).
MAX_ROWS = 20_000
#: Nesting of a JSON export at most (the exports nest at most 5 deep).
MAX_JSON_DEPTH = 32
#: Digits of an integer at most (the largest value in an export, a counting cap V^(N/2), has under 100).
MAX_INT_DIGITS = 400


class TooLong(int):
    """An integer of the file longer than ``MAX_INT_DIGITS`` digits, kept only as its digit count."""

    def __new__(cls, digits: int):
        value = super().__new__(cls, 0)
        value.digits = digits
        return value

    def __repr__(self) -> str:
        return f"<an integer of {self.digits} digits>"


class NotFinite(float):
    """``NaN``, ``Infinity`` or ``-Infinity`` in a JSON file (not JSON, but Python's reader accepts them)."""

    def __new__(cls, text: str):
        value = super().__new__(cls, float(text.replace("Infinity", "inf")))
        value.text = text
        return value

    def __repr__(self) -> str:
        return self.text


def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    return "not a regular file"


def _regular(path: str, status: os.stat_result, cap: int = MAX_BYTES, name: str = "MAX_BYTES") -> None:
    if not stat.S_ISREG(status.st_mode):
        raise BadInput(f"{path} is {_kind(status.st_mode)}, not a file; pass an export of verify (a regular file)")
    if status.st_size > cap:
        raise BadInput(f"{path} has {status.st_size:,} bytes, beyond the {cap:,} the recheck reads from one "
                       f"file (reading.{name}); pass an export of verify")


def _status(path: str) -> os.stat_result:
    try:
        return os.stat(path)
    except OSError as exc:
        raise BadInput(f"cannot read {path}: {exc.strerror or exc}; pass an export of verify (JSON, CSV or a "
                       f"store)") from None
    except ValueError as exc:  # an embedded NUL byte
        raise BadInput(f"cannot read {path!r}: {exc}; pass the path of an export of verify") from None


def read_bytes(path: str, limit: int | None = None) -> bytes:
    """At most ``limit`` (default ``MAX_BYTES``) bytes of the regular file ``path``; refuses anything else
    before opening it, and a file that holds more than ``MAX_BYTES`` (module doc)."""
    _regular(path, _status(path), MAX_STORE_BYTES if limit is not None else MAX_BYTES,
             "MAX_STORE_BYTES" if limit is not None else "MAX_BYTES")
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0))
    except OSError as exc:
        raise BadInput(f"cannot read {path}: {exc.strerror or exc}; pass an export of verify") from None
    try:
        _regular(path, os.fstat(fd), MAX_STORE_BYTES)  # the file opened is the one checked (no FIFO swapped in)
        want = MAX_BYTES + 1 if limit is None else limit
        chunks, size = [], 0
        while size < want:
            chunk = os.read(fd, min(1 << 20, want - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    except OSError as exc:
        raise BadInput(f"cannot read {path}: {exc.strerror or exc}; pass an export of verify") from None
    finally:
        os.close(fd)
    data = b"".join(chunks)
    if limit is None and len(data) > MAX_BYTES:
        raise BadInput(f"{path} holds more than the {MAX_BYTES:,} bytes the recheck reads from one file "
                       f"(reading.MAX_BYTES); pass an export of verify")
    return data


def head(path: str) -> bytes:
    """The first 16 bytes (the SQLite magic), read as ``read_bytes`` reads."""
    return read_bytes(path, 16)


def text(path: str) -> str:
    try:
        return read_bytes(path).decode("utf-8")
    except UnicodeDecodeError:
        raise BadInput(f"{path} is neither UTF-8 text nor an SQLite store; pass an export of verify") from None


def _int(digits: str):
    if len(digits.lstrip("-")) > MAX_INT_DIGITS:
        return TooLong(len(digits.lstrip("-")))
    return int(digits)


def _depth(value, limit: int) -> int:
    """Nesting depth of a decoded JSON value, at most ``limit + 1`` (iterative: no recursion to exhaust)."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, (dict, list)):
            deepest = max(deepest, depth)
            if deepest > limit:
                return deepest
            stack.extend((child, depth + 1) for child in (item.values() if isinstance(item, dict) else item))
    return deepest


def load_json(path: str, source: str | None = None, what: str | None = None):
    """The JSON value of ``source`` (default: the file's text), with integers beyond ``MAX_INT_DIGITS`` digits as
    ``TooLong`` and NaN/Infinity as ``NotFinite``; refuses nesting deeper than ``MAX_JSON_DEPTH``."""
    shown = what or path
    source = text(path) if source is None else source
    if not source.strip():
        raise BadInput(f"{shown} is empty; pass an export of verify")
    try:
        value = json.loads(source, parse_int=_int, parse_constant=NotFinite)
    except RecursionError:
        raise BadInput(f"{shown} nests JSON deeper than the {MAX_JSON_DEPTH} levels the recheck reads "
                       f"(reading.MAX_JSON_DEPTH); pass the file verify wrote") from None
    except json.JSONDecodeError as exc:
        raise BadInput(f"{shown} is not valid JSON ({exc.msg} at line {exc.lineno}); pass the file verify "
                       f"wrote") from None
    except ValueError as exc:  # a float literal Python cannot read
        raise BadInput(f"{shown} is not valid JSON ({exc}); pass the file verify wrote") from None
    if _depth(value, MAX_JSON_DEPTH) > MAX_JSON_DEPTH:
        raise BadInput(f"{shown} nests JSON deeper than the {MAX_JSON_DEPTH} levels the recheck reads "
                       f"(reading.MAX_JSON_DEPTH); pass the file verify wrote")
    return value


def json_object(path: str, source: str | None = None, what: str | None = None) -> dict:
    value = load_json(path, source, what)
    if not isinstance(value, dict):
        raise BadInput(f"{what or path} holds JSON but not an object (a {type(value).__name__}); pass the file "
                       f"verify wrote")
    return value


def csv_rows(path: str, source: str | None = None) -> list[dict]:
    """The rows of a CSV table as dictionaries (at most ``MAX_ROWS``; a field beyond ``csv.field_size_limit()``
    or a row with more cells than the header is refused, naming the row)."""
    source = text(path) if source is None else source
    reader = csv.DictReader(io.StringIO(source, newline=""), restkey="\0extra")
    rows = []
    try:
        for row in reader:
            if len(rows) >= MAX_ROWS:
                raise BadInput(f"{path} has more than the {MAX_ROWS:,} rows the recheck reads from one table "
                               f"(reading.MAX_ROWS); pass an export of verify, or split it")
            if "\0extra" in row:
                raise BadInput(f"{path} row {len(rows) + 1}: more cells than the header has columns; pass the "
                               f"file verify wrote")
            rows.append(row)
    except csv.Error as exc:
        raise BadInput(f"{path} row {len(rows) + 1} (line {reader.line_num}): {exc}; pass the file verify "
                       f"wrote") from None
    return rows


def _uri(path: str, immutable: bool) -> str:
    """A read-only SQLite URI naming exactly ``path`` (every character but '/' percent-encoded, so '?', '#'
    and '%' in a file name stay part of the name)."""
    quoted = urllib.parse.quote(os.path.abspath(path), safe="/")
    return f"file:{quoted}?mode=ro" + ("&immutable=1" if immutable else "")


def store_rows(path: str, columns: str, table: str = "results") -> list[tuple]:
    """Every row of ``SELECT columns FROM table`` of the store ``path``, read-only, creating nothing beside it
    (module doc); at most ``MAX_ROWS``."""
    _regular(path, _status(path), MAX_STORE_BYTES, "MAX_STORE_BYTES")
    beside = [path + suffix for suffix in ("-shm", "-wal", "-journal")]
    existed = {name for name in beside if os.path.lexists(name)}
    connection = None
    try:
        connection = sqlite3.connect(_uri(path, immutable=path + "-wal" not in existed), uri=True)
        count = connection.execute(f"SELECT count(*) FROM {table}").fetchone()[0]  # noqa: S608 - our own names
        if count > MAX_ROWS:
            raise BadInput(f"{path} has {count:,} rows, more than the {MAX_ROWS:,} the recheck reads from one "
                           f"store (reading.MAX_ROWS); pass a smaller store")
        rows = connection.execute(f"SELECT {columns} FROM {table} ORDER BY rowid").fetchall()  # noqa: S608
    except sqlite3.Error as exc:
        raise BadInput(f"{path} is not a readable results store ({exc}); pass a store verify wrote "
                       f"(--store)") from None
    finally:
        if connection is not None:
            connection.close()
        for name in beside:
            if name not in existed and os.path.lexists(name):
                try:
                    os.remove(name)
                except OSError:
                    pass
    return rows
