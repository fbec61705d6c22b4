"""Separation ranks of the continuous network: `verify table` (JSON, CSV), `verify run`'s report.json,
the store's ``sep`` rows and results/reach.csv.

Per row: the rank is recomputed as the rank mod 2^31 - 1 of a grid of y_0^0 at v + 4 random A-side inputs
against v + 4 random B-side inputs, at the seeded weights and N = valid_from_tokens (``network``): a
certified lower bound on sep.  The label's argument is recomputed from its formula: the proven upper bound
(``formulas.block_bound``: (B1)-(B4), docs/mathematics.md §2 and §6); "certified exact" holds when the
recomputed lower bound meets it.
"""

from __future__ import annotations

import math

from . import arith, formulas, network
from .core import CONTRADICTED, RECOMPUTED, Recheck

#: The prime condition every probability over GF(p) states (issue 39 item 2): a certainty label reads "... unless
#: p divides the content of every witness minor", a sentence "... or p divides the content ...".
PRIME_CONDITION = "p divides the content of every witness minor"

__all__ = ["check_sep_row", "SepRow"]

#: Rows and columns added to the grid beyond the stated rank (a random k x k grid of rank v needs k >= v).
EXTRA = 4


class SepRow(dict):
    """The fields one sep row states (missing ones are None)."""


def _name(row) -> str:
    extra = ", residual" if row.get("residual") else ""
    return f"(L={row['depth']}, d_x={row['width']}, H={row['heads']}{extra})"


# over 80 lines: one check per field of a sep row, in the order the rank's finding must come before what rests on it
def check_sep_row(rc: Recheck, where: str, row: dict) -> None:
    """Every check of one sep row.  ``row``: depth, width, heads, attn_dim, residual, output, position, rank,
    certified_exact, upper_bound, probability_bound, seed, weight_range, tokens (valid_from_tokens),
    certainty, log3, regime, bounds (list of (name, kind, log3_value, holds))."""
    depth, width, heads = row["depth"], row["width"], row["heads"]
    attn_dim = row.get("attn_dim") or width // heads
    residual = bool(row.get("residual"))
    rank = row["rank"]
    where = f"{where} {_name(row)}"
    proven, which = formulas.block_bound(depth, width, heads, attn_dim, residual)
    exact = row.get("certified_exact")
    against = rc.check(where, f"rank {rank} against the proven bound", 0 <= rank <= proven,
             f"at most the proven bound {proven} ({which}, docs/mathematics.md §2/§6)",
             f"above the proven upper bound {proven} ({which}, docs/mathematics.md §2/§6), which holds at every weight"
             if rank > proven else "a rank is never negative")
    rank_finding = (_lower_bound_task(rc, where, row, depth, width, heads, attn_dim, residual, rank, proven, exact)
                    if against.status != CONTRADICTED else against)
    needs = [rank_finding]
    upper = row.get("upper_bound")
    if upper is not None:
        derived = upper >= proven
        rc.check(where, f"upper_bound {upper}", upper >= rank and (derived or upper == rank),
                 f"an upper bound at least the rank {rank}" + (f", and at least the recomputed {proven} ({which})"
                                                                if derived else ", met by it"),
                 f"below the rank {rank}" if upper < rank else
                 f"below the recomputed proven bound {proven} ({which}) without being met: a bound this recheck "
                 f"does not derive", needs=needs,
                 trust="" if derived else f"the stated upper bound {upper} (a bound this recheck does not derive)")
    if exact is not None:
        prob = row.get("probability_bound")
        if exact:
            if rank < proven and upper == rank:
                rc.add(where, "certified_exact", RECOMPUTED, f"the rank meets the stated upper bound {upper}, below "
                       f"the recomputed {proven} ({which})", needs=needs,
                       trust=f"the stated upper bound {upper} (a bound this recheck does not derive)")
            else:
                rc.check(where, "certified_exact", rank == proven,
                         f"the rank meets the proven bound {proven} ({which})",
                         f"the rank {rank} does not meet the proven bound {proven} ({which})", needs=needs)
            if prob is not None:
                rc.check(where, f"probability_bound {prob}", prob == 0, "0 for a certified exact rank",
                         "a certified exact rank carries probability 0", needs=needs)
        elif prob is not None:
            rc.check(where, f"probability_bound {prob}", 0 < prob <= 1 and rank < proven,
                     "in (0, 1] for a rank below its proven bound",
                     "a rank that meets its proven bound is certified (probability 0); one below it needs a "
                     "positive probability", needs=needs,
                     trust="its value (it rests on the engine's block-level runs, not recomputed here)")
    certainty = row.get("certainty")
    if certainty is not None and exact is not None:
        ok = certainty == "certified" if exact else certainty.startswith("certified lower bound")
        rc.check(where, f"certainty '{certainty}'", ok, "agrees with certified_exact",
                 f"disagrees with certified_exact = {exact}", needs=needs)
        if ok and not exact and "w.h.p." in certainty:
            rc.check(where, f"certainty '{certainty}' names the prime condition", PRIME_CONDITION in certainty,
                     "it does", f"a probability over GF(p) without '{PRIME_CONDITION}' (issue 39 item 2)")
    if row.get("log3") is not None:
        log3 = math.log(rank) / math.log(3) if rank > 0 else None
        rc.check(where, f"log3_sep {row['log3']}", log3 is not None and abs(row["log3"] - log3) <= 1e-9 * max(1, log3),
                 f"log3({rank})", f"log3({rank}) = {log3}", needs=needs)
    if row.get("regime"):
        power = 3**depth
        expect = "L > log3 d_x" if power > width else ("L < log3 d_x" if power < width else "L = log3 d_x")
        rc.check(where, f"regime '{row['regime']}'", row["regime"] == expect, f"3^{depth} against {width}",
                 f"3^{depth} = {power} against d_x = {width} gives '{expect}'")
    for name, kind, value, holds, *scale in row.get("bounds") or ():
        if value is None or holds is None or rank <= 0:
            continue
        log3 = math.log(rank) / math.log(3)
        gap = value - log3 if kind == "upper" else log3 - value
        if abs(gap) <= 1e-9 * max(1.0, abs(value)):
            whole = round(3.0**value) if scale and scale[0] == "sep" and value < 60 else None
            if whole is not None and abs(math.log(whole) / math.log(3) - value) <= 1e-12 * max(1.0, value):
                # a bound on the sep scale is an integer B printed as log3 B: decided exactly against the rank
                rc.check(where, f"bound {name} holds={holds}", holds == (rank <= whole if kind == "upper"
                                                                            else rank >= whole),
                         f"sep {rank} {'<=' if kind == 'upper' else '>='} {whole} (the integer bound its log3 names)",
                         f"sep {rank} against the integer bound {whole} gives holds = {not holds}", needs=needs)
                continue
            rc.add(where, f"bound {name} holds={holds}", RECOMPUTED, "the printed log3 values are too close to decide "
                   "in floats", needs=needs, trust="the engine's decision in arb")
            continue
        rc.check(where, f"bound {name} holds={holds}", holds == (gap > 0),
                 f"log3 sep {log3:.6g} {'<=' if kind == 'upper' else '>='} {value:.6g}",
                 f"log3 sep {log3:.6g} against the printed {kind} bound {value:.6g} gives holds = {gap > 0}",
                 needs=needs)


