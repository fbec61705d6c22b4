"""One error path, no exceptions (issue 21, parts 4-6): signals, closed streams, ASCII-only locales
and the remaining internal errors each end in one line ``verify: error: ...`` and exit status 2.

Signals and closed file descriptors need a real process; the rest runs in-process through ``main``.
"""

import io
import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

import verify
from special_files import make_read_only, undo_read_only
from verify.cli.main import main
from verify.errors import InputError, Terminated
from verify.model.spec import NetworkSpec

ROOT = Path(__file__).resolve().parents[2]
FAST = 5.0


def one_line(code, err, phrase=""):
    assert code == 2, err
    assert len(err.strip().splitlines()) == 1 and err.startswith("verify: error: "), err
    assert "Traceback" not in err and "internal error" not in err, err
    assert phrase in err, err


def refused(capsys, *argv, phrase=""):
    start = time.perf_counter()
    code = main([str(a) for a in argv])
    err = capsys.readouterr().err
    one_line(code, err, phrase)
    assert time.perf_counter() - start < FAST
    return err


def shell(command: str, env=None, timeout=120):
    """Run ``command`` under bash (for >&- and 2>&-) with this checkout's verify."""
    full = {**os.environ, "PYTHONPATH": str(ROOT), **(env or {})}
    return subprocess.run(["bash", "-c", command.replace("VERIFY", f"{sys.executable} -m verify")],
                          capture_output=True, env=full, timeout=timeout)


# -- signals -------------------------------------------------------------------------------------

def children(pid: int) -> set[int]:
    try:
        return {int(p) for p in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()}
    except OSError:
        return set()


def alive(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().split(")")[-1].split()[0] != "Z"
    except OSError:
        return False


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP])
def test_sigterm_and_sighup_end_every_worker_and_leave_the_store_whole(tmp_path, signum):
    store = tmp_path / "s.sqlite"
    # depth 3 width 4 takes minutes: the sweep is surely running when the signal comes
    proc = subprocess.Popen([sys.executable, "-m", "verify", "table", "--depths", "3", "--widths", "3-4", "--workers",
                             "2", "--store", str(store), "--quiet", "--csv", str(tmp_path / "t.csv")],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True,
                            env={**os.environ, "PYTHONPATH": str(ROOT)})
    workers = set()
    try:
        deadline = time.time() + 60
        while len(children(proc.pid)) < 2 and time.time() < deadline:
            time.sleep(0.05)
        workers = children(proc.pid)
        assert len(workers) >= 2
        time.sleep(0.5)
        os.kill(proc.pid, signum)  # the command only, not its group: it must end its workers itself
        out, err = proc.communicate(timeout=30)
        err = err.decode()
        one_line(proc.returncode, err, f"interrupted ({signal.Signals(signum).name})")
        assert f"results store {store}" in err
        deadline = time.time() + 10
        while any(alive(w) for w in workers) and time.time() < deadline:
            time.sleep(0.05)
        assert not any(alive(w) for w in workers), "a worker outlived the signal"
    finally:  # a failing run must not leave minutes of work running
        for pid in workers | {proc.pid}:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        proc.wait(timeout=30)
    with sqlite3.connect(store) as conn:
        assert conn.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        conn.execute("SELECT COUNT(*) FROM results").fetchone()
    assert not (tmp_path / "t.csv").exists()
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]


def test_a_signal_while_writing_leaves_no_temporary_file(tmp_path, monkeypatch):
    from verify import files

    def interrupted(*args):
        raise Terminated("SIGTERM")

    (tmp_path / "old.csv").write_text("old")
    monkeypatch.setattr(files.os, "replace", interrupted)
    with pytest.raises(Terminated):
        files.write_output(tmp_path / "old.csv", "new")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["old.csv"]
    assert (tmp_path / "old.csv").read_text() == "old"


def test_an_interrupted_certify_promises_no_store(capsys, monkeypatch):
    from verify.constructions import certificate

    for stop in (KeyboardInterrupt(), Terminated("SIGTERM")):
        def interrupted(*args, _stop=stop, **kwargs):
            raise _stop
        monkeypatch.setattr(certificate, "certify", interrupted)
        err = refused(capsys, "certify", "--depth", "2", "--width", "10", phrase="interrupted")
        assert "store" not in err and "resume" not in err


def test_the_signal_handlers_are_restored_after_a_command(capsys):
    before = signal.getsignal(signal.SIGTERM), signal.getsignal(signal.SIGHUP)
    main(["claims", "--json"])
    capsys.readouterr()
    assert (signal.getsignal(signal.SIGTERM), signal.getsignal(signal.SIGHUP)) == before


