"""Finding the claims registry: the engine never names it, the registry announces itself.

A registry is a Python package holding one module per claim (each defines ``CLAIM``), helper
modules whose names start with ``_``, and a ``coverage/`` folder of index files.  It is found, in
this order:

1. the ``registry`` argument of the API (``verify.api.run_claims(registry=...)``) or the
   command line's ``--registry``;
2. the environment variable ``VERIFY_REGISTRY``;
3. the entry points of the group ``verify.registries`` of the installed distributions
   (``[project.entry-points."verify.registries"]`` in a ``pyproject.toml``: ``NAME = "module"``);
4. when none is installed, the same table in the ``pyproject.toml`` of the checkout this engine
   runs from (a checkout on ``PYTHONPATH``, or an install whose metadata predates the entry point).

Each of 1 and 2 may be an entry-point name, an importable module name, or the path of the
package's folder.  Several entry points and no choice: the project's own (the one registered by the
distribution that installed this engine, ``_own_entry_points``) if it is one of them, its ``origin``
naming the others; otherwise an error that lists them.
"""

from __future__ import annotations

import importlib
import importlib.metadata
import importlib.util
import os
import pkgutil
import sys
import tomllib
import traceback
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from types import ModuleType
from typing import TypeAlias

from ..errors import InputError, printable

__all__ = ["GROUP", "ENVIRONMENT", "Registry", "find_registry", "registry_entry_points", "RegistrySource"]

#: How the API takes a registry: a folder or package path, a module, or None (see the module docstring).
RegistrySource: TypeAlias = "str | os.PathLike[str] | ModuleType | None"

#: The entry-point group a registry registers under.
GROUP = "verify.registries"
#: The environment variable that names a registry (entry-point name, module or folder).
ENVIRONMENT = "VERIFY_REGISTRY"
_CHECKOUT = Path(__file__).resolve().parents[2] / "pyproject.toml"


#: How a registry is told apart from any other package: its folder holds the coverage index.
MARKER = "coverage"
#: The fix every refusal of a broken registry ends with.
_ANOTHER = f"or give another registry with --registry or {ENVIRONMENT}"


@dataclass(frozen=True)
class Registry:
    """A loaded registry package: ``name`` (its import name), ``module`` and ``origin`` (where it was
    named: ``--registry``, ``VERIFY_REGISTRY``, the entry point)."""

    name: str
    module: ModuleType
    origin: str = "given as a module"
    #: The other installed registries, when this one was taken as the default among several.
    others: tuple[str, ...] = ()

    @property
    def directory(self) -> Path:
        """The package's folder (its ``coverage/`` index lives there)."""
        return Path(next(iter(self.module.__path__))).resolve()

    def refuse(self, path: str | os.PathLike[str], problem: str, fix: str) -> InputError:
        """The one-line error for a problem of the file ``path`` of this registry."""
        return InputError(f"registry {printable(self.name)!r} ({self.origin}): {printable(path)}: {problem}; {fix}")

    def claim_modules(self) -> list[tuple[str, ModuleType]]:
        """(name, module) of every claim file (the modules whose names do not start with ``_``), in
        file order, each imported as ``import_guarded`` does: a broken file is one line naming it."""
        found = []
        for info in sorted(pkgutil.iter_modules(self.module.__path__), key=lambda i: i.name):
            if info.name.startswith("_"):
                continue
            name = f"{self.name}.{info.name}"
            path = self.directory / (info.name + ("/__init__.py" if info.ispkg else ".py"))
            found.append((info.name, import_guarded(lambda name=name: importlib.import_module(name), path,
                                                    self.directory, self.name, self.origin)))
        return found


def _where(exc: BaseException, path: Path, folder: Path) -> str:
    """``file:line`` of the failure inside ``folder`` (the registry): a syntax error's own place, else
    the deepest frame of the traceback in the folder, else ``path``."""
    if isinstance(exc, SyntaxError) and exc.filename:
        return f"{exc.filename}:{exc.lineno}" if exc.lineno else exc.filename
    inside = [frame for frame in traceback.extract_tb(exc.__traceback__)
              if frame.filename and Path(frame.filename).resolve().is_relative_to(folder)]
    return f"{inside[-1].filename}:{inside[-1].lineno}" if inside else str(path)


