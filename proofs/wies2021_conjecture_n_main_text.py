"""The conjecture on N in the main text's setting (positions ignored, V = r): vocabulary paper, section 4 after
Theorem 2, and appendix B.2.2 before Corollary 2 (with footnote 2's counting of the V^N inputs)."""

from verify.authoring import Claim, Property, neighbour

from ._common import WIES, Source
from ._conjecture_n import first_failure, smallest_n
from ._tokens import probe

CONSTANTS = (1, 2, 4, 8, 16, 100)
RANKS = range(6, 31)
#: Exact token data without positions, V = r: (depth, width, heads, V = r).
DATA = [(2, 4, 1, 3), (3, 4, 1, 3), (2, 4, 1, 4), (2, 6, 1, 6)]


def _printed(squared: bool, constants=CONSTANTS):
    """Holds iff for no constant c the counting cap at N = c r L / log3 r (squared: its square) falls below the
    bound."""
    found = [first_failure(c, ranks=RANKS, depths=range(2, 400), squared=squared) for c in constants]
    missing = [c for c, f in zip(constants, found, strict=False) if f is None]
    lines = [f"c={f['c']}: r={f['r']} L={f['L']} N={f['N']} cap {f['cap']:,} < bound {f['bound']:,}"
             for f in found if f]
    if missing:
        return True, f"no failure found for c in {missing}; " + "; ".join(lines), None
    return False, "cap below Theorem 2's V = r bound: " + "; ".join(lines), found[0]


def _maximal_rank(perturbed: bool = False):
    """Corrected statement on exact data: sep(N) = min(counting cap, limit) at every probed N, so the bound
    holds exactly from N_min on (where the limit reaches it).  Perturbed: sep(N) = the cap at every N."""
    lines = []
    for depth, width, heads, vocab in DATA:
        data = probe(depth, width, heads, vocab, vocab, max_tokens=60)
        for row in data["ranks"]:
            expect = row["count_cap"] if perturbed else min(row["count_cap"], data["limit_rank"])
            if row["rank"] != expect:
                return False, f"L={depth} d_x={width} V=r={vocab}: rank {row['rank']} at N={row['tokens']}, " \
                              f"expected {expect}", {"L": depth, "V": vocab, "N": row["tokens"]}
        bound = data["lemma7_lower_bound"]
        lines.append(f"L={depth} d_x={width} V=r={vocab}: ranks {[r['rank'] for r in data['ranks']]}, limit "
                     f"{data['limit_rank']}, bound {bound}, N_min {smallest_n(vocab, depth, heads) if bound else '-'}")
    return True, "; ".join(lines), None


CLAIM = Claim(
    id="wies2021_conjecture_n_main_text",
    source=Source(WIES, "§4 after Theorem 2; appendix B.2.2 before Corollary 2 (and footnote 2)",
                  "conjecture: the lower bound holds for N = Omega(r L / log3 r) (B.2.2: Omega(r L / log3 r)^2)"),
    statement="Positions ignored and V = r (Theorem 1's footnote, Lemma 7): for some constant c, sep >= Theorem 2's "
              "bound ((floor((r-1-H)/2) over 3^(L-2))) at every N >= c r L / log3 r (B.2.2: its square).",
    reading="Without positional embeddings y_p^i depends on the B side only through the multiset of its N/2 tokens, "
            "so sep <= binom(N/2 + r - 1, r - 1) for any weights (docs/mathematics.md section 7): a polynomial of "
            "degree r - 1 in N, hence in L at N = c r L / log3 r (or its square), while the bound grows like "
            "3^((L-2)(d-1)), d = floor((r-1-H)/2).  So for every c the cap falls below the bound from some depth on; "
            "eq. 7's rate fails too (log cap = O(r log(r L)) against L (r - H)).  Checked for the listed c with "
            "exact integers and N certified in arb; r = 6..30, H = 1.",
    checks=[Property(lambda: _printed(False), name="section 4: cap at N = c r L / log3 r against the bound"),
            Property(lambda: _printed(True), name="B.2.2: cap at N = (c r L / log3 r)^2 against the bound")],
    expected="erratum",
    corrected_statement="Positions ignored, V = r: the bound can hold only from N_min(r, L, H) = min{even N : "
                        "binom(N/2 + r - 1, r - 1) >= bound} on, which grows exponentially in L (N/2 >= ((r-1)! "
                        "bound)^(1/(r-1)) - r + 1); on exact data sep(N) = min(counting cap, limit) at every N, so the "
                        "bound holds from N_min on wherever the limit reaches it.",
    corrected_checks=[Property(_maximal_rank, name="exact token ranks = min(counting cap, limit)",
                               perturb={"sep(N) = counting cap at every N": neighbour(_maximal_rank, perturbed=True)})],
)
