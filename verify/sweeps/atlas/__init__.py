"""The N atlas (``docs/conjecture_n.md``): ``plan`` (cells, budgets, prices), ``grid`` and ``bound`` (one row
of each section), ``run`` (the workers) and ``csv_rows`` (the tables as CSV); its plot is
``verify.report.atlas_plot``."""