def import_guarded(load: Callable[[], ModuleType], path: Path, folder: Path, name: str, origin: str) -> ModuleType:
    """``load()`` (an import of a file of the registry in ``folder``) with every failure of the file,
    a syntax error, an import error, any exception, ``sys.exit``, turned into one ``InputError``
    naming the registry, the file and line, and the file's own message.  Ctrl-C still interrupts."""
    try:
        return load()
    except KeyboardInterrupt:
        raise
    except SystemExit as exc:
        where, detail = _where(exc, path, folder), f"calls sys.exit({exc.code!r}) while it is imported"
        fix = "a claim file must only define CLAIM; remove the call"
    except (Exception, RecursionError) as exc:  # noqa: BLE001 - the file is foreign code: every failure is its own
        where = _where(exc, path, folder)
        text = exc.msg if isinstance(exc, SyntaxError) else str(exc)
        detail = f"{type(exc).__name__}: {text}" if text else type(exc).__name__
        fix = "fix the file"
    raise InputError(f"registry {printable(name)!r} ({origin}): {printable(where)}: {printable(detail)}; "
                     f"{fix}, {_ANOTHER}") from None


def _unset(origin: str) -> str:
    """The fix a name read from the environment adds."""
    return f", or unset {ENVIRONMENT}" if origin == ENVIRONMENT else ""


def _require_marker(folder: Path, choice: str, origin: str) -> None:
    """A package without a ``coverage/`` folder is not a claims registry (``json``, ``verify``)."""
    if not (folder / MARKER).is_dir():
        raise InputError(f"{printable(choice)!r} ({origin}) is not a claims registry: the package folder "
                         f"{printable(folder)} has no {MARKER}/ folder; give a package of claim files with a "
                         f"{MARKER}/ folder (installed: {', '.join(sorted(registry_entry_points())) or 'none'})"
                         f"{_unset(origin)}")