# -- closed and odd streams ----------------------------------------------------------------------

def test_a_closed_stdout_is_an_error_on_stderr():
    done = shell("VERIFY claims >&-")
    one_line(done.returncode, done.stderr.decode(), "stdout is closed")


def test_a_closed_stderr_still_gives_exit_2_and_nothing_on_stdout():
    done = shell("VERIFY sep --depth 1 --width 2 --bogus 2>&-")
    assert done.returncode == 2 and done.stdout == b""
    done = shell("VERIFY sep --depth 1 --width 2 --quiet 2>&-")
    assert done.returncode == 0 and b"rank" in done.stdout


def test_a_full_disk_on_stdout_is_one_line():
    if not os.path.exists("/dev/full"):
        pytest.skip("no /dev/full")
    done = shell("VERIFY claims > /dev/full")
    one_line(done.returncode, done.stderr.decode(), "No space left")


def ascii_streams(monkeypatch):
    out, err = io.BytesIO(), io.BytesIO()
    monkeypatch.setattr(sys, "stdout", io.TextIOWrapper(out, encoding="ascii", write_through=True))
    monkeypatch.setattr(sys, "stderr", io.TextIOWrapper(err, encoding="ascii", write_through=True))
    return out, err


@pytest.mark.parametrize("argv", [
    ["claims"],
    ["sep", "--depth", "2", "--width", "3", "--quiet"],
    ["sep", "--depth", "1", "--width", "2", "--tokens", "4", "--all-partitions", "--quiet"],
    ["table", "--depths", "1", "--widths", "2", "--heads", "1", "--workers", "1", "--no-store", "--quiet"],
    ["probe-n", "--depth", "1", "--width", "2", "--vocab", "2", "--rank", "1", "--max-tokens", "4", "--no-store",
     "--workers", "1", "--quiet"],
    ["run", "--dry-run", "--no-store"],
    ["check-certificate", "/nonexistent/\u00a7.json"],
])
def test_every_output_works_on_an_ascii_only_stream(monkeypatch, argv):
    out, err = ascii_streams(monkeypatch)
    code = main(argv)
    sys.stdout.flush()
    text, message = out.getvalue().decode("ascii"), err.getvalue().decode("ascii")
    assert code in (0, 2) and "internal error" not in message and "Traceback" not in message, message
    assert text or message
    if argv == ["claims"]:
        assert "sec. 4" in text  # the section sign's fallback


def test_the_c_locale_with_ascii_io_in_a_real_process():
    done = shell("VERIFY claims && VERIFY sep --help && VERIFY sep --depth 1 --width 2",
                 env={"LC_ALL": "C", "LANG": "C", "PYTHONIOENCODING": "ascii"})
    assert done.returncode == 0, done.stderr.decode()
    assert b"Traceback" not in done.stderr and b"sec. " in done.stdout


# -- the remaining internal errors ---------------------------------------------------------------

def test_all_partitions_at_n_2000_is_one_line(capsys):
    refused(capsys, "sep", "--depth", "1", "--width", "2", "--tokens", "2000", "--all-partitions",
            phrase="10^600 balanced partitions")


def test_a_5000_digit_integer_and_dev_zero_as_certificates_are_one_line(capsys, tmp_path):
    (tmp_path / "big.json").write_text('{"format": ' + "9" * 5000 + "}")
    refused(capsys, "check-certificate", tmp_path / "big.json", phrase="4,300 digits")
    refused(capsys, "check-certificate", "/dev/zero", phrase="not a regular file")


def test_a_crafted_certificate_cannot_start_a_binomial_of_10_18_terms(capsys, tmp_path):
    from verify.constructions.certificate import certify

    data = certify(NetworkSpec(depth=2, width=10), seed=0)
    data.update(depth=40, width=2**63, heads=1)
    (tmp_path / "c.json").write_text(json.dumps(data))
    refused(capsys, "check-certificate", tmp_path / "c.json", phrase="forward passes")
    data.update(depth=2, width=10, claimed_rank=2**70)
    (tmp_path / "c.json").write_text(json.dumps(data))
    refused(capsys, "check-certificate", tmp_path / "c.json", phrase="2^64")


def test_out_of_memory_is_one_line(capsys, monkeypatch):
    import verify.api as api

    def exhausted(*args, **kwargs):
        raise MemoryError
    monkeypatch.setattr(api, "separation_rank", exhausted)  # the one call verify sep makes
    refused(capsys, "sep", "--depth", "1", "--width", "2", "--quiet", phrase="ran out of memory")


