"""Lemma 1 / Corollary 3: C(L) = (3^L - 1)/2 from the ternary composition of layers."""

import networkx as nx

from verify.authoring import Claim, Property, shifted
from verify.authoring.network import DEFAULT_PRIME, Field, NetworkSpec, draw_weights
from verify.authoring.ranks import reduced_polynomials

from ._common import MAIN, C, L, Source


def _tree_counts(step=1):
    """Each layer feeds three copies of its input (value, key, query): a ternary tree of depth L.

    Its 3^L leaves are the input factors x; pairing all but the query's gives C(L) = (3^L - 1)/2
    summed positions, and C(L+1) = 3 C(L) + 1.  Also checks that F(S) of a random network has
    degree exactly C(L) in S (reduced route) for L <= 4.
    """
    seen = []
    for depth in range(1, 7):
        tree = nx.balanced_tree(3, depth)
        leaves = sum(1 for v in tree if tree.degree(v) == 1 and v != 0)
        c = (leaves - 1) // 2
        seen.append((depth, leaves, c))
        if leaves != 3**depth or c != C.subs(L, depth) or (depth > 1 and c != 3 * seen[-2][2] + step):
            return False, f"depth {depth}: {leaves} leaves, C = {c}", {"depth": depth}
    for depth in range(1, 5):
        spec = NetworkSpec(depth=depth, width=2)
        _, q = reduced_polynomials(spec, draw_weights(spec, 0), Field(DEFAULT_PRIME))
        degree = max(int(p.total_degree()) for p in q)
        if degree != (3**depth - 1) // 2:
            return False, f"F(S) has degree {degree} at depth {depth}", {"depth": depth}
    return True, ("ternary trees of depth 1-6 have 3^L leaves and C(L) = 3C(L-1)+1 = " +
                  ", ".join(str(c) for _, _, c in seen) + "; F(S) has degree C(L) for L = 1-4"), None


CLAIM = Claim(
    id="levine2020_supp1_lemma1_composition_tree",
    source=Source(MAIN, "supplement A.1", "Lemma 1 and Corollary 3 (eq. 10)"),
    statement="A depth-L composition of eq. 3 is a sum of products of C(L) = (3^L - 1)/2 matrices "
              "M = A X X^T B^T; the number of summed position indices satisfies C(L+1) = 3 C(L) + 1.",
    formulas={"C(L)": C},
    checks=[Property(_tree_counts, name="ternary composition tree (networkx) and degree of F",
                     perturb={"C(L+1) = 3 C(L) (the new layer's own M not counted)": shifted(_tree_counts, step=0)})],
)
