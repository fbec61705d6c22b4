"""Separation ranks: the three routes (coefficients, grid, reduced) and the token route, block-diagonal
exact ranks, degree blocks and moment lookups, memory estimates, and what a number certifies."""
