"""What the distribution installs and ships (issue 41): a licence in the metadata, no generic top-level
import name, the package list complete, ``py.typed`` and the N atlas as package data, and an sdist that
holds what its own tests read."""

from __future__ import annotations

import ast
import importlib.metadata
import inspect
import os
import re
import subprocess
import sys
import tomllib
import zipfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

import verify
import verify.api

ROOT = Path(__file__).resolve().parent.parent
CONFIG = tomllib.loads((ROOT / "pyproject.toml").read_text())
DIST = "seprank-verify"


def generic(name: str) -> bool:
    """A top-level import name another distribution could also install: anything but ``verify`` (the
    import name the project keeps, README) and names of our own, ``seprank_*``."""
    return name != "verify" and not name.startswith("seprank_")


def test_the_package_list_is_every_package_folder():
    """``packages`` is listed by hand (a mapped folder cannot be found by packages.find): every folder
    of verify/ with an ``__init__.py`` must be in it, or the wheel silently lacks it."""
    setuptools = CONFIG["tool"]["setuptools"]
    found = {".".join(p.parent.relative_to(ROOT).parts) for p in (ROOT / "verify").rglob("__init__.py")}
    listed = set(setuptools["packages"])
    # the data folders (no __init__.py) are listed too, so their package-data ships without a build warning
    assert {p for p in listed if p.split(".")[0] == "verify"} == found | {"verify.data", "verify.schemas"}
    mapped = {name: ROOT / folder for name, folder in setuptools["package-dir"].items()}
    assert all((folder / "__init__.py").is_file() for folder in mapped.values()) and set(mapped) <= listed


def test_no_top_level_import_name_is_generic():
    """Neither the configuration nor the installed distribution's ``top_level.txt`` names a generic
    package such as ``proofs`` (it would overwrite, or be overwritten by, another distribution's)."""
    configured = {name.split(".")[0] for name in CONFIG["tool"]["setuptools"]["packages"]}
    installed = set(importlib.metadata.distribution(DIST).read_text("top_level.txt").split())
    assert configured == installed and installed >= {"verify"}
    assert [name for name in installed if generic(name)] == []
    registries = CONFIG["project"]["entry-points"]["verify.registries"].values()
    assert all(module.split(".")[0] in installed for module in registries)


def test_the_metadata_names_a_licence_and_the_licence_ships():
    metadata = importlib.metadata.metadata(DIST)
    assert metadata["License-Expression"] == "MIT" == CONFIG["project"]["license"]
    assert metadata.get_all("License-File") == ["LICENSE"]
    assert (ROOT / "LICENSE").read_text().startswith("MIT License")
    # PEP 639: a License-Expression and a licence classifier together are refused by the index
    assert not [c for c in metadata.get_all("Classifier") if c.startswith("License ::")]
    assert "Typing :: Typed" in metadata.get_all("Classifier")


def test_py_typed_and_the_atlas_are_package_data():
    data = CONFIG["tool"]["setuptools"]["package-data"]
    assert data["verify"] == ["py.typed"] and data["verify.data"] == ["n_atlas.png"]
    assert data["verify.schemas"] == ["*.schema.json"] and any((ROOT / "verify" / "schemas").glob("*.schema.json"))
    assert (ROOT / "verify" / "py.typed").is_file() and (ROOT / "verify" / "data" / "n_atlas.png").is_file()


def test_the_metadata_has_keywords_and_the_author_the_licence_names():
    metadata = importlib.metadata.metadata(DIST)
    assert "separation rank" in metadata["Keywords"].split(",")
    assert metadata["Author"] == "The seprank-verify maintainers"
    assert "Copyright (c) 2026 The seprank-verify maintainers" in (ROOT / "LICENSE").read_text()


