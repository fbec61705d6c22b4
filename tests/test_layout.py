"""The package's layout: imports point down the flow (spec → model → rank → claims → sweeps → api → cli),
no import cycle, no module grows past about 400 lines, and the claims registry is a plugin: the engine
never names it, and its files import only the authoring surface ``verify.authoring``."""

from __future__ import annotations

import ast
from pathlib import Path

import networkx as nx

PACKAGE = Path(__file__).resolve().parent.parent / "verify"

# Lower layers never import higher ones; modules in one layer may import each other (without cycles).
LAYERS = {
    "errors": 0, "version": 0, "files": 0, "validate": 0, "recheck": 0, "defaults": 0, "schema": 0,
    "api": 6, "authoring": 6,
    "exact": 1, "testing": 1,
    "model": 2,
    "rank": 3, "constructions": 3,
    "claims": 4,
    "sweeps": 5, "report": 5,
    "cli": 7, "pytest_plugin": 7,
    "__init__": 8, "__main__": 8,
}
MAX_LINES = 400


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def _imports(path: Path) -> set[str]:
    """Every verify module ``path`` imports, at module level or inside a function."""
    name = _module_name(path)
    package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            if target.split(".")[0] != "verify":
                continue
            found.add(target)
            for alias in node.names:  # ``from ..claims import specsets`` imports a module
                if (PACKAGE.parent / (target.replace(".", "/") + "/" + alias.name + ".py")).exists():
                    found.add(f"{target}.{alias.name}")
        elif isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name.split(".")[0] == "verify")
    return found - {name}


def _graph() -> nx.DiGraph:
    graph = nx.DiGraph()
    for path in PACKAGE.rglob("*.py"):
        source = _module_name(path)
        graph.add_node(source)
        for target in _imports(path):
            graph.add_edge(source, target)
    return graph


def _layer(module: str) -> int:
    parts = module.split(".")
    return LAYERS["__init__"] if len(parts) == 1 else LAYERS[parts[1]]


def test_import_graph_of_verify_has_no_cycle():
    graph = _graph()
    # a package imports its own sub-modules through __init__ re-exports; those edges are not flow
    flow = nx.DiGraph((a, b) for a, b in graph.edges if not b.startswith(a + ".") and b != "verify")
    assert list(nx.simple_cycles(flow)) == []


def test_imports_point_down_the_flow():
    upward = [(a, b) for a, b in _graph().edges
              if b != "verify" and not b.startswith(a + ".") and _layer(b) > _layer(a)]
    assert upward == []


def test_no_engine_module_imports_the_test_doubles():
    """``verify.testing`` holds stand-ins for tests and benchmarks (the strict fake cupy): the engine
    never imports them, so a double cannot stand in for a real device in a user's run."""
    users = sorted(a for a, b in _graph().edges
                   if b.startswith("verify.testing") and not a.startswith("verify.testing"))
    assert users == []


def test_every_subpackage_is_a_known_layer():
    for path in PACKAGE.iterdir():
        if path.is_dir() and (path / "__init__.py").exists():
            assert path.name in LAYERS, f"verify/{path.name}/ has no place in LAYERS"


def test_no_module_is_over_about_400_lines():
    long = {str(p.relative_to(PACKAGE)): n for p in PACKAGE.rglob("*.py")
            if (n := len(p.read_text().splitlines())) > MAX_LINES}
    assert long == {}


#: A function longer than this carries a comment saying why, starting with LONG_FUNCTION_MARK, in the comment
#: block right above its ``def`` or in its body (issue 42).
MAX_FUNCTION_LINES = 80
LONG_FUNCTION_MARK = "# over 80 lines:"


