"""A property of the whole command line (issue 13): over generated argument lists and malformed
certificate files, every run ends with exit status 0, 1 or 2 within a few seconds, never with a
traceback or an internal error, and a refusal (2) is exactly one line ``verify: error: ...``.

The runs are in-process (``main(argv)``) with one worker and no store, and the value pools keep
every accepted spec small, so each example costs well under a second.
"""

import json
import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from verify.cli.main import main

NUMBERS = ["0", "1", "2", "3", "-1", "-3", "x", "", "1.5", "nan", "inf", "1e999", "99999999999999999999", "0x10"]
SMALL = ["1", "2", "3"]


def _options(pool: dict) -> st.SearchStrategy:
    """Some of the options in ``pool`` (option -> strategy of its value, None for a flag), in any order."""
    def render(chosen):
        argv = []
        for option, value in chosen:
            argv.append(option)
            if value is not None:
                argv.append(value)
        return argv

    items = [st.tuples(st.just(option), strategy if strategy is not None else st.none())
             for option, strategy in pool.items()]
    return st.lists(st.one_of(items), max_size=5).map(render)


def _value(*good):
    return st.sampled_from(list(good) + NUMBERS)


NETWORK = {"--depth": _value("1", "2"), "--width": _value("2", "3", "4"), "--heads": _value("1", "2"),
           "--tokens": _value("2", "4"), "--output": _value("0", "1"), "--position": _value("0", "1"),
           "--seed": _value("0", "5"), "--field": st.sampled_from(["qq", "gf", "gf:101", "gf:4", "gf:3", "zz",
                                                                  "gf:18446744073709551557", "gf:x"]),
           "--max-memory-gib": _value("0.001", "16"), "--residual": None, "--weight-range": _value("1", "7")}
SEP = {**NETWORK, "--method": st.sampled_from(["auto", "coefficients", "grid", "reduced", "bogus"]),
       "--partition": st.sampled_from(["0", "0,1", "0,0", "1,0", "a", "0,9", ""]), "--all-partitions": None,
       "--templates": _value("2", "5"), "--max-evaluations": _value("100", "100000"), "--json": None}
TABLE = {"--depths": st.sampled_from(["1", "1-2", "0-1", "2-1", "x", "1-99", "1,2"]),
         "--widths": st.sampled_from(["2", "2-3", "1", "x", "2000"]), "--heads": st.sampled_from(["all", "1", "7"]),
         "--seed": _value("0"), "--field": st.sampled_from(["gf:101", "qq", "gf:4"]), "--json": None,
         "--max-memory-gib": _value("16"), "--dry-run": None, "--templates": _value("4"),
         "--real-tokens": _value("2", "4")}  # --real itself is left out: a numeric grid takes ~10 s
PROBE = {**{k: v for k, v in NETWORK.items() if k != "--tokens"}, "--vocab": _value("2", "3"),
         "--rank": _value("1", "2"), "--pos-rank": _value("0", "1"), "--max-tokens": _value("2", "4"),
         "--patience": _value("1", "2"), "--continuous": None, "--json": None, "--dry-run": None}
CERTIFY = {"--depth": _value("2"), "--width": _value("10", "11", "9"), "--heads": _value("1", "2"),
           "--seed": _value("0"), "--json": None, "--layout": st.sampled_from(["seeded", "one-slot", "bogus"])}

COMMANDS = st.one_of(
    st.tuples(st.just(["sep", "--depth", "1", "--width", "2"]), _options(SEP)),
    st.tuples(st.just(["sep"]), _options(SEP)),
    st.tuples(st.just(["monomials", "--depth", "1", "--width", "2", "--tokens", "2"]), _options(NETWORK)),
    st.tuples(st.just(["table", "--no-store", "--workers", "1", "--depths", "1", "--widths", "2"]), _options(TABLE)),
    st.tuples(st.just(["probe-n", "--no-store", "--workers", "1", "--depth", "1", "--width", "2"]),
              _options(PROBE)),
    st.tuples(st.just(["certify", "--depth", "2", "--width", "10"]), _options(CERTIFY)),
    st.tuples(st.sampled_from([["claims"], ["claims", "--json"], ["nothing"], [], ["sep", "--bogus"],
                               ["results", "--store", "/nonexistent/s.sqlite"]]), st.just([])),
)


