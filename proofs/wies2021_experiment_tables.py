"""Appendix C's experiment tables against the text that describes them: Table 3's widths with 2 heads per
layer, Table 4's rows among Table 3's networks, Table 2's rows among C.1's networks, Table 5 against §5.3's
ratios and depths, C.4's ranks within eq. 3's cap, the vocabulary count and the largest width."""

from verify.authoring import Claim, Property, neighbour, shifted

from ._common import WIES, Source
from ._wies_tables import C1_BASELINE_WIDTHS, C1_LOW_RANK_WIDTH, C1_RANKS, C4, HEADS, TABLE2, TABLE3, TABLE4, TABLE5


def _table3(heads=HEADS):
    """Every width of Table 3 is divisible by the 2 heads per layer (d_a = d_x/2 an integer); rows increase."""
    for key, widths in TABLE3.items():
        bad = [w for w in widths if w % heads]
        if bad or widths != sorted(set(widths)):
            return False, (f"row {key}: widths {bad or widths} not divisible by H={heads} "
                           f"or not increasing"), {"row": str(key)}
    return True, (f"all {sum(map(len, TABLE3.values()))} widths in {len(TABLE3)} rows divisible by H={heads}, rows "
                  "increasing"), None


def _table4(shift=0):
    """Each Table 4 rerun is a trained network of Table 3 (same V, L, r and a listed width)."""
    for v, depth, width, rank, _ in TABLE4:
        if width + shift not in TABLE3.get((v, depth, rank), []):
            return False, f"Table 4 row V={v} L={depth} d_x={width} r={rank} is not in Table 3", {"V": v, "L": depth,
                                                                                                  "d_x": width}
    return True, f"all {len(TABLE4)} rows of Table 4 are networks of Table 3", None


def _table2(shift=0):
    """Table 2's rows: the full-rank baselines (d_x = r a baseline width) or the width-680 low-rank networks."""
    for width, rank, _ in TABLE2:
        ok = (width == rank and width + shift in C1_BASELINE_WIDTHS) or \
             (width == C1_LOW_RANK_WIDTH and rank + shift in C1_RANKS)
        if not ok:
            return False, f"Table 2 row d_x={width} r={rank} is not a C.1 network", {"d_x": width, "r": rank}
    return True, f"all {len(TABLE2)} rows of Table 2 are C.1 networks", None


def _table5(ratios=(1, 2, 4, 8, 16), depths=(12, 18, 24)):
    """§5.3: ratios H d_a/d_x in {1,2,4,8,16}, depths in {12,18,24}; every network has an integer
    d_a = ratio d_x / H; C.3: 'mostly H = 12'; one bold (shown) depth at least per ratio."""
    seen = {row[0] for row in TABLE5}
    if seen != set(ratios):
        return False, f"ratios {sorted(seen)} != {sorted(ratios)}", {"ratios": sorted(seen)}
    for ratio, depth, heads, widths, _ in TABLE5:
        if depth not in depths:
            return False, f"ratio {ratio}: depth {depth} not in {depths}", {"ratio": ratio, "L": depth}
        for w in widths:
            if (ratio * w) % heads:
                return False, f"ratio {ratio} L={depth} H={heads} d_x={w}: d_a = {ratio * w / heads} not an integer", \
                    {"ratio": ratio, "H": heads, "d_x": w}
    twelve = sum(1 for row in TABLE5 if row[2] == 12)
    bold = {row[0] for row in TABLE5 if row[4]}
    if 2 * twelve <= len(TABLE5) or bold != seen:
        return False, f"H = 12 in {twelve} of {len(TABLE5)} rows; ratios with a shown depth {sorted(bold)}", None
    return True, (f"ratios {sorted(seen)}, depths within {depths}, d_a = ratio d_x / H an integer for all "
                  f"{sum(len(r[3]) for r in TABLE5)} networks, H = 12 in {twelve} of {len(TABLE5)} rows"), None


def _c4(cap=None):
    """C.4: every positional rank <= min(d_x, tokens) and every vocabulary rank <= min(d_x, V) (eq. 3); the
    vocabulary ranks are the positional ones without 1 (footnote 6), full rank 512 included in both."""
    width = C4["width"]
    pos_cap = cap or min(width, C4["tokens"])
    voc_cap = cap or min(width, C4["vocab"])
    ok = max(C4["positional_ranks"]) <= pos_cap and max(C4["vocab_ranks"]) <= voc_cap and \
        C4["vocab_ranks"] == [x for x in C4["positional_ranks"] if x != 1] and width in C4["vocab_ranks"]
    return ok, f"positional ranks <= {pos_cap}, vocabulary ranks <= {voc_cap}, both up to full rank {width}", None


def _counts(vocabularies=3, largest=1064):
    """C.2: 3 BPE vocabularies besides GPT-2's (Table 3's V values); the largest width of the GPT-2-vocabulary
    experiment is 1064."""
    bpe = sorted({v for v, _, _ in TABLE3} - {50257})
    widest = max(w for (v, _, _), ws in TABLE3.items() if v == 50257 for w in ws)
    ok = len(bpe) == vocabularies and bpe == [257, 500, 2000] and widest == largest
    return ok, f"BPE vocabularies {bpe}; largest width with V = 50257: {widest}", None


CLAIM = Claim(
    id="wies2021_experiment_tables",
    source=Source(WIES, "§5 and appendix C", "Tables 2-5, C.1-C.4 against the text"),
    statement="Table 3's networks have 2 heads per layer (widths divisible by 2); Tables 2 and 4 list trained networks "
              "of C.1 and Table 3; Table 5 covers the ratios {1,2,4,8,16} with depths in {12,18,24} and integer d_a, "
              "mostly H = 12; C.4's ranks are admissible (<= min{d_x, V} and <= min{d_x, N}); 3 BPE vocabularies "
              "V = 257, 500, 2000; the GPT-2-vocabulary experiment's largest width is 1064.",
    reading="Tables transcribed in proofs/_wies_tables.py.  Table 2's (680, 680) row is read as the width-680 network "
            "with r = 680 (it is also a baseline width).",
    checks=[Property(_table3, name="Table 3: H = 2 divides every width",
                     perturb={"H = 4 divides every width": neighbour(_table3, heads=4)}),
            Property(_table4, name="Table 4 rows are Table 3 networks",
                     perturb={"widths shifted by one": shifted(_table4, shift=1)}),
            Property(_table2, name="Table 2 rows are C.1 networks",
                     perturb={"widths shifted by one": shifted(_table2, shift=1)}),
            Property(_table5, name="Table 5 against §5.3 and C.3",
                     perturb={"ratios {1,2,4,8}": neighbour(_table5, ratios=(1, 2, 4, 8)),
                              "depths {12, 24}": neighbour(_table5, depths=(12, 24))}),
            Property(_c4, name="C.4 ranks admissible", perturb={"ranks <= 256": neighbour(_c4, cap=256)}),
            Property(_counts, name="C.2 counts", perturb={"4 BPE vocabularies": shifted(_counts, vocabularies=4),
                                                          "largest width 1063": shifted(_counts, largest=1063)})],
)
