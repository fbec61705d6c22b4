"""§5: 'we estimated the variance ... by rerunning 7 of the trained architectures five times each', against
the standard deviations listed in appendix C (Table 2 for §5.1, Table 4 for §5.2)."""

from verify.authoring import Claim, Property, shifted

from ._common import WIES, Source
from ._wies_tables import TABLE2, TABLE4


def _networks():
    """The distinct rerun networks the tables list, as (depth, V, d_x, r)."""
    return {(12, None, w, r) for w, r, _ in TABLE2} | {(depth, v, w, r) for v, depth, w, r, _ in TABLE4}


def _count(printed: int):
    listed = _networks()
    return len(listed) == printed, f"Tables 2 and 4 list {len(TABLE2)} + {len(TABLE4)} = {len(listed)} distinct " \
                                   f"rerun networks; the text says {printed}", None if len(listed) == printed else \
        {"printed": printed, "listed": len(listed)}


CLAIM = Claim(
    id="wies2021_rerun_count",
    source=Source(WIES, "§5 paragraph 3; appendix C Tables 2 and 4", "'rerunning 7 of the trained architectures five "
        "times each'"),
    statement="The variance was estimated by rerunning 7 architectures five times each (the appendix's std tables).",
    reading="Every row of Tables 2 (§5.1, depth 12) and 4 (§5.2, depths 24 and 48) is a rerun architecture; the rows "
            "are pairwise distinct networks (depths differ between the tables).",
    checks=[Property(lambda: _count(7), name="printed count against the tables")],
    expected="erratum",
    corrected_statement="Tables 2 and 4 list 8 rerun architectures (3 + 5); either the text's 7 or one table row is "
                        "off.",
    corrected_checks=[Property(lambda: _count(8), name="8 against the tables",
                               perturb={"7 (the printed count)": shifted(_count, printed=7, claim=8),
                                        "9": shifted(_count, printed=9, claim=8)})],
)
