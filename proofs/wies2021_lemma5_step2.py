"""Lemma 5's proof, step (2) (appendix B.2.1): the kernel's output, written out case by case, adds the clause
'alpha <= r' to every case (and writes A_{i_j - M/2, phi(alpha)} in the second half).  Read literally, every
coordinate beyond r is 0 -- but each head's constant coordinate alpha = h d_a is 1 in step (1) and in eq. 15,
and alpha = d_x > r whenever r < d_x.  The clause is read as printed (rule 4): step (2) is an erratum, and dropping
the clause (step (2) then being eq. 15, the lemma's own statement) is its correction."""

from verify.authoring import Claim, Property, shifted
from verify.authoring.constructions import convolution_embedding

from ._common import WIES, Source
from ._vocab import LEMMA56_CASES, a_matrix, corrected_layout, embedding_target

KERNELS = (1, 2)
#: The small layouts: widths up to 8 at depth 2, up to 6 at depth 3.
CASES = [c for c in LEMMA56_CASES if c[0] <= (8 if c[3] == 2 else 6)]


def _compare(literal: bool, bump: int = 0):
    """Step (1)'s output (the kernel applied to the templates) against step (2)'s right-hand side
    (bump: every constant coordinate of the right-hand side + bump, a perturbed equality)."""
    checked = 0
    for width, heads, rank, depth in CASES:
        layout = corrected_layout(width, heads, (rank - heads) // 2)
        if layout is None:
            continue
        a = a_matrix(layout.carried, depth)
        tokens = list(range(1, 2 * len(a) + 2))
        for kernel in KERNELS:
            _, outputs, _ = convolution_embedding(layout, a, tokens, kernel)
            for token, out in zip(tokens, outputs, strict=False):
                rhs = embedding_target(layout, a, token)
                rhs = [v + bump if layout.kind(alpha) == "const" else v for alpha, v in enumerate(rhs, start=1)]
                if literal:
                    rhs = [v if alpha <= rank else 0 for alpha, v in enumerate(rhs, start=1)]
                checked += 1
                if out != rhs:
                    alpha = next(i for i, (x, y) in enumerate(zip(out, rhs, strict=False), start=1) if x != y)
                    return False, (f"d_x={width} H={heads} r={rank} L={depth} k={kernel} token {token}: step (1) gives "
                                   f"{out[alpha - 1]} at alpha={alpha}, step (2) {rhs[alpha - 1]}"), \
                        {"d_x": width, "H": heads, "r": rank, "L": depth, "kernel": kernel, "token": token,
                         "alpha": alpha}
    return True, f"step (1) = step (2) for {checked} (layout, kernel, token) triples", None


CLAIM = Claim(
    id="wies2021_lemma5_step2",
    source=Source(WIES, "appendix B.2.1", "proof of Lemma 5, step (2)"),
    statement="y^(0,j)_alpha = x^(j, ((alpha-1) mod k)+1)_{floor((alpha-1)/k)+1} on the read coordinates equals: "
              "A_{i_j, phi(alpha)} / A_{i_j - M/2, phi(alpha)} / 1 / 0 by case, each case with 'alpha <= r'.",
    domain="every small layout (d_x = 3..8 at L = 2, 3..6 at L = 3; H | d_x, r - H even; corrected phi), kernel widths "
           "1, 2, every token",
    reading="The clause 'alpha <= r' is read as printed (rule 4: coordinates beyond r are 0); nothing in the text "
            "says otherwise, and eq. 15 (which step (2) must reach) has no such clause, so dropping it is the "
            "correction, not a second reading.  The second half's A_{i_j - M/2, phi(alpha)} is read as eq. 15's "
            "A_{i_j - V/2, phi(alpha - (d_a-1)/2)} (M is the raw input length, not a row count); phi is the "
            "corrected one of Lemma 6 so that only this step is tested.",
    left_out="the second case's printed A_{i_j - M/2, phi(alpha)} (M the raw input length, and phi(alpha) in place of "
             "eq. 15's phi(alpha - (d_a-1)/2)) is not tested as printed: only the clause alpha <= r is.  It is a "
             "second slip of the same display, not a second reading (at d_x = 3, H = 1, r = 3 the first second-half "
             "coordinate alpha = 2 has phi(2) = 2 > (r-H)/2 = 1, past A's one column); the correction takes eq. 15's "
             "form.",
    checks=[Property(lambda: _compare(True), name="step (1) = step (2) with alpha <= r, as printed")],
    expected="erratum",
    corrected_statement="Drop 'alpha <= r' and write the second case as eq. 15 does, A_{i_j - V/2, phi(alpha - "
                        "(d_a-1)/2)}: step (2) is then eq. 15, every head's constant coordinate (alpha = h d_a, "
                        "up to d_x) being 1 as step (1) gives.  The kernel's rank <= r does not need the clause (its "
                        "nonzero rows are not the first r; the rank is checked by claim "
                        "wies2021_lemma5_convolution_embedding).",
    corrected_checks=[Property(lambda: _compare(False), name="step (1) = step (2) without the clause (eq. 15)",
                               perturb={"constant coordinates = 2":
                                        shifted(_compare, given=dict(literal=False), bump=1)})],
)