def _long_functions_without_a_reason() -> list[str]:
    found = []
    for path in PACKAGE.rglob("*.py"):
        text = path.read_text()
        lines = text.splitlines()
        for node in ast.walk(ast.parse(text)):
            if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            first = node.decorator_list[0].lineno if node.decorator_list else node.lineno
            above = first - 1  # the comment block right above the def (or its decorators), then the body
            while above > 0 and lines[above - 1].lstrip().startswith("#"):
                above -= 1
            length = node.end_lineno - node.lineno + 1
            if length > MAX_FUNCTION_LINES and not any(LONG_FUNCTION_MARK in line
                                                       for line in lines[above:node.end_lineno]):
                found.append(f"{path.relative_to(PACKAGE)}:{node.lineno} {node.name} ({length} lines)")
    return found


def test_no_function_is_over_80_lines_without_a_comment_saying_why():
    assert _long_functions_without_a_reason() == []


def test_the_token_route_and_the_atlas_are_folders_not_prefixes():
    """rank/token/ and sweeps/atlas/ hold them (issue 42): no token_*.py left in verify/rank/, no atlas_*.py in
    verify/sweeps/, and the token route is registered like the others."""
    from verify.rank.routes import METHODS, ROUTES

    assert sorted(p.name for p in (PACKAGE / "rank").glob("token_*.py")) == []
    assert sorted(p.name for p in (PACKAGE / "sweeps").glob("atlas_*.py")) == []
    assert ROUTES["tokens"].inputs == "tokens" and "tokens" not in METHODS


def test_the_front_door_is_narrow():
    """verify.api.__all__ is what api.py defines plus a few shared defaults: at most 30 names, each defined."""
    from verify import api

    assert len(api.__all__) <= 30 and len(set(api.__all__)) == len(api.__all__)
    assert [name for name in api.__all__ if not hasattr(api, name)] == []


def test_tests_mirror_the_packages():
    """Each folder of tests/ is named after a sub-package of verify/; only cross-cutting tests
    (layout, docs, packaging) and shared helpers stay at the top."""
    tests = Path(__file__).resolve().parent
    subpackages = {p.name for p in PACKAGE.iterdir() if p.is_dir() and (p / "__init__.py").exists()}
    folders = {p.name for p in tests.iterdir() if p.is_dir() and not p.name.startswith((".", "_"))}
    assert folders <= subpackages, f"tests/ folders with no verify sub-package: {sorted(folders - subpackages)}"
    top = {p.name for p in tests.glob("test_*.py")}
    assert top <= {"test_layout.py", "test_docs.py", "test_packaging.py"}, \
        f"tests to move into a package folder: {sorted(top)}"


# --- the engine owns its decisions (issue 23) ---------------------------------------------------

# command -> (its defaults object in the engine, the API function, {defaults field: argparse dest})
def _commands():
    from verify import api

    return {
        "sep": (api.SEP, api.separation_rank, ["--depth", "1", "--width", "2"], {}),
        "probe-n": (api.PROBE, api.probe_n, ["--depth", "1", "--width", "2"], {"positional_rank": "pos_rank"}),
        "table": (api.TABLE, api.reviewers_table, [], {}),
        "monomials": (api.MONOMIALS, api.monomials, ["--depth", "1", "--width", "2", "--tokens", "2"], {}),
    }


def test_the_api_and_the_command_line_share_their_defaults():
    """Each default is read from one object by the argparse parser and by the API signature: the
    parsed defaults, the signature's defaults and the object agree field by field."""
    import dataclasses
    import inspect

    from verify.cli.main import build_parser

    parser = build_parser()
    for command, (defaults, function, required, dests) in _commands().items():
        args = parser.parse_args([command, *required])
        signature = inspect.signature(function).parameters
        for item in dataclasses.fields(defaults):
            want = getattr(defaults, item.name)
            assert getattr(args, dests.get(item.name, item.name)) == want, (command, item.name)
            if item.name in signature and signature[item.name].default is not inspect.Parameter.empty:
                # (depths and widths have no default in Python: a table is asked for by its grid)
                assert signature[item.name].default == want, (command, item.name)


