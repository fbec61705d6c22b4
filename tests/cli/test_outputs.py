"""Outputs respect what is there (issue 21, part 3): every command that writes a file writes it the
way ``cp`` would.  A regular file or a new path is replaced atomically (new files 0666 less the umask,
existing ones keep their mode), a symlink is written through to its target, a character device or a
FIFO is streamed to and stays what it is, ``-`` is stdout, anything else is one line and exit 2.

As root, a buggy writer would replace the system's /dev/null, so the character device these tests
write to is a private null device made with mknod in the test's folder (``/dev/null`` itself when not
root, where replacing it is impossible anyway).
"""

import json
import os
import signal
import stat
import time

import pytest

import special_files
from special_files import FifoReader
from verify.cli.main import main
from verify.files import read_text, write_output


@pytest.fixture
def null_device(tmp_path):
    return special_files.null_device(tmp_path)


@pytest.fixture(scope="module")
def store_path(tmp_path_factory):
    path = tmp_path_factory.mktemp("store") / "s.sqlite"
    assert main(["table", "--depths", "1", "--widths", "2", "--heads", "1", "--workers", "1", "--store", str(path),
                 "--quiet"]) == 0
    return path


#: Each writer: the argument list with OUT where the output path goes, and a check of what it wrote.
WRITERS = {
    "certify --out": (["certify", "--depth", "2", "--width", "10", "--quiet", "--out", "OUT"],
                      lambda b: json.loads(b)["claimed_rank"] == 4),
    "table --csv": (["table", "--depths", "1", "--widths", "2", "--heads", "1", "--workers", "1", "--no-store",
                     "--quiet", "--csv", "OUT"], lambda b: b.startswith(b"depth,")),
    "results --out": (["results", "--format", "csv", "--store", "STORE", "--out", "OUT"],
                      lambda b: b.startswith(b"kind,")),
}


def run_writer(capsys, name, out, store_path):
    argv, valid = WRITERS[name]
    argv = [str(out) if a == "OUT" else str(store_path) if a == "STORE" else a for a in argv]
    code = main(argv)
    captured = capsys.readouterr()
    return code, captured.out, captured.err, valid


@pytest.mark.parametrize("name", WRITERS)
def test_a_new_file_gets_0666_less_the_umask_and_an_existing_one_keeps_its_mode(capsys, tmp_path, store_path, name):
    old = os.umask(0o022)
    try:
        code, _, err, valid = run_writer(capsys, name, tmp_path / "new", store_path)
        assert code == 0, err
        assert stat.S_IMODE(os.stat(tmp_path / "new").st_mode) == 0o644
        assert valid((tmp_path / "new").read_bytes())
        (tmp_path / "kept").write_text("old")
        os.chmod(tmp_path / "kept", 0o640)
        assert run_writer(capsys, name, tmp_path / "kept", store_path)[0] == 0
        assert stat.S_IMODE(os.stat(tmp_path / "kept").st_mode) == 0o640
        assert valid((tmp_path / "kept").read_bytes())
    finally:
        os.umask(old)
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []  # no temporary left


@pytest.mark.parametrize("name", WRITERS)
def test_a_symlink_is_written_through_to_its_target(capsys, tmp_path, store_path, name):
    (tmp_path / "target").write_text("old")
    (tmp_path / "link").symlink_to(tmp_path / "target")
    (tmp_path / "dangling").symlink_to(tmp_path / "sub" / "made")
    for link, target in [("link", "target"), ("dangling", "sub/made")]:
        code, _, err, valid = run_writer(capsys, name, tmp_path / link, store_path)
        assert code == 0, err
        assert (tmp_path / link).is_symlink()
        assert valid((tmp_path / target).read_bytes())


@pytest.mark.parametrize("name", WRITERS)
def test_a_character_device_is_streamed_to_and_never_replaced(capsys, store_path, null_device, name):
    code, _, err, _ = run_writer(capsys, name, null_device, store_path)
    assert code == 0, err
    assert stat.S_ISCHR(os.stat(null_device).st_mode)
    assert os.stat(null_device).st_rdev == os.makedev(1, 3)


