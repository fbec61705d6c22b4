"""The coverage index (proofs/coverage/*.toml): every entry has a claim or a reason, every claim id
exists, and ``verify coverage`` reports both rules' failures."""

import json
import tomllib
from pathlib import Path

import pytest

from verify.claims.coverage import KINDS, default_directory, load_index, summarise
from verify.claims.record import load_claims
from verify.cli.main import main

ROOT = Path(__file__).resolve().parents[2]
DOCUMENTS = {"levine2020_limits_to_depth_efficiencies.md", "levine2020_supplement_revised.txt",
             "levine2020_author_response.txt", "wies2021_vocabulary_bottleneck.md"}


def test_every_index_entry_has_a_claim_or_a_reason_and_every_claim_id_exists():
    parts, entries, problems = load_index()
    data = summarise(parts, entries, {c.id for c in load_claims()})
    assert entries and not problems, problems
    assert data["neither"] == [], data["neither"]
    assert data["unknown_claims"] == [], data["unknown_claims"]
    assert {p["document"] for p in parts} <= DOCUMENTS


def test_the_index_files_ship_with_the_package():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    setuptools = config["tool"]["setuptools"]
    # installed as seprank_proofs.coverage (a folder of data, listed as a package) from proofs/coverage/
    patterns = setuptools["package-data"]["seprank_proofs.coverage"]
    assert "seprank_proofs.coverage" in setuptools["packages"]
    folder = ROOT / setuptools["package-dir"]["seprank_proofs"] / "coverage"
    shipped = {p for pattern in patterns for p in folder.glob(pattern)}
    # by name: the registry read may be an installed copy (a wheel, an unpacked sdist's install)
    assert {p.name for p in default_directory().glob("*.toml")} <= {p.name for p in shipped} and shipped


TOY = '''document = "levine2020_author_response.txt"
part = "toy"
citation = "toy citation"

[[entry]]
id = "a"
place = "line 1"
kind = "theorem"
statement = "checked"
claims = ["levine2020_lth_1000"]

[[entry]]
id = "b"
place = "line 2"
kind = "number"
statement = "nothing decides it"

[[entry]]
id = "c"
place = "line 3"
kind = "remark"
statement = "names a claim that does not exist"
claims = ["no_such_claim"]

[[entry]]
id = "d"
place = "line 4"
kind = "experiment"
statement = "a training result"
reason = "training result"
'''


def test_coverage_reports_an_entry_with_neither_and_an_unknown_claim(tmp_path, capsys):
    (tmp_path / "toy.toml").write_text(TOY)
    assert main(["coverage", "--dir", str(tmp_path), "--json"]) == 1
    data = json.loads(capsys.readouterr().out)
    assert data["neither"] == ["toy:b"] and data["unknown_claims"] == ["toy:c -> no_such_claim"]
    assert data["totals"] == {"entries": 4, "with_claim": 2, "with_reason": 1, "pending": 0, "neither": 1,
                              "unknown_claims": 1}
    assert not data["ok"]


@pytest.mark.parametrize("blank", ["", " ", "\\t \\n"])
def test_a_blank_reason_is_no_reason(tmp_path, capsys, blank):
    """An entry whose only reason is empty or whitespace is covered by neither a claim nor a reason: it is
    listed under neither, counted there and not as a reason, and the index is incomplete (exit 1).  A
    count that accepted a blank reason survived the suite (issue 35)."""
    complete = TOY.split("[[entry]]\nid = \"b\"")[0]
    (tmp_path / "toy.toml").write_text(complete + f'[[entry]]\nid = "e"\nplace = "line 5"\nkind = "remark"\n'
                                                  f'statement = "a blank reason"\nreason = "{blank}"\n')
    assert main(["coverage", "--dir", str(tmp_path), "--json"]) == 1
    data = json.loads(capsys.readouterr().out)
    assert data["neither"] == ["toy:e"] and not data["ok"]
    assert data["totals"] == {"entries": 2, "with_claim": 1, "with_reason": 0, "pending": 0, "neither": 1,
                              "unknown_claims": 0}


def test_coverage_table_of_a_complete_index_exits_0(tmp_path, capsys):
    (tmp_path / "toy.toml").write_text(TOY.split("[[entry]]\nid = \"b\"")[0])
    assert main(["coverage", "--dir", str(tmp_path)]) == 0
    assert "toy" in capsys.readouterr().out


@pytest.mark.parametrize("text,problem", [
    ('document = "x"\npart = "p"\ncitation = "c"\n[[entry]]\nid = "a"\nplace = "p"\nkind = "poem"\n'
     'statement = "s"\nreason = "r"\n', "kind 'poem'"),
    ('document = "x"\npart = "p"\ncitation = "c"\n[[entry]]\nid = "a"\nplace = "p"\nkind = "count"\n'
     'statement = "s"\nreason = "r"\n[[entry]]\nid = "a"\nplace = "p"\nkind = "count"\nstatement = "s"\n'
     'reason = "r"\n', "duplicate id"),
])
def test_format_problems_are_named(tmp_path, text, problem):
    (tmp_path / "bad.toml").write_text(text)
    assert any(problem in p for p in load_index(tmp_path)[2])
    assert "poem" not in KINDS


def test_malformed_index_is_a_one_line_error(tmp_path, capsys):
    (tmp_path / "broken.toml").write_text("document = \n")
    assert main(["coverage", "--dir", str(tmp_path)]) == 2
    err = capsys.readouterr().err.strip()
    assert "broken.toml is not valid TOML" in err and "\n" not in err
