"""The committed results/ tables recheck clean within a small budget (docs/recheck.md)."""

from __future__ import annotations

from pathlib import Path

import pytest

from verify.recheck import CONTRADICTED, recheck

RESULTS = Path(__file__).resolve().parents[2] / "results"
TABLES = ["n_atlas.csv", "n_positional_cells.csv", "reach.csv"]


@pytest.mark.slow
def test_the_committed_results_recheck_clean():
    rc = recheck([str(RESULTS / name) for name in TABLES], 10)
    contradicted = [f.line() for f in rc.findings if f.status == CONTRADICTED]
    assert contradicted == [], "\n".join(contradicted[:20])
    assert rc.counts()["confirmed"] > 1000
