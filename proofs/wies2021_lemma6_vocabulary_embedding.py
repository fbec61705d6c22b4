"""Lemma 6 (vocabulary paper): with V >= 2((n over 3^(L-2))) + 1 a rank-r vocabulary matrix M_V
whose columns are the template vectors of eq. 15 carrying the rows of A."""

from verify.authoring import Cases, Claim, neighbour
from verify.authoring.constructions import vocabulary_matrix

from ._common import WIES, Source
from ._vocab import (
    LEMMA56_CASES,
    LEMMA56_ODD_CASES,
    a_matrix,
    carries_rows,
    corrected_layout,
    embedding_target,
    matrix_rank,
    printed_layout,
    printed_phi_outcome,
)


def _outputs(layout, a, vocab):
    m = vocabulary_matrix(layout, a, vocab)
    return m, {i: [m[alpha][i - 1] for alpha in range(layout.width)] for i in range(1, vocab + 1)}


def _printed_matrix(width, heads, r, depth):
    """M_V exactly as printed: no phi <= (r-H)/2 guard, printed phi, d_a odd."""
    layout = printed_layout(width, heads, r)
    a = a_matrix(layout.carried, depth)
    try:
        m, _ = _outputs(layout, a, 2 * len(a) + 1)
    except IndexError:
        return False, f"d_x={width} H={heads} r={r} L={depth}: M_V reads a column of A beyond (r-H)/2 = " \
                      f"{layout.carried}", {"d_x": width, "H": heads, "r": r, "L": depth,
                                            "defect": "M_V lacks eq. 15's guard phi(alpha) <= (r-H)/2"}
    return matrix_rank(m) <= r, f"d_x={width} H={heads} r={r} L={depth}: rank M_V = {matrix_rank(m)}"


def _printed_phi(width, heads, r, depth):
    """Eq. 15's vectors (guarded) with the printed phi: do they carry the rows of A?"""
    layout = printed_layout(width, heads, r)
    a = a_matrix(layout.carried, depth)
    outputs = {i: embedding_target(layout, a, i) for i in range(1, 2 * len(a) + 1)}
    holds = carries_rows(layout, outputs, a)
    return printed_phi_outcome(width, heads, r, depth, holds, "carries A" if holds else "")


def _corrected(width, heads, r, depth):
    layout = corrected_layout(width, heads, (r - heads) // 2)
    if layout is None:
        return True, f"d_x={width} H={heads} r={r}: nothing to carry (capacity 0)"
    n = layout.carried
    a = a_matrix(n, depth)
    vocab = 2 * len(a) + 1
    m, outputs = _outputs(layout, a, vocab)
    matches = all(outputs[i] == embedding_target(layout, a, i) for i in range(1, vocab + 1))
    rank = matrix_rank(m)
    holds = matches and rank <= r and carries_rows(layout, outputs, a)
    return holds, (f"d_x={width} H={heads} r={r} L={depth}: n={n}, V={vocab}, rank M_V={rank} <= r, Gram of each half "
                   "= A A^T")


def _one_column_more(width, heads, r, depth):
    """the corrected construction carrying one column of A more than H floor((d_a-1)/2) (a strengthening)"""
    from ._vocab import Layout, capacity  # here, not at the top: the import block is another helper's
    n = capacity(width, heads) + 1
    layout, a = Layout(width, heads, n), a_matrix(n, depth)
    vocab = 2 * len(a) + 1
    _, outputs = _outputs(layout, a, vocab)
    holds = all(outputs[i] == embedding_target(layout, a, i) for i in range(1, vocab + 1)) and \
        carries_rows(layout, outputs, a)
    return holds, f"d_x={width} H={heads} L={depth}: n={n} columns: " + ("carried" if holds else "not carried")


CLAIM = Claim(
    id="wies2021_lemma6_vocabulary_embedding",
    source=Source(WIES, "appendix B.2.2", "Lemma 6 and its proof"),
    statement="If V >= 2((n over 3^(L-2))) + 1, n = (r-H)/2, a vocabulary matrix M_V of rank <= r makes the "
              "embedding outputs the vectors of eq. 15 (phi(j) = floor((j-1)/d_a)(d_a-1) + ((j-1) mod d_a) + 1), "
              "which carry the rows of A.",
    reading="phi's 'j^{-1}' is read (j-1); 'i_j' in M_V's definition is its column index i.  'Carry the rows of "
            "A' is what Corollary 1 uses: the first-half coordinates of the outputs of tokens 1..E/2 (and the "
            "second-half ones of tokens E/2+1..E) have Gram matrix A A^T.",
    checks=[Cases(LEMMA56_ODD_CASES, _printed_matrix, name="M_V as printed"),
            Cases(LEMMA56_ODD_CASES, _printed_phi, name="printed phi carries every column of A")],
    expected="erratum",
    corrected_statement="Number the first-half coordinates consecutively, phi(j) = floor((j-1)/d_a) * floor((d_a-1)/2) "
                        "+ ((j-1) mod d_a) + 1, read the second half through phi(alpha - floor((d_a-1)/2)), guard M_V "
                        "by phi <= n as eq. 15 does, and take n = min((r-H)/2, H floor((d_a-1)/2)) (for odd d_a this "
                        "is (r-H)/2; for even d_a each head's last-but-one coordinate stays unused).  Then M_V e_i is "
                        "eq. 15's vector for every token, rank M_V = H + 2n <= r, and both halves' Gram matrices "
                        "equal A A^T.",
    corrected_checks=[Cases(LEMMA56_CASES, _corrected, name="corrected construction, every small layout",
                            perturb={"one column of A more than H floor((d_a-1)/2)": neighbour(_one_column_more)})],
)
