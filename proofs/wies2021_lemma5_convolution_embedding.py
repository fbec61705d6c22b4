"""Lemma 5 (vocabulary paper): a convolution kernel of rank <= r and templates whose embedding
outputs are the vectors of eq. 15, carrying the rows of A."""

from verify.authoring import Cases, Claim, neighbour
from verify.authoring.constructions import convolution_embedding

from ._common import WIES, Source
from ._vocab import (
    LEMMA56_CASES,
    LEMMA56_ODD_CASES,
    a_matrix,
    carries_rows,
    corrected_layout,
    embedding_target,
    printed_layout,
    printed_phi_outcome,
)

KERNELS = (1, 2, 3)


def _run(layout, a, r):
    tokens = list(range(1, 2 * len(a) + 2))
    lines, holds = [], True
    for kernel in KERNELS:
        _, outputs, rank = convolution_embedding(layout, a, tokens, kernel)
        by_token = dict(zip(tokens, outputs, strict=False))
        ok = all(by_token[t] == embedding_target(layout, a, t) for t in tokens) and rank <= r
        ok = ok and carries_rows(layout, by_token, a)
        holds &= ok
        lines.append(f"k={kernel}: rank W={rank}")
    return holds, ", ".join(lines)


def _printed(width, heads, r, depth):
    layout = printed_layout(width, heads, r)
    return printed_phi_outcome(width, heads, r, depth, *_run(layout, a_matrix(layout.carried, depth), r))


def _corrected(width, heads, r, depth):
    layout = corrected_layout(width, heads, (r - heads) // 2)
    if layout is None:
        return True, f"d_x={width} H={heads} r={r}: nothing to carry (capacity 0)"
    holds, line = _run(layout, a_matrix(layout.carried, depth), r)
    return holds, f"d_x={width} H={heads} r={r} L={depth}: n={layout.carried}, {line}, outputs = eq. 15, Gram = A A^T"


def _one_column_more(width, heads, r, depth):
    """the corrected construction carrying one column of A more than H floor((d_a-1)/2) (a strengthening)"""
    from ._vocab import Layout, capacity  # here, not at the top: the import block is another helper's
    n = capacity(width, heads) + 1
    layout = Layout(width, heads, n)
    holds, line = _run(layout, a_matrix(n, depth), r + 2)
    return holds, f"d_x={width} H={heads} L={depth}: n={n} columns: " + ("carried" if holds else "not carried")


CLAIM = Claim(
    id="wies2021_lemma5_convolution_embedding",
    source=Source(WIES, "appendix B.2.1", "Lemma 5 and its proof, eq. 15"),
    statement="A convolutional kernel of rank <= r (0/1 entries reading coordinate alpha = k(lambda-1) + l from "
              "template l, entry lambda) and templates make every embedding output the vector of eq. 15, which "
              "carries the rows of A.",
    reading="Kernel widths k = 1, 2, 3 with d_input = ceil(d_x/k); phi as in Lemma 6.  The proof's last step "
            "writes A_{i_j - M/2, phi(alpha)} for the second half; eq. 15 (and the templates) have "
            "A_{i_j - V/2, phi(alpha - (d_a-1)/2)}, which is what is built.",
    checks=[Cases(LEMMA56_ODD_CASES, _printed, name="printed phi: outputs equal eq. 15 and carry A")],
    expected="erratum",
    corrected_statement="With Lemma 6's corrected phi (first-half coordinates numbered consecutively, "
                        "floor((d_a-1)/2) per head) and n = min((r-H)/2, H floor((d_a-1)/2)), the kernel has rank "
                        "H + 2n <= r, every output equals eq. 15's vector and both halves' Gram matrices equal A A^T, "
                        "for kernel widths 1, 2 and 3.",
    corrected_checks=[Cases(LEMMA56_CASES, _corrected, name="corrected construction, every small layout",
                            perturb={"one column of A more than H floor((d_a-1)/2)": neighbour(_one_column_more)})],
)
