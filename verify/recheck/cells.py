"""results/n_positional_cells.csv (atlas section 2, with the old single ``rank_at_n`` column or issue 39's
``rank_at_least`` and ``rank_at_n``): Theorem 2's proof bound, the counting floor, and the first N shown to reach
the bound (docs/conjecture_n.md).  A first N is a statement about every smaller N (docs/mathematics.md §11): it is
proven below the counting floor, where no weight reaches the bound, and taken on trust from the floor up.
"""

from __future__ import annotations

import math

from . import formulas
from .core import BEYOND, CONTRADICTED, RECOMPUTED
from .tokens import Cell, check_token_rank

__all__ = ["cells"]


def int_or_none(text: str):
    return int(text) if text.strip() not in ("", "-") else None


_int = int_or_none


def _scale(r: int, depth: int) -> float:
    return r * depth / (math.log(r) / math.log(3))


def _prime(rc, where, p):
    import flint

    rc.check(where, f"prime {p}", 2 < p < 2**31 and flint.fmpz(p).is_prime(),
             "a prime below 2^31 (the token routes' modulus; ranks recomputed mod it)", "not a prime below 2^31")


def cells(rc, path, rows):
    for i, row in enumerate(rows):
        r, depth, heads, big_r = int(row["r"]), int(row["depth"]), int(row["heads"]), int(row["pos_rank"])
        p = int(row["prime"])
        where = f"{path} row {i + 1} (r={r}, L={depth}, H={heads}, R={big_r})"
        _prime(rc, where, p)
        bound = formulas.thm2_proof_bound(r, depth, heads)
        if not row["bound"].strip() and row.get("status") == "no bound":  # format version 2: no bound, no N
            rc.check(where, "status 'no bound'", not bound, "Theorem 2's proof bound needs L >= 2 and "
                     "(r - 1 - H)/2 >= 1", f"the bound is {bound}")
            continue
        rc.check(where, f"bound {row['bound']}", int(row["bound"]) == bound,
                 "(( floor((r - 1 - H)/2) over 3^(L-2) )) ([W21] Theorem 2's proof)", f"the bound is {bound}")
        positional = big_r > 0
        floor = 2
        while formulas.count_cap(r, floor, positional) < bound:
            floor += 2
        rc.check(where, f"counting_floor {row['counting_floor']}", int(row["counting_floor"]) == floor,
                 "the first even N whose counting cap reaches the bound", f"it is {floor}")
        scale = _scale(r, depth)
        rc.check(where, f"scale {row['scale']}", abs(float(row["scale"]) - scale) <= 0.0051, "r L / log3 r",
                 f"r L / log3 r = {scale:.4f}")
        n = _int(row["n_reached"])
        at_n = n if n is not None else floor
        rc.check(where, f"cap_at_n {row['cap_at_n']}", int(row["cap_at_n"]) == formulas.count_cap(r, at_n, positional),
                 f"the counting cap at N = {at_n}", f"it is {formulas.count_cap(r, at_n, positional)}")
        if n is None:
            continue
        width = r + 1
        cell = Cell(depth, width, heads, width // heads, r, r, big_r, int(row["seed"]), 2**31, p)
        if positional:
            caps74 = formulas.eq74_caps(depth, r, big_r, n)
            rc.check(where, f"eq74_at_n {row['eq74_at_n']}", _int(row["eq74_at_n"]) == caps74,
                     "eq. 7.4 with the caps", f"it is {caps74}")
            least = _int(row["rank_at_least"]) if "rank_at_least" in row else _int(row["rank_at_n"])
            whole = _int(row["rank_at_n"]) if "rank_at_least" in row else None
            if least is None or not 1 <= least <= formulas.count_cap(r, n, True):
                reached = rc.add(where, f"rank_at_least {least}", CONTRADICTED, "not the size of a minor of the "
                                 f"{formulas.count_cap(r, n, True)}-row token matrix at N = {n}")
            else:
                reached = _minor_task(rc, where, cell, n, least)
            rc.check(where, f"rank_at_least {least} is the bound", least == bound,
                     "the size of the nonsingular minor is the bound",
                     f"a minor of size {least} is not the bound {bound} (issue 39 item 4)", needs=[reached])
            if whole is not None:
                check_token_rank(rc, where, cell, n, whole, None)
        elif row.get("rank_route") == "count rows":  # format 2: bound + 16 seeded rows against every column
            least = _int(row["rank_at_least"])
            if least is None or not 1 <= least <= formulas.count_cap(r, n, False):
                reached = rc.add(where, f"rank_at_least {least}", CONTRADICTED, "not the rank of rows of the "
                                 f"{formulas.count_cap(r, n, False)}-column count matrix at N = {n}")
            else:
                reached = _count_rows_task(rc, where, cell, n, least)
            rc.check(where, f"rank_at_least {least} reaches the bound", least is not None and least >= bound,
                     f"at least {bound}", f"below the bound {bound} at the N where it is said to be reached",
                     needs=[reached])
        else:
            rank = _int(row["rank_at_n"])
            if "rank_at_least" in row:
                rc.check(where, f"rank_at_least {row['rank_at_least']}", _int(row["rank_at_least"]) == rank,
                         "the count-route rank", f"not the rank {rank} (issue 39 item 4)")
            reached, _ = check_token_rank(rc, where, cell, n, rank, None)
            rc.check(where, f"rank_at_n {rank} reaches the bound", rank >= bound, f"at least {bound}",
                     f"below the bound {bound} at the N where it is said to be reached", needs=[reached])
        # n_reached: the first N whose rank reaches the bound, a statement about every smaller N (MATH.md §11):
        # proven below the counting floor (the cap is below the bound at every weight), taken on trust from the
        # floor to n_reached - 2 (this file records no rank there)
        between = list(range(floor, n, 2))
        stated_n = rc.check(where, f"n_reached {n}", n >= floor, "not below the counting floor" + (
            ", which is where it is: every smaller N has a counting cap below the bound" if n == floor else ""),
            "below the counting floor, where no weight reaches the bound", needs=[reached],
            trust=f"that the rank at N = {between} stays below {bound} (no rank recorded there)" if between else "")
        if "at the counting floor" in row.get("certainty", "") or row.get("n_reached_certainty") == "certified":
            name = ("n_reached_certainty certified" if row.get("n_reached_certainty") == "certified"
                    else "certainty 'at the counting floor'")
            rc.check(where, name, n == floor, "n_reached is the floor", f"n_reached {n} is not the floor {floor}",
                     needs=[stated_n])
        rc.check(where, f"c {row['c']}", abs(float(row["c"]) - n / scale) <= 0.0051, "n_reached / (r L / log3 r)",
                 f"it is {n / scale:.4f}", needs=[stated_n])


def _minor_task(rc, where, cell, tokens, size):
    k = size
    price = cell.net.sample_seconds(tokens, k)

    def run():
        found = cell.net.sampled_rank(tokens, k, where)
        if found >= size:
            return RECOMPUTED, (f"the recheck's own random {k} x {k} minor at N = {tokens} is nonsingular mod "
                                f"{cell.p}: sep >= {size}, certified")
        more = cell.net.sampled_rank(tokens, k + 8, where + ":more")
        if more >= size:
            return RECOMPUTED, f"a random {k + 8} x {k + 8} part at N = {tokens} has rank {more} >= {size}, certified"
        return BEYOND, (f"the recheck's random parts at N = {tokens} have ranks {found}, {more} < {size}; not a "
                        f"contradiction (a sample is a lower bound), a larger one is beyond this recheck")
    return rc.later(where, f"minor of size {size} at N = {tokens}", price, run)


#: The most entries of a whole count matrix the recheck ranks (FLINT takes it as Python integers, about 70 bytes an
#: entry: the L = 5 cells' 20,020 x 5,005 matrix took 6.8 GB); larger ones use the rows' route.
WHOLE_ENTRIES = 2**24


def _count_rows_task(rc, where, cell, tokens, least):
    """rank_at_least of a "count rows" row, by the recheck's own route on the token matrix without positions (one
    row per output token and multiset of the rest of the A side, one column per multiset of the B side, each distinct
    entry evaluated once by the literal pass, ``network``): the whole matrix's rank where it is priced within the
    budget and has at most ``WHOLE_ENTRIES`` entries (below ``least``: contradicted, no rows of it reach ``least``),
    else the rank of ``least`` of the recheck's own random rows against every column (rank ``least``: a certified
    lower bound on sep(N) at these weights; fewer is no contradiction, other rows may do better)."""
    net = cell.net
    whole = net.full_rank_seconds(tokens)
    rows, cols = net.side_counts(tokens)
    if whole <= rc.max_seconds and rows * cols <= WHOLE_ENTRIES:
        def run_whole():
            found = net.full_rank(tokens)
            how = f"the whole count matrix at N = {tokens}, literal eq. 3 pass, mod {cell.p}: rank {found}"
            if found >= least:
                return RECOMPUTED, how + f" >= {least}"
            return CONTRADICTED, how + f" < {least}: no rows of it have rank {least}"
        return rc.later(where, f"rank_at_least {least}", whole, run_whole)

    def run():
        found = net.sampled_rank(tokens, least, where + ":count rows", every_column=True)
        how = (f"{least} random rows of the count matrix at N = {tokens} (the recheck's own draw) against every "
               f"column, literal eq. 3 pass, mod {cell.p}: rank {found}")
        if found >= least:
            return RECOMPUTED, how + f", a certified lower bound: sep >= {least}"
        return BEYOND, how + (f" < {least}; not a contradiction (a sample is a lower bound), the whole matrix is "
                              f"priced at {whole:.3g} s")
    return rc.later(where, f"rank_at_least {least}", net.sample_seconds(tokens, least, True), run)
