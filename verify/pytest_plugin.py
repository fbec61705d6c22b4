"""The claims as pytest items: ``pytest --verify-claims`` (registered through the ``pytest11`` entry point).

Inert unless ``--verify-claims`` is given: without it the plugin adds its options and does nothing
else (no registry is loaded, nothing is collected or changed).  With it, the claims of the registry
are added to the run, beside whatever pytest collects as usual (the paths on its command line, else
its ``testpaths``, else the current folder): the plugin never removes a test, so a project that
adds the option to its CI command keeps testing its own code (``-m verify_claim`` runs the claims
alone).  The registry is chosen as ``verify run`` chooses it: ``--verify-registry NAME``
(repeatable), else ``$VERIFY_REGISTRY``, else the one installed registry (several installed and
none chosen is refused, as the command line refuses it: which claims a green run verified must
not depend on what else happens to be installed).  Every claim is one item:

* node id ``<registry>/<paper>::<claim id>``, so ``-k``, ``--lf``, ``--deselect`` and
  ``--junitxml`` name the claim, and the JUnit ``classname`` is ``<registry>.<paper>`` as in
  ``verify run --junit`` (``verify.report.junit``);
* markers ``verify_claim``, ``paper_<document>`` and ``expected_<outcome>`` (``-`` as ``_``), e.g.
  ``-m "paper_wies2021_vocabulary_bottleneck and expected_erratum"``; a marker for every outcome
  and every paper of the registry's coverage index is registered whether or not a claim has it,
  so ``--strict-markers -m expected_erratum`` works on any registry;
* the claim runs in the item's setup: a check that raised is an *error* (as in
  ``verify run --junit``); otherwise the item passes when the outcome is the expected one and
  fails with a report (expected against got, the passage, the reading(s) and the evidence).  It
  prints its properties and evidence (``verify.report.junit.system_out``), which
  ``-o junit_logging=system-out`` carries into the JUnit file; ``--verify-junit-properties`` also
  writes them as testcase ``properties`` (which the junit-10.xsd schema does not allow).

Wrong options are refused at configure time as ``pytest.UsageError`` (exit 4, one line), through
the command line's own checks (``verify.claims.registry``, ``verify.sweeps.store``) with their
options named as this plugin's: an unknown, broken or empty registry; a store that is a folder,
some other file, another application's SQLite file, read-only, in a read-only folder, on a full
disk, or ``--verify-store ''``.  Under xdist the controller checks once, before any worker starts.

The exact ranks the bound checks compare against come from the results store (``--verify-store``,
default ``$VERIFY_STORE`` as it was when pytest started, before any conftest changed it, or
``~/.cache/verify/results.sqlite``, as ``verify run``; the same keys, so either fills it for the
other).  Only the ranks the selected claims' bound checks read are computed (or read), before the
first item that needs them, as ``verify run`` does (``verify.sweeps.claim_run.bound_specs``); a
check asking for another rank brings in the default set through the same store.  Under xdist the
first worker that needs them fills the store while the others wait on a lock file beside it
(``<store>.lock``), so a cold run computes each rank once.

Modelled on hypothesis's ``_hypothesis_pytestplugin``: options always, behaviour only on request.
"""

from __future__ import annotations

import os
import re
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from _pytest._code.code import TerminalRepr, TracebackStyle
    from xdist.workermanage import WorkerController

    from .claims.record import Claim
    from .claims.specsets import RankSource

__all__ = ["pytest_addoption", "pytest_configure", "ClaimItem", "ClaimMismatch"]

