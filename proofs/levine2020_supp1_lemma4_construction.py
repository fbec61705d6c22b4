"""Lemma 4 of the first supplement (Lemma 6 of the revised one): weights with the imaginary unit and
M + 1 templates whose grid sub-matrix is Const * (V V^T)^{.3^(L-2)}, built and evaluated exactly in
Q(i) through the engine's eq. 3 network."""

from fractions import Fraction

from verify.authoring import Cases, Claim, neighbour
from verify.authoring.constructions import DEFECTS, grid_submatrix, hadamard_target, proportional, unit_rows
from verify.authoring.network import GaussianRational, I

from ._common import MAIN, Source

ROWS = 3  # M/2: rows of V
#: (d_x, H, L, N) with d_a = d_x/H >= 3, L = 2, 3, N = 2, 4; smallest first.
CASES = sorted(((w, h, depth, n) for w in range(3, 10) for h in range(1, w + 1) if w % h == 0 and w // h >= 3
                for depth in (2, 3) for n in (2, 4)), key=lambda c: (c[0], c[2], c[1], c[3]))
ODD = [c for c in CASES if (c[0] // c[1]) % 2 == 1]


def printed_constant(depth: int, tokens: int) -> GaussianRational:
    """Eqs. 42 and 46: y = N^((3^(L-1)-1)/2) i ||v~||^(2 3^(L-2)) with ||v~||^2 = 2i (V V^T)."""
    return GaussianRational(Fraction(tokens) ** ((3 ** (depth - 1) - 1) // 2)) * I * (2 * I) ** (3 ** (depth - 2))


def _case(width, heads, depth, tokens, printed):
    d_a = width // heads
    columns = heads * ((d_a - 1) // 2)
    v = unit_rows(ROWS, columns, width * 10 + depth)
    name = f"d_x={width} H={heads} L={depth} N={tokens}"
    try:
        grid = grid_submatrix(width, heads, depth, tokens, v, printed)
    except IndexError:
        return False, f"{name}: an index runs past V", {"d_x": width, "H": heads, "L": depth, "N": tokens,
                                                        "printed": sorted(printed), "failure": "index out of range"}
    holds, const = proportional(grid, hadamard_target(v, 3 ** (depth - 2)))
    if not holds:
        return False, f"{name}: not a multiple of (V V^T)^(.{3 ** (depth - 2)})", \
            {"d_x": width, "H": heads, "L": depth, "N": tokens, "printed": sorted(printed),
             "failure": "grid sub-matrix not proportional to the Hadamard power"}
    note = "" if const == printed_constant(depth, tokens) else f" (Const {const}, eqs. 42/46 give " \
                                                               f"{printed_constant(depth, tokens)})"
    return True, f"{name}: = Const (V V^T)^(.{3 ** (depth - 2)}){note}"


def _one_column_more(width, heads, depth, tokens):
    """the corrected construction with V of H floor((d_a-1)/2) + 1 columns (a strengthening of its reach)"""
    columns = heads * ((width // heads - 1) // 2) + 1
    v = unit_rows(ROWS, columns, width * 10 + depth)
    name = f"d_x={width} H={heads} L={depth} N={tokens}: {columns} columns"
    try:
        holds, _ = proportional(grid_submatrix(width, heads, depth, tokens, v, frozenset()),
                                hadamard_target(v, 3 ** (depth - 2)))
    except IndexError:
        return False, f"{name}: an index runs past the weights"
    return holds, f"{name}: " + ("= Const (V V^T)^(.3^(L-2))" if holds else "not proportional")


def _check(printed):
    return lambda *case: _case(*case, frozenset(printed))


CLAIM = Claim(
    id="levine2020_supp1_lemma4_construction",
    source=Source(MAIN, "supplement B.3", "Lemma 4, eq. 20 (revised supplement Lemma 6, eq. 17)"),
    statement="For V (M/2 rows of unit norm, (d_x - H)/2 columns) the printed weights (with the imaginary unit) and "
              "templates make the grid sub-matrix of eqs. 21-22 equal Const (V V^T)^{.3^(L-2)}.",
    reading="Built as written and evaluated exactly over the Gaussian rationals with the engine's eq. 3 network (3 "
            "rows of rational unit vectors, positions I = first N/2).  The printed weights and templates differ from "
            "what eqs. 23-46 compute in five places (verify/levine_construction.py); each is applied alone as well as "
            "all together, so the failing ones are located.  The printed factor 1/N on all of W^{V,1,h} changes only "
            "Const; phi and eq. 41 read d_a odd.  Const is compared with eqs. 42/46 as information: it differs by a "
            "power of c (c^2 at L = 3) when c = (d_a-1)/2 > 1, because eq. 34 drops the factor c of the segment sums "
            "(each of the c first/second pairs sums to 1).",
    checks=[Cases(ODD, _check(DEFECTS), name="construction as printed")]
           + [Cases(ODD, _check([defect]), name=f"printed {defect} alone") for defect in DEFECTS],
    expected="erratum",
    corrected_statement="With (i) W^{V,1,h} rows c + r (c = floor((d_a-1)/2)) reading -1, -i at coordinate r of "
                        "each half (the printed i = j - d_a(h-1) never holds there), (ii) the 1/N only on the "
                        "constant column, (iii) second-half templates reading row i - M/2 of V (not i - M/2 + 1), "
                        "(iv) phi(j) = floor((j-1)/d_a) c + ((j-1) mod d_a) + 1 (the printed (d_a-1) per head runs "
                        "past V's columns when H >= 2), and (v) the last layer reading each head's own constant "
                        "coordinate and every head writing into every output coordinate (so y_p sums the heads as "
                        "eq. 41 says; as printed y_p sees one head's partial Gram when H >= 2), the grid sub-matrix "
                        "equals Const (V V^T)^{.3^(L-2)} exactly, for every d_a >= 3 of either parity (V then has "
                        "H floor((d_a-1)/2) columns).",
    corrected_checks=[Cases(CASES, _check([]), name="corrected construction, exact in Q(i)",
                            perturb={"V with one column more than H floor((d_a-1)/2)": neighbour(_one_column_more)})],
)
