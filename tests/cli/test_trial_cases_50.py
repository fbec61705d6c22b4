"""The new-user trial of issue 50, outside ``verify recheck``: each case a test of its own, refused in one
line with exit status 2, in seconds, before anything is allocated or created; and a read-only store read
read-only, never called damaged (item 2)."""

import json
import os
import shutil
import sqlite3
import subprocess
import time

import pytest

from verify.cli.main import main


def _refused(argv, capsys, fragment, status=2):
    assert main(argv) == status
    out, err = capsys.readouterr()
    assert err.startswith("verify: error: ") and len(err.strip().splitlines()) == 1, err
    assert fragment in err, err
    assert out == ""
    return err


# -- the reviewers' table over a huge range or an endless iterable: checked by its bounds -------------------------

@pytest.mark.parametrize("depths, widths, fragment", [
    (range(1, 10**9), [2], "--depths must be integers from 1 to 64, got range(1, 1000000000)"),
    ([1], range(1, 10**12), "--widths must be integers from 1 to 1,000, got range(1, 1000000000000)"),
    ([1], range(2, 10**12, 10**6), "from 2 to 999,999,000,002"),
    (range(64, 0, -1), range(2, 100), "make 6,272 (depth, width) pairs, over the 2,000"),
    (range(5, 5), [2], "range(5, 5) is empty"),
    (range(70, 0, -1), [2], "got range(70, 0, -1) (from 1 to 70)"),
    (range(0, 3), [2], "got range(0, 3) (from 0 to 2)"),
    ([1], [2000], "--widths must be integers from 1 to 1,000, got 2000"),
    ([True], [2], "--depths must be integers from 1 to 64, got True"),
], ids=["depths range(1, 10**9)", "widths range(1, 10**12)", "a stepped range", "a descending range", "empty",
        "descending from above", "from 0", "a listed width above", "a bool"])
def test_the_table_checks_a_range_by_its_bounds_at_once(depths, widths, fragment, monkeypatch):
    import verify
    from verify.errors import InputError
    from verify.sweeps import executor

    monkeypatch.setattr(executor, "run_sweep", lambda *a, **k: pytest.fail("work started before the refusal"))
    start = time.perf_counter()
    with pytest.raises(InputError) as caught:
        verify.reviewers_table(depths=depths, widths=widths)
    assert fragment in str(caught.value) and time.perf_counter() - start < 2


def test_the_table_takes_a_generator_only_as_far_as_its_cap():
    import itertools

    import verify
    from verify.errors import InputError

    drawn = []

    def endless():
        for n in itertools.count(1):
            drawn.append(n)
            yield 1

    with pytest.raises(InputError, match="--depths has more than 2,000 values"):
        verify.reviewers_table(depths=endless(), widths=[2])
    assert len(drawn) == 2001  # consumed one past the cap, no further
    with pytest.raises(InputError, match="--widths must be integers from 1 to 1,000, got 'x'"):
        verify.reviewers_table(depths=[1], widths=iter([2, "x"]))
    with pytest.raises(InputError, match="--depths must be a list or range"):
        verify.reviewers_table(depths=5, widths=[2])
    # a small range is the same table as its list (one layer of width 2: rank 3 for heads 1 and 2)
    rows = verify.reviewers_table(depths=range(1, 2), widths=(w for w in [2]))["rows"]
    assert [(r["depth"], r["width"], r["sep_rank"]) for r in rows] == [(1, 2, 3), (1, 2, 3)]


@pytest.mark.parametrize("widths, fragment", [
    ("-3", "--widths must be integers from 1 to 1,000, got '-3'"),
    ("0", "--widths must be integers from 1 to 1,000, got '0'"),
    ("4-2", "the range 4-2 runs backwards; write 2-4"),
    ("3-2", "the range 3-2 runs backwards; write 2-3"),
    ("2-", "'2-' is an unfinished range; write LOW-HIGH"),
    ("x", "'x' is neither a number nor a range"),
])
def test_a_widths_text_says_what_is_wrong_with_it(widths, fragment, capsys):
    err = _refused(["table", "--depths", "1", f"--widths={widths}", "--no-store"], capsys, fragment)
    assert "is not a range" not in err


