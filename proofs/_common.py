"""Shared vocabulary for the claim files: the documents and the formulas they use repeatedly."""

import sympy as sp

from verify.authoring import H, L, N, Source, d_a, d_x, k, multichoose, n, r, r_e  # noqa: F401  (re-exported)

MAIN = "levine2020_limits_to_depth_efficiencies.md"
REVISED = "levine2020_supplement_revised.txt"
RESPONSE = "levine2020_author_response.txt"
WIES = "wies2021_vocabulary_bottleneck.md"

#: C(L) = (3^L - 1)/2, the number of summed position indices (main text eq. 4, Lemma 1).
C = (3**L - 1) / 2
log3 = lambda x: sp.log(x, 3)  # noqa: E731


#: Theorem 1's regime (depth efficiency): L < log3 d_x.
BELOW_THRESHOLD = sp.StrictLessThan(L, sp.log(d_x, 3))
#: Theorem 2's regime (depth saturation): L > log3 d_x.
ABOVE_THRESHOLD = sp.StrictGreaterThan(L, sp.log(d_x, 3))


__all__ = ["MAIN", "REVISED", "RESPONSE", "WIES", "C", "log3", "BELOW_THRESHOLD", "ABOVE_THRESHOLD", "multichoose",
           "Source", "L", "d_x", "H", "d_a", "N", "r", "r_e", "n", "k", "sp"]
