"""The claims as pytest items: ``pytest --verify-claims`` (registered through the ``pytest11`` entry point).

Inert unless ``--verify-claims`` is given: without it the plugin adds its three options and does
nothing else (no registry is loaded, nothing is collected or changed).  With it, every claim of
the installed registries (the entry points of ``verify.registries``; ``--verify-registry NAME``,
repeatable, chooses) becomes one item:

* node id ``verify-claims/<registry>::<claim id>``, so ``-k``, ``--lf``, ``--deselect`` and
  ``--junitxml`` name the claim;
* markers ``verify_claim``, ``paper_<document>`` and ``expected_<outcome>`` (``-`` as ``_``), e.g.
  ``-m "paper_wies2021_vocabulary_bottleneck and expected_erratum"``; the JUnit properties
  ``paper``, ``expected``, ``outcome``, ``passage`` and ``margin``;
* it passes when the outcome is the expected one; a failure reads as a report: expected against
  got, the passage, the reading(s) and the evidence.

Where files are collected: when pytest was given paths or node ids on its command line, those are
collected as usual and the claims run beside them; when it was not (its ``testpaths`` or the
current folder), only the claims are collected, so ``pytest --verify-claims`` in any folder runs
the claims alone.

The exact ranks the bound checks compare against come from the results store (``--verify-store``,
default ``$VERIFY_STORE`` or ``~/.cache/verify/results.sqlite``, as ``verify run``; the same keys,
so either fills it for the other): they are read, or computed once and kept, before the first
item that needs them, so a warm run is fast.  Under xdist the first worker that needs them fills the store while the
others wait on a lock file beside it (``<store>.lock``), so a cold run computes each rank once.

Modelled on hypothesis's ``_hypothesis_pytestplugin``: options always, behaviour only on request.
"""

from __future__ import annotations

from contextlib import contextmanager
from pathlib import Path

import pytest

__all__ = ["pytest_addoption", "pytest_configure", "ClaimItem", "ClaimMismatch"]

PREFIX = "verify-claims"


def pytest_addoption(parser) -> None:
    group = parser.getgroup("verify", "claims of the separation-rank papers (seprank-verify)")
    group.addoption("--verify-claims", action="store_true", default=False,
                    help="collect one item per claim of the installed claims registries (alone, unless paths "
                         "are given on the command line)")
    group.addoption("--verify-registry", action="append", default=None, metavar="NAME",
                    help="with --verify-claims: only this registry (an entry-point name of verify.registries, a "
                         "module or a package folder; repeatable)")
    group.addoption("--verify-store", default=None, metavar="PATH",
                    help="with --verify-claims: the SQLite results store of the exact ranks (default $VERIFY_STORE "
                         "or ~/.cache/verify/results.sqlite; 'none' keeps nothing)")


def pytest_configure(config) -> None:
    if not config.getoption("verify_claims", False):
        return
    config.pluginmanager.register(ClaimsPlugin(config), "verify-claims-plugin")


def _slug(text: str) -> str:
    """A marker name part: letters, digits and ``_`` (``levine2020_author_response.txt`` ->
    ``levine2020_author_response``)."""
    stem = text.rsplit(".", 1)[0] if text.endswith((".md", ".txt", ".pdf", ".tex")) else text
    return "".join(ch if ch.isalnum() else "_" for ch in stem).strip("_").lower() or "unknown"


class ClaimMismatch(Exception):
    """An outcome other than the expected one; ``record`` is the claim's report.json record."""

    def __init__(self, record: dict):
        super().__init__(f"{record['id']}: expected {record['expected']}, got {record['outcome']}")
        self.record = record