def test_a_range_of_one_value_and_overlapping_parts_are_taken():
    from verify.sweeps.table import parse_range

    assert parse_range("2-2", "widths") == [2] and parse_range("1-3,2, 5", "depths") == [1, 2, 3, 5]


# -- a store value that is JSON but not an object --------------------------------------------------------------------

@pytest.fixture(scope="module")
def stored(tmp_path_factory):
    path = tmp_path_factory.mktemp("store") / "s.sqlite"
    assert main(["table", "--depths", "1", "--widths", "2", "--heads", "1", "--store", str(path), "--quiet",
                 "--workers", "1", "--json"]) == 0
    return path


@pytest.mark.parametrize("form", ["json", "csv", "table"])
@pytest.mark.parametrize("column, value, fragment", [
    ("value", "[1, 2]", "a sep row: not a JSON object"),
    ("value", '{"rank": 9, "upper_bound": 3}', "rank 9 above its upper_bound 3"),
    ("spec", "[1, 2]", "a sep row: its spec is not a JSON object"),
    ("params", "3", "a sep row: its params is not a JSON object")])
def test_results_on_a_stored_list_is_the_store_damaged_not_an_internal_error(stored, tmp_path, capsys, form, column,
                                                                             value, fragment):
    path = tmp_path / "s.sqlite"
    shutil.copy(stored, path)
    with sqlite3.connect(path) as conn:
        conn.execute(f"UPDATE results SET {column} = ?", (value,))
    conn.close()
    capsys.readouterr()
    err = _refused(["results", "--store", str(path), "--format", form], capsys, f"the results store {path} is damaged")
    assert fragment in err and "internal error" not in err


# -- a memory limit of inf ------------------------------------------------------------------------------------------

def test_an_infinite_memory_limit_is_refused_as_infinite_not_as_below_zero(capsys):
    import verify
    from verify.errors import InputError

    for call in (lambda: verify.separation_rank(verify.NetworkSpec(depth=1, width=2), max_memory_gib=float("inf")),
                 lambda: verify.reviewers_table(depths=[1], widths=[2], max_memory_gib=float("inf"))):
        with pytest.raises(InputError) as caught:
            call()
        assert "must be a finite number above 0" in str(caught.value)
        assert "infinity would disable the limit" in str(caught.value)
    err = _refused(["sep", "--depth", "1", "--width", "2", "--max-memory-gib", "inf"], capsys,
                   "got inf; infinity would disable the limit")
    assert "finite" in err


# -- a store that is a loop of symbolic links, or a link to nothing --------------------------------------------------

def test_a_symlink_loop_store_is_named_a_loop_not_missing(tmp_path, capsys):
    (tmp_path / "a").symlink_to(tmp_path / "b")
    (tmp_path / "b").symlink_to(tmp_path / "a")
    (tmp_path / "dangling").symlink_to(tmp_path / "nothing")
    err = _refused(["results", "--store", str(tmp_path / "a")], capsys, "is a loop of symbolic links")
    assert "run a sweep first" not in err
    _refused(["results", "--store", str(tmp_path / "dangling")], capsys, "which does not exist")
    _refused(["results", "--store", str(tmp_path / "none")], capsys, "no results store at")
    _refused(["table", "--depths", "1", "--widths", "2", "--store", str(tmp_path / "a")], capsys,
             "Too many levels of symbolic links")


# -- --partition -1,0 --------------------------------------------------------------------------------------------------

def test_a_value_starting_with_a_dash_gets_the_equals_hint(capsys):
    _refused(["sep", "--depth", "2", "--width", "2", "--tokens", "6", "--partition", "-1,0"], capsys,
             "expected one argument; a value starting with - is read as an option: write --partition=-1,0")
    err = _refused(["sep", "--depth", "2", "--width", "2", "--partition"], capsys, "expected one argument")
    assert "write" not in err
    err = _refused(["sep", "--depth", "2", "--width", "2", "--partition", "--json"], capsys, "expected one argument")
    assert "write" not in err  # --json is an option, not a value to glue on
    _refused(["sep", "--depth", "2", "--width", "2", "--tokens", "6", "--partition=-1,0"], capsys,
             "must list some but not all of the positions 0..5")


