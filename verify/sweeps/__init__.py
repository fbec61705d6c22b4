"""Sweeps of independent computations: the executor (local processes or Dask), the SQLite results
store, the reviewers' table, the probe of the conjecture on N, progress and plots."""
