"""The index ranges of the reordered sum in the proof of Theorem 3 (first supplement A.2): which
factors c each printed product over m covers, for every side sequence, by enumeration."""

from verify.authoring import Cases, Claim, neighbour, shifted

from ._common import MAIN, Source
from ._swaps import betas, blocks, sequences

CS = list(range(1, 9)) + [13]


def _per_case(q_last, p_from):
    """q_last(b): the last m of the Q product; p_from: the first index of the P side named in the text
    ("P_{beta_1}, ..., P_{beta_0} = P" as printed is p_from = 0, i.e. beta_1 itself)."""
    def per_case(c):
        for seq in sequences(c):
            beta = betas(seq)
            b = len(beta) - 2
            p_side = [i for i in range(1, c + 1) if seq[i - 1] == "P"]
            q_side = [i for i in range(1, c + 1) if seq[i - 1] == "Q"]
            p_blocks, q_blocks = blocks(beta, 0, b // 2), blocks(beta, 1, q_last(b))
            top = range(beta[1] + p_from, c + 1) if b else range(1, c + 1)
            ok = (p_blocks is not None and q_blocks is not None and sorted(p_blocks) == p_side
                  and sorted(q_blocks) == q_side and all(seq[i - 1] == "P" for i in top))
            if not ok:
                return False, f"C={c} sides {seq} (b={b}): P blocks {p_blocks}, Q blocks {q_blocks}", \
                    {"C": c, "sides": seq, "b": b, "P_blocks": p_blocks, "Q_blocks": q_blocks,
                     "P_sides": p_side, "Q_sides": q_side}
        return True, f"C={c}: all {2**c} side sequences"
    return per_case


CLAIM = Claim(
    id="levine2020_supp1_theorem3_blocks",
    source=Source(MAIN, "supplement A.2", "proof of Theorem 3, reordered sum (third display) and 'P_beta1, ..., "
                                          "P_beta0 = P'"),
    statement="With swaps C = beta_0 > beta_1 > ... > beta_b > beta_{b+1} = 0 and i in P: P_{beta_1}, ..., P_{beta_0} "
              "= P; the P factors are the blocks (beta_{2m+1}, beta_{2m}], m = 0..floor(b/2), the Q factors the blocks "
              "(beta_{2m+2}, beta_{2m+1}], m = 0..floor(b/2) - 1.",
    domain="every side sequence of C = 1..8 and C = C(3) = 13 factors",
    reading="A block 'lands' when it reads only beta_0..beta_{b+1}; the P and Q blocks must cover exactly the factors "
            "on side P and on side Q.  The third display is read as printed (floor(b/2) - 1 and P from beta_1; a "
            "printed index is read as printed, issue 20 rule 4): it fails at b odd.  The next display, eq. 12, "
            "prints the same product with ceil(b/2) - 1; that, with P from beta_1 + 1, is the correction.",
    checks=[Cases(CS, _per_case(lambda b: b // 2 - 1, 0), name="third display as printed")],
    expected="erratum",
    corrected_statement="The Q product runs over m = 0..ceil(b/2) - 1 (as the fourth display, eq. 12, prints it; "
                        "floor(b/2) - 1 drops the last Q block (0, beta_b] when b is odd), and the factors after the "
                        "last swap are P_{beta_1 + 1}, ..., P_{beta_0} (P_{beta_1} itself is on side Q when b >= 1).",
    corrected_checks=[Cases(CS, _per_case(lambda b: (b + 1) // 2 - 1, 1), name="Q to ceil(b/2) - 1, P from beta_1 + 1",
                            perturb={"Q product to ceil(b/2) (one block more)":
                                     neighbour(_per_case, factory=True, claim="ceil(b/2) - 1", given=dict(p_from=1),
                                               q_last=lambda b: (b + 1) // 2),
                                     "P side from beta_1 (shifted by one)":
                                     shifted(_per_case, factory=True, claim=1,
                                             given=dict(q_last=lambda b: (b + 1) // 2 - 1), p_from=0)})],
)