# -- verify run --out X --junit X ------------------------------------------------------------------------------------

def test_run_with_junit_on_the_out_folder_is_refused_before_any_claim(tmp_path, capsys, monkeypatch):
    from verify.sweeps import claim_run

    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(claim_run, "run_registry", lambda *a, **k: pytest.fail("a claim ran before the refusal"))
    for out, junit in (("X", "X"), ("X", "./X"), (str(tmp_path / "Y"), "Y")):
        _refused(["run", "--out", out, "--junit", junit, "--no-store"], capsys, "--out and --junit name one file")
    assert list(tmp_path.iterdir()) == []  # the --out folder was not created


def test_checking_a_new_output_folder_leaves_nothing_behind(tmp_path):
    from verify.errors import InputError
    from verify.files import check_output, probe_folder

    probe_folder(tmp_path / "a" / "b" / "c", "--out")
    check_output(tmp_path / "d" / "e.json", "--junit")
    assert list(tmp_path.iterdir()) == []
    (tmp_path / "file").write_text("x")
    with pytest.raises(InputError, match="cannot write in"):
        probe_folder(tmp_path / "file" / "sub", "--out")


# -- a second claims registry installed -------------------------------------------------------------------------------

@pytest.fixture
def two_registries(monkeypatch, tmp_path):
    import toy_registry
    from verify.claims import registry

    monkeypatch.delenv(registry.ENVIRONMENT, raising=False)
    folder = toy_registry.make(tmp_path)
    own = registry.registry_entry_points()
    assert list(own.values())[0].partition("=")[0] == "seprank_proofs"
    monkeypatch.setattr(registry, "registry_entry_points", lambda: {**own, "toy": f"{folder.name}={folder}"})
    yield folder
    toy_registry.forget(folder)


def test_with_two_registries_claims_and_table_use_the_projects_own_and_name_the_other(two_registries, capsys):
    assert main(["claims", "--json"]) == 0
    out, err = capsys.readouterr()
    ids = {c["id"] for c in json.loads(out)["claims"]}
    assert "toy_planted" not in ids and len(ids) > 50  # the project's own claims
    assert main(["claims"]) == 0
    err = capsys.readouterr().err
    assert "the project's own; also installed: toy (choose one with --registry NAME)" in err
    assert main(["claims", "--registry", "toy", "--json"]) == 0
    assert "toy_planted" in {c["id"] for c in json.loads(capsys.readouterr().out)["claims"]}
    assert main(["table", "--depths", "1", "--widths", "2", "--heads", "1", "--no-store", "--workers", "1"]) == 0
    out, err = capsys.readouterr()
    assert "also installed: toy" in err and "| 1 " in out


def test_two_registries_neither_the_projects_own_are_still_refused(monkeypatch, capsys):
    from verify.claims import registry

    monkeypatch.delenv(registry.ENVIRONMENT, raising=False)
    monkeypatch.setattr(registry, "registry_entry_points", lambda: {"a": "mod_a", "b": "mod_b"})
    _refused(["claims"], capsys, "several claims registries are installed (a, b)")


# -- item 2: a read-only store is read read-only ----------------------------------------------------------------------

@pytest.mark.parametrize("name", ["a?b.sqlite", "c#d.sqlite", "x%41.sqlite", "plain.sqlite"])
def test_a_store_whose_name_looks_like_a_uri_is_read_by_its_name(stored, tmp_path, capsys, name):
    from verify.sweeps.store_checks import read_only_uri

    path = tmp_path / name
    shutil.copy(stored, path)
    (tmp_path / "x%41.sqlite").exists() or (tmp_path / "xA.sqlite").write_text("not this one")
    assert main(["results", "--store", str(path), "--format", "json"]) == 0
    rows = json.loads(capsys.readouterr().out)["results"]
    assert [r["value"]["rank"] for r in rows] == [3]  # one layer of width 2, one head
    # the URI names exactly this file: sqlite opens the same bytes through it
    with sqlite3.connect(read_only_uri(path), uri=True) as conn:
        assert conn.execute("SELECT COUNT(*) FROM results").fetchone() == (1,)
    conn.close()
    assert sorted(p.name for p in tmp_path.iterdir() if not p.name.startswith(name)) in ([], ["xA.sqlite"])