#: The environment as pytest found it, before conftest files ran (ours sets VERIFY_STORE to a
#: throwaway store for the tests; the claims must still use the user's).
_ENVIRONMENT = pytest.StashKey[dict]()


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("verify", "claims of the separation-rank papers (seprank-verify)")
    group.addoption("--verify-claims", action="store_true", default=False,
                    help="add one item per claim of the claims registry to the run, beside the tests collected as "
                         "usual (-m verify_claim: the claims alone)")
    group.addoption("--verify-registry", action="append", default=None, metavar="NAME",
                    help="with --verify-claims: the registry (an entry-point name of verify.registries, a module or "
                         "a package folder; repeatable; default $VERIFY_REGISTRY, else the one installed)")
    group.addoption("--verify-store", default=None, metavar="PATH",
                    help="with --verify-claims: the SQLite results store of the exact ranks (default $VERIFY_STORE "
                         "or ~/.cache/verify/results.sqlite; 'none' keeps nothing)")
    group.addoption("--verify-junit-properties", action="store_true", default=False,
                    help="with --verify-claims and --junitxml: also write each claim's properties as testcase "
                         "<properties> (not valid against the junit-10.xsd schema; by default they are printed, "
                         "and -o junit_logging=system-out carries them)")


@pytest.hookimpl(tryfirst=True)
def pytest_load_initial_conftests(early_config: pytest.Config, parser: pytest.Parser, args: list[str]) -> None:
    early_config.stash[_ENVIRONMENT] = dict(os.environ)


def pytest_configure(config: pytest.Config) -> None:
    if not config.getoption("verify_claims", False):
        return
    config.pluginmanager.register(ClaimsPlugin(config), "verify-claims-plugin")


def _in_pytest_words(message: str, option: str, value=None) -> str:
    """A refusal of the command line's shared checks with its options named as this plugin's
    (``--store`` -> ``--verify-store``, ``--no-store`` -> ``--verify-store none``, ``--registry``
    -> ``--verify-registry``), led by ``option`` (and ``value``) where it names neither that option
    nor the environment variable the value came from."""
    message = re.sub(r"(?<![\w-])--no-store\b", "--verify-store none", message)
    message = re.sub(r"(?<![\w-])--store\b", "--verify-store", message)
    message = re.sub(r"(?<![\w-])--registry\b", "--verify-registry", message)
    if option not in message and "VERIFY_REGISTRY" not in message:
        message = f"{option}{'' if value is None else f' {value}'}: {message}"
    return message


class ClaimMismatch(Exception):
    """An outcome other than the expected one; ``record`` is the claim's report.json record."""

    record: dict[Any, Any]

    def __init__(self, record: dict[Any, Any]) -> None:
        super().__init__(f"{record['id']}: expected {record['expected']}, got {record['outcome']}")
        self.record = record


