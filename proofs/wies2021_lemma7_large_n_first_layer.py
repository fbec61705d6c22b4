"""Lemma 7 (vocabulary paper): with V >= r and large N, the first self-attention layer sums the
embeddings of sequences pi_P(j1), pi_Q(j2) into (sum_h W^O W^V) u, u carrying rows j1, j2 of A."""

from verify.authoring import Cases, Claim, neighbour
from verify.authoring.constructions import large_n_construction

from ._common import WIES, Source
from ._vocab import Layout, a_matrix, capacity, random_value_output

#: (d_x, H, r) with H | d_x, r <= d_x and r - 1 - H even and positive; depth L = 2 and 3.
CASES = sorted(((w, h, r, depth) for w in range(3, 10) for h in range(1, w + 1) if w % h == 0
                for r in range(h + 3, w + 1, 2) for depth in (2, 3)), key=lambda c: (c[0], c[3], c[1], c[2]))


def _all_pairs(width, heads, r, depth, printed, segments=None, embedding=None):
    n = (r - 1 - heads) // 2 if printed else min((r - 1 - heads) // 2, capacity(width, heads))
    if n == 0:
        return True, f"d_x={width} H={heads} r={r}: nothing to carry", None
    layout = Layout(width, heads, n, printed)
    a = a_matrix(n, depth)
    value_output = random_value_output(width, heads, width * 100 + r)
    for j1 in range(1, len(a) + 1):
        for j2 in range(1, len(a) + 1):
            outputs, target, u, tokens = large_n_construction(layout, a, value_output, j1, j2, segments, embedding)
            if any(y != target for y in outputs):
                return False, f"d_x={width} H={heads} r={r} L={depth}: layer output != (sum_h W^O W^V) u at " \
                              f"j1={j1}, j2={j2}", {"d_x": width, "H": heads, "r": r, "L": depth, "j1": j1, "j2": j2,
                                                    "A": a, "N": tokens}
    return True, f"d_x={width} H={heads} r={r} L={depth}: n={n}, {len(a)}^2 pairs, N={tokens}, every output = " \
                 f"(sum_h W^O W^V) u", None


def _second_row_shifted(width, heads, r, depth):
    """the index shifted: the output carries row j2 + 1 of A (cyclically) in the second halves, not row j2"""
    n = min((r - 1 - heads) // 2, capacity(width, heads))
    if n == 0:
        return True, f"d_x={width} H={heads} r={r}: nothing to carry"
    layout, a = Layout(width, heads, n), a_matrix(n, depth)
    value_output = random_value_output(width, heads, width * 100 + r)
    for j1 in range(1, len(a) + 1):
        for j2 in range(1, len(a) + 1):
            outputs = large_n_construction(layout, a, value_output, j1, j2, None, None)[0]
            shifted = large_n_construction(layout, a, value_output, j1, j2 % len(a) + 1, None, None)[1]
            if any(y != shifted for y in outputs):
                return False, f"d_x={width} H={heads} r={r} L={depth}: j1={j1}, j2={j2} carries row j2, not j2 + 1"
    return True, f"d_x={width} H={heads} r={r} L={depth}: the shifted target agrees"


ODD = [c for c in CASES if (c[0] // c[1]) % 2 == 1]

CLAIM = Claim(
    id="wies2021_lemma7_large_n_first_layer",
    source=Source(WIES, "appendix B.2.2", "Lemma 7, eqs. 17-22"),
    statement="With M_V as printed, W^{K,1,h} = W^{Q,1,h} = 1_{i=1, j=d_a} and the sequences pi_P(j1), pi_Q(j2) of "
              "eqs. 21-22 (N >= E(r-1-H)), the first layer outputs (sum_h W^O W^V) u with u carrying A_{j1} in the "
              "first halves, A_{j2} in the second halves and N in each head's last coordinate.",
    reading="Checked through the engine's exact eq. 3 layer at random integer W^V, W^O, with N = E(r-1-H) and A "
            "from Lemma 8 (L = 2, 3).  The printed construction has two independent defects, each checked alone.",
    checks=[Cases(ODD, lambda *c: _all_pairs(*c, printed=True), name="construction as printed"),
            Cases(ODD, lambda *c: _all_pairs(*c, printed=False, segments=True),
                  name="printed segment index floor(t/E) alone"),
            Cases(ODD, lambda *c: _all_pairs(*c, printed=True, segments=False),
                  name="printed M_V (phi = i - 1 over all non-constant coordinates) alone")],
    expected="erratum",
    corrected_statement="Take the segment of position t to be floor((t-1)/E) (eqs. 21-22 print floor(t/E), which "
                        "moves the last position of every segment into the next), and let P tokens 2..n+1 light the "
                        "first-half coordinates and Q tokens n+2..2n+1 the second-half ones (corrected phi of Lemma "
                        "6, n = min((r-1-H)/2, H floor((d_a-1)/2))): the first layer then outputs exactly "
                        "(sum_h W^O W^V) u for every j1, j2, and M_V has H + 2n <= r - 1 nonzero rows.",
    corrected_checks=[Cases(CASES, lambda *c: _all_pairs(*c, printed=False), name="corrected construction",
                            perturb={"the index shifted: row j2 + 1 in the second halves":
                                     neighbour(_second_row_shifted)})],
)
