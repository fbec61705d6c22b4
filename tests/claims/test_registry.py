"""Finding the claims registry (verify.claims.registry): the entry point by default, else a name,
module or folder given to the API, the command line or $VERIFY_REGISTRY."""

import json
import sys
import textwrap
import tomllib
from pathlib import Path

import pytest

import verify
from toy_registry import TOY_BOUND
from verify.claims import registry as registry_module
from verify.claims.registry import ENVIRONMENT, GROUP, find_registry
from verify.cli.main import main
from verify.errors import InputError
from verify.report import formats

ROOT = Path(__file__).resolve().parents[2]
DECLARED = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["entry-points"][GROUP]

TOY_CLAIM = '''
from verify.authoring import Claim, Property, Source

CLAIM = Claim(
    id="toy_one_plus_one",
    source=Source("toy", "§1", "eq. 1"),
    statement="1 + 1 = 2",
    expected="not-decided",  # a property with no perturbation cannot fail
    checks=[Property(lambda: (1 + 1 == 2, "1 + 1 = 2 in Python's integers", None), name="1 + 1 = 2")],
)
'''


@pytest.fixture
def toy(tmp_path, monkeypatch):
    """A registry of one claim in a folder of its own (a name no other test uses)."""
    folder = tmp_path / f"toy_registry_{tmp_path.name.replace('-', '_')}"
    folder.mkdir()
    (folder / "__init__.py").write_text('"""A toy registry."""\n')
    (folder / "toy_one_plus_one.py").write_text(textwrap.dedent(TOY_CLAIM))
    (folder / "coverage").mkdir()
    monkeypatch.delenv(ENVIRONMENT, raising=False)
    yield folder
    for name in [m for m in sys.modules if m == folder.name or m.startswith(folder.name + ".")]:
        del sys.modules[name]


def test_the_default_is_the_one_entry_point(monkeypatch):
    monkeypatch.delenv(ENVIRONMENT, raising=False)
    [(name, module)] = DECLARED.items()
    assert registry_module.registry_entry_points() == {name: module}
    assert find_registry().name == module == find_registry(name).name


def test_a_folder_given_to_the_api_is_loaded_and_run(toy):
    assert [c.id for c in verify.list_claims(registry=toy)] == ["toy_one_plus_one"]
    [result] = verify.run_claims(registry=str(toy))
    assert (result.claim.id, result.outcome) == ("toy_one_plus_one", "not-decided")


def test_the_environment_names_the_registry_and_the_argument_wins(toy, monkeypatch):
    monkeypatch.setenv(ENVIRONMENT, str(toy))
    assert find_registry().directory == toy.resolve()
    assert find_registry(next(iter(DECLARED))).name == next(iter(DECLARED.values()))


def test_the_command_line_takes_registry(toy, capsys):
    code = main(["claims", "--registry", str(toy), "--json"])
    data = json.loads(capsys.readouterr().out)
    assert code == 0 and data["count"] == 1 and data["claims"][0]["id"] == "toy_one_plus_one"


def test_the_table_reads_its_bound_columns_from_the_registry_it_is_given(toy, capsys):
    """verify table --registry: the toy registry's one bound is the only column (one layer of width 2
    has rank 3, the closed form of docs/mathematics.md §2: a 1 x 6 and a 3 x 2 degree block)."""
    (toy / "toy_rank_at_most_three.py").write_text(textwrap.dedent(TOY_BOUND))
    code = main(["table", "--depths", "1", "--widths", "2", "--heads", "1", "--registry", str(toy), "--json"])
    [row] = json.loads(capsys.readouterr().out)["rows"]
    assert code == 0 and row["sep_rank"] == 3
    assert [(b["claim"], b["holds"]) for b in row["bounds"]] == [("toy_rank_at_most_three", True)]
    rows = verify.reviewers_table([1], [2], heads="1", registry=toy)["rows"]
    assert [b["claim"] for b in rows[0]["bounds"]] == ["toy_rank_at_most_three"]
    assert "toy_rank_at_most_three" in formats.table_csv(rows, toy).splitlines()[0]
    assert "toy_rank_at_most_three" in formats.table_markdown(rows, toy)


def test_an_unknown_registry_is_one_line_and_status_2(capsys, monkeypatch):
    monkeypatch.delenv(ENVIRONMENT, raising=False)
    code = main(["claims", "--registry", "no_such_registry_anywhere"])
    err = capsys.readouterr().err
    assert code == 2 and len(err.strip().splitlines()) == 1 and "no_such_registry_anywhere" in err


def test_several_or_no_entry_points_without_a_choice_are_refused(monkeypatch):
    monkeypatch.delenv(ENVIRONMENT, raising=False)
    monkeypatch.setattr(registry_module, "registry_entry_points", lambda: {"a": "mod_a", "b": "mod_b"})
    with pytest.raises(InputError, match="several claims registries.*a, b"):
        find_registry()
    monkeypatch.setattr(registry_module, "registry_entry_points", lambda: {})
    with pytest.raises(InputError, match="no claims registry found"):
        find_registry()


def test_a_folder_without_init_is_refused(tmp_path):
    with pytest.raises(InputError, match="no __init__.py"):
        find_registry(tmp_path)


def test_a_checkout_without_installed_metadata_finds_its_registry_folder(monkeypatch):
    """No entry point installed (a checkout on PYTHONPATH): the checkout's pyproject table is read, and
    the module it names, installed from proofs/ as seprank_proofs (package-dir), is that folder."""
    import importlib.util

    root = Path(registry_module.__file__).resolve().parents[2]
    monkeypatch.delenv(ENVIRONMENT, raising=False)
    monkeypatch.setattr(registry_module.importlib.metadata, "entry_points", lambda group: [])
    [(name, target)] = registry_module.registry_entry_points().items()
    assert target == f"seprank_proofs={root / 'proofs'}"
    spec = importlib.util.find_spec("seprank_proofs")
    if spec is None or Path(spec.origin).resolve().parent != root / "proofs":
        pytest.skip("seprank_proofs is imported from an installed copy here, not from this checkout")
    found = find_registry()
    assert (found.name, found.directory) == ("seprank_proofs", root / "proofs")
