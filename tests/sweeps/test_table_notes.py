"""The reviewers' table names each bound column's registry finding, and says "the printed statement fails"
only of an erratum (a gap's statement holds where computed; only its printed proof falls short)."""

from __future__ import annotations

from verify.claims.record import load_claims
from verify.sweeps.table import BoundColumn, bound_columns


def test_only_an_erratum_column_says_its_printed_statement_fails():
    expected = {claim.id: claim.expected for claim in load_claims()}
    columns = bound_columns() + bound_columns(residual=True)
    # every column today is verified, gap or not decided: before this test each non-verified one was
    # printed as "registry erratum: the printed statement fails somewhere"
    assert {col.outcome for col in columns} >= {"gap", "not-decided"}
    for col in columns:
        assert col.outcome == expected[col.claim_id]
        assert ("fails" in col.note) == (expected[col.claim_id] == "erratum"), (col.claim_id, col.note)
        assert col.erratum == (expected[col.claim_id] == "erratum")
        assert (col.note == "") == (expected[col.claim_id] == "verified")
        if expected[col.claim_id] == "gap":
            assert "proof gap" in col.note


def test_an_erratum_column_says_so():
    col = BoundColumn("B1", "toy_erratum", "toy §1", None, "erratum")
    assert col.erratum and col.note == " (registry erratum: the printed statement fails somewhere)"


def test_bound_ids_count_the_registry_bounds_in_order():
    """B<n> names the n-th bound of the registry, counted from 1, in every table and report (one id per bound)."""
    for residual in (False, True):
        columns = bound_columns(residual=residual)
        assert len(columns) >= 2
        assert [col.id for col in columns] == [f"B{n}" for n in range(1, len(columns) + 1)]
    assert BoundColumn("x", "toy", "toy §1", None, "verified", 7).id == "B7"
