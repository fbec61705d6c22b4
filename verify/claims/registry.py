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
package's folder.  Several entry points and no choice is an error that lists them.
"""

from __future__ import annotations

import importlib
import importlib.metadata
import importlib.util
import os
import sys
import tomllib
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

from ..errors import InputError

__all__ = ["GROUP", "ENVIRONMENT", "Registry", "find_registry", "registry_entry_points"]

#: The entry-point group a registry registers under.
GROUP = "verify.registries"
#: The environment variable that names a registry (entry-point name, module or folder).
ENVIRONMENT = "VERIFY_REGISTRY"
_CHECKOUT = Path(__file__).resolve().parents[2] / "pyproject.toml"


@dataclass(frozen=True)
class Registry:
    """A loaded registry package: ``name`` (its import name) and ``module``."""

    name: str
    module: ModuleType

    @property
    def directory(self) -> Path:
        """The package's folder (its ``coverage/`` index lives there)."""
        return Path(next(iter(self.module.__path__))).resolve()


def registry_entry_points() -> dict[str, str]:
    """``{name: module}`` of the group ``verify.registries``: the installed distributions' entry
    points, or, when there are none, those declared by the checkout's ``pyproject.toml``."""
    found = {ep.name: ep.value for ep in importlib.metadata.entry_points(group=GROUP)}
    if found or not _CHECKOUT.is_file():
        return found
    try:
        project = tomllib.loads(_CHECKOUT.read_text(encoding="utf-8")).get("project", {})
    except tomllib.TOMLDecodeError:
        return {}
    return dict(project.get("entry-points", {}).get(GROUP, {}))


def _from_folder(folder: Path) -> ModuleType:
    """Import the package in ``folder`` under its folder name (its ``_``-helpers import relatively)."""
    init = folder / "__init__.py"
    if not init.is_file():
        raise InputError(f"registry folder {str(folder)!r} has no __init__.py; give the folder of a claims package")
    name = folder.name
    loaded = sys.modules.get(name)
    if loaded is not None:
        if Path(next(iter(getattr(loaded, "__path__", [""])))).resolve() == folder:
            return loaded
        raise InputError(f"a different module named {name!r} is already imported; rename the folder {str(folder)!r}")
    spec = importlib.util.spec_from_file_location(name, init, submodule_search_locations=[str(folder)])
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        del sys.modules[name]
        raise
    return module


def _load(choice: str, entry_points: dict[str, str], origin: str) -> Registry:
    """An entry-point name or a module name is imported; a path (one with a separator, or a folder
    that is not an importable module) is loaded from its folder."""
    folder = Path(choice).expanduser()
    if os.sep in choice or (os.altsep and os.altsep in choice) or choice in (".", ".."):
        return Registry(folder.resolve().name, _from_folder(folder.resolve()))
    target = entry_points.get(choice, choice)
    try:
        module = importlib.import_module(target)
    except ModuleNotFoundError as exc:
        if exc.name != target.split(".")[0]:
            raise
        if choice not in entry_points and folder.is_dir():
            return Registry(folder.resolve().name, _from_folder(folder.resolve()))
        known = f" (installed: {', '.join(sorted(entry_points))})" if entry_points else ""
        raise InputError(f"registry {choice!r} ({origin}) is neither an entry point, a module nor a folder{known}; "
                         f"give one of those") from None
    if not hasattr(module, "__path__"):
        raise InputError(f"registry {choice!r} ({origin}) is a module, not a package of claim modules; give a package")
    return Registry(module.__name__, module)


def find_registry(registry: str | os.PathLike | ModuleType | Registry | None = None) -> Registry:
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
    raise InputError(f"several claims registries are installed ({', '.join(sorted(entry_points))}); "
                     f"choose one with --registry NAME or {ENVIRONMENT}=NAME")