class ClaimsPlugin:
    """Loads the registries once per process, adds their items, and holds the rank source."""

    def __init__(self, config):
        from .claims.record import load_claims
        from .claims.registry import find_registry, registry_entry_points
        from .errors import InputError

        self.config = config
        installed = registry_entry_points()
        names = config.getoption("verify_registry") or sorted(installed)
        try:  # an entry point keeps its name in the node ids; a module or folder goes by its package name
            found = {name: find_registry(name) for name in names}
            self.registries = {(name if name in installed else found[name].name): load_claims(found[name])
                               for name in names}
            self.folders = {(name if name in installed else found[name].name): found[name].directory
                            for name in names}
        except InputError as exc:
            raise pytest.UsageError(str(exc)) from None
        if not self.registries:
            raise pytest.UsageError("--verify-claims: no claims registry is installed; install one "
                                    "(pip install -e . in the seprank-verify checkout) or give --verify-registry")
        self.source = None  # the rank source, made before the first item that runs
        self.prefetched = False
        config.addinivalue_line("markers", "verify_claim: a claim of a verify claims registry")
        for claims in self.registries.values():
            for claim in claims:
                for marker in _markers(claim):
                    config.addinivalue_line("markers", f"{marker}: claims with this paper / expected outcome")
        # no paths on the command line: the claims alone (testpaths are the project's own tests)
        self.claims_only = config.args_source != pytest.Config.ArgsSource.ARGS
        if self.claims_only:
            config.args = []

    @pytest.hookimpl(tryfirst=True)  # before -k/-m deselection and --lf filter the items
    def pytest_collection_modifyitems(self, session, config, items) -> None:
        for name, claims in self.registries.items():
            folder = self.folders[name]
            parent = ClaimsCollector.from_parent(session, name=f"{PREFIX}/{name}", path=folder,
                                                 nodeid=f"{PREFIX}/{name}")
            made = [ClaimItem.from_parent(parent, name=claim.id, claim=claim, registry=name,
                                          path=folder / f"{claim.id}.py") for claim in claims]
            # reported as collected, so pytest's counts ("122 tests collected") include them
            config.hook.pytest_collectreport(report=pytest.CollectReport(parent.nodeid, "passed", None, made))
            items.extend(made)

    def rank_source(self, needs_ranks: bool):
        """The process's rank source; the first time a claim with bound checks runs, the default
        specs' ranks are read from the store (or computed and kept there)."""
        from .claims.specsets import RankSource
        from .exact.fields import DEFAULT_PRIME
        from .sweeps.claim_run import _prefetch_ranks
        from .sweeps.store import default_store_path

        if self.source is None:
            self.source = RankSource(f"gf:{DEFAULT_PRIME}")  # the field of verify run's prefetch
        if needs_ranks and not self.prefetched:
            store = self.config.getoption("verify_store") or str(default_store_path())
            store = None if store.lower() == "none" else store
            with _one_worker_at_a_time(store if hasattr(self.config, "workerinput") else None):
                _prefetch_ranks(self.source, store, None, None, False)  # one process per CPU
            self.prefetched = True
        return self.source


@contextmanager
def _one_worker_at_a_time(store: str | None):
    """Under xdist, the first worker to need the ranks fills the store (with a process per CPU)
    while the others wait on ``<store>.lock``, then read them from the store: a cold run computes
    each rank once.  Without a store, or without ``fcntl`` (Windows), each worker computes its own."""
    try:
        import fcntl
    except ImportError:
        fcntl = None
    if store is None or fcntl is None:
        yield
        return
    lock = Path(store + ".lock")
    lock.parent.mkdir(parents=True, exist_ok=True)
    with open(lock, "a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def _markers(claim) -> list[str]:
    return [f"paper_{_slug(claim.source.document)}", f"expected_{_slug(claim.expected)}"]


class ClaimsCollector(pytest.Collector):
    """The items of one registry (they are made by the plugin, not by collecting a file)."""

    def collect(self):
        return []


class ClaimItem(pytest.Item):
    """One claim: passes when its outcome is the expected one."""

    def __init__(self, *, claim, registry: str, **kwargs):
        super().__init__(**kwargs)
        self.claim, self.registry = claim, registry
        self.add_marker("verify_claim")
        for marker in _markers(claim):
            self.add_marker(marker)
        self.user_properties += [("paper", claim.source.document), ("expected", claim.expected)]

    def runtest(self) -> None:
        from .claims.record import run_claims_with
        from .report.run_report import strength

        plugin = self.config.pluginmanager.get_plugin("verify-claims-plugin")
        claim = self.claim  # a rank bound anywhere (printed, corrected, gap, a reading) reads the store
        every = [*claim.checks, *claim.corrected_checks, *claim.gap_checks, *(c for cs in claim.readings.values()
                                                                               for c in cs)]
        needs_ranks = any(type(c).__name__ == "RankBound" for c in every)
        [result] = run_claims_with([self.claim], plugin.rank_source(needs_ranks))
        record = result.as_dict()
        self.user_properties += [("outcome", record["outcome"]), ("passage", record["passage"]),
                                 ("margin", strength(record)[0])]
        print(f"{record['id']}: {record['outcome']} (expected {record['expected']})\n{record['evidence']}")
        if not result.as_expected:
            raise ClaimMismatch(record)

    def repr_failure(self, excinfo, style=None):
        if isinstance(excinfo.value, ClaimMismatch):
            from .report.junit import failure_text

            return failure_text(excinfo.value.record, self.registry)
        return super().repr_failure(excinfo, style)

    def reportinfo(self):
        return self.path, None, f"claim {self.claim.id} ({self.claim.source})"