def _lower_bound_task(rc: Recheck, where: str, row, depth: int, width: int, heads, attn_dim: int, residual: bool,
                      rank: int, proven, exact) -> None:
    tokens = row.get("tokens") or 2 * (width + 1)
    k = rank + EXTRA
    price = network.continuous_grid_seconds(depth, width, heads, attn_dim, tokens, k)
    p = arith.TOKEN_PRIME
    seed, weight_range = row.get("seed") or 0, row.get("weight_range") or 2**31

    def run():
        layers = arith.seeded_weights(depth, width, heads, attn_dim, seed, weight_range)
        found = network.continuous_grid_rank(layers, width, tokens, k, p, row.get("output") or 0,
                                             row.get("position") or 0, residual, f"{where}:1")
        how = f"a {k} x {k} grid of the literal eq. 3 pass at N = {tokens}, seed {seed}, mod {p}"
        if found > rank:
            return (CONTRADICTED, f"{how} has rank {found} > {rank}: a certified lower bound above a rank stated "
                                  f"{'exact' if exact else 'as the generic value'}")
        if found == rank:
            if rank == proven:
                return RECOMPUTED, f"{how} has rank {found}, which meets the proven bound: certified exact"
            return RECOMPUTED, f"{how} has rank {found}: a certified lower bound equal to the value"
        again = network.continuous_grid_rank(layers, width, tokens, k, p, row.get("output") or 0,
                                             row.get("position") or 0, residual, f"{where}:2")
        if again >= rank:
            return RECOMPUTED, f"a second grid ({how}) has rank {again}: a certified lower bound equal to the value"
        return (CONTRADICTED, f"two independent grids ({how}) have ranks {found}, {again} < {rank}; the value can "
                              f"still be right only if both draws hit a zero of a nonzero minor (each at most "
                              f"{rank * 3**depth}/{p}) or p divides the content of every witness minor", False)

    return rc.later(where, f"rank {rank}", price, run)