def test_the_registry_commands_default_to_the_registry_the_api_defaults_to():
    """verify run / claims / coverage / table pass --registry to one API function whose default it equals."""
    import inspect

    from verify import api
    from verify.cli.main import build_parser

    parser = build_parser()
    for command, function in {"run": api.run_registry, "claims": api.list_claims, "coverage": api.coverage,
                              "table": api.reviewers_table}.items():
        default = inspect.signature(function).parameters["registry"].default
        assert parser.parse_args([command]).registry == default, command


def test_the_command_line_imports_only_the_api():
    """cli/ parses, calls verify.api and prints: besides its own modules it imports the API, the
    layer-0 helpers (errors, version, files, validate, defaults), the writers of human output (verify.report) and
    the re-checker (verify.recheck: no part of the engine, it must not share its code, so the API does not
    front it), nothing of the engine."""
    allowed = ("verify.api", "verify.cli", "verify.errors", "verify.version", "verify.files", "verify.validate",
               "verify.report", "verify.recheck", "verify.defaults")
    reached = sorted({(a, b) for a, b in _graph().edges if a.startswith("verify.cli") and not b.startswith(allowed)
                      and b != "verify"})
    # faults closes the progress bars on an error (verify.sweeps.progress.close_all); follow-up: via the API
    assert reached in ([], [("verify.cli.faults", "verify.sweeps.progress")])


def test_ci_runs_exactly_the_readme_test_command_with_the_pinned_versions():
    root = PACKAGE.parent
    ci = (root / ".ci" / "run").read_text().strip().splitlines()[-1]
    assert "-c constraints.txt" in ci and ci in (root / "README.md").read_text()
    pinned = {line.split("==")[0].lower() for line in (root / "constraints.txt").read_text().splitlines()
              if "==" in line}
    assert {"pytest", "ruff", "python-flint", "hypothesis"} <= pinned


