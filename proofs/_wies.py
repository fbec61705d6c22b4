"""Formulas of the vocabulary-bottleneck paper shared by its claim files."""

import sympy as sp

from verify.authoring import H, L, d_x, multichoose, r, r_e

#: eq. 9 / eq. 11: sep <= ((r + r_e over 3^L)) ((4 over 3^L)) (3^L + 1)^(r + r_e).
EQ9 = multichoose(r + r_e, 3**L) * multichoose(4, 3**L) * (3**L + 1) ** (r + r_e)
#: Corollary 1's lower bound ((floor((r - H)/2) over 3^(L-2))).
LOWER = multichoose(sp.floor((r - H) / 2), 3 ** (L - 2))
#: Without an embedding bottleneck the network is the width-d_x one: r = d_x, r_e = 0.
FULL_RANK = {r: d_x, r_e: 0}

#: Theorem 2 / Corollary 1 at r = d_x in log3 units, for the reach comparison (proofs/_reach.py); d_x >= 3
#: (at d_x = 2, H = 1 the bound is ((0 over .)) = 0).
LOG3_LOWER = sp.log(LOWER.xreplace(FULL_RANK), 3)
READING = ("Compared with the exact ranks of the plain network, i.e. an embedding of full rank r = d_x and no "
           "positional embedding (r_e = 0); the proof's factorisation covers any inputs in an r-dimensional "
           "subspace, so the bound applies to it.  Low-rank embeddings are the embeddings issue's work.")