def test_the_wheel_holds_the_package_data_and_the_build_warns_of_no_ignored_folder(tmp_path):
    """Issue 48.4: a wheel built from a copy of the package (no build isolation: the test extra brings
    setuptools >= 77, so no download) holds py.typed, the atlas and the coverage tables, and setuptools
    prints no "would be ignored" warning for a data folder missing from ``packages``."""
    import shutil

    source = tmp_path / "src"
    for name in ("verify", "proofs"):
        shutil.copytree(ROOT / name, source / name, ignore=shutil.ignore_patterns("__pycache__"))
    for name in ("pyproject.toml", "README.md", "LICENSE"):
        shutil.copy(ROOT / name, source / name)
    done = subprocess.run([sys.executable, "-m", "pip", "wheel", "-v", "--no-deps", "--no-build-isolation",
                           "--no-index", "-w", str(tmp_path / "dist"), str(source)],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    log = done.stdout + done.stderr
    assert "would be ignored" not in log and "is absent from the `packages` configuration" not in log
    [wheel] = (tmp_path / "dist").glob("seprank_verify-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    coverage = {f"seprank_proofs/coverage/{p.name}" for p in (ROOT / "proofs" / "coverage").glob("*.toml")}
    assert len(coverage) >= 5 and coverage <= names
    assert {"verify/py.typed", "verify/data/n_atlas.png", "verify/recheck/__init__.py"} <= names
    schemas = {f"verify/schemas/{p.name}" for p in (ROOT / "verify" / "schemas").glob("*.schema.json")}
    assert len(schemas) >= 10 and schemas <= names


@pytest.mark.skipif(not (ROOT / "results" / "n_atlas.png").is_file(), reason="no results/ folder here")
def test_the_packaged_atlas_is_the_published_one():
    """report.html embeds verify/data/n_atlas.png; the published figure is results/n_atlas.png
    (``python benchmarks/atlas.py --replot``): after a replot, copy it over."""
    assert (ROOT / "verify" / "data" / "n_atlas.png").read_bytes() == (ROOT / "results" / "n_atlas.png").read_bytes()


def test_the_sdist_manifest_holds_what_the_tests_read():
    """MANIFEST.in grafts every folder the tests read (tests/, docs/, results/, the scripts they run) and
    includes the pinned versions and the CI command the README quotes."""
    lines = [line.split() for line in (ROOT / "MANIFEST.in").read_text().splitlines() if line and line[0] != "#"]
    grafted = {words[1] for words in lines if words[0] == "graft"}
    included = {name for words in lines if words[0] == "include" for name in words[1:]}
    assert {"tests", "docs", "results", "benchmarks", "tools"} <= grafted
    assert {"constraints.txt", "LICENSE", ".ci/run"} <= included
    assert all((ROOT / name).exists() for name in grafted | included)


@pytest.mark.slow
def test_the_wheel_installs_only_our_names_with_the_licence_and_data(tmp_path):
    """Build the wheel (isolated, as a user's ``pip wheel .`` does) and read its RECORD: every top-level
    entry is ours, the licence and the package data are in it."""
    import subprocess
    import sys

    subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(tmp_path), str(ROOT)],
                   check=True, capture_output=True, timeout=300)
    [wheel] = tmp_path.glob("seprank_verify-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    tops = {name.split("/")[0] for name in names if not name.split("/")[0].endswith(".dist-info")}
    assert tops == {"verify", "seprank_proofs"}
    assert {"verify/py.typed", "verify/data/n_atlas.png", "seprank_proofs/coverage/levine2020_main.toml"} <= set(names)
    info = next(name.split("/")[0] for name in names if name.endswith(".dist-info/METADATA"))
    assert f"{info}/licenses/LICENSE" in names
    entry_points = zipfile.ZipFile(wheel).read(f"{info}/entry_points.txt").decode()
    assert "levine-wies = seprank_proofs" in entry_points


PACKAGE = Path(verify.__file__).resolve().parent


def _revealed(tmp_path: Path, lines: list[str]) -> tuple[int, list[str]]:
    """mypy's exit status and output on a snippet of ``lines`` in a project at ``tmp_path``, with the
    package found as an installed one is (a folder holding only ``verify``; errors inside it silent)."""
    site = tmp_path / "site"
    site.mkdir()
    (site / "verify").symlink_to(PACKAGE, target_is_directory=True)
    project = tmp_path / "project"
    project.mkdir()
    (project / "snippet.py").write_text("\n".join(["import verify", *lines]) + "\n")
    env = {**os.environ, "MYPYPATH": str(site)}
    done = subprocess.run([sys.executable, "-m", "mypy", "--follow-imports=silent", "--no-incremental",
                           "--cache-dir", os.devnull, "snippet.py"],
                          cwd=project, env=env, capture_output=True, text=True, timeout=300)
    return done.returncode, done.stdout.splitlines()


def test_mypy_reveals_every_public_name_with_its_real_signature(tmp_path):
    """Issue 48.1: a user's snippet in a temporary project; mypy (the test extra) sees every public name of
    ``verify`` with its real signature through the ``TYPE_CHECKING`` imports beside the lazy ``__getattr__``."""
    pytest.importorskip("mypy", reason="mypy is in the test extra")
    names = [name for name in verify.__all__ if name != "__version__"]
    status, out = _revealed(tmp_path, [f"reveal_type(verify.{name})" for name in names]
                            + ["verify.seperation_rank", "reveal_type(verify.__version__)"])
    revealed = {}
    for line in out:
        found = re.match(r'snippet\.py:(\d+): note: Revealed type is "(.*)"$', line)
        if found:
            revealed[int(found[1])] = found[2]
    by_name = {name: revealed.get(i + 2) for i, name in enumerate(names)}
    assert not [name for name, text in by_name.items() if text in (None, "Any")], out
    # separation_rank: every parameter of the real function, by name, in order, and its return type
    from verify.rank.sep import separation_rank

    real = inspect.signature(separation_rank)
    text = by_name["separation_rank"]
    assert re.findall(r"(?:^def \(|, )(\w+): ", text.rsplit(") -> ", 1)[0]) == list(real.parameters), text
    assert text.startswith("def (spec: verify.model.spec.NetworkSpec, method: str =")
    assert text.endswith("-> verify.rank.result.SepResult")
    assert by_name["NetworkSpec"].startswith("def (depth: int, width: int, heads: int =")
    assert by_name["parse_field"] == "def (text: str) -> verify.exact.fields.Field"
    assert by_name["DEFAULT_PRIME"] == "int" and revealed[len(names) + 3] == "str"
    # a misspelt name is an error, not Any (the lazy __getattr__ is hidden from type checkers)
    assert status == 1 and any('has no attribute "seperation_rank"' in line for line in out), out


def test_the_type_checkers_imports_and_the_lazy_loader_name_the_same_modules():
    """Every name of ``_PUBLIC`` is imported under ``TYPE_CHECKING`` from the module the loader reads."""
    tree = ast.parse((PACKAGE / "__init__.py").read_text())
    [block] = [node for node in tree.body if isinstance(node, ast.If) and ast.unparse(node.test) == "TYPE_CHECKING"]
    imported = {alias.name: "." * node.level + node.module for node in block.body for alias in node.names}
    assert imported == verify._PUBLIC


# ---------------------------------------------------------------------------------- annotations, without a type checker
# ``pyright --verifytypes verify`` counts a public function as partially unknown when a parameter or its return has no
# annotation, or when an annotation is a bare generic (``list``, ``dict``, ``Callable``: their type arguments are
# unknown to it).  These tests walk the public names of ``verify`` and ``verify.api`` with ``inspect`` (the
# annotations are the source's strings: every module postpones their evaluation) and fail on either, so the default
# suite keeps the names users call typed; the mypy snippet above checks what a type checker makes of them.

#: A generic named without its type arguments (``list`` but not ``list[int]``, nor ``np.ndarray``).
BARE = re.compile(r"(?<![\w.])(list|dict|set|frozenset|tuple|type|Callable|Iterable|Iterator|Sequence|Mapping)"
                  r"(?![\w\[])")


def public_callables() -> Iterator[tuple[str, Callable[..., Any]]]:
    """(qualified name, function) for each public function of ``verify`` and ``verify.api``, and each
    method a public class defines itself (its ``__init__`` included, a property by its getter)."""
    seen = set()
    for module, names in ((verify, verify.__all__), (verify.api, verify.api.__all__)):
        for name in names:
            obj = getattr(module, name)
            if inspect.isclass(obj):
                for attr, member in vars(obj).items():
                    if attr.startswith("_") and attr != "__init__":
                        continue
                    if isinstance(member, property):
                        member = member.fget
                    elif isinstance(member, (staticmethod, classmethod)):
                        member = member.__func__
                    if inspect.isfunction(member) and member not in seen:
                        seen.add(member)
                        yield f"{obj.__module__}.{obj.__qualname__}.{attr}", member
            elif inspect.isfunction(obj) and obj not in seen:
                seen.add(obj)
                yield f"{obj.__module__}.{obj.__qualname__}", obj


def unannotated(function: Callable[..., Any]) -> list[str]:
    """What of ``function``'s signature a type checker cannot see: each parameter (but ``self``/``cls``)
    without an annotation, a missing return annotation, and each annotation holding a bare generic."""
    signature = inspect.signature(function)
    problems = []
    for i, parameter in enumerate(signature.parameters.values()):
        if i == 0 and parameter.name in ("self", "cls"):
            continue
        if parameter.annotation is inspect.Parameter.empty:
            problems.append(f"parameter {parameter.name!r} has no annotation")
        elif BARE.search(str(parameter.annotation)):
            problems.append(f"parameter {parameter.name!r}: bare generic in {parameter.annotation!r}")
    if signature.return_annotation is inspect.Signature.empty:
        problems.append("no return annotation")
    elif BARE.search(str(signature.return_annotation)):
        problems.append(f"return: bare generic in {signature.return_annotation!r}")
    return problems


PUBLIC = dict(public_callables())


def test_the_walk_finds_the_public_functions_and_methods():
    """Not vacuous: the entry points users call are among what is checked."""
    for name in ("verify.rank.sep.separation_rank", "verify.api.run_claims", "verify.model.spec.NetworkSpec.__init__",
                 "verify.exact.fields.parse_field"):
        assert name in PUBLIC, sorted(PUBLIC)
    assert len(PUBLIC) >= 40


@pytest.mark.parametrize("name", sorted(PUBLIC))
def test_every_parameter_and_return_of_the_public_api_is_annotated(name):
    assert unannotated(PUBLIC[name]) == [], name


def test_the_check_sees_a_missing_annotation_and_a_bare_generic():
    """The checker itself: a planted gap of each kind is found."""

    def gaps(a, b: list, c: dict[str, int]) -> Callable:
        return print

    def typed(self, a: int, *args: str, **kwargs: float) -> list[dict[str, Any]] | None:
        return None

    assert unannotated(gaps) == ["parameter 'a' has no annotation", "parameter 'b': bare generic in 'list'",
                                 "return: bare generic in 'Callable'"]
    assert unannotated(typed) == []
    assert unannotated(lambda x: x) == ["parameter 'x' has no annotation", "no return annotation"]


# ------------------------------------------------------------------------- class attributes, without a type checker
# ``pyright --verifytypes`` counts an instance attribute that a public class sets in a method (``self.x = ...``) but
# never declares (``x: int`` in the class body, a base's, or ``self.x: int = ...``) as ambiguous: a checker may infer
# another type from each assignment.  This walks every public class of ``verify`` (its source, and its bases at run
# time) and fails on such an attribute.  ``verify.recheck`` is left out while its classes are being reworked.

def _self_attributes(cls: type) -> tuple[set[str], set[str]]:
    """(public attributes ``cls``'s own source assigns on ``self``, those it declares with ``self.x: T = ...``)."""
    import textwrap

    assigned, declared = set(), set()
    for node in ast.walk(ast.parse(textwrap.dedent(inspect.getsource(cls)))):
        targets = node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(node, ast.AnnAssign) \
            else []
        for target in targets:
            for item in target.elts if isinstance(target, ast.Tuple) else [target]:
                if isinstance(item, ast.Attribute) and isinstance(item.value, ast.Name) and item.value.id == "self" \
                        and not item.attr.startswith("_"):
                    (declared if isinstance(node, ast.AnnAssign) else assigned).add(item.attr)
    return assigned, declared


def undeclared_attributes(cls: type) -> list[str]:
    """Attributes ``cls`` sets on ``self`` that neither it (class body or annotated assignment) nor a base declares."""
    assigned, declared = _self_attributes(cls)
    for base in cls.__mro__:
        declared |= set(vars(base)) | set(getattr(base, "__annotations__", {}))
    return sorted(assigned - declared)


def public_classes() -> Iterator[tuple[str, type]]:
    import pkgutil

    for info in pkgutil.walk_packages(verify.__path__, "verify."):
        if info.name.endswith("__main__") or info.name.startswith("verify.recheck"):
            continue
        module = importlib.import_module(info.name)
        for name, obj in vars(module).items():
            if inspect.isclass(obj) and obj.__module__ == info.name and not name.startswith("_"):
                yield f"{info.name}.{name}", obj


def test_every_attribute_a_public_class_sets_is_declared():
    classes = dict(public_classes())
    assert {"verify.model.spec.NetworkSpec", "verify.rank.token.gram.GramModel", "verify.sweeps.store.Store"} <= set(
        classes) and len(classes) >= 60
    assert {name: gaps for name, cls in classes.items() if (gaps := undeclared_attributes(cls))} == {}


def test_the_attribute_check_sees_an_undeclared_attribute():
    """The checker itself: an attribute set but not declared is found; declared ones (class body, annotated
    assignment, a base's declaration, a property) are not."""

    class Base:
        inherited: int

    class Planted(Base):
        declared: int

        def __init__(self) -> None:
            self.declared, self.inherited, self.missing = 1, 2, 3
            self.annotated: int = 4
            self._private = 5

    assert undeclared_attributes(Planted) == ["missing"]
