"""The token route: exact separation ranks on token inputs (``docs/mathematics.md`` §4 and §7).

``tokens`` (the front door: ``token_rank`` by the gram, counts or enumeration route), ``route`` (the Gram
route: sep(N) and its N-independent limit), ``gram`` (the Gram model h(z)), ``caps`` (the counting caps
and the Gram route's memory price), ``grid_loop`` (the compiled loop over pairs of points) and
``positional_bound`` (the proven upper bound of eq. 7.4)."""