def test_ruff_passes():
    import shutil
    import subprocess
    import sys

    ruff = shutil.which("ruff") or str(Path(sys.executable).with_name("ruff"))
    done = subprocess.run([ruff, "check", "--no-cache", "."], cwd=PACKAGE.parent, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout[-2000:]


# --- the registry is a plugin (issue 23, point 4) ------------------------------------------------

#: What a claim file may import besides ``verify.authoring`` and its own package: the standard
#: library and the engine's own dependencies its checks compute with.
CLAIM_LIBRARIES = {"flint", "sympy", "mpmath", "networkx", "hypothesis", "numpy"}


def _registries() -> dict[str, Path]:
    """``{module: folder}`` of the registries the checkout's pyproject registers (``verify.registries``)."""
    import tomllib

    config = tomllib.loads((PACKAGE.parent / "pyproject.toml").read_text())
    modules = config["project"]["entry-points"]["verify.registries"].values()
    folders = config["tool"]["setuptools"].get("package-dir", {})  # seprank_proofs is installed from proofs/
    return {module: PACKAGE.parent / folders.get(module, module.replace(".", "/")) for module in modules}


def test_the_registry_is_registered_as_an_entry_point_and_shipped():
    registries = _registries()
    assert registries and all((folder / "__init__.py").is_file() for folder in registries.values())


def test_no_engine_module_imports_or_names_the_registry():
    """verify/ finds the registry through verify.claims.registry, never by its name: no import of it,
    no identifier and no string that names it as a module or a folder."""
    import io
    import re
    import tokenize

    found = []
    for module in _registries():
        named = re.compile(rf"(^|[^\w-]){re.escape(module)}(/|\.\w|$|['\"])")  # in a string token, quotes kept
        for path in PACKAGE.rglob("*.py"):
            for token in tokenize.generate_tokens(io.StringIO(path.read_text()).readline):
                if (token.type == tokenize.NAME and token.string == module) or (
                        token.type == tokenize.STRING and named.search(token.string)):
                    found.append(f"{path.relative_to(PACKAGE.parent)}:{token.start[0]}")
            for node in ast.walk(ast.parse(path.read_text())):
                targets = ([node.module or ""] if isinstance(node, ast.ImportFrom) and not node.level else
                           [a.name for a in node.names] if isinstance(node, ast.Import) else [])
                found += [f"{path.relative_to(PACKAGE.parent)}:{node.lineno}" for t in targets
                          if t.split(".")[0] == module]
    assert found == []


def test_claim_files_import_only_the_authoring_surface():
    """Every file of the registry (claims and _-helpers) imports from the engine only verify.authoring;
    otherwise its own package, the standard library and CLAIM_LIBRARIES."""
    import sys

    wrong = []
    for module, folder in _registries().items():
        for path in sorted(folder.glob("*.py")):
            for node in ast.walk(ast.parse(path.read_text())):
                if isinstance(node, ast.ImportFrom) and not node.level:
                    targets = [node.module]
                elif isinstance(node, ast.Import):
                    targets = [a.name for a in node.names]
                else:
                    continue
                for target in targets:
                    top = target.split(".")[0]
                    if target.split(".")[:2] == ["verify", "authoring"] or top in (module, *CLAIM_LIBRARIES) or (
                            top in sys.stdlib_module_names):
                        continue
                    wrong.append(f"{path.name}:{node.lineno} imports {target}")
    assert wrong == [], "import these through verify.authoring (tools/authoring_imports.py rewrites them)"


#: The authoring surface: its vocabulary and its namespaces (issue 42).
AUTHORING = ("verify.authoring", "verify.authoring.network", "verify.authoring.ranks",
             "verify.authoring.constructions", "verify.authoring.probe")


def test_the_authoring_surface_is_exactly_its_guarded_list():
    """Each module of the surface (the vocabulary verify.authoring and its namespaces) defines no public
    name outside __all__ (its private names start with _), a name outside it cannot be imported from it,
    each listed name is used by some claim file from that module, and the vocabulary stays small."""
    import importlib

    used = {}
    for folder in _registries().values():
        for path in folder.glob("*.py"):
            for node in ast.walk(ast.parse(path.read_text())):
                if isinstance(node, ast.ImportFrom) and node.module in AUTHORING:
                    used.setdefault(node.module, set()).update(a.name for a in node.names)
    for module in AUTHORING:
        surface = importlib.import_module(module)
        public = {name for name in dir(surface) if name[0] not in "_@"} - {m.split(".")[-1] for m in AUTHORING}
        assert public == set(surface.__all__) and len(surface.__all__) == len(public), module
        for name in ("load_claims", "RankSource", "specsets", "claims", "annotations", "check_exports"):
            try:
                exec(f"from {module} import {name}", {})
            except ImportError:
                continue
            raise AssertionError(f"{name} is importable from {module} but not in its __all__")
        assert set(surface.__all__) - used.get(module, set()) == set(), f"{module}: names no claim uses: drop them"
    assert len(importlib.import_module("verify.authoring").__all__) <= 30, "the vocabulary: a small one"


def test_no_test_imports_a_benchmark_script():
    """Tests import the engine, never a script of benchmarks/ (issue 32, item 5): no import of
    ``benchmarks``, no module loaded from a file path (``spec_from_file_location``, ``runpy``), no edit of
    ``sys.path``.  Running a script as a subprocess, as a user does, is allowed."""
    tests = Path(__file__).resolve().parent
    found = []
    for path in tests.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                names = [node.module or ""]
            elif isinstance(node, ast.Attribute) and node.attr in ("spec_from_file_location", "run_path"):
                names = [node.attr]
            elif isinstance(node, ast.Attribute) and node.attr == "path" and getattr(node.value, "id", "") == "sys":
                names = ["sys.path"]
            found += [f"{path.relative_to(tests)}:{node.lineno} {name}" for name in names
                      if name.split(".")[0] in ("benchmarks", "runpy", "atlas") or name in (
                          "spec_from_file_location", "run_path", "sys.path")]
    assert found == []
