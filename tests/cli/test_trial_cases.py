"""The new-user trial's cases (issue 43), rerun from the suite: each is (argv, expected exit status,
a fragment the one-line message must hold), run in-process through ``verify.cli.main.main``; ``{tmp}``
in an argument is the test's own folder. Cases that need a signal or a second process are below
the table, one test each.

What the table covers: outputs that cannot collide (item 2), refusals that used to be "internal
error", a wrong hint or a silent default (items 3 and 5)."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

import toy_registry
from verify.cli.main import main

#: (argv, exit status, fragment of the error line); every case is refused before any work.
REFUSED = [
    # item 2: two outputs of one run in one place
    (["run", "--out", "{tmp}/D", "--junit", "{tmp}/D/report.json", "--no-store"], 2,
     "--junit and --out (report.json) name one file"),
    (["run", "--out", "{tmp}/D", "--claim", "x", "--junit", "{tmp}/D/partial/report.md", "--no-store"], 2,
     "--junit and --out (report.md) name one file"),
    (["run", "--out", "{tmp}/D", "--junit", "-", "--json", "--no-store"], 2, "--junit and --json would both go to "
        "stdout"),
    (["run", "--out", "{tmp}/D", "--junit", "{tmp}/s.sqlite", "--store", "{tmp}/s.sqlite"], 2,
     "--junit and --store name one file"),
    (["table", "--depths", "1", "--widths", "2", "--csv", "-", "--plot", "-", "--no-store"], 2,
     "--csv and --plot would both go to stdout"),
    (["table", "--depths", "1", "--widths", "2", "--csv", "{tmp}/t.csv", "--store", "{tmp}/t.csv"], 2,
     "--csv and --store name one file"),
    (["table", "--depths", "1", "--widths", "2", "--csv", "-", "--json", "--no-store"], 2,
     "--csv and --json would both go to stdout"),
    (["probe-n", "--depth", "1", "--width", "2", "--vocab", "2", "--rank", "1", "--plot", "-", "--json",
      "--no-store"], 2, "--plot and --json would both go to stdout"),
    (["results", "--store", "{tmp}/s.sqlite", "--out", "{tmp}/s.sqlite"], 2, "--out and --store name one file"),
    (["run", "--out", "{tmp}/D", "--junit", "{tmp}/s.sqlite-wal", "--store", "{tmp}/s.sqlite"], 2,
     "--junit and --store (s.sqlite-wal) name one file"),
    # empty paths are not "a folder" and not the default
    (["run", "--out", "", "--no-store"], 2, "--out '' is an empty path"),
    (["run", "--out", "{tmp}/D", "--junit", "", "--no-store"], 2, "--junit '' is an empty path"),
    (["run", "--out", "{tmp}/D", "--store", ""], 2, "--store '' is an empty path"),
    (["table", "--depths", "1", "--widths", "2", "--csv", "", "--no-store"], 2, "--csv '' is an empty path"),
    (["results", "--store", ""], 2, "--store '' is an empty path"),
    (["certify", "--depth", "2", "--width", "10", "--out", ""], 2, "--out '' is an empty path"),
    # item 5: hints that name what the command has, and values shown by their start
    (["certify", "--depth", "2", "--width", "10", "--heads", "3"], 2,
     ("choose --heads among [1, 2, 5, 10]", "--attn-dim")),
    (["sep", "--depth", "1", "--width", "2", "--field", "gf:" + "1" * 5000], 2,
     ("field modulus 11111111111111111111... has 5,000 digits", "1" * 100)),
    (["sep", "--dépth", "1", "--width", "2"], 2, ("unknown option --dépth (did you mean --depth?)", "required")),
    (["probe-n", "--dpth", "2", "--width", "3"], 2, "unknown option --dpth (did you mean --depth?)"),
    (["coverage", "--dir", "{tmp}/file"], 2, "is a file, not a folder"),
    (["coverage", "--dir", "{tmp}/empty"], 1, "no *.toml index file, so no statement is covered"),
    (["probe-n", "--depth", "2", "--width", "3", "--vocab", "2", "--rank", "1", "--no-store", "--field", "gf:7"], 2,
     "--field gf:7 is too small for the token route"),
    (["sep", "--depth", "1", "--width", "2", "--max-memory-gib", "0"], 2,
     "--max-memory-gib must be a finite number above 0"),
    (["sep", "--depth", "1", "--width", "2", "--store", "{tmp}/empty"], 2, ("or drop --store", "--no-store")),
    # --device gpu where no GPU would serve: no advice to install cupy (cupy is absent in these tests)
    (["probe-n", "--depth", "2", "--width", "2", "--vocab", "2", "--rank", "2", "--no-store", "--device", "gpu"], 2,
     ("the token routes rank on the CPU", "cupy")),
    (["sep", "--depth", "1", "--width", "2", "--tokens", "2", "--method", "coefficients", "--device", "gpu"], 2,
     ("serves the reduced route only", "cupy")),
]


def _argv(argv, tmp):
    return [a.replace("{tmp}", str(tmp)) for a in argv]


@pytest.mark.parametrize("argv, status, fragment", REFUSED, ids=[" ".join(c[0])[:60] for c in REFUSED])
def test_each_trial_case_is_one_line_with_its_exit_status(argv, status, fragment, tmp_path, capsys, monkeypatch):
    from verify.constructions import certificate
    from verify.exact import device as devices
    from verify.rank import sep
    from verify.sweeps import executor

    monkeypatch.setattr(devices, "gpu_device", lambda: "cupy is not installed")
    for module, name in ((executor, "run_sweep"), (sep, "repeated_ranks"), (certificate, "certify")):
        monkeypatch.setattr(module, name, lambda *a, **k: pytest.fail("work started before the refusal"))
    (tmp_path / "file").write_text("not a folder")
    (tmp_path / "empty").mkdir()
    present, absent = fragment if isinstance(fragment, tuple) else (fragment, None)
    assert main(_argv(argv, tmp_path)) == status
    out, err = capsys.readouterr()
    assert present in (err if status == 2 else out), err
    assert absent is None or absent not in err, err
    if status == 1:  # a verdict, not a refusal: printed on stdout
        assert "INDEX INCOMPLETE" in out, out
        return
    assert err.startswith("verify: error: ") and len(err.strip().splitlines()) == 1, err
    assert out == ""
    assert not (tmp_path / "D").exists() and not (tmp_path / "s.sqlite").exists()  # nothing made before refusing


def test_two_outputs_are_one_file_by_inode_or_resolved_path_and_devices_may_take_several(tmp_path):
    from verify.errors import InputError
    from verify.files import distinct_outputs

    (tmp_path / "a.csv").write_text("x")
    (tmp_path / "link.csv").symlink_to(tmp_path / "a.csv")
    (tmp_path / "sub").mkdir()
    for other in (tmp_path / "link.csv", tmp_path / "sub" / ".." / "a.csv", tmp_path / "new" / ".." / "a.csv"):
        with pytest.raises(InputError, match="name one file"):
            distinct_outputs([("--csv", tmp_path / "a.csv"), ("--junit", other)])
    with pytest.raises(InputError, match="name one file"):  # neither exists yet
        distinct_outputs([("--csv", tmp_path / "b.csv"), ("--junit", tmp_path / "sub" / ".." / "b.csv")])
    with pytest.raises(InputError, match="both go to stdout"):
        distinct_outputs([("--csv", "-"), ("--plot", "-")])
    distinct_outputs([("--csv", "/dev/null"), ("--plot", "/dev/null"), ("--junit", None), ("--json", "-")])
    distinct_outputs([("--csv", tmp_path / "a.csv"), ("--junit", tmp_path / "b.csv")])


def test_the_file_stdout_is_redirected_to_counts_as_stdout(tmp_path, monkeypatch):
    # verify run --junit /dev/stdout > ci.xml: /dev/stdout is then ci.xml itself
    from verify.errors import InputError
    from verify.files import distinct_outputs, is_stdout

    with open(tmp_path / "ci.xml", "w") as redirected:
        monkeypatch.setattr(sys, "stdout", redirected)
        assert is_stdout(tmp_path / "ci.xml") and is_stdout("-") and not is_stdout(tmp_path / "other.xml")
        with pytest.raises(InputError, match="both go to stdout"):
            distinct_outputs([("--junit", tmp_path / "ci.xml"), ("--json", "-")])


def test_a_plot_on_stdout_leaves_stdout_to_the_png_and_the_table_on_stderr(capsysbinary):
    pytest.importorskip("matplotlib")
    assert main(["probe-n", "--depth", "1", "--width", "2", "--vocab", "2", "--rank", "1", "--max-tokens", "4",
                 "--patience", "1", "--no-store", "--quiet", "--plot", "-"]) == 0
    out, err = capsysbinary.readouterr()
    assert out.startswith(b"\x89PNG") and b"rank" in err


@pytest.fixture
def toy(tmp_path, monkeypatch):
    monkeypatch.delenv("VERIFY_REGISTRY", raising=False)
    folder = toy_registry.make(tmp_path)
    yield folder
    toy_registry.forget(folder)


def test_junit_on_stdout_leaves_stdout_pure_xml_and_the_table_on_stderr(toy, tmp_path, capfd):
    from junitparser import JUnitXml

    assert main(["run", "--registry", str(toy), "--out", str(tmp_path / "r"), "--junit", "-", "--quiet",
                 "--no-store"]) == 1  # the toy registry's one planted claim is unexpected
    out, err = capfd.readouterr()
    assert out.startswith("<?xml") and out.rstrip().endswith(">"), out[-300:]
    (tmp_path / "ci.xml").write_text(out)
    [suite] = list(JUnitXml.fromfile(str(tmp_path / "ci.xml")))
    assert {case.name for case in suite} == set(toy_registry.CLAIMS)
    assert "toy_planted" in err and "JUnit: -" in err


def test_probe_n_with_a_one_token_vocabulary_is_rank_one(capsys):
    # was "internal error (ValueError: cannot reshape array of size 0)"; V = 1: one sequence, rank 1
    # (tests/rank/test_token_route.py checks it against enumeration and the naive forward pass)
    assert main(["probe-n", "--depth", "2", "--width", "3", "--vocab", "1", "--rank", "1", "--no-store", "--json",
                 "--quiet", "--max-tokens", "6"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [row["rank"] for row in data["ranks"]] == [1, 1, 1]


# -- a damaged store row is "the store is damaged", whatever the damage -----------------------------

@pytest.fixture(scope="module")
def stored(tmp_path_factory):
    """A store holding a sep run's degree blocks (sep --store) and a table's sep row."""
    path = tmp_path_factory.mktemp("damage") / "s.sqlite"
    assert main(["sep", "--depth", "2", "--width", "2", "--store", str(path), "--quiet", "--json"]) == 0
    assert main(["table", "--depths", "1", "--widths", "2", "--heads", "1", "--store", str(path), "--quiet",
                 "--workers", "1", "--json"]) == 0
    return path


@pytest.mark.parametrize("kind, change, fragment", [
    ("degree_block", "json_set(value, '$.rank', 999)", "rank 999 above its rows"),
    ("degree_block", "json_set(value, '$.rank', -1)", "rank -1 is not a non-negative integer"),
    ("degree_block", "json_set(value, '$.colour', 1)", "unknown fields ['colour']"),
    ("degree_block", "json_remove(value, '$.cols')", "missing fields ['cols']"),
    ("sep", "json_set(value, '$.rank', 999)", "rank 999 above its upper_bound"),
    ("sep", "'[1, 2]'", "not a JSON object"),
])
def test_a_damaged_row_is_the_store_damaged_not_the_engine_wrong(stored, tmp_path, capsys, kind, change, fragment):
    import shutil
    import sqlite3

    path = tmp_path / "s.sqlite"
    shutil.copy(stored, path)
    with sqlite3.connect(path) as conn:
        assert conn.execute(f"UPDATE results SET value = {change} WHERE kind = ?", (kind,)).rowcount > 0
    conn.close()
    argv = (["sep", "--depth", "2", "--width", "2"] if kind == "degree_block" else
            ["table", "--depths", "1", "--widths", "2", "--heads", "1", "--workers", "1"])
    capsys.readouterr()
    assert main(argv + ["--store", str(path), "--quiet"]) == 2
    out, err = capsys.readouterr()
    assert "is damaged" in err and fragment in err and "engine" not in err, err
    assert len(err.strip().splitlines()) == 1 and out == ""


# Rows no engine writes, within the checks Store.get makes on every row: a degree block within its rows and columns
# but above the block's proven bound (depth 3 width 2 two heads has deficient blocks, e.g. rank 30 of 36 x 56), and a
# probe step above its count cap (V = 2 without positions: at N = 4 three multisets of two tokens a side).
@pytest.mark.parametrize("argv, damage, fragment", [
    (["sep", "--depth", "3", "--width", "2", "--heads", "2"],
     "json_set(value, '$.rank', min(json_extract(value, '$.rows'), json_extract(value, '$.cols'))) "
     "WHERE kind = 'degree_block'", "above the block's proven bound"),
    (["probe-n", "--depth", "1", "--width", "3", "--vocab", "2", "--rank", "2", "--max-tokens", "4"],
     "json_set(value, '$.rank', 999) WHERE kind = 'probe_step' AND json_extract(params, '$.tokens') = 4",
     "N = 4: rank 999 above the count cap 3"),
], ids=["block above its bound", "probe step above its cap"])
def test_a_stored_value_beyond_its_proven_bound_is_the_store_damaged(tmp_path, capsys, argv, damage, fragment):
    import sqlite3

    path, argv = tmp_path / "s.sqlite", [*argv, "--quiet"]
    assert main([*argv, "--store", str(path), "--json"]) == 0
    with sqlite3.connect(path) as conn:
        changed = conn.execute(f"UPDATE results SET value = {damage}").rowcount
    conn.close()
    capsys.readouterr()
    assert changed > 0 and main([*argv, "--store", str(path)]) == 2
    out, err = capsys.readouterr()
    assert "is damaged" in err and fragment in err and "engine" not in err, err
    assert len(err.strip().splitlines()) == 1 and out == ""


# -- a matplotlib that is found but does not import is refused before the work ----------------------

@pytest.mark.parametrize("argv, broken", [
    (["table", "--depths", "1", "--widths", "2", "--csv", "{tmp}/t.csv", "--plot", "{tmp}/t.png", "--store",
      "{tmp}/s.sqlite"], "__init__.py"),
    (["probe-n", "--depth", "1", "--width", "2", "--vocab", "2", "--rank", "1", "--plot", "{tmp}/p.png", "--store",
      "{tmp}/s.sqlite"], "pyplot.py"),
])
def test_a_broken_matplotlib_is_refused_up_front(argv, broken, tmp_path, capsys, monkeypatch):
    import verify.sweeps.executor as executor

    fake = tmp_path / "site" / "matplotlib"
    fake.mkdir(parents=True)
    (fake / "__init__.py").write_text("def use(backend):\n    pass\n")  # found, imports; pyplot may not
    (fake / broken).write_text("raise ImportError('libfoo.so: cannot open shared object file')\n")
    monkeypatch.syspath_prepend(str(tmp_path / "site"))
    for name in [m for m in sys.modules if m == "matplotlib" or m.startswith("matplotlib.")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setattr(executor, "run_sweep", lambda *a, **k: pytest.fail("work started before the check"))
    assert main(_argv(argv, tmp_path)) == 2
    out, err = capsys.readouterr()
    assert "installed but does not import" in err and "libfoo.so" in err and len(err.strip().splitlines()) == 1
    assert out == "" and not (tmp_path / "s.sqlite").exists()


# -- benchmarks/atlas.py behaves like a command -------------------------------------------------------

ATLAS = Path(__file__).resolve().parents[2] / "benchmarks" / "atlas.py"

#: The cell names the engine refuses (verify.sweeps.atlas.plan.parse_cell), each with its message.
BAD_CELLS = [("99,99,99,99", "need 1 <= L <= 6, 2 <= V <= 16"), ("3,3,1,7", "grid cells take R = 0, 1, 2 or full"),
             ("bound:4,8,1,full", "bound cells take R = 0, 1 or 2"), ("2,2,9,0", "1 <= H <= V + 1")]


@pytest.mark.parametrize("name, fragment", BAD_CELLS)
def test_the_atlas_refuses_a_cell_outside_its_grid(name, fragment):
    from verify.errors import InputError
    from verify.sweeps.atlas.plan import parse_cell

    with pytest.raises(InputError, match=fragment.replace("+", r"\+")):
        parse_cell(name)


#: The script run as a user runs it (tests never import a benchmark script): refused before any work,
#: one line, exit 2, nothing written anywhere (never the current folder's results/).
ATLAS_REFUSED = [
    (["--cells", "99,99,99,99", "--out", "{tmp}/o"], "need 1 <= L <= 6"),
    (["--quick"], "give --out DIR"),
    (["--quick", "--out", "{tmp}/file"], "is an existing file, not a folder"),
    (["--quick", "--out", "{tmp}/file/sub", "--jobs", "2"], "cannot write in"),
]


@pytest.mark.parametrize("argv, fragment", ATLAS_REFUSED, ids=[" ".join(c[0])[:50] for c in ATLAS_REFUSED])
def test_the_atlas_script_refuses_before_any_work(argv, fragment, tmp_path):
    (tmp_path / "file").write_text("not a folder")
    done = subprocess.run([sys.executable, str(ATLAS), *_argv(argv, tmp_path)], cwd=tmp_path, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 2, done.stdout[-500:]
    err = done.stderr
    assert err.startswith("atlas: error: ") and fragment in err and len(err.strip().splitlines()) == 1, err
    assert "[1/" not in done.stdout  # no cell was computed
    assert not (tmp_path / "results").exists() and not list(tmp_path.glob("o/*.csv"))


def test_the_atlas_prices_a_grid_cell_with_no_committed_seconds_and_refuses_a_plan_above_its_minutes(tmp_path):
    # the cell's ceiling: the limit's budget, the loop's, one last step past it and the repeats' budget (Lemma R),
    # each at 2 / L from depth 3
    from verify.sweeps.atlas.plan import GRIDS, Cell, grid_ceiling

    full = GRIDS["full"]["budget"]
    assert grid_ceiling(Cell("grid", 2, 3, 1, 1)) == full.limit_evaluations + full.loop_evaluations + \
        full.step_evaluations + full.repeat_evaluations
    assert grid_ceiling(Cell("grid", 4, 3, 1, 0)) == full.limit_evaluations // 2 + full.loop_entries + \
        full.matrix_entries + full.repeat_evaluations // 2
    # priced, then refused above --max-minutes without --force, before any cell is computed
    done = subprocess.run([sys.executable, str(ATLAS), "--cells", "2,3,1,1", "--out", str(tmp_path / "o"),
                           "--max-minutes", "1e-9"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 2 and "pass --force to run it" in done.stderr, done.stderr
    assert "not priced" not in done.stdout and "[1/" not in done.stdout
    assert f"at most {grid_ceiling(Cell('grid', 2, 3, 1, 1)):,} evaluations" in done.stdout
    assert not list(tmp_path.glob("o/*.csv"))


# -- verify sep --store: what an interrupt keeps, what a refusal creates, a full disk -----------------

@pytest.mark.parametrize("signal_name", ["SIGTERM", "SIGHUP"])
def test_an_interrupted_sep_store_says_the_finished_blocks_are_kept_and_the_command_resumes(
        signal_name, tmp_path, capsys, monkeypatch):
    # the signal handler of verify.cli.faults raises Terminated in the main thread; raised here after the
    # first stored block, as the handler would on a signal arriving then
    from verify.errors import Terminated
    from verify.sweeps import block_rows

    real = block_rows._RunRows.put

    def put_then_signal(self, *args):
        real(self, *args)
        raise Terminated(signal_name)
    monkeypatch.setattr(block_rows._RunRows, "put", put_then_signal)
    path = tmp_path / "s.sqlite"
    argv = ["sep", "--depth", "2", "--width", "2", "--store", str(path), "--quiet", "--json"]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert f"interrupted ({signal_name}); 1 degree block finished in this run is kept in the results store" in err
    assert "the same command resumes where it stopped" in err and len(err.strip().splitlines()) == 1
    monkeypatch.setattr(block_rows._RunRows, "put", real)
    assert main(argv) == 0 and json.loads(capsys.readouterr().out)["rank"] == 18  # resumed: the known rank


@pytest.mark.parametrize("extra, fragment", [
    (["--depth", "4", "--width", "6", "--max-memory-gib", "0.001"], "raise --max-memory-gib"),
    (["--depth", "2", "--width", "2", "--device", "gpu"], "--device gpu needs cupy"),
    (["--depth", "1", "--width", "2", "--tokens", "2", "--method", "coefficients"],
     "the coefficients route has none; drop --store"),
    (["--depth", "2", "--width", "2", "--templates", "3"], "--templates applies to the grid route only"),
])
def test_sep_store_creates_nothing_before_a_refusal(extra, fragment, tmp_path, capsys, monkeypatch):
    from verify.exact import device as devices

    monkeypatch.setattr(devices, "gpu_device", lambda: "cupy is not installed")
    assert main(["sep", *extra, "--store", str(tmp_path / "new" / "s.sqlite")]) == 2
    err = capsys.readouterr().err
    assert fragment in err and len(err.strip().splitlines()) == 1, err
    assert not (tmp_path / "new").exists()


def test_a_store_on_a_full_disk_is_named_full_and_leaves_no_half_made_files(tmp_path, monkeypatch):
    # SQLite answers a disk too full for its -wal and -shm files with "disk I/O error" after making them:
    # played here by a connect that makes them and fails so, on a disk statvfs reports with 4 KiB free
    import sqlite3
    from types import SimpleNamespace

    from verify.errors import InputError
    from verify.sweeps import store as stores

    path = tmp_path / "s.sqlite"

    def connect(target, *args, **kwargs):
        for tail in ("", "-wal", "-shm"):
            Path(f"{target}{tail}").write_bytes(b"")
        raise sqlite3.OperationalError("disk I/O error")
    monkeypatch.setattr(stores.sqlite3, "connect", connect)
    monkeypatch.setattr(stores.os, "statvfs", lambda folder: SimpleNamespace(f_bavail=1, f_frsize=4096))
    with pytest.raises(InputError, match="the disk holding the results store .* is full"):
        stores.Store(path)
    assert sorted(p.name for p in tmp_path.iterdir()) == []
    monkeypatch.setattr(stores.os, "statvfs", lambda folder: SimpleNamespace(f_bavail=10**6, f_frsize=4096))
    with pytest.raises(InputError) as caught:  # room on the disk: not called full
        stores.Store(path)
    assert "is full" not in str(caught.value) and sorted(p.name for p in tmp_path.iterdir()) == []


def test_results_lists_and_filters_the_degree_block_rows_it_shows(tmp_path, capsys):
    path = tmp_path / "s.sqlite"
    assert main(["sep", "--depth", "2", "--width", "2", "--store", str(path), "--quiet", "--json"]) == 0
    capsys.readouterr()
    assert main(["results", "--store", str(path), "--kind", "degree_block", "--format", "json"]) == 0
    rows = json.loads(capsys.readouterr().out)["results"]
    # depth 2 width 2: blocks 2 and 3 ranked (6 + 6), the others implied (eq. of docs/mathematics.md §2)
    assert rows and {r["kind"] for r in rows} == {"degree_block"}
    assert all(r["value"]["rank"] <= min(r["value"]["rows"], r["value"]["cols"]) for r in rows)


def test_a_certificate_with_a_key_given_twice_is_refused(tmp_path, capsys):
    assert main(["certify", "--depth", "2", "--width", "10", "--out", str(tmp_path / "c.json"), "--quiet"]) == 0
    text = (tmp_path / "c.json").read_text()
    (tmp_path / "d.json").write_text(text.replace("{", '{"depth": 9, ', 1))  # json.loads would keep the last
    capsys.readouterr()
    assert main(["check-certificate", str(tmp_path / "c.json")]) == 0
    assert main(["check-certificate", str(tmp_path / "d.json")]) == 2
    assert "gives the key 'depth' twice" in capsys.readouterr().err


def test_coverage_claims_as_a_string_is_a_format_problem_not_claim_ids_by_character(tmp_path, capsys):
    (tmp_path / "a.toml").write_text('document = "d"\npart = "p"\ncitation = "c"\n[[entry]]\nid = "x"\n'
                                     'place = "s1"\nkind = "theorem"\nstatement = "s"\nclaims = "nope"\n')
    assert main(["coverage", "--dir", str(tmp_path), "--json"]) == 1
    data = json.loads(capsys.readouterr().out)
    assert data["unknown_claims"] == [] and data["entries"][0]["claims"] == []  # not n, o, p, e
    assert any("claims must be a list of claim ids" in p for p in data["format_problems"])


def test_the_api_refuses_what_it_would_ignore_or_hang_on_before_any_work(monkeypatch):
    import verify
    from verify import NetworkSpec
    from verify.errors import InputError
    from verify.rank import sep
    from verify.validate import memory_gib

    with pytest.raises(InputError, match="depth must be at most 1,000"):
        NetworkSpec(depth=2**70, width=2)
    monkeypatch.setattr(sep, "repeated_ranks", lambda *a, **k: pytest.fail("work started before the check"))
    with pytest.raises(TypeError, match="resume must be a callable"):
        verify.separation_rank(NetworkSpec(depth=1, width=2), resume="x")
    with pytest.raises(TypeError, match="templates must be a count"):
        verify.separation_rank(NetworkSpec(depth=1, width=2), templates="x")
    with pytest.raises(InputError, match="--templates applies to the grid route only"):
        verify.separation_rank(NetworkSpec(depth=1, width=2), templates=3)
    for value in (0, 0.0, -1, float("nan")):  # VA02: a limit of 0 GiB would refuse nothing sensible
        with pytest.raises(InputError, match="above 0"):
            memory_gib(value)
    assert memory_gib(1e-9) == 1e-9
