"""What the distribution installs and ships (issue 41): a licence in the metadata, no generic top-level
import name, the package list complete, ``py.typed`` and the N atlas as package data, and an sdist that
holds what its own tests read."""

from __future__ import annotations

import importlib.metadata
import tomllib
import zipfile
from pathlib import Path

import pytest

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
    assert {p for p in listed if p.split(".")[0] == "verify"} == found
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
    data = CONFIG["tool"]["setuptools"]["package-data"]["verify"]
    assert {"py.typed", "data/n_atlas.png"} <= set(data)
    assert all(any(p.is_file() for p in (ROOT / "verify").glob(name)) for name in data)  # a glob: the schemas


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
