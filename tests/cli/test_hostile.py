"""Hostile input, I/O faults and long runs (issue 13): one regression test per case of its Why list.

Every case must end, in well under 5 s, with one line ``verify: error: ...`` and exit status 2 (or
the right result), never a traceback.  Most run in-process through ``main(argv)``; the broken pipe
and Ctrl-C cases need a real process.
"""

import json
import math
import os
import signal
import subprocess
import sys
import time

import pytest

from verify.cli.main import main
from verify.model.spec import NetworkSpec

FAST = 5.0  # seconds every refusal must answer within (the bound)


def run(capsys, *argv):
    start = time.perf_counter()
    code = main([str(a) for a in argv])
    seconds = time.perf_counter() - start
    out, err = capsys.readouterr()
    return code, out, err, seconds


def refused(capsys, *argv, phrase=""):
    """Run, and check the one-line exit-2 contract; return the message."""
    code, out, err, seconds = run(capsys, *argv)
    assert code == 2, (code, out, err)
    assert len(err.strip().splitlines()) == 1 and err.startswith("verify: error: "), err
    assert "Traceback" not in err and "internal error" not in err
    assert phrase in err, err
    assert seconds < FAST, seconds
    return err


# -- sizes: estimates are closed form ------------------------------------------------------------

@pytest.mark.parametrize("argv, phrase", [
    (["sep", "--depth", "100", "--width", "2"], "from 1 to 64"),
    (["sep", "--depth", "99999999999999999999", "--width", "2"], "from 1 to 64"),
    (["sep", "--depth", "2", "--width", "100000"], "GiB limit"),
    (["sep", "--depth", "64", "--width", "1000000", "--residual"], "GiB limit"),
    (["probe-n", "--depth", "2", "--width", "4", "--vocab", "100000", "--rank", "4", "--no-store", "--workers", "1"],
     "GiB limit"),
])
def test_absurd_sizes_are_refused_by_a_closed_form_estimate_at_once(capsys, argv, phrase):
    refused(capsys, *argv, phrase=phrase)


def test_the_block_estimate_answers_for_any_depth_in_a_millisecond():
    from verify.errors import InputError
    from verify.rank.reduced import check_memory

    for depth, width, residual in [(100, 2, False), (2, 10**5, False), (50, 3, True)]:
        start = time.perf_counter()
        with pytest.raises(InputError, match="GiB limit"):
            check_memory(NetworkSpec(depth=depth, width=width, residual=residual), 16.0)
        assert time.perf_counter() - start < 0.05
    for depth in (1001, 10**20):  # past the largest depth: refused by the spec itself, as fast (issue 43)
        start = time.perf_counter()
        with pytest.raises(InputError, match="depth must be at most 1,000"):
            NetworkSpec(depth=depth, width=2)
        assert time.perf_counter() - start < 0.05


def test_the_block_estimate_is_the_brute_force_maximum_over_degree_splits():
    # independent route: the maximum over every split a of the homogeneous degree, by a loop
    from math import comb

    from verify.rank.reduced import largest_block_entries

    for n in range(1, 7):
        for top in range(0, 14):
            brute = max(comb(a + n - 1, n - 1) * 3 * comb(top - a + n - 1, n - 1) for a in range(top + 1))
            assert largest_block_entries(n, top, 3, True) == brute


def test_a_table_far_past_memory_lists_skipped_specs_in_its_dry_run(capsys):
    code, out, err, seconds = run(capsys, "table", "--depths", "1-50", "--widths", "2-3", "--no-store",
                                  "--dry-run", "--json")
    plan = json.loads(out)
    assert code == 0 and seconds < FAST and plan["dry_run"]
    # the reduced route holds one slice of the largest degree block at once, short x (short + 32) entries
    # at 28 bytes (FLINT at the default 2^63 prime) plus 0.5 GiB: by brute force over the blocks, width 2
    # fits up to depth 6 (short 23,005: 13.8 GiB) and width 3 up to depth 3 (depth 4: 80,730, 170 GiB)
    from math import comb

    def fits(depth, width):
        n, c = width * (width + 1) // 2, (3**depth - 1) // 2
        short = max(min(comb(a + n - 1, n - 1), width * comb(c - a + n - 1, n - 1)) for a in range(c + 1))
        return 28 * short * (short + 32) + 2**29 <= 16 * 2**30

    kept = {(t["spec"]["depth"], t["spec"]["width"]) for t in plan["tasks"]}
    assert max(d for d, w in kept if w == 2) == max(d for d in range(1, 8) if fits(d, 2)) == 6
    assert max(d for d, w in kept if w == 3) == max(d for d in range(1, 6) if fits(d, 3)) == 3
    assert len(plan["tasks"]) == 2 * 6 + 2 * 3  # heads 1, 2 at width 2 and 1, 3 at width 3
    assert len(plan["skipped"]) == 2 * 50 + 2 * 50 - len(plan["tasks"])
    assert all("GiB" in row["reason"] for row in plan["skipped"])