def registry_entry_points() -> dict[str, str]:
    """``{name: module}`` of the group ``verify.registries``: the installed distributions' entry
    points, or, when there are none, those declared by the checkout's ``pyproject.toml``."""
    found = {ep.name: ep.value for ep in importlib.metadata.entry_points(group=GROUP)}
    if found or not _CHECKOUT.is_file():
        return found
    try:
        config = tomllib.loads(_CHECKOUT.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError:
        return {}
    declared = dict(config.get("project", {}).get("entry-points", {}).get(GROUP, {}))
    # a module installed from a folder of another name (package-dir) is that folder in the checkout
    folders = config.get("tool", {}).get("setuptools", {}).get("package-dir", {})
    return {name: f"{module}={_CHECKOUT.parent / folders[module]}" if module in folders else module
            for name, module in declared.items()}


def _own_entry_points() -> set[str]:
    """Names of the group's entry points registered by the distribution that installed this engine (the project's
    own registry, whatever it is called), or, run from a checkout with none installed, those its pyproject.toml
    declares; the engine names no registry itself."""
    found = importlib.metadata.entry_points(group=GROUP)
    if not found:
        return set(registry_entry_points())  # the checkout's own declarations
    owners = importlib.metadata.packages_distributions().get(__name__.split(".")[0], [])
    return {ep.name for ep in found if ep.dist is not None and ep.dist.name in owners}


def _from_folder(folder: Path, choice: str, origin: str, name: str | None = None) -> Registry:
    """Import the package in ``folder`` under ``name`` (default: its folder name; its ``_``-helpers
    import relatively)."""
    init = folder / "__init__.py"
    if not folder.is_dir():
        raise InputError(f"registry folder {printable(folder)!r} ({origin}) does not exist; give the folder of a "
                         f"claims package{_unset(origin)}")
    if not init.is_file():
        raise InputError(f"registry folder {printable(folder)!r} ({origin}) has no __init__.py; give the folder "
                         f"of a claims package{_unset(origin)}")
    _require_marker(folder, choice, origin)
    name = name or folder.name
    loaded = sys.modules.get(name)
    if loaded is not None:
        if Path(next(iter(getattr(loaded, "__path__", [""])))).resolve() == folder:
            return Registry(name, loaded, origin)
        raise InputError(f"a different module named {printable(name)!r} is already imported; rename the folder "
                         f"{printable(folder)!r}")

    def load():
        spec = importlib.util.spec_from_file_location(name, init, submodule_search_locations=[str(folder)])
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        try:
            spec.loader.exec_module(module)
        except BaseException:
            del sys.modules[name]
            raise
        return module

    return Registry(name, import_guarded(load, init, folder, name, origin), origin)


def _load(choice: str, entry_points: dict[str, str], origin: str) -> Registry:
    """An entry-point name or a module name is imported; a path (one with a separator, or a folder
    that is not an importable module) is loaded from its folder.  The package must have a
    ``coverage/`` folder, checked before any of its code runs."""
    known = f" (installed: {', '.join(sorted(entry_points))})" if entry_points else ""
    if not choice.strip() or "\0" in choice:
        raise InputError(f"the registry name ({origin}) is {'empty' if not choice.strip() else 'not a name'}; "
                         f"give an entry-point name{known}, a module or a package folder"
                         + _unset(origin))
    folder = Path(choice).expanduser()
    if os.sep in choice or (os.altsep and os.altsep in choice) or choice in (".", ".."):
        return _from_folder(folder.resolve(), choice, origin)
    target = entry_points.get(choice, choice)
    if choice in entry_points and "=" in target:  # MODULE=FOLDER: the checkout's registry (registry_entry_points)
        module, _, where = target.partition("=")
        return _from_folder(Path(where).resolve(), choice, origin, module)
    try:
        spec = importlib.util.find_spec(target)  # a top-level name is found without running its code
    except (ImportError, ValueError):
        spec = None
    except (Exception, SystemExit) as exc:  # noqa: BLE001 - a parent package of a dotted name fails
        raise InputError(f"registry {printable(choice)!r} ({origin}) cannot be found: importing its parent "
                         f"package fails ({type(exc).__name__}: {printable(str(exc))}); {_ANOTHER}") from None
    if spec is None:
        if choice not in entry_points and folder.is_dir():
            return _from_folder(folder.resolve(), choice, origin)
        raise InputError(f"registry {printable(choice)!r} ({origin}) is neither an entry point, a module nor a "
                         f"folder{known}; give one of those"
                         + _unset(origin))
    if spec.submodule_search_locations is None:
        raise InputError(f"registry {printable(choice)!r} ({origin}) is a module, not a package of claim modules; "
                         f"give a package")
    locations = list(spec.submodule_search_locations)
    folder = Path(locations[0]).resolve() if locations else Path(choice)
    _require_marker(folder, choice, origin)
    init = Path(spec.origin) if spec.origin else folder / "__init__.py"
    module = import_guarded(lambda: importlib.import_module(target), init, folder, target, origin)
    return Registry(module.__name__, module, origin)


def find_registry(registry: str | os.PathLike[str] | ModuleType | Registry | None = None) -> Registry:
    """The registry to use (see the module's docstring for the order).

    Parameters
    ----------
    registry : str, path, module or Registry, optional
        An entry-point name, a module name, a package folder or an imported package; None looks at
        ``VERIFY_REGISTRY`` and then at the entry points.
    """
    if isinstance(registry, Registry):
        return registry
    if isinstance(registry, ModuleType):
        return Registry(registry.__name__, registry)
    if not isinstance(registry, (str, os.PathLike, type(None))):
        raise InputError(f"registry must be a name, a path or a module, got {type(registry).__name__}; give one of "
                         "those")
    entry_points = registry_entry_points()
    if registry is not None:
        return _load(os.fspath(registry), entry_points, "--registry")
    if os.environ.get(ENVIRONMENT):
        return _load(os.environ[ENVIRONMENT], entry_points, ENVIRONMENT)
    if len(entry_points) == 1:
        (name,) = entry_points
        return _load(name, entry_points, f"entry point of {GROUP}")
    if not entry_points:
        raise InputError(f"no claims registry found: install one (pip install -e . registers the entry point "
                         f"{GROUP}) or give --registry / {ENVIRONMENT} (a module or a package folder)")
    own = [name for name in entry_points if name in _own_entry_points()]
    if len(own) == 1:  # the project's own registry is the default; the others are named, each a --registry away
        others = sorted(name for name in entry_points if name != own[0])
        found = _load(own[0], entry_points, f"entry point of {GROUP}, the project's own; also installed: "
                                            f"{', '.join(others)} (choose one with --registry NAME)")
        return replace(found, others=tuple(others))
    raise InputError(f"several claims registries are installed ({', '.join(sorted(entry_points))}); "
                     f"choose one with --registry NAME or {ENVIRONMENT}=NAME")