def _immutable_folder(folder):
    """Make ``folder`` unwritable even for root (chattr +i); None where the file system does not allow it."""
    if shutil.which("chattr") is None:
        return None
    done = subprocess.run(["chattr", "+i", str(folder)], capture_output=True)
    if done.returncode != 0:
        return None
    try:
        (folder / "probe").write_text("x")
    except OSError:
        return folder
    os.unlink(folder / "probe")
    subprocess.run(["chattr", "-i", str(folder)])
    return None


@pytest.fixture
def wal_store_in_a_read_only_folder(stored, tmp_path):
    folder = tmp_path / "shared"
    folder.mkdir()
    shutil.copy(stored, folder / "s.sqlite")
    with sqlite3.connect(folder / "s.sqlite") as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone() == ("wal",)  # a store as sweeps leave it
    conn.close()
    assert sorted(p.name for p in folder.iterdir()) == ["s.sqlite"]
    (folder / "s.sqlite-wal").write_bytes(b"")  # an empty write-ahead log: nothing uncommitted, still readable
    if os.geteuid() != 0:
        folder.chmod(0o555)
    elif _immutable_folder(folder) is None:
        pytest.skip("running as root without chattr +i: no folder root cannot write")
    yield folder / "s.sqlite"
    if os.geteuid() == 0:
        subprocess.run(["chattr", "-i", str(folder)])
    folder.chmod(0o755)


