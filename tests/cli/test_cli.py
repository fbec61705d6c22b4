"""The command line: JSON keys, tables, and one-line errors with exit status 2."""

import json
import subprocess
import sys

import pytest

from verify.cli.main import main


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_sep_json_has_the_documented_keys(capsys):
    code, out, _ = run(capsys, "sep", "--depth", "1", "--width", "2", "--tokens", "2", "--json",
                       "--method", "coefficients")
    data = json.loads(out)
    assert code == 0
    for key in ("rank", "method", "field", "depth", "width", "heads", "tokens", "seed",
                "certified_lower_bound", "probability_bound"):
        assert key in data
    assert data["rank"] == 3 and data["method"] == "coefficients" and data["certified_lower_bound"]


def test_sep_without_tokens_uses_the_reduced_route_and_says_for_which_n(capsys):
    code, out, _ = run(capsys, "sep", "--depth", "2", "--width", "2", "--json")
    data = json.loads(out)
    # the reduced value holds from N = 2(d_x + 1) = 6 on (docs/mathematics.md section 2), given as a number
    assert (code, data["method"], data["tokens"], data["valid_from_tokens"]) == (0, "reduced", None, 2 * (2 + 1))


def test_reduced_below_the_token_threshold_falls_back_and_says_so(capsys):
    code, out, _ = run(capsys, "sep", "--depth", "2", "--width", "2", "--tokens", "4", "--method", "reduced",
                       "--json")
    data = json.loads(out)
    assert data["method"] == "coefficients" and any("fell back" in n for n in data["notes"])


def test_all_partitions_reports_invariance(capsys):
    code, out, _ = run(capsys, "sep", "--depth", "1", "--width", "2", "--tokens", "4", "--all-partitions",
                       "--json")
    data = json.loads(out)
    assert data["invariant"] and len(data["partitions"]) == 3 and data["rank"] == 3


def test_grid_method_from_the_cli(capsys):
    code, out, _ = run(capsys, "sep", "--depth", "1", "--width", "2", "--tokens", "2", "--method", "grid",
                       "--json", "--field", "qq")
    assert json.loads(out)["rank"] == 3


def test_monomials_json(capsys):
    code, out, _ = run(capsys, "monomials", "--depth", "2", "--width", "2", "--heads", "2", "--tokens", "2",
                       "--json")
    data = json.loads(out)
    assert (data["count"], data["expected_count"], data["degree"]) == (110, 110, 9)


def test_table_output_is_readable(capsys):
    code, out, _ = run(capsys, "sep", "--depth", "1", "--width", "3")
    assert code == 0 and out.splitlines()[0].split() == ["rank", "4"]


BAD = [
    (["sep", "--depth", "1", "--width", "4", "--heads", "3"], "not divisible by heads"),
    (["sep", "--depth", "0", "--width", "2"], "depth must be"),
    (["sep", "--depth", "1", "--width", "2", "--tokens", "3", "--method", "coefficients"], "even number of tokens"),
    (["sep", "--depth", "1", "--width", "2", "--field", "gf:100"], "not prime"),
    (["sep", "--depth", "1", "--width", "2", "--field", "gf:abc"], "not an integer"),
    (["sep", "--depth", "1", "--width", "2", "--field", "zz"], "unknown field"),
    (["sep", "--depth", "3", "--width", "3", "--tokens", "8", "--method", "coefficients"], "GiB"),
    (["sep", "--depth", "3", "--width", "3", "--residual"], "GiB"),
    (["sep", "--depth", "4", "--width", "3"], "GiB"),
    (["sep", "--depth", "2", "--width", "3", "--tokens", "4", "--method", "grid"], "evaluations"),
    (["sep", "--depth", "1", "--width", "2", "--tokens", "4", "--partition", "0,9"], "partition"),
    (["sep", "--depth", "1", "--width", "2", "--tokens", "4", "--partition", "a"], "partition"),
    (["sep", "--depth", "2", "--width", "2", "--partition", "0"], "needs --tokens"),
    (["sep", "--depth", "1", "--width", "2", "--method", "grid"], "needs --tokens"),
    (["sep", "--depth", "2", "--width", "2", "--field", "gf:3"], "prime above"),
    (["sep", "--depth", "1", "--width", "2", "--output", "5"], "output coordinate"),
    (["sep", "--depth", "1", "--width", "2", "--tokens", "2", "--position", "2", "--method", "coefficients"],
     "position"),
    (["sep", "--depth", "1", "--width", "2", "--bogus"], "unrecognized"),
    (["sep", "--width", "2"], "required"),
    (["monomials", "--depth", "3", "--width", "4", "--tokens", "10"], "GiB"),
    (["nothing"], "invalid choice"),
]


@pytest.mark.parametrize("argv,phrase", BAD, ids=[" ".join(a) for a, _ in BAD])
def test_bad_input_exits_2_with_one_line_naming_the_problem(capsys, argv, phrase):
    code, out, err = run(capsys, *argv)
    assert code == 2
    assert out == ""
    assert len(err.strip().splitlines()) == 1 and err.startswith("verify: error:")
    assert phrase in err
    assert "Traceback" not in err


def test_console_script_entry_point_runs_as_a_module():
    done = subprocess.run([sys.executable, "-m", "verify", "sep", "--depth", "1", "--width", "2", "--json"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and json.loads(done.stdout)["rank"] == 3
    bad = subprocess.run([sys.executable, "-m", "verify", "sep", "--depth", "0", "--width", "2"],
                         capture_output=True, text=True, timeout=120)
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1 and "Traceback" not in bad.stderr
