"""The papers' constructions run exactly (Lemma 4 of the first supplement over Q(i), the vocabulary
paper's Lemmas 5-7), the Omega-matrix of the lower-bound proofs, and lower-bound certificates."""
