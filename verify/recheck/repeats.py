"""Repeated probabilistic results in the atlas (docs/mathematics.md §7, Lemma R), from the documented draws.

The atlas repeats its limit and each probabilistic positional row with independent draws and records the runs in
its ``repeats`` column: "limit:k runs[; ...]" and "N:k runs[; rank from run j][; ...]", joined by " | ".  Run i
(i = 0 the unrepeated run) draws everything from seed s + 1,000,003 i and works at prime p_i: p_0 the row's prime,
p_(i+1) the largest prime below p_i.  A result over k runs is bounded by the product over i < k of each run's own
bound at p_i (the prefix of runs that met a bound of one kind, Lemma R).  Written here, not imported: the recheck
shares the file formats and the documented draws with the engine, never code.
"""

from __future__ import annotations

from fractions import Fraction

__all__ = ["SEED_STEP", "run_seed", "run_prime", "parse_repeats", "product_over_runs"]

#: Run i's seed is the row's seed plus i times this (docs/mathematics.md §7, Lemma R).
SEED_STEP = 1_000_003


def run_seed(seed: int, run: int) -> int:
    return seed + SEED_STEP * run


def run_prime(p: int, run: int) -> int:
    """p_run: ``p`` for run 0, then the largest prime below the previous one (FLINT's primality test)."""
    import flint

    for _ in range(run):
        p -= 1
        while not flint.fmpz(p).is_prime():
            p -= 1
    return p


def parse_repeats(text: str) -> dict:
    """'limit:7 runs | 16:3 runs; rank from run 2 | 18:1 runs; budget: ... | 20:not repeated: ...' ->
    {"limit": (7, 0), 16: (3, 2), 18: (1, 0)}: (runs counted, the run the printed rank came from); a row not
    repeated is left out (its bound is its single run's)."""
    out = {}
    for item in (text or "").split(" | "):
        head, _, rest = item.partition(":")
        if not rest:
            continue
        parts = [part.strip() for part in rest.split(";")]
        if not (parts[0].endswith(" runs") and parts[0].split()[0].isdigit()):
            continue  # "N:not repeated: ...": a single run, its own bound
        runs = int(parts[0].split()[0])
        origin = next((int(part.split()[-1]) for part in parts[1:] if part.startswith("rank from run ")), 0)
        out["limit" if head.strip() == "limit" else int(head)] = (runs, origin)
    return out


def product_over_runs(per_run, p: int, runs: int) -> Fraction:
    """Pi_{i < runs} min(1, per_run(p_i)): the bound of a result over ``runs`` independent runs (Lemma R); one run
    is its own bound."""
    if runs <= 1:
        return per_run(p)
    total = Fraction(1)
    for i in range(runs):
        total *= min(Fraction(1), per_run(run_prime(p, i)))
    return total
