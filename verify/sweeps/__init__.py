"""Sweeps of independent computations: the executor (local processes or Dask), the SQLite results
store, dry-run plans, the reviewers' table, the probe of the conjecture on N, the N atlas (``atlas``) and
progress (the plots are ``verify.report``)."""