# -- unwritable outputs: refused before the work -------------------------------------------------

@pytest.fixture
def blocked(tmp_path):
    """A path whose parent is a file: no user, root included, can create it."""
    (tmp_path / "file").write_text("x")
    return tmp_path / "file" / "out"


@pytest.mark.parametrize("argv", [
    ["certify", "--depth", "2", "--width", "10", "--out", "{p}.json"],
    ["table", "--depths", "1", "--widths", "2", "--no-store", "--csv", "{p}.csv"],
    ["table", "--depths", "1", "--widths", "2", "--no-store", "--plot", "{p}.png"],
    ["run", "--claim", "levine2020_theorem1_upper", "--no-store", "--out", "{p}"],
])
def test_an_unwritable_output_is_refused_before_any_work(capsys, blocked, argv):
    refused(capsys, *[a.replace("{p}", str(blocked)) for a in argv], phrase="cannot write")


def test_results_out_unwritable_and_run_out_an_existing_file(capsys, tmp_path, blocked):
    from verify.sweeps.store import Store

    Store(tmp_path / "s.sqlite").close()
    refused(capsys, "results", "--store", tmp_path / "s.sqlite", "--out", blocked, phrase="cannot write")
    (tmp_path / "report").write_text("not a folder")
    refused(capsys, "run", "--claim", "levine2020_theorem1_upper", "--out", tmp_path / "report", phrase="existing file")


# -- certificates: malformed is exit 2, unproven is exit 1 ---------------------------------------

@pytest.fixture(scope="module")
def certificate():
    from verify.constructions.certificate import certify

    return certify(NetworkSpec(depth=2, width=10, heads=1), seed=0)


def test_check_certificate_on_a_folder_or_malformed_json_is_one_line(capsys, tmp_path, certificate):
    refused(capsys, "check-certificate", tmp_path, phrase="folder")
    for name, data, phrase in [("list", [], "JSON list"), ("two", {**certificate, "depth": "two"}, "integer"),
                               ("extra", {**certificate, "note": 1}, "unknown fields note")]:
        (tmp_path / name).write_text(json.dumps(data))
        refused(capsys, "check-certificate", tmp_path / name, phrase=phrase)
    (tmp_path / "cut").write_text(json.dumps(certificate)[:500])
    refused(capsys, "check-certificate", tmp_path / "cut", phrase="not JSON")


@pytest.mark.parametrize("field, value", [("weight_range", 2**31 + 1), ("seed", 7)])
def test_every_weight_field_is_checked(capsys, tmp_path, certificate, field, value):
    data = json.loads(json.dumps(certificate))
    data["weights"][field] = value
    (tmp_path / "c.json").write_text(json.dumps(data))
    code, out, err, _ = run(capsys, "check-certificate", tmp_path / "c.json")
    assert code == 1 and out.startswith("FAILS: ") and err == ""


# -- environment faults --------------------------------------------------------------------------

def test_a_prime_above_2_63_is_refused_at_parse_time(capsys):
    refused(capsys, "sep", "--depth", "2", "--width", "2", "--field", "gf:18446744073709551557", phrase="2^63")


@pytest.fixture
def damaged_store(tmp_path):
    from verify.sweeps.store import Store, Task

    path = tmp_path / "s.sqlite"
    with Store(path) as store:
        for seed in range(300):
            store.put(Task("sep", NetworkSpec(depth=1, width=2), "reduced", "gf:101", seed),
                      {"rank": 3, "pad": "x" * 200},
                      0.0)
        store._conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    size = path.stat().st_size
    with open(path, "r+b") as handle:  # a page of noise in the middle
        handle.seek(size // 4096 // 2 * 4096)
        handle.write(bytes(range(256)) * 16)
    return path


def test_a_damaged_store_is_one_line(capsys, damaged_store):
    refused(capsys, "results", "--store", damaged_store, phrase="damaged")


def test_a_garbage_scheduler_address_is_one_line(capsys):
    pytest.importorskip("distributed")
    refused(capsys, "table", "--depths", "1", "--widths", "2", "--no-store", "--scheduler", "garbage",
            phrase="Dask scheduler")


def test_a_closed_pipe_is_one_line_and_no_traceback():
    proc = subprocess.Popen([sys.executable, "-m", "verify", "claims"], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)
    proc.stdout.close()  # like head -1 exiting before verify writes
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=60) == 2
    assert "Traceback" not in err and "Exception ignored" not in err
    assert len(err.strip().splitlines()) == 1 and "pipe" in err