@pytest.mark.parametrize("name", WRITERS)
def test_a_fifo_is_streamed_to_its_reader_and_refused_without_one(capsys, tmp_path, store_path, name):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    reader = FifoReader(fifo)
    code, _, err, valid = run_writer(capsys, name, fifo, store_path)
    data = reader.finish()
    assert code == 0, err
    assert stat.S_ISFIFO(os.stat(fifo).st_mode) and valid(data)
    start = time.perf_counter()

    def stuck(*args):
        raise TimeoutError("the writer waited for a reader")
    previous = signal.signal(signal.SIGALRM, stuck)
    signal.alarm(10)  # a writer that waits for a reader would otherwise hang the suite
    try:
        code, _, err, _ = run_writer(capsys, name, fifo, store_path)  # nobody reads now: one line, no wait
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
    assert code == 2 and "no reader" in err and len(err.strip().splitlines()) == 1
    assert time.perf_counter() - start < 10 and stat.S_ISFIFO(os.stat(fifo).st_mode)


@pytest.mark.parametrize("name", WRITERS)
def test_dash_is_stdout(capsys, tmp_path, store_path, name, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, out, err, _ = run_writer(capsys, name, "-", store_path)
    assert code == 0, err
    assert not (tmp_path / "-").exists()
    if name == "certify --out":
        assert json.loads(out)["claimed_rank"] == 4
    else:
        assert out.startswith(("depth,", "kind,")), out  # only the file: table --csv - puts its markdown on stderr


@pytest.mark.parametrize("name", WRITERS)
def test_a_folder_is_refused_with_one_line(capsys, tmp_path, store_path, name):
    code, _, err, _ = run_writer(capsys, name, tmp_path, store_path)
    assert code == 2 and "folder" in err and len(err.strip().splitlines()) == 1


def test_run_reports_respect_symlinks_and_devices_inside_the_folder(capsys, tmp_path, null_device):
    out = tmp_path / "reports"
    partial = out / "partial"  # where --claim writes
    partial.mkdir(parents=True)
    (tmp_path / "elsewhere.md").write_text("old")
    (partial / "report.md").symlink_to(tmp_path / "elsewhere.md")
    os.symlink(null_device, partial / "report.json")
    code = main(["run", "--claim", "levine2020_supp1_lemma1_composition_tree", "--out", str(out), "--no-store",
                 "--workers", "1", "--quiet"])
    assert code == 0, capsys.readouterr().err
    assert (partial / "report.md").is_symlink() and (partial / "report.json").is_symlink()
    assert "composition_tree" in (tmp_path / "elsewhere.md").read_text()
    assert stat.S_ISCHR(os.stat(null_device).st_mode)
    assert main(["run", "--out", "-", "--no-store"]) == 2
    assert "stdout" in capsys.readouterr().err


def test_the_plot_is_written_like_every_other_output(capsys, tmp_path, null_device):
    pytest.importorskip("matplotlib")
    (tmp_path / "target.png").write_text("old")
    (tmp_path / "link.png").symlink_to(tmp_path / "target.png")
    for out in (tmp_path / "link.png", null_device):
        code = main(["table", "--depths", "1", "--widths", "2", "--heads", "1", "--workers", "1", "--no-store",
                     "--quiet", "--json", "--plot", str(out)])
        assert code == 0, capsys.readouterr().err
    assert (tmp_path / "link.png").is_symlink()
    assert (tmp_path / "target.png").read_bytes().startswith(b"\x89PNG")
    assert stat.S_ISCHR(os.stat(null_device).st_mode)


def test_write_output_writes_bytes_and_text_to_stdout(capsysbinary):
    write_output("-", b"\x89PNG")
    write_output("-", "sep \u2265 3\n")
    assert capsysbinary.readouterr().out == b"\x89PNG" + "sep \u2265 3\n".encode()


def test_read_text_sizes_before_reading_and_refuses_special_files(tmp_path):
    from verify.errors import InputError

    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    for path, phrase in [("/dev/zero", "not a regular file"), (fifo, "not a regular file"),
                         (tmp_path, "a folder"), (tmp_path / "missing", "does not exist")]:
        start = time.perf_counter()
        with pytest.raises(InputError, match=phrase):
            read_text(path, 100, "certificate file", "fix")
        assert time.perf_counter() - start < 1
    (tmp_path / "big").write_bytes(b"x" * 101)
    with pytest.raises(InputError, match="MiB"):
        read_text(tmp_path / "big", 100, "certificate file", "fix")
    assert read_text(tmp_path / "big", 101, "certificate file", "fix") == "x" * 101


def test_a_read_only_file_is_refused_and_kept(tmp_path, monkeypatch):
    """As cp refuses it (root writes through mode bits, so the refusal is seen through os.access)."""
    from verify import files
    from verify.errors import InputError

    target = tmp_path / "kept.csv"
    target.write_text("old")
    real = os.access
    monkeypatch.setattr(files.os, "access", lambda p, mode: False if str(p) == str(target) else real(p, mode))
    with pytest.raises(InputError, match="read-only"):
        files.check_output(target, "--csv")
    with pytest.raises(InputError, match="read-only"):
        write_output(target, "new")
    assert target.read_text() == "old"


#: A claim whose check searches with hypothesis (100 drawn points): enough for hypothesis to store the
#: constants it reads from local source, which it did under ./.hypothesis/ of the working directory.
CHAIN_CLAIM = '''
from verify.authoring import Claim, InequalityChain, Source, n

CLAIM = Claim(
    id="toy_chain_claim",
    source=Source("toy.md", "§1", "eq. 1"),
    statement="n <= n + 1 for n in 1..50",
    expected="not-decided",
    checks=[InequalityChain([n, n + 1], ["<="], grid={n: [1, 2]}, search=100, search_ranges={n: (1, 50)})],
)
'''


def test_hypothesis_stores_in_verify_s_cache_while_a_claim_searches(tmp_path, monkeypatch):
    """Inside a claim's search hypothesis' storage folder is $XDG_CACHE_HOME/verify/hypothesis, not
    ./.hypothesis of the working folder; outside it, and where the user chose a folder, theirs."""
    import hypothesis.configuration as configuration
    from hypothesis import strategies as st

    from verify.claims.search import search

    monkeypatch.setattr(configuration, "__hypothesis_home_directory", None)  # restored after the test
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.delenv("HYPOTHESIS_STORAGE_DIRECTORY", raising=False)
    seen = []
    search(st.integers(0, 3), lambda _: seen.append(configuration.storage_directory("x", intent_to_write=False).path),
           2)
    assert seen and all(path == tmp_path / "cache" / "verify" / "hypothesis" / "x" for path in seen)
    default = getattr(configuration, "__hypothesis_home_directory_default")  # ./.hypothesis when imported
    assert configuration.storage_directory("x", intent_to_write=False).path == default / "x"
    seen.clear()  # hypothesis' default now resolved: still not where a claim's search stores
    search(st.integers(0, 3), lambda _: seen.append(configuration.storage_directory("x", intent_to_write=False).path),
           2)
    assert seen and all(path == tmp_path / "cache" / "verify" / "hypothesis" / "x" for path in seen)
    monkeypatch.setattr(configuration, "__hypothesis_home_directory", None)
    monkeypatch.setenv("HYPOTHESIS_STORAGE_DIRECTORY", str(tmp_path / "mine"))
    seen.clear()
    search(st.integers(0, 3), lambda _: seen.append(configuration.storage_directory("x", intent_to_write=False).path),
           2)
    assert seen and all(path == tmp_path / "mine" / "x" for path in seen)


@pytest.mark.slow
def test_verify_run_leaves_nothing_in_the_working_folder_but_its_report(tmp_path):
    """``verify run`` in a fresh folder: afterwards the folder holds verify-report/ and nothing else;
    what hypothesis stores went to verify's cache folder ($XDG_CACHE_HOME/verify/hypothesis)."""
    import subprocess
    import sys

    registry = tmp_path / "toy_chain_registry"
    (registry / "coverage").mkdir(parents=True)
    (registry / "__init__.py").write_text("")
    (registry / "toy_chain_claim.py").write_text(CHAIN_CLAIM)
    work, cache = tmp_path / "work", tmp_path / "cache"
    work.mkdir()
    env = {k: v for k, v in os.environ.items() if k not in ("HYPOTHESIS_STORAGE_DIRECTORY", "VERIFY_REGISTRY")}
    done = subprocess.run([sys.executable, "-m", "verify", "run", "--registry", str(registry), "--no-store",
                           "--quiet"], cwd=work, env={**env, "XDG_CACHE_HOME": str(cache)}, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert sorted(p.name for p in work.iterdir()) == ["verify-report"]
    assert any((cache / "verify" / "hypothesis").iterdir())  # hypothesis did store something, there