class ClaimsPlugin:
    """Loads the registries once per process, adds their items, and holds the rank source."""

    worker: dict[str, Any] | None  # xdist's workerinput on a worker, None on the controller
    registries: dict[Any, Any]
    store: str | None
    source: RankSource | None
    prefetched: bool
    config: pytest.Config

    def __init__(self, config: pytest.Config) -> None:
        from .claims.record import OUTCOMES
        from .errors import InputError

        self.config = config
        self.worker = getattr(config, "workerinput", None)
        try:
            self.registries = _registries(config.getoption("verify_registry"))
        except InputError as exc:
            raise pytest.UsageError(_in_pytest_words(str(exc), "--verify-registry")) from None
        self.store = self._store() if self.worker is None else self.worker.get("verify_store")
        self.source = None  # the rank source, made before the first item that runs
        self.prefetched = False
        self.selected: list[Any] = []  # the claims left after -k/-m/--lf, whose ranks are computed
        markers = {"verify_claim": "a claim of a verify claims registry (pytest --verify-claims)"}
        for outcome in OUTCOMES:
            markers[f"expected_{_label(outcome)}"] = f"claims whose expected outcome is {outcome}"
        for _, _, documents in self.registries.values():
            for document in documents:
                markers.setdefault(f"paper_{_label(document)}", f"claims of the paper {document}")
        for name, text in markers.items():  # one line each in pytest --markers
            config.addinivalue_line("markers", f"{name}: {text}")

    def _store(self) -> str | None:
        """The store path, checked here (the controller, under xdist) as ``verify run`` checks it:
        opened for writing as the run will open it when the claims read ranks (so a full disk or
        a read-only folder is found now), else only identified, writing nothing."""
        from .errors import InputError
        from .sweeps.claim_run import bound_specs
        from .sweeps.store import Store, default_store_path, identify, refuse_read_only

        given = self.config.getoption("verify_store")
        if given is not None and not given.strip():
            raise pytest.UsageError("--verify-store is empty; give the results store's file (a new one is created) "
                                    "or --verify-store none to keep nothing")
        if given is not None and given.lower() == "none":
            return None
        path = Path(given) if given is not None else default_store_path(
            self.config.stash.get(_ENVIRONMENT, None))
        try:
            if any(bound_specs(claims) for _, claims, _ in self.registries.values()) \
                    and not self.config.option.collectonly:
                Store(path).close()  # creates it, as the run would; refuses what the run would refuse
            else:
                identify(path)
                refuse_read_only(path)
        except InputError as exc:
            raise pytest.UsageError(_in_pytest_words(str(exc), "--verify-store", path)) from None
        return str(path)

    @pytest.hookimpl(optionalhook=True)
    def pytest_configure_node(self, node: WorkerController) -> None:
        """xdist: the workers use the store the controller checked (their environment may hold a
        conftest's VERIFY_STORE)."""
        node.workerinput["verify_store"] = self.store

    @pytest.hookimpl(tryfirst=True)  # before -k/-m deselection and --lf filter the items
    def pytest_collection_modifyitems(self, session: pytest.Session, config: pytest.Config,
                                      items: list[pytest.Item]) -> None:
        from .report.junit import paper_label

        for label, (registry, claims, _) in self.registries.items():
            papers: dict[str, list[Any]] = {}
            for claim in claims:
                papers.setdefault(paper_label(claim.source.document), []).append(claim)
            for paper, group in papers.items():
                parent = ClaimsCollector.from_parent(session, name=f"{label}/{paper}", path=registry.directory,
                                                     nodeid=f"{label}/{paper}")
                made = [ClaimItem.from_parent(parent, name=claim.id, claim=claim, registry=label,
                                              path=registry.directory / f"{claim.id}.py") for claim in group]
                # reported as collected, so pytest's counts ("122 tests collected") include them
                config.hook.pytest_collectreport(report=pytest.CollectReport(parent.nodeid, "passed", None, made))
                items.extend(made)

    def pytest_collection_finish(self, session: pytest.Session) -> None:
        self.selected = [item.claim for item in session.items if isinstance(item, ClaimItem)]

    def rank_source(self, needs_ranks: bool) -> RankSource:
        """The process's rank source; the first time a claim with bound checks runs, the ranks the
        selected claims' bound checks read are read from the store (or computed and kept there)."""
        from .claims.specsets import RankSource
        from .exact.fields import DEFAULT_PRIME
        from .sweeps.claim_run import bound_specs

        if self.source is None:
            self.source = RankSource(f"gf:{DEFAULT_PRIME}")  # the field of verify run's prefetch
            self.source.on_missing = lambda source: self._fill(None)  # another rank: the default set, as verify run
        if needs_ranks and not self.prefetched:
            self.prefetched = True
            self._fill(bound_specs(self.selected))
        return self.source

    def _fill(self, specs) -> None:
        from .sweeps.claim_run import _prefetch_ranks

        if specs is not None and not specs:
            return
        with _one_worker_at_a_time(self.store if self.worker is not None else None):
            _prefetch_ranks(self.source, self.store, None, None, False, specs)  # one process per CPU


def _label(text: str) -> str:
    from .report.junit import paper_label

    return paper_label(text)