def test_ctrl_c_during_a_table_leaves_no_worker_traceback(tmp_path):
    store = tmp_path / "s.sqlite"
    # depth 3, widths 3-4: the width-4 ranks take minutes, so the sweep is surely running at the Ctrl-C
    # (depths 2-3 at width 3 now finish in about a second)
    proc = subprocess.Popen([sys.executable, "-m", "verify", "table", "--depths", "3", "--widths", "3-4",
                             "--workers", "2", "--store", str(store), "--quiet"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True,
                            # a background job (e.g. CI started with `&`) ignores SIGINT and its children
                            # inherit that: give the command a terminal's default Ctrl-C
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    deadline = time.time() + 60
    while not store.exists() and time.time() < deadline:  # the store opens just before the pool starts
        time.sleep(0.1)
    time.sleep(1.5)
    os.killpg(proc.pid, signal.SIGINT)  # the whole group, as a terminal's Ctrl-C does
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 2, err
    assert "Traceback" not in err.decode() and "KeyboardInterrupt" not in err.decode()
    assert err.decode().strip().splitlines()[-1].startswith("verify: error: interrupted")


# -- silently accepted before --------------------------------------------------------------------

@pytest.mark.parametrize("argv, phrase", [
    (["sep", "--depth", "1", "--width", "2", "--tokens", "2", "--method", "grid", "--templates", "0"], "from 1 to"),
    (["sep", "--depth", "1", "--width", "2", "--max-memory-gib", "nan"], "above 0"),
    (["sep", "--depth", "1", "--width", "2", "--max-memory-gib", "-1"], "above 0"),
    (["sep", "--depth", "1", "--width", "2", "--max-memory-gib", "inf"], "above 0"),
    (["sep", "--depth", "1", "--width", "2", "--tokens", "4", "--partition", "0,0"], "more than once"),
    (["table", "--depths", "1", "--widths", "2", "--workers", "-3"], "from 1 to"),
])
def test_values_accepted_silently_before_are_refused_with_their_range(capsys, argv, phrase):
    refused(capsys, *argv, phrase=phrase)


# -- progress --------------------------------------------------------------------------------------

def test_sweep_progress_counts_work_not_tasks():
    import io

    from verify.sweeps.progress import SweepProgress

    progress = SweepProgress("t", True, stream=io.StringIO())
    progress.start(total_cost=100.0, reused_cost=0.0, tasks=43, reused=0)
    progress.bar.delay = 0
    for _ in range(42):  # 42 small tasks of cost 1 done, the one of cost 58 still running
        progress.advance(1.0)
    assert progress.computed == 42 and progress.bar.n == pytest.approx(42.0)
    assert progress.bar.format_dict["total"] == 100.0  # 42 % of the work, not 42/43 of it
    progress.close()


def test_json_output_is_silent_on_stderr(capsys):
    code, out, err, _ = run(capsys, "table", "--depths", "1", "--widths", "2", "--no-store", "--workers", "1", "--json")
    assert code == 0 and err == "" and isinstance(json.loads(out), dict)


# -- run --claim and output ----------------------------------------------------------------------

def test_run_claim_never_replaces_the_full_report(capsys, tmp_path):
    (tmp_path / "report.json").write_text("the full report")
    code, out, err, _ = run(capsys, "run", "--claim", "levine2020_parameter_count", "--out", tmp_path,
                            "--no-store", "--json")
    assert (tmp_path / "report.json").read_text() == "the full report"
    partial = json.loads((tmp_path / "partial" / "report.json").read_text())
    assert partial["header"]["partial"] == ["levine2020_parameter_count"]


def test_outputs_are_sentences_and_numbers(capsys, tmp_path):
    code, out, _, _ = run(capsys, "sep", "--depth", "2", "--width", "2", "--json")
    assert code == 0 and json.loads(out)["valid_from_tokens"] == 6  # 2(d_x + 1), a number
    code, out, _, _ = run(capsys, "probe-n", "--depth", "1", "--width", "2", "--vocab", "2", "--rank", "1",
                          "--max-tokens", "4", "--no-store", "--workers", "1")
    assert code == 0 and "None" not in out
    code, out, _, _ = run(capsys, "table", "--depths", "1", "--widths", "2", "--no-store", "--workers", "1",
                          "--csv", tmp_path / "t.csv")
    import csv

    rows = list(csv.DictReader((tmp_path / "t.csv").open()))
    numeric = [k for k in rows[0] if k.endswith(" log3") or k in ("depth", "width", "heads", "sep", "log3_sep")]
    for row in rows:
        for key in numeric:
            assert row[key] == "" or math.isfinite(float(row[key])), (key, row[key])
    assert "degree blocks" not in out or "because block" not in out


def test_plots_have_integer_depth_ticks_a_title_and_named_bounds(tmp_path, monkeypatch):
    pytest.importorskip("matplotlib")
    from verify.report import plot

    figures = []
    monkeypatch.setattr(plot, "_save", lambda fig, plt, path, layout=True: figures.append(fig))
    bound = {"claim": "levine2020_theorem2_upper", "log3_value": 9.0}
    rows = [{"depth": d, "width": 2, "heads": 1, "log3_sep": float(d), "bounds": [bound]} for d in (1, 2, 3)]
    plot.plot_table(rows, str(tmp_path / "t.png"), title="field gf:101, seed 0")
    fig = figures[0]
    ax = fig.axes[0]
    assert all(float(t).is_integer() for t in ax.get_xticks())
    assert "seed 0" in fig._suptitle.get_text() and "gf:101" in fig._suptitle.get_text()
    labels = [t.get_text() for t in fig.legends[0].get_texts()]
    assert any("Levine et al. 2020, Thm 2 upper" in label for label in labels)


def test_dry_runs_print_the_plan_and_compute_nothing(capsys, tmp_path):
    store = tmp_path / "s.sqlite"
    code, out, _, seconds = run(capsys, "run", "--dry-run", "--json", "--store", store)
    plan = json.loads(out)
    assert code == 0 and plan["to_compute"] == len(plan["tasks"]) > 0 and len(plan["claims"]) >= 30
    code, out, _, _ = run(capsys, "probe-n", "--depth", "1", "--width", "2", "--vocab", "2", "--rank", "1",
                          "--max-tokens", "6", "--dry-run", "--json", "--store", store)
    plan = json.loads(out)
    assert code == 0 and [t["params"]["tokens"] for t in plan["tasks"]] == [2, 4, 6]
    assert not store.exists() or "probe_step" not in store.read_bytes().decode("latin-1")


def test_ctrl_c_mid_sweep_hands_back_and_prints_what_is_done(capsys, monkeypatch):
    from verify.sweeps import executor
    from verify.sweeps.executor import SweepInterrupted, run_sweep
    from verify.sweeps.store import Store
    from verify.sweeps.table import sep_task, table_specs

    class StopAfterOne:  # a Ctrl-C arriving just after the first result
        def start(self, *counts):
            pass

        def advance(self, cost):
            raise KeyboardInterrupt

    tasks = [sep_task(s, "gf:101", 0, 16.0) for s in table_specs([1], [2, 3], "1")]
    with pytest.raises(SweepInterrupted) as stop:
        run_sweep(tasks, Store(None), workers=1, progress=StopAfterOne())
    assert sum(v is not None for v in stop.value.values) == 1

    real = executor.run_sweep

    def interrupted(tasks, store, *args, **kwargs):
        raise SweepInterrupted([{"rank": 3, "certified_lower_bound": True, "probability_bound": 0.0}]
                               + [None] * (len(tasks) - 1), executor.SweepStats())
    monkeypatch.setattr(executor, "run_sweep", interrupted)
    code, out, err, _ = run(capsys, "table", "--depths", "1", "--widths", "2", "--heads", "all", "--no-store")
    monkeypatch.setattr(executor, "run_sweep", real)
    assert code == 2 and "| 1 | 2 | 1 | 3 |" in out and "Interrupted: 1 of 2 specs done" in out
    assert err.strip().splitlines()[-1].startswith("verify: error: interrupted")
