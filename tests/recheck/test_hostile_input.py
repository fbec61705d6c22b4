"""Every hostile input of issue 46 (Why 3) under its own name: one line naming the file and the field, exit 2,
within seconds, nothing created beside the input; and nothing a file says is built before it is priced."""

from __future__ import annotations

import json
import os
import re
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from verify.cli.main import main

DATA = Path(__file__).resolve().parent / "data"
#: Seconds a refusal may take on a loaded 2-core machine (each one is a stat, or reading at most the byte cap).
SECONDS = 30


def _recheck(capsys, path, *extra):
    start = time.perf_counter()
    code = main(["recheck", str(path), "--max-seconds", "1", *extra])
    out, err = capsys.readouterr()
    return code, out, err, time.perf_counter() - start


def _cli(path, budget="1"):
    """The console command in a subprocess, killed after ``SECONDS`` (a hang fails the test instead of the suite)."""
    done = subprocess.run([sys.executable, "-m", "verify", "recheck", str(path), "--max-seconds", budget],
                          capture_output=True, text=True, timeout=SECONDS)
    return done.returncode, done.stdout, done.stderr


def _refused_cli(path, *names):
    before = set(os.listdir(Path(path).parent))
    code, out, err = _cli(path)
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1 and "Traceback" not in err, (code, err)
    for name in names:
        assert name in err, (name, err)
    assert set(os.listdir(Path(path).parent)) == before
    return err


def _refused(capsys, path, *names):
    """Exit 2, one line on stderr naming the file and each of ``names``, nothing on stdout, nothing new beside."""
    folder = Path(path).parent
    before = set(os.listdir(folder))
    code, out, err, seconds = _recheck(capsys, path)
    assert code == 2, (code, out[-500:], err)
    assert out == "" and len(err.strip().splitlines()) == 1 and "Traceback" not in err, err
    assert "internal error" not in err and str(Path(path).name) in err, err
    for name in names:
        assert name in err, (name, err)
    assert seconds < SECONDS, seconds
    assert set(os.listdir(folder)) == before
    return err


def _json(tmp_path, name, data, edit):
    edit(data)
    path = tmp_path / name
    path.write_text(json.dumps(data))
    return path


def _probe(tmp_path, edit, name="probe.json"):
    return _json(tmp_path, name, json.loads((DATA / "probe_tokens.json").read_text()), edit)


def _table(tmp_path, edit, name="table.json"):
    return _json(tmp_path, name, json.loads((DATA / "table.json").read_text()), edit)


def _store(path: Path, edit=None, wal=False):
    rows = json.loads((DATA / "store_rows.json").read_text())
    if edit:
        edit(rows)
    con = sqlite3.connect(path)
    if wal:
        con.execute("PRAGMA journal_mode=WAL")
    con.execute("CREATE TABLE results (key TEXT PRIMARY KEY, kind TEXT, spec TEXT, method TEXT, field TEXT, "
                "seed INTEGER, params TEXT, version TEXT, value TEXT, seconds REAL, created TEXT)")
    con.executemany("INSERT INTO results VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", [tuple(r) for r in rows])
    con.commit()
    con.close()
    return path


# ------------------------------------------------------------------------------------------- sizes priced first

def test_hostile_probe_vocab_of_a_million_is_priced_not_built(tmp_path):
    path = _probe(tmp_path, lambda d: d.update(vocab=10**6))
    code, out, err = _cli(path)
    assert code in (0, 1, 3) and "Traceback" not in err and "internal error" not in err, err
    ranks = [line for line in out.splitlines() if re.search(r" N=\d+: rank \d+:", line)]
    assert ranks and all(line.startswith("beyond the budget") and "priced at" in line for line in ranks), ranks
    # building a 10^6-token embedding is part of the price: beyond a 1 s budget, and it says so


def test_hostile_probe_depth_of_ten_to_the_eighteen(tmp_path):
    _refused_cli(_probe(tmp_path, lambda d: d.update(depth=10**18)), "'depth'", "[1, 7]")


def test_hostile_table_row_depth_40(tmp_path):
    _refused_cli(_table(tmp_path, lambda d: d["rows"][0].update(depth=40)), "row 1", "'depth'")


def test_hostile_csv_depth_99999999999(tmp_path):
    lines = (DATA / "atlas.csv").read_text().splitlines()
    lines[1] = "99999999999" + lines[1][lines[1].index(","):]
    path = tmp_path / "atlas.csv"
    path.write_text("\n".join(lines) + "\n")
    _refused_cli(path, "row 1", "'depth'")


# ------------------------------------------------------------------------------------------- what is not a file

@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_hostile_fifo_with_no_writer(tmp_path):
    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)
    assert "FIFO" in _refused_cli(fifo)


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="no /dev/zero")
def test_hostile_dev_zero(capsys):
    code, out, err, seconds = _recheck(capsys, "/dev/zero")
    assert code == 2 and "device" in err and len(err.strip().splitlines()) == 1 and seconds < SECONDS, err
    assert "--max-memory-gib" not in err