def _registries(names: list[str] | None) -> dict[Any, Any]:
    """``{label: (Registry, claims, documents)}`` of the chosen registries, as ``verify run`` finds
    them (None: ``$VERIFY_REGISTRY`` or the one installed); an empty one is refused as it refuses it."""
    from .claims.coverage import load_index
    from .claims.record import load_claims
    from .claims.registry import find_registry
    from .errors import InputError, printable
    from .report.junit import registry_label

    found = {}
    for name in names or [None]:
        registry = find_registry(name)
        claims = load_claims(registry)
        if not claims:
            raise InputError(f"registry {printable(registry.name)!r} ({registry.origin}) holds no claim file, so "
                             f"--verify-claims has nothing to add; add a claim file to "
                             f"{printable(registry.directory)} (docs/extending.md) or give another registry with "
                             f"--registry")
        documents = {claim.source.document for claim in claims}
        try:  # every paper of the coverage index gets its marker, with or without claims
            documents |= {part["document"] for part in load_index(registry.directory / "coverage")[0]
                          if part["document"]}
        except InputError:
            pass  # verify run does not read the index either; verify coverage reports it
        found[registry_label(registry.name)] = (registry, claims, sorted(documents))
    return found


@contextmanager
def _one_worker_at_a_time(store: str | None):
    """Under xdist, the first worker to need the ranks fills the store (with a process per CPU)
    while the others wait on ``<store>.lock``, then read them from the store: a cold run computes
    each rank once.  Without a store, without ``fcntl`` (Windows), or where the lock file cannot
    be made, each worker computes its own (the store's transactions keep it whole)."""
    try:
        import fcntl
    except ImportError:
        fcntl = None
    handle = None
    if store is not None and fcntl is not None:
        try:
            handle = open(Path(store + ".lock"), "a")
        except OSError:
            handle = None
    if handle is None:
        yield
        return
    with handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def _markers(claim) -> list[str]:
    return [f"paper_{_label(claim.source.document)}", f"expected_{_label(claim.expected)}"]


class ClaimsCollector(pytest.Collector):
    """The items of one paper of one registry (they are made by the plugin, not by collecting a file)."""

    def collect(self) -> list[pytest.Item]:
        return []


class ClaimItem(pytest.Item):
    """One claim: an error when a check raised, else passes when its outcome is the expected one."""

    record: dict[str, Any] | None
    claim: Claim
    registry: str
    user_properties: list[tuple[str, object]]

    def __init__(self, *, claim: Claim, registry: str, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.claim, self.registry = claim, registry
        self.record = None
        self.add_marker("verify_claim")
        for marker in _markers(claim):
            self.add_marker(marker)

    def setup(self) -> None:
        """Run the claim; a check that raised is an error (pytest reports a failing setup as one)."""
        from .claims.record import run_claims_with
        from .errors import InputError
        from .report.junit import claim_properties, error_text, raised_checks, system_out

        plugin = self.config.pluginmanager.get_plugin("verify-claims-plugin")
        claim = self.claim  # a rank bound anywhere (printed, corrected, gap, a reading) reads the store
        every = [*claim.checks, *claim.corrected_checks, *claim.gap_checks, *(c for cs in claim.readings.values()
                                                                               for c in cs)]
        needs_ranks = any(type(c).__name__ == "RankBound" for c in every)
        try:
            [result] = run_claims_with([claim], plugin.rank_source(needs_ranks))
        except InputError as exc:  # the store went bad after the configure-time check
            pytest.fail(_in_pytest_words(str(exc), "--verify-store"), pytrace=False)
        self.record = result.as_dict()
        if self.config.getoption("verify_junit_properties"):
            self.user_properties += claim_properties(self.record)
        print(system_out(self.record))
        if raised_checks(self.record):
            pytest.fail(error_text(self.record, self.registry), pytrace=False)

    def runtest(self) -> None:
        if not self.record["as_expected"]:
            raise ClaimMismatch(self.record)

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException],
                     style: TracebackStyle | None = None) -> str | TerminalRepr:
        if isinstance(excinfo.value, ClaimMismatch):
            from .report.junit import failure_text

            return failure_text(excinfo.value.record, self.registry)
        return super().repr_failure(excinfo, style)

    def reportinfo(self) -> tuple[Path, None, str]:
        return self.path, None, f"claim {self.claim.id} ({self.claim.source})"
