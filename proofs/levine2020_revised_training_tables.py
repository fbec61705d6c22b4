"""Section D of the revised supplement: the counts the text quotes about the trained architectures, against
Tables 1 and 2 (transcribed in ``proofs/_tables_revised.py``)."""

from verify.authoring import Claim, Property, neighbour, shifted

from ._common import REVISED, Source
from ._tables_revised import DEPTHS, HEADS, TABLE1, TABLE1_ROWS, TABLE2

#: The depths the text lists: "L = 6, 12, 18, 24, 30, 36, 48".
TEXT_DEPTHS = (6, 12, 18, 24, 30, 36, 48)
#: "rerunning 11 of the trained architectures three times each".
TEXT_RERUNS = 11


def _depths(listed=TEXT_DEPTHS):
    used = tuple(sorted({depth for depth, _ in TABLE1}))
    ok = used == tuple(listed) == DEPTHS
    return ok, f"text lists depths {list(listed)}; Table 1 has networks at depths {list(used)}", \
        None if ok else {"text": list(listed), "table": list(used)}


def _heads(heads=HEADS):
    odd = [(depth, width) for depth, width in TABLE1 if width % heads]
    return not odd, f"{len(TABLE1)} Table 1 networks; widths not divisible by H = {heads}: {odd or 'none'}", \
        None if not odd else {"not divisible": odd}


def _reruns(stated=TEXT_RERUNS):
    count = sum(len(widths) for widths in TABLE2.values())
    ok = count == stated
    return ok, f"Table 2 lists {count} architectures, the text says {stated}", None if ok else {"table": count}


def _members(exclude=()):
    missing = [(depth, width) for depth, widths in TABLE2.items() for width in widths
               if (depth, width) not in TABLE1 and (depth, width) not in exclude]
    near = {m: min((w for d, w in TABLE1 if d == m[0]), key=lambda w: abs(w - m[1])) for m in missing}
    ok = not missing
    return ok, (f"every Table 2 architecture is in Table 1 (excluding {list(exclude)})" if ok else
                "Table 2 architectures missing from Table 1: " +
                ", ".join(f"L={d} d_x={w} (nearest Table 1 width {near[(d, w)]})" for d, w in missing)), \
        None if ok else {"missing": [{"L": d, "d_x": w, "nearest": near[(d, w)]} for d, w in missing]}


CLAIM = Claim(
    id="levine2020_revised_training_tables",
    source=Source(REVISED, "D (experimental details)", "depths, heads and reruns against Tables 1-2"),
    statement="The trained depths are L = 6, 12, 18, 24, 30, 36, 48 (Table 1's columns); every network has 2 heads "
              "per layer; 11 of the trained architectures (Table 2) were rerun three times.",
    formulas={"rows_of_table1": str(len(TABLE1_ROWS)), "networks_in_table1": str(len(TABLE1))},
    domain="every cell of Tables 1 and 2 as transcribed",
    reading="'Trained architectures' are Table 1's ('The widths d_x of the different trained networks'), so Table 2's "
            "rerun architectures should be cells of Table 1.",
    checks=[Property(_depths, name="depths of the text = columns of Table 1",
                     perturb={"depths without 48": neighbour(_depths, listed=TEXT_DEPTHS[:-1])}),
            Property(_heads, name="every width divisible by the 2 heads",
                     perturb={"every width divisible by 3": neighbour(_heads, heads=3)}),
            Property(_reruns, name="Table 2 has 11 architectures",
                     perturb={"10 architectures": shifted(_reruns, stated=TEXT_RERUNS - 1)}),
            Property(_members, name="Table 2's architectures are Table 1 cells")],
    expected="erratum",
    corrected_statement="Ten of Table 2's eleven architectures are Table 1 cells; L = 6, d_x = 800 is not (Table 1's "
                        "L = 6 column has 680 and 816): either Table 1 omits a trained network or Table 2 means 816.",
    corrected_checks=[Property(lambda: _members(exclude=((6, 800),)),
                               name="Table 2's architectures other than L=6 d_x=800 are Table 1 cells",
                               perturb={"all eleven are cells": neighbour(_members, claim=((6, 800),), exclude=())})],
)