def test_hostile_binary_of_200_mb(capsys, tmp_path):
    path = tmp_path / "big.bin"
    with open(path, "wb") as handle:  # sparse: 200 MB on paper, a few bytes on disk
        handle.write(b"\x00\xff")
        handle.truncate(200 * 10**6)
    assert "has 200,000,000 bytes" in _refused(capsys, path)  # refused from its size, before reading


def test_hostile_table_of_200_mb(capsys, tmp_path):
    path = tmp_path / "table.csv"
    with open(path, "w") as handle:
        handle.write((DATA / "table.csv").read_text())
        handle.truncate(200 * 10**6)
    assert "has 200,000,000 bytes" in _refused(capsys, path, "MAX_BYTES")


def test_hostile_csv_of_a_million_rows(capsys, tmp_path):
    header = (DATA / "table.csv").read_text().splitlines()[0]
    path = tmp_path / "table.csv"
    path.write_text(header + "\n" + "1\n" * 10**6)
    assert "MAX_ROWS" in _refused(capsys, path)


# ------------------------------------------------------------------------------------------- malformed fields

def test_hostile_integer_of_5001_digits(capsys, tmp_path):
    path = tmp_path / "probe.json"
    text = (DATA / "probe_tokens.json").read_text().replace('"width": 3', '"width": ' + "9" * 5001, 1)
    assert '"width": 999' in text
    path.write_text(text)
    assert "5001 digits" in _refused(capsys, path, "'width'")


def test_hostile_rows_holding_a_number(capsys, tmp_path):
    _refused(capsys, _table(tmp_path, lambda d: d.update(rows=[1])), "row 1")


def test_hostile_heads_zero(capsys, tmp_path):
    _refused(capsys, _table(tmp_path, lambda d: d["rows"][0].update(heads=0)), "'heads'")


def test_hostile_nan_rank_in_a_table(capsys, tmp_path):
    path = tmp_path / "table.json"
    data = json.loads((DATA / "table.json").read_text())
    data["rows"][0]["sep_rank"] = float("nan")
    path.write_text(json.dumps(data))  # json writes NaN, which Python's reader accepts
    _refused(capsys, path, "'sep_rank'", "NaN")


def test_hostile_nan_rank_in_a_store(capsys, tmp_path):
    def edit(rows):
        value = json.loads(rows[5][8])
        value["rank"] = float("nan")
        rows[5][8] = json.dumps(value)
    _refused(capsys, _store(tmp_path / "store.sqlite", edit), "row 6", "'rank'")


def test_hostile_json_nested_100000_deep(capsys, tmp_path):
    path = tmp_path / "deep.json"
    path.write_text('{"rows": ' + "[" * 100_000 + "]" * 100_000 + "}")
    assert "MAX_JSON_DEPTH" in _refused(capsys, path)


def test_hostile_csv_cell_over_131072_characters(capsys, tmp_path):
    lines = (DATA / "table.csv").read_text().splitlines()
    path = tmp_path / "table.csv"
    path.write_text(lines[0] + "\n" + '"' + "x" * 140_000 + '"' + lines[1][lines[1].index(","):] + "\n")
    _refused(capsys, path, "row 1")


def test_hostile_store_key_that_is_a_json_list(capsys, tmp_path):
    def edit(rows):
        rows[0][0] = "[1, 2]"
    _refused(capsys, _store(tmp_path / "store.sqlite", edit), "row 1", "'key'")


def test_hostile_json_that_is_not_an_object(capsys, tmp_path):
    path = tmp_path / "list.json"
    path.write_text("[1, 2, 3]")
    err = _refused(capsys, path, "not an object")
    assert "CSV" not in err and "first line" not in err


def test_hostile_empty_file(capsys, tmp_path):
    path = tmp_path / "empty.csv"
    path.write_text("")
    err = _refused(capsys, path, "empty")
    assert "column" not in err


# ------------------------------------------------------------------------------------------- stores opened read-only

@pytest.mark.parametrize("name", ["a?b.sqlite", "c#d.sqlite", "x%41.sqlite"])
def test_hostile_store_name_read_as_a_uri(capsys, tmp_path, name):
    path = _store(tmp_path / name)
    before = sorted(os.listdir(tmp_path))
    code, out, err, seconds = _recheck(capsys, path)
    assert code != 2 and "not a readable results store" not in err, err
    assert f"recheck of {path} (store)" in out
    assert sorted(os.listdir(tmp_path)) == before  # no empty 'a' or 'c', no xA.sqlite, no -shm or -wal


def test_hostile_wal_store_leaves_nothing_beside_it(capsys, tmp_path):
    path = _store(tmp_path / "wal.sqlite", wal=True)
    before = sorted(os.listdir(tmp_path))
    code, out, err, _ = _recheck(capsys, path)
    assert code != 2, err
    assert sorted(os.listdir(tmp_path)) == before


@pytest.mark.skipif(hasattr(os, "geteuid") and os.geteuid() == 0, reason="root writes into read-only folders")
def test_hostile_store_in_a_read_only_folder(capsys, tmp_path):
    folder = tmp_path / "ro"
    folder.mkdir()
    path = _store(folder / "store.sqlite", wal=True)
    folder.chmod(0o555)
    try:
        code, out, err, _ = _recheck(capsys, path)
    finally:
        folder.chmod(0o755)
    assert code != 2, err