def check_contract(argv, capsys, limit=8.0):
    start = time.perf_counter()
    try:
        code = main(argv)
    except SystemExit as exc:  # --help and --version only
        code = exc.code
    seconds = time.perf_counter() - start
    out, err = capsys.readouterr()
    assert code in (0, 1, 2), (argv, code, err)
    assert "Traceback" not in err and "internal error" not in err, (argv, err)
    if code == 2:
        assert len(err.strip().splitlines()) == 1 and err.startswith("verify: error: "), (argv, err)
    if "--json" in argv and code == 0:
        assert isinstance(json.loads(out), dict), argv
    assert seconds < limit, (argv, seconds)


@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(COMMANDS)
def test_every_generated_command_line_ends_in_exit_0_1_or_2_without_a_traceback(capsys, command):
    head, options = command
    check_contract(head + options, capsys)


@pytest.fixture(scope="module")
def certificate():
    from verify.constructions.certificate import certify
    from verify.model.spec import NetworkSpec

    return certify(NetworkSpec(depth=2, width=10, heads=1), seed=0)


JSON = st.recursive(st.none() | st.booleans() | st.integers(-2**70, 2**70) | st.floats() | st.text(max_size=5),
                    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3),
                    max_leaves=8)


@st.composite
def malformed(draw, certificate):
    """A certificate with one field replaced (or dropped), at the top or inside the weights."""
    data = json.loads(json.dumps(certificate))
    key = draw(st.sampled_from(sorted(data) + ["weights.seed", "weights.weight_range", "weights.layers"]))
    target, name = (data["weights"], key.split(".")[1]) if key.startswith("weights.") else (data, key)
    if draw(st.booleans()):
        target.pop(name)
    else:
        target[name] = draw(JSON)
    return data


