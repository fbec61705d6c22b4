"""Exact arithmetic the rest stands on: GF(p) and Q fields, Gaussian rationals, exact products mod p
through float64 BLAS, compositions, and certified real comparisons with arb."""
