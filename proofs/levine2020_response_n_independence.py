"""Author response: 'Theorem 1 is independent on N, as it discusses balanced partitions.'"""

from verify import NetworkSpec, separation_rank
from verify.claims.checks import Property
from verify.claims.record import Claim

from ._common import RESPONSE, Source

SPECS = [(1, 2, 1), (1, 3, 1), (2, 2, 1), (2, 2, 2), (2, 3, 3)]


def _constant_from(first_tokens):
    def check():
        rows = []
        for depth, width, heads in SPECS:
            spec = NetworkSpec(depth=depth, width=width, heads=heads)
            limit = separation_rank(spec, "reduced").rank
            for tokens in range(first_tokens, 2 * (width + 1) + 1, 2):
                rank = separation_rank(spec.with_tokens(tokens), "coefficients").rank
                rows.append(f"L={depth} d={width} H={heads} N={tokens}: {rank}/{limit}")
                if rank != limit:
                    return False, "; ".join(rows), {"depth": depth, "width": width, "heads": heads,
                                                    "tokens": tokens, "rank": rank, "N_independent_rank": limit}
        return True, "sep(N) equals the N-independent value: " + "; ".join(rows), None
    return check


CLAIM = Claim(
    id="levine2020_response_n_independence",
    source=Source(RESPONSE, "lines 50-51", "answer to R2"),
    statement="The separation rank of Theorem 1 does not depend on N (balanced partitions).",
    reading="Checked as: the exact sep(N) for every even N up to 2(d_x+1) equals the N-independent value.",
    checks=[Property(_constant_from(2), name="sep(N) for N = 2, 4, ..., 2(d_x+1)")],
    expected="erratum",
    corrected_statement="sep(N) is constant from N = 4 on in every spec measured (and provably from "
                        "N = 2(d_x+1)); at N = 2 it is smaller once L >= 2 (15 instead of 18 at L = 2, d_x = 2).",
    corrected_checks=[Property(_constant_from(4), name="sep(N) for N = 4, ..., 2(d_x+1)")],
)
