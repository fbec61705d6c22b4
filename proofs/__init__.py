"""The claims registry: one module per stated claim, each defining ``CLAIM`` (a ``verify.authoring.Claim``).

Modules whose names start with ``_`` hold shared vocabulary (document names, formulas) and are
not claims.  Adding a claim means adding a file here; the engine does not change.
"""