def test_a_good_wal_store_in_a_read_only_folder_is_read_not_called_damaged(wal_store_in_a_read_only_folder, capsys):
    path = wal_store_in_a_read_only_folder
    with pytest.raises(sqlite3.OperationalError):  # what SQLite's plain read-only open says there
        sqlite3.connect(f"file:{path}?mode=ro", uri=True).execute("SELECT 1 FROM results").fetchone()
    assert main(["results", "--store", str(path), "--format", "json"]) == 0
    rows = json.loads(capsys.readouterr().out)["results"]
    assert [r["value"]["rank"] for r in rows] == [3]
    assert main(["table", "--depths", "1", "--widths", "2", "--heads", "1", "--store", str(path), "--dry-run",
                 "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["stored"] == 1
    assert sorted(p.name for p in path.parent.iterdir()) == ["s.sqlite", "s.sqlite-wal"]


def test_a_store_that_cannot_be_opened_is_not_called_damaged_nor_deleting_advised(stored, tmp_path, monkeypatch):
    from verify.errors import InputError
    from verify.sweeps import store as stores

    path = tmp_path / "s.sqlite"
    shutil.copy(stored, path)
    real = sqlite3.connect

    def cannot_open(target, *args, **kwargs):
        if "immutable=1" in str(target) or "mode=ro" in str(target):
            raise sqlite3.OperationalError("unable to open database file")
        return real(target, *args, **kwargs)

    monkeypatch.setattr(stores.sqlite3, "connect", cannot_open)
    with pytest.raises(InputError) as caught:
        stores.Store(path, read_only=True)
    assert "damaged" not in str(caught.value) and "delete" not in str(caught.value)
    assert "cannot use the results store" in str(caught.value)
    # with an unread write-ahead log beside it, the message says where the -shm file was needed
    (tmp_path / "s.sqlite-wal").write_bytes(b"x" * 100)
    with pytest.raises(InputError, match="its write-ahead log s.sqlite-wal needs a -shm file") as caught:
        stores.Store(path, read_only=True)
    assert "delete" not in str(caught.value)


@pytest.mark.parametrize("damage", [b"garbage" * 600, None, "header"])
def test_a_store_shown_damaged_is_called_damaged(stored, tmp_path, damage):
    from verify.errors import InputError
    from verify.sweeps.store import Store

    path = tmp_path / "s.sqlite"
    data = bytearray(stored.read_bytes())
    if damage == "header":  # the magic kept, the page size an impossible 0xffff: "file is not a database"
        data[16:18] = b"\xff\xff"
    elif damage is None:  # the header kept, the first page's b-tree overwritten: "database disk image is malformed"
        data[100:len(data)] = bytes(len(data) - 100)
    else:
        data[4096:4096 + len(damage)] = damage
    path.write_bytes(bytes(data))
    with pytest.raises(InputError, match="is damaged .*; delete or move it"):
        with Store(path, read_only=True) as store:
            store.rows()


# -- item 3: one memory figure: the dry run, the plan and the refusal price the same things ---------------------------

def _hand_priced(short, terms, nvars, components, per_entry):
    """The reduced route's working memory by hand (verify/rank/reduced_memory.py's notes): the largest slice
    short x (short + 32) at ``per_entry`` bytes, q's exponent rows at int16 (2 bytes) with four 8-byte temporaries
    a term and variable, 32 bytes a term and component for the moment values, and the fixed 2^29 bytes."""
    return short * (short + 32) * per_entry + (components * 2 + 32) * terms * nvars + components * terms * 32 + 2**29


def test_the_continuous_dry_run_prices_the_limit_as_its_refusal_does(capsys):
    import re

    argv = ["probe-n", "--depth", "2", "--width", "3", "--continuous", "--max-memory-gib", "0.002", "--no-store"]
    assert main([*argv, "--dry-run", "--json"]) == 0
    plan = json.loads(capsys.readouterr().out)
    limit = plan["tasks"][0]
    assert limit["kind"] == "limit" and limit["over_limit"] and "refuses at once" in plan["note"]
    assert plan["to_compute"] == len(plan["tasks"]) == 1 + 20  # the limit and N = 2, 4, ..., 40
    assert abs(sum(t["share_of_work"] for t in plan["tasks"]) - 1) < 1e-4
    # depth 2 width 3: n = 6, q of degree 4 with 3 components; blocks 1x378, 6x168, 21x63, 56x18, 126x3: the largest
    # short side is 21; q has binom(4 + 5, 5) = 126 terms; FLINT at 2^63 - 25 holds 28 bytes a slice entry
    expected = _hand_priced(21, 126, 6, 3, 28)
    assert abs(limit["memory_gib"] - expected / 2**30) < 1e-8
    err = _refused(argv, capsys, "a fixed 512 MiB of gather chunks and product tiles")
    assert "the largest degree-block slice, 21 x 53: 30.4 KiB" in err and "q's 3 x 126 terms: 39.9 KiB" in err
    assert float(re.search(r"needs about ([\d.]+) GiB", err).group(1)) == float(f"{expected / 2**30:.3g}")


def test_the_sep_dry_run_names_the_figure_its_refusal_compares(capsys):
    import re

    # depth 3 width 3: n = 6, degree 13, 3 components; largest slice 792 x 824 (block 7) over gf:1048573, the
    # float64 kernel's 8 bytes an entry; q has binom(13 + 5, 5) = 8,568 terms
    expected = _hand_priced(792, 8568, 6, 3, 8)
    assert main(["sep", "--depth", "3", "--width", "3", "--device", "cpu", "--dry-run"]) == 0
    header = capsys.readouterr().out.splitlines()[0]
    held = float(re.search(r"--max-memory-gib is compared with about ([\d.]+) GiB held at once", header).group(1))
    assert held == float(f"{expected / 2**30:.3g}") and "a fixed 0.5 GiB of gather chunks" in header
    err = _refused(["sep", "--depth", "3", "--width", "3", "--device", "cpu", "--max-memory-gib", "0.002"], capsys,
                   "792 x 824: 4.98 MiB")
    assert float(re.search(r"needs about ([\d.]+) GiB", err).group(1)) == held
