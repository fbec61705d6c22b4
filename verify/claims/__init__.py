"""The claims machinery: claim records and outcomes, the kinds of check, the spec sets bounds are
compared against, coverage (the reports are ``verify.report``). The claims themselves are data, in a registry package
found by ``verify.claims.registry``."""