@settings(max_examples=30, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_every_malformed_certificate_ends_in_exit_1_or_2_without_a_traceback(capsys, tmp_path, certificate, data):
    text = data.draw(st.one_of(malformed(certificate).map(json.dumps), JSON.map(json.dumps),
                               st.binary(max_size=40).map(lambda b: b.decode("latin-1"))))
    path = tmp_path / "c.json"
    path.write_text(text, encoding="utf-8")
    check_contract(["check-certificate", str(path)], capsys)


# -- issue 21: special files, closed streams, locales and signals ---------------------------------
#
# Each example picks a writer, what already stands at its output path, the state of stdout and
# stderr, and (perhaps) an interrupt at one of the points where the writer can be stopped. Whatever
# the draw: exit 0 or 2 (2 as one line), no traceback, no temporary file left, and what was there
# keeps its kind (a device stays a device, a FIFO a FIFO, a link a link, a folder a folder) and, if
# it was read-only or the run failed, its content.

import io  # noqa: E402
import os  # noqa: E402
import stat  # noqa: E402
import sys  # noqa: E402
import tempfile  # noqa: E402

from special_files import FifoReader, make_read_only, null_device, undo_read_only  # noqa: E402
from verify.errors import Terminated  # noqa: E402

OUTPUT_WRITERS = {
    "certify": ["certify", "--depth", "2", "--width", "10", "--quiet", "--out"],
    "table-csv": ["table", "--depths", "1", "--widths", "2", "--heads", "1", "--workers", "1", "--no-store", "--quiet",
                  "--csv"],
    "results": ["results", "--format", "json", "--store", "STORE", "--out"],
}
TARGETS = ["new", "regular", "symlink", "dangling-symlink", "char-device", "fifo-with-reader", "fifo-no-reader",
           "folder", "read-only", "dash", "under-a-file", "symlink-loop"]
#: Where an interrupt (Ctrl-C, SIGTERM, SIGHUP, as the handler raises them) can land in a writer.
INTERRUPT_POINTS = [None, "rename", "stream", "compute"]


def _make_target(kind: str, folder: str):
    """Create ``kind`` at a path in ``folder``; return (path, what to check afterwards)."""
    path = os.path.join(folder, "out")
    if kind == "regular":
        open(path, "w").write("old")
    elif kind in ("symlink", "read-only"):
        open(os.path.join(folder, "target"), "w").write("old")
        if kind == "symlink":
            os.symlink(os.path.join(folder, "target"), path)
        else:
            path = os.path.join(folder, "target")
            if not make_read_only(path):
                return None, None
    elif kind == "dangling-symlink":
        os.symlink(os.path.join(folder, "made"), path)
    elif kind == "char-device":  # a private null device as root: a buggy writer must never replace /dev/null
        path = null_device(folder)
    elif kind.startswith("fifo"):
        os.mkfifo(path)
    elif kind == "folder":
        os.mkdir(path)
    elif kind == "dash":
        path = "-"
    elif kind == "under-a-file":
        open(os.path.join(folder, "file"), "w").write("old")
        path = os.path.join(folder, "file", "out")
    elif kind == "symlink-loop":
        os.symlink(path, path)
    return path, (os.lstat(path) if os.path.lexists(path) else None)


def _file_type(st):
    return None if st is None else stat.S_IFMT(st.st_mode)


@pytest.fixture(scope="module")
def fuzz_store(tmp_path_factory):
    path = tmp_path_factory.mktemp("fuzz-store") / "s.sqlite"
    assert main(["table", "--depths", "1", "--widths", "2", "--heads", "1", "--workers", "1", "--store", str(path),
                 "--quiet"]) == 0
    return str(path)


@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(writer=st.sampled_from(sorted(OUTPUT_WRITERS)), target=st.sampled_from(TARGETS),
       stdout=st.sampled_from(["utf-8", "ascii", "closed"]), stderr=st.sampled_from(["utf-8", "ascii", "closed"]),
       interrupt=st.sampled_from(INTERRUPT_POINTS),
       stop=st.sampled_from([KeyboardInterrupt, lambda: Terminated("SIGTERM"), lambda: Terminated("SIGHUP")]))
def test_outputs_streams_and_interrupts_keep_the_contract(tmp_path, fuzz_store, monkeypatch, writer, target, stdout,
                                                         stderr, interrupt, stop):
    import verify.cli.certify
    from verify import files
    from verify.sweeps import executor

    folder = tempfile.mkdtemp(dir=tmp_path)
    path, before = _make_target(target, folder)
    if path is None:
        return
    reader = None
    if target == "fifo-with-reader":
        reader = FifoReader(path)
    argv = [fuzz_store if a == "STORE" else a for a in OUTPUT_WRITERS[writer]] + [path]

    def interrupted(*args, **kwargs):
        raise stop()
    with monkeypatch.context() as patch:
        if interrupt == "rename":
            patch.setattr(files.os, "replace", interrupted)
        elif interrupt == "stream":
            patch.setattr(files.os, "write", interrupted)
        elif interrupt == "compute":
            patch.setattr(executor, "compute", interrupted)
            patch.setattr("verify.constructions.certificate.certify", interrupted)
        out, err = io.BytesIO(), io.BytesIO()
        streams = {"utf-8": lambda b: io.TextIOWrapper(b, encoding="utf-8", write_through=True),
                   "ascii": lambda b: io.TextIOWrapper(b, encoding="ascii", write_through=True),
                   "closed": lambda b: None}
        patch.setattr(sys, "stdout", streams[stdout](out))
        patch.setattr(sys, "stderr", streams[stderr](err))
        try:
            code = main(argv)
        finally:
            if sys.stderr is not None and stderr == "closed":  # the /dev/null the command line opened
                sys.stderr.close()
            data = reader.finish() if reader else None
        message = err.getvalue().decode("utf-8" if stderr == "utf-8" else "ascii")  # before the wrappers go
    assert verify.cli.certify  # imported, so the monkeypatch targets exist
    assert code in (0, 2), (argv, code, message)
    assert "Traceback" not in message and "internal error" not in message, message
    if code == 2 and stderr != "closed":
        assert len(message.strip().splitlines()) == 1 and message.startswith("verify: error: "), message
    if stdout == "closed":
        assert code == 2
    leftovers = [n for n in os.listdir(folder) if n.endswith(".tmp") or n.startswith(".verify-probe")]
    assert leftovers == [], leftovers
    after = os.lstat(path) if path != "-" and os.path.lexists(path) else None
    if before is not None:
        assert _file_type(after) == _file_type(before), (target, after)
    if target == "char-device":
        assert stat.S_ISCHR(os.stat(path).st_mode)
    if target == "read-only" or (code == 2 and target in ("regular", "symlink")):
        assert open(os.path.join(folder, "target" if target != "regular" else "out")).read() == "old"
    if target == "read-only":
        assert code == 2
        undo_read_only(path)
    if code == 0 and target in ("new", "regular", "symlink", "dangling-symlink"):
        written = os.path.join(folder, {"symlink": "target", "dangling-symlink": "made"}.get(target, "out"))
        assert open(written).read() not in ("", "old")
    if code == 0 and target == "fifo-with-reader" and interrupt is None:
        assert data