@pytest.mark.parametrize("text", ["gf:2^61-1", "gf:2**61-1", "gf:2305843009213693951", "GF: 2^61 - 1"])
def test_gf_accepts_the_forms_help_uses(capsys, text):
    assert main(["sep", "--depth", "1", "--width", "2", "--field", text, "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["field"] == f"gf:{2**61 - 1}"


@pytest.mark.parametrize("argv, phrase", [
    (["sep", "--depth", "1", "--width", "2", "--field", "gf:2"], "GF(2)"),
    (["sep", "--depth", "1", "--width", "2", "--field", "gf:2^99999999"], "2^64"),
    (["sep", "--depth", "1", "--width", "2", "--field", "gf:" + "9" * 5000], "has 5,000 digits"),
    (["sep", "--depth", "1", "--width", "2", "--max-memory-gib", "1e300"], "at most 2^40"),
    (["sep", "--depth", "2", "--width", "3", "--attn-dim", "1000000", "--max-memory-gib", "1"], "--attn-dim"),
    (["probe-n", "--depth", "2", "--width", "3", "--attn-dim", "1000000", "--max-memory-gib", "1", "--vocab", "2",
      "--rank", "1", "--no-store"], "--attn-dim"),
    (["monomials", "--depth", "2", "--width", "3", "--tokens", "2", "--attn-dim", "1000000", "--max-memory-gib",
      "1"], "--attn-dim"),
    (["table", "--depths", "1-", "--widths", "2", "--no-store"], "is an unfinished range"),
    (["table", "--depths", "1", "--widths", "2-", "--no-store"], "is an unfinished range"),
])
def test_sizes_limits_and_ranges_are_refused_up_front(capsys, argv, phrase):
    refused(capsys, *argv, phrase=phrase)


@pytest.fixture
def read_only_store(tmp_path):
    path = tmp_path / "ro.sqlite"
    assert main(["table", "--depths", "1", "--widths", "2", "--heads", "1", "--workers", "1", "--store", str(path),
                 "--quiet"]) == 0
    if not make_read_only(path):
        pytest.skip("chattr +i is not available here")
    yield path
    undo_read_only(path)


def test_a_read_only_store_is_called_read_only_and_is_still_listed(capsys, read_only_store):
    capsys.readouterr()
    err = refused(capsys, "table", "--depths", "1", "--widths", "3", "--workers", "1", "--store", read_only_store,
                  phrase="read-only")
    assert "damaged" not in err and "delete" not in err
    assert main(["results", "--store", str(read_only_store), "--format", "json"]) == 0
    assert len(json.loads(capsys.readouterr().out)["results"]) == 1


def test_the_python_api_takes_field_strings_and_raises_input_error():
    spec = NetworkSpec(depth=1, width=2)
    assert verify.separation_rank(spec, "reduced", field="gf:2^61-1").field == f"gf:{2**61 - 1}"
    assert verify.separation_rank(spec, "reduced", field="qq").rank == 3
    # None is the default since the engine owns sep's policy (issue 23): escalating primes, certified
    assert verify.separation_rank(spec, "reduced", field=None).certainty.certified_exact
    for field in ("gf:4", "gf:2", "zz", 7, b"gf:101", 2.5):
        with pytest.raises(InputError):
            verify.separation_rank(spec, "reduced", field=field)
    with pytest.raises(InputError):
        verify.separation_rank("depth 1", "reduced")


def test_plot_needs_matplotlib_before_any_work_and_says_how_to_install_it(capsys, monkeypatch, tmp_path):
    import importlib.util

    import verify.sweeps.executor as executor

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "matplotlib" else real(name, *a))
    monkeypatch.setattr(executor, "run_sweep", lambda *a, **k: pytest.fail("work started before the check"))
    for argv in (["table", "--depths", "1", "--widths", "2", "--no-store", "--plot", str(tmp_path / "t.png")],
                 ["probe-n", "--depth", "1", "--width", "2", "--vocab", "2", "--rank", "1", "--no-store",
                  "--plot", str(tmp_path / "p.png")]):
        err = refused(capsys, *argv, phrase="pip install -e '.[plot]'")
        assert "verify[plot]" not in err


def test_every_install_hint_uses_the_checkout_form():
    hints = []
    for path in list((ROOT / "verify").rglob("*.py")) + list((ROOT / "docs").rglob("*.md")) + [ROOT / "README.md"]:
        for number, line in enumerate(path.read_text().splitlines(), 1):
            if "pip install" in line and "'verify[" in line:
                hints.append(f"{path.relative_to(ROOT)}:{number}")
    assert hints == []
