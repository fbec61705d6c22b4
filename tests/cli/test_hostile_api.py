"""The last hostile inputs of issue 35 (items 5 and 6): the API refuses what the command line
refuses, through the one validation both use (``verify.validate``), and every weak line of the
trial is clean, one test per class."""

import io
import json
import os
import sqlite3
import subprocess
import sys
import time
import tracemalloc

import pytest

import verify
from verify.cli.main import main
from verify.errors import InputError
from verify.model.spec import NetworkSpec, draw_weights

FAST = 5.0
CLI = [sys.executable, "-m", "verify.cli.main"]


def run(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def refused(capsys, *argv, phrases=(), absent=()):
    start = time.perf_counter()
    code, out, err = run(capsys, *argv)
    assert code == 2, (code, out, err)
    assert len(err.strip().splitlines()) == 1 and err.startswith("verify: error: "), err
    assert "internal error" not in err
    for phrase in phrases:
        assert phrase in err, (phrase, err)
    for phrase in absent:
        assert phrase not in err, (phrase, err)
    assert time.perf_counter() - start < FAST
    return err


# -- item 5: the API refuses what the command line refuses ---------------------------------------------

def test_probe_n_refuses_a_billion_tokens_at_once_without_allocating():
    """It reached 5.3 GB before a MemoryError; now the range check of --max-tokens, first."""
    tracemalloc.start()
    start = time.perf_counter()
    try:
        with pytest.raises(InputError, match="max_tokens must be an integer from 2 to 10,000"):
            verify.probe_n(depth=1, width=2, vocab=2, rank=2, max_tokens=10**9)
        seconds = time.perf_counter() - start
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert seconds < FAST and peak < 50 * 2**20, (seconds, peak)


SPEC4 = NetworkSpec(depth=1, width=2, tokens=4)
API_REFUSALS = [
    (lambda: verify.separation_rank(SPEC4, seed=-1), "seed must be an integer at least 0"),
    (lambda: verify.separation_rank(SPEC4, method="coefficients", partition=(0, 0)), "more than once"),
    (lambda: verify.separation_rank(SPEC4, method="coefficients", partition=(0, True)), "tuple of int"),
    (lambda: verify.separation_rank(SPEC4, method="coefficients", partition="0,,1"), "empty position"),
    (lambda: draw_weights(NetworkSpec(depth=1, width=2), seed="x"), "seed must be an integer"),
    (lambda: draw_weights(NetworkSpec(depth=1, width=2), seed=-1), "seed must be an integer"),
    (lambda: NetworkSpec(depth=True, width=2), "depth must be an integer"),
    (lambda: NetworkSpec(depth=1, width=2, residual=1), "residual must be True or False"),
    (lambda: NetworkSpec(depth=1, width=2, tokens=4, position=1.0), "must be integers"),
    (lambda: verify.reviewers_table([1], [2], seed=-1), "seed must be an integer"),
    (lambda: verify.reviewers_table([1], [2], max_memory_gib=float("nan")), "above 0"),
    (lambda: verify.reviewers_table([1], [2], workers=0), "workers must be an integer from 1"),
    (lambda: verify.probe_n(depth=1, width=2, vocab=True, rank=2), "vocab must be an integer"),
    (lambda: verify.probe_n(depth=1, width=2, vocab=2, rank=2, seed=-1), "seed must be an integer"),
    (lambda: verify.probe_n(depth=1, width=2, vocab=2, rank=2, patience=0), "patience"),
    (lambda: verify.probe_n(depth=1, width=2, vocab=2, rank=2, field="qq"), "--field qq cannot apply"),
    (lambda: verify.reviewers_table([1], [2], scheduler="127.0.0.1:99999999"), "from 1 to 65535"),
    (lambda: verify.run_claims(3), "list of ids or one id"),
]


@pytest.mark.parametrize("call, phrase", API_REFUSALS, ids=[str(i) for i in range(len(API_REFUSALS))])
def test_the_api_refuses_what_the_command_line_refuses(call, phrase):
    start = time.perf_counter()
    with pytest.raises(InputError, match=phrase.replace("(", r"\(")):
        call()
    assert time.perf_counter() - start < FAST


def test_the_command_line_and_the_api_give_the_same_range():
    err_api = pytest.raises(InputError, verify.probe_n, depth=1, width=2, vocab=2, rank=2, max_tokens=1).value
    assert "from 2 to 10,000" in str(err_api)
    from verify.cli.argtypes import int_range

    with pytest.raises(Exception, match="from 2 to 10,000"):
        int_range("--max-tokens", 2, 10**4)("1")


def test_run_claims_takes_one_id_as_a_string():
    [result] = verify.run_claims("levine2020_supp1_lemma1_composition_tree")
    assert result.claim.id == "levine2020_supp1_lemma1_composition_tree"


# -- item 6: weak lines --------------------------------------------------------------------------------

def test_attn_dim_is_named_only_when_it_was_given(capsys):
    refused(capsys, "sep", "--depth", "2", "--width", "100000", "--max-memory-gib", "1",
            phrases=("--width or --depth",), absent=("--attn-dim",))
    refused(capsys, "sep", "--depth", "1", "--width", "4", "--attn-dim", "1000000", "--max-memory-gib", "0.01",
            phrases=("--attn-dim",))


def test_a_folder_or_foreign_file_is_never_taken_for_the_store(capsys, tmp_path):
    folder = tmp_path / "folder"
    folder.mkdir()
    refused(capsys, "table", "--depths", "1", "--widths", "2", "--store", folder,
            phrases=("is a folder, not a results store",), absent=("damaged", "delete"))
    foreign = tmp_path / "app.db"
    with sqlite3.connect(foreign) as conn:
        conn.execute("CREATE TABLE users (id INTEGER)")
    before = foreign.read_bytes()
    for command in (["table", "--depths", "1", "--widths", "2"], ["results"]):
        refused(capsys, *command, "--store", foreign, phrases=("another application's SQLite database", "users"),
                absent=("delete",))
    assert foreign.read_bytes() == before  # no results table, nothing written
    text = tmp_path / "notes.txt"
    text.write_text("my notes\n")
    refused(capsys, "table", "--depths", "1", "--widths", "2", "--store", text, phrases=("not an SQLite file",),
            absent=("delete",))
    assert text.read_text() == "my notes\n"


def test_our_own_store_is_still_used(capsys, tmp_path):
    store = tmp_path / "s.sqlite"
    assert run(capsys, "table", "--depths", "1", "--widths", "2", "--heads", "1", "--store", store, "--json")[0] == 0
    code, out, _ = run(capsys, "table", "--depths", "1", "--widths", "2", "--heads", "1", "--store", store, "--json")
    assert code == 0 and json.loads(out)["sweep"]["reused"] == 1


def test_dry_runs_create_nothing(capsys, tmp_path):
    store = tmp_path / "deep" / "s.sqlite"
    for argv in (["run", "--dry-run"], ["table", "--depths", "1", "--widths", "2", "--dry-run"],
                 ["probe-n", "--depth", "1", "--width", "2", "--vocab", "2", "--rank", "1", "--max-tokens", "6",
                  "--dry-run"]):
        assert run(capsys, *argv, "--json", "--store", store)[0] == 0
        assert not store.exists() and not store.parent.exists(), argv


def test_probe_n_field_qq_is_refused_not_ignored(capsys):
    refused(capsys, "probe-n", "--depth", "1", "--width", "2", "--vocab", "2", "--rank", "2", "--field", "qq",
            "--no-store", phrases=("--field qq", "--continuous"))


def test_out_dev_stdout_into_a_pipe_is_written(capsys, tmp_path):
    store = tmp_path / "s.sqlite"
    assert run(capsys, "table", "--depths", "1", "--widths", "2", "--store", store, "--json")[0] == 0
    done = subprocess.run(CLI + ["results", "--store", str(store), "--out", "/dev/stdout"], capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0 and "2 results in" in done.stdout, done


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
def test_a_full_stderr_never_loses_the_table():
    with open("/dev/full", "w") as full:
        done = subprocess.run(CLI + ["table", "--depths", "1", "--widths", "2,400", "--heads", "1", "--no-store",
                                     "--max-memory-gib", "1"], stdout=subprocess.PIPE, stderr=full, text=True,
                              timeout=120)
    assert done.returncode == 0 and "| 1 | 2 | 1 | 3 |" in done.stdout, done


def test_an_error_line_never_sticks_to_a_progress_line():
    from verify.sweeps.progress import Progress, close_all

    log = io.StringIO()  # a log file: no terminal, tqdm's own close wrote no newline here
    Progress("probe-n", True, stream=log, unit="N step")
    time.sleep(2.5)  # drawn by the redraw thread only
    close_all()
    assert log.getvalue().endswith("\n") and "elapsed" in log.getvalue(), repr(log.getvalue())


def test_progress_on_a_terminal_of_no_width_is_plain_lines(monkeypatch):
    from verify.sweeps.progress import SweepProgress

    monkeypatch.setenv("COLUMNS", "0")
    screen = io.StringIO()
    bar = SweepProgress("table", True, stream=screen)
    bar.start(4, 0, 2, 0)
    time.sleep(1.2)
    bar.advance(2)
    bar.close()
    text = screen.getvalue()
    lines = text.splitlines()
    assert "\r" not in text and lines and all(line.startswith("table: ") for line in lines), repr(text)
    assert any("50%" in line for line in lines)


def test_the_partition_hint_names_one_fix(capsys):
    err = refused(capsys, "sep", "--depth", "1", "--width", "2", "--partition", "0,1", phrases=("--tokens",),
                  absent=("--method reduced",))
    assert "partition" in err
    refused(capsys, "sep", "--depth", "1", "--width", "2", "--tokens", "4", "--partition", "0,,1",
            phrases=("empty position",))


def test_no_more_workers_than_tasks(monkeypatch):
    from verify.sweeps import executor
    from verify.sweeps.store import Store
    from verify.sweeps.table import sep_task, table_specs

    asked = []
    real = executor.executor

    def record(scheduler=None, workers=None):
        asked.append(workers)
        return real(scheduler, workers)

    monkeypatch.setattr(executor, "executor", record)
    tasks = [sep_task(s, "gf:101", 0, 16.0) for s in table_specs([1], [2, 3], "1")]
    with Store(None) as store:
        values, _ = executor.run_sweep(tasks, store, workers=16)
    assert asked == [2] and [v["rank"] for v in values] == [3, 4]  # closed form: d_x + 1 at depth 1


def test_a_relative_xdg_cache_home_is_ignored(monkeypatch, tmp_path):
    from verify.sweeps.store import default_store_path

    monkeypatch.delenv("VERIFY_STORE", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", "relative/cache")
    assert default_store_path().is_absolute() and "relative" not in str(default_store_path())
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert default_store_path() == tmp_path / "verify" / "results.sqlite"


@pytest.mark.parametrize("address, phrase", [("127.0.0.1:99999999999", "65535"), ("tcp://h:0", "65535"),
                                             ("udp://h:1", "unknown protocol"), ("h:1/x", "HOST:PORT")])
def test_the_scheduler_address_is_checked_before_dask(capsys, address, phrase):
    refused(capsys, "table", "--depths", "1", "--widths", "2", "--no-store", "--scheduler", address,
            phrases=(phrase,), absent=("EiB", "allocate"))


def test_paths_are_echoed_escaped(capsys, tmp_path):
    odd = tmp_path / "a\nb\x1b[31m.sqlite"
    code, out, err = run(capsys, "table", "--depths", "1", "--widths", "2", "--heads", "1", "--store", odd)
    assert code == 0 and "\x1b" not in out + err and "a\\nb\\x1b[31m.sqlite" in out
    folder = tmp_path / "c\nd\x1b[2J"
    folder.mkdir()
    err = refused(capsys, "table", "--depths", "1", "--widths", "2", "--store", folder, phrases=("c\\nd\\x1b[2J",))
    assert "\x1b" not in err


def test_the_probe_dry_run_prices_each_step_as_the_step_refuses_it(capsys):
    """The memory column is the estimate the step itself is refused by (the Gram route's lattice,
    not the counts route's: that was wrong both ways, 1.11 MiB for 19.5 KiB at N = 2, 7.19 GiB for
    1.26 GiB at N = 6), and a step over the limit is marked; each refusal names the same size."""
    import re

    from verify.exact.fields import Field
    from verify.sweeps.probe import probe_step

    argv = ["probe-n", "--depth", "2", "--width", "4", "--vocab", "50", "--rank", "4", "--max-tokens", "6",
            "--no-store", "--max-memory-gib", "0.001"]
    code, out, _ = run(capsys, *argv, "--dry-run", "--json")
    rows = json.loads(out)["tasks"]
    assert code == 0 and [r["over_limit"] for r in rows] == [False, True, True]
    code, out, _ = run(capsys, *argv, "--dry-run")
    assert out.count("over --max-memory-gib: refused") == 2 and "2 over --max-memory-gib" in out
    spec = NetworkSpec(depth=2, width=4)
    assert probe_step(spec, Field(101), 0, 2, vocab=50, rank=4, max_memory_gib=0.001)["rank"] >= 1
    for row in rows[1:]:
        with pytest.raises(InputError) as refusal:
            probe_step(spec, Field(101), 0, row["params"]["tokens"], vocab=50, rank=4, max_memory_gib=0.001)
        stated = float(re.search(r"needs at least ([0-9.e+]+) GiB", str(refusal.value)).group(1))
        assert stated == pytest.approx(row["memory_gib"], rel=0.01), (stated, row)
    # the true matrix of N = 4 (V binom(50, 49) x binom(51, 49) int64 entries) is at least the estimate
    assert rows[1]["memory_gib"] * 2**30 <= 8 * 50 * 50 * 1275
