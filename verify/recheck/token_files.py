"""Reading the token exports directly (json, csv of the standard library): `verify probe-n --json`,
results/n_atlas.csv (atlas section 1) and results/n_positional_cells.csv (atlas section 2, with the old single
``rank_at_n`` column or issue 39's ``rank_at_least`` and ``rank_at_n``).  Formats: docs/conjecture_n.md and
docs/commands.md; no engine loader is used.
"""

from __future__ import annotations

import math

from . import arith, formulas
from .core import BEYOND
from .sep import check_sep_row
from .tokens import PRIME_CONDITION, Cell, check_limit, check_token_rank, row_certainty

__all__ = ["atlas", "cells", "probe", "int_or_none"]


def int_or_none(text: str) -> int | None:
    return int(text) if text.strip() not in ("", "-") else None


_int = int_or_none


def _pairs(text: str) -> dict:
    """'2:3 4:9' -> {2: '3', 4: '9'}."""
    out = {}
    for item in text.split():
        n, _, value = item.partition(":")
        out[int(n)] = value
    return out


def _label(text: str):
    """'certified' / 'probabilistic(0.0031)' / 'lb-14' -> (label, probability text, short_by)."""
    if text == "certified":
        return "certified exact", None, None
    if text.startswith("probabilistic(") and text.endswith(")"):
        return "probabilistic", text[len("probabilistic("):-1], None
    if text.startswith("lb-"):
        return "lower bound", None, int(text[3:])
    raise ValueError(f"unknown label {text!r}")


def _scale(r: int, depth: int) -> float:
    return r * depth / (math.log(r) / math.log(3))


def _even_ceiling(x: float) -> int:
    n = math.ceil(x - 1e-9)
    return n + (n % 2)


def atlas(rc, path, rows) -> None:
    for i, row in enumerate(rows):
        depth, r, heads, width = int(row["depth"]), int(row["vocab_r"]), int(row["heads"]), int(row["width"])
        big_r = int(row["pos_rank"].split()[0])
        p = int(row["prime"])
        where = f"{path} row {i + 1} (L={depth}, V=r={r}, H={heads}, R={row['pos_rank']})"
        _prime(rc, where, p)
        rc.check(where, f"width {width}, attn_dim {row['attn_dim']}",
                 width == r + 1 and int(row["attn_dim"]) == width // heads, "d_x = r + 1, d_a = floor(d_x / H)",
                 f"expected d_x = {r + 1}, d_a = {(r + 1) // heads}")
        rc.check(where, f"layer_degree {row['layer_degree']}", int(row["layer_degree"]) == formulas.layer_degree(depth),
                 "(3^L - 1)/2", f"C({depth}) = {formulas.layer_degree(depth)}")
        bound = formulas.thm2_proof_bound(r, depth, heads)
        stated = row["thm2_proof_bound"]
        rc.check(where, f"thm2_proof_bound {stated}", (stated.startswith("n/a") and bound is None) or
                 (stated.isdigit() and int(stated) == bound),
                 "(( floor((r - 1 - H)/2) over 3^(L-2) )) ([W21] Theorem 2's proof)", f"the bound is {bound}")
        certainty = row["limit_certainty"]
        if row["limit"].startswith(">= "):  # a limit computation stopped with this lower bound
            rc.add(where, f"limit {row['limit']} ({certainty})", BEYOND,
                   "a partial result of the engine's limit route, which this recheck does not re-implement")
            limit = None
        else:
            limit = _int(row["limit"])
        certified = None if limit is None else certainty == "certified exact"
        probability = None
        if limit is not None and certainty.startswith("= generic w.p. >= 1 - "):
            probability = certainty[len("= generic w.p. >= 1 - "):].split()[0]
        cell = Cell(depth, width, heads, int(row["attn_dim"]), r, r, big_r, int(row["seed"]), 2**31, p, limit,
                    certified, _int(row["limit_upper_bound"]))
        ranks = {n: int(v) for n, v in _pairs(row["ranks"]).items()}
        labels = _pairs(row["ranks_labels"])
        eq74 = {n: v.split("/") for n, v in _pairs(row["eq74_bounds"]).items()}
        caps = {n: int(v) for n, v in _pairs(row["caps"]).items()}
        check_limit(rc, where, cell, limit, certified, _int(row["limit_upper_bound"]), probability, ranks)
        if limit is not None and certainty != "certified exact":
            rc.check(where, "limit_certainty names the prime condition", PRIME_CONDITION in certainty or
                     not certainty.startswith("="), "it does", "a probability over GF(p) without the prime condition "
                     f"('{PRIME_CONDITION}', issue 39 item 2)")
        for n, rank in ranks.items():
            label, prob, short = _label(labels[n]) if n in labels else (None, None, None)
            caps74, at = (eq74[n] + [None])[:2] if n in eq74 else (None, None)
            check_token_rank(rc, where, cell, n, rank, label, prob, short,
                             at_positions=(None if at in (None, "-") else int(at)) if big_r else "unknown",
                             every=None, stated_caps=caps.get(n), stated_eq74=_int(caps74) if caps74 else None)
        _atlas_derived(rc, where, row, cell, ranks, labels, bound, limit)


def _atlas_derived(rc, where: str, row, cell, ranks, labels, bound, limit) -> None:
    positional = cell.positional_rank > 0
    v = cell.vocab
    first = next((n for n in sorted(ranks) if limit is not None and ranks[n] == limit), None)
    rc.check(where, f"first_n_limit {row['first_n_limit'] or '-'}", _int(row["first_n_limit"]) == first,
             "the first N whose rank is the limit", f"the ranks give {first}")
    cap_first = None
    if limit is not None:
        cap_first = 2
        while formulas.count_cap(v, cap_first, positional) < limit:
            cap_first += 2
    rc.check(where, f"first_n_cap_reaches_limit {row['first_n_cap_reaches_limit'] or '-'}",
             _int(row["first_n_cap_reaches_limit"]) == cap_first, "the first even N whose counting cap reaches the "
                 "limit",
             f"it is {cap_first}")
    if bound is not None:
        reach = next((n for n in sorted(ranks) if ranks[n] >= bound), None)
        rc.check(where, f"first_n_thm2_bound {row['first_n_thm2_bound'] or '-'}",
                 _int(row["first_n_thm2_bound"]) == reach, "the first N whose rank reaches Theorem 2's proof bound",
                 f"the ranks give {reach}")
    scale = _scale(v, cell.depth)
    rc.check(where, f"scale {row['scale_rL_over_log3r']}", abs(float(row["scale_rL_over_log3r"]) - scale) <= 0.0051,
             "r L / log3 r to 2 decimals", f"r L / log3 r = {scale:.4f}")
    for c in (1, 2, 4):
        n = _even_ceiling(c * scale)
        stated_n, stated_cap = int(row[f"n_c{c}"]), int(row[f"cap_at_n_c{c}"])
        rc.check(where, f"n_c{c} {stated_n}, cap {stated_cap}",
                 stated_n == n and stated_cap == formulas.count_cap(v, n, positional),
                 f"the even N >= {c} r L / log3 r and its counting cap",
                 f"expected N = {n}, cap {formulas.count_cap(v, n, positional)}")
    stopped = row["status"].split()
    if len(stopped) >= 4 and stopped[0] == "N" and stopped[3] == "beyond":  # "N = 14 beyond reach": where it stopped
        last, what = int(stopped[2]), "the N the status names beyond reach"
    else:
        last, what = (max(ranks) if ranks else None), "the last N ranked"
    if last is not None:
        rc.check(where, f"max_n {row['max_n']}", int(row["max_n"]) == last, what, f"{what} is {last}")
    exceptions, below = [], []
    for n in sorted(ranks):
        top = (formulas.count_cap(v, n, positional) if limit is None
               else min(formulas.count_cap(v, n, positional), limit))
        if ranks[n] < top:
            (below if labels.get(n, "").startswith("lb-") else exceptions).append(f"{n}:{ranks[n]}<{top}")
    rc.check(where, f"maximal_rank_exceptions '{row['maximal_rank_exceptions']}'",
             row["maximal_rank_exceptions"].split() == exceptions, "the decided ranks below min(cap, limit)",
             f"the ranks give '{' '.join(exceptions)}'")
    rc.check(where, f"sampled_below '{row['sampled_below']}'", row["sampled_below"].split() == below,
             "the lower-bound ranks below min(cap, limit)", f"the ranks give '{' '.join(below)}'")
    reached = limit is not None and bool(ranks) and ranks[max(ranks)] == limit
    rc.check(where, f"status '{row['status']}'", (row["status"] == "reached the limit") == reached,
             "agrees with the ranks and the limit",
             f"the last rank {'meets' if reached else 'does not meet'} the limit")


def _prime(rc, where: str, p) -> None:
    import flint

    rc.check(where, f"prime {p}", 2 < p < 2**31 and flint.fmpz(p).is_prime(),
             "a prime below 2^31 (the token routes' modulus; ranks recomputed mod it)", "not a prime below 2^31")


def cells(rc, path, rows) -> None:
    for i, row in enumerate(rows):
        r, depth, heads, big_r = int(row["r"]), int(row["depth"]), int(row["heads"]), int(row["pos_rank"])
        p = int(row["prime"])
        where = f"{path} row {i + 1} (r={r}, L={depth}, H={heads}, R={big_r})"
        _prime(rc, where, p)
        bound = formulas.thm2_proof_bound(r, depth, heads)
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
        rc.check(where, f"n_reached {n}", n >= floor, "not below the counting floor",
                 "below the counting floor, where no weight reaches the bound")
        if "at the counting floor" in row["certainty"]:
            rc.check(where, "certainty 'at the counting floor'", n == floor, "n_reached is the floor",
                     f"n_reached {n} is not the floor {floor}")
        rc.check(where, f"c {row['c']}", abs(float(row["c"]) - n / scale) <= 0.0051, "n_reached / (r L / log3 r)",
                 f"it is {n / scale:.4f}")
        width = r + 1
        cell = Cell(depth, width, heads, width // heads, r, r, big_r, int(row["seed"]), 2**31, p)
        if positional:
            caps74 = formulas.eq74_caps(depth, r, big_r, n)
            rc.check(where, f"eq74_at_n {row['eq74_at_n']}", _int(row["eq74_at_n"]) == caps74,
                     "eq. 7.4 with the caps", f"it is {caps74}")
            least = _int(row["rank_at_least"]) if "rank_at_least" in row else _int(row["rank_at_n"])
            whole = _int(row["rank_at_n"]) if "rank_at_least" in row else None
            rc.check(where, f"rank_at_least {least}", least == bound, "the size of the nonsingular minor is the bound",
                     f"a minor of size {least} is not the bound {bound} (issue 39 item 4)")
            _minor_task(rc, where, cell, n, least)
            if whole is not None:
                check_token_rank(rc, where, cell, n, whole, None)
        else:
            rank = _int(row["rank_at_n"])
            if "rank_at_least" in row:
                rc.check(where, f"rank_at_least {row['rank_at_least']}", _int(row["rank_at_least"]) == rank,
                         "the count-route rank", f"not the rank {rank} (issue 39 item 4)")
            rc.check(where, f"rank_at_n {rank} reaches the bound", rank >= bound, f"at least {bound}",
                     f"below the bound {bound} at the N where it is said to be reached")
            check_token_rank(rc, where, cell, n, rank, None)


def _minor_task(rc, where: str, cell, tokens, size: int) -> None:
    from .core import BEYOND, CONFIRMED

    k = size
    price = cell.net.sample_seconds(tokens, k)

    def run():
        found = cell.net.sampled_rank(tokens, k, where)
        if found >= size:
            return CONFIRMED, (f"the recheck's own random {k} x {k} minor at N = {tokens} is nonsingular mod {cell.p}: "
                               f"sep >= {size}, certified")
        more = cell.net.sampled_rank(tokens, k + 8, where + ":more")
        if more >= size:
            return CONFIRMED, f"a random {k + 8} x {k + 8} part at N = {tokens} has rank {more} >= {size}, certified"
        return BEYOND, (f"the recheck's random parts at N = {tokens} have ranks {found}, {more} < {size}; not a "
                        f"contradiction (a sample is a lower bound), a larger one is beyond this recheck")
    rc.later(where, f"minor of size {size} at N = {tokens}", price, run)


# ----------------------------------------------------------------------------------------------- probe

def probe(rc, path, data) -> None:
    where = path
    if data["mode"] != "tokens":
        _probe_continuous(rc, path, data)
        return
    limit = data.get("limit") or {}
    p = data.get("modulus") or limit.get("modulus") or arith.TOKEN_PRIME
    cell = Cell(data["depth"], data["width"], data["heads"], data.get("attn_dim"), data["vocab"], data["rank"],
                data.get("positional_rank") or 0, data.get("seed") or 0, data.get("weight_range") or 2**31, p,
                limit.get("rank"), limit.get("certified_exact"), limit.get("upper_bound"))
    ranks = {row["tokens"]: row["rank"] for row in data["ranks"]}
    check_limit(rc, f"{where} limit", cell, limit.get("rank"), limit.get("certified_exact"), limit.get("upper_bound"),
                limit.get("probability_bound"), ranks)
    if limit.get("rank") is not None:
        rc.check(where, f"limit_rank {data.get('limit_rank')}", data.get("limit_rank") == limit["rank"],
                 "the limit's rank", f"the limit's rank is {limit['rank']}")
    certainties = []
    for i, row in enumerate(data["ranks"]):
        n, rank = row["tokens"], row["rank"]
        rw = f"{where} ranks[{i}]"
        label = row.get("label")
        at = row.get("bound_eq74_at_positions", "unknown") if cell.positional_rank else "unknown"
        check_token_rank(rc, rw, cell, n, rank, label, row.get("probability"), row.get("short_by"),
                         at_positions=at, every=(not row.get("sampled")) if "sampled" in row else None,
                         stated_caps=row.get("count_cap"), stated_eq74=row.get("bound_eq74"))
        cap = formulas.count_cap(cell.vocab, n, cell.positional_rank > 0)
        rc.check(rw, f"cap_decides {row.get('cap_decides')}", row.get("cap_decides") == (rank == cap),
                 "rank == count cap", f"rank {rank} {'==' if rank == cap else '!='} cap {cap}")
        if label is not None and "label_text" in row and label == "probabilistic":
            rc.check(rw, "label_text names the prime condition", PRIME_CONDITION in row["label_text"], "it does",
                     f"a probability over GF(p) without '{PRIME_CONDITION}' (issue 39 item 2)")
        if label is not None and row.get("aim") is not None and row.get("short_by") is not None:
            rc.check(rw, f"short_by {row['short_by']}", row["short_by"] == row["aim"] - rank, "aim - rank",
                     f"aim - rank = {row['aim'] - rank}")
        expect = row_certainty(cell, n, rank, label, row.get("probability"))
        certainties.append(expect)
        if "certainty" in row:
            rc.check(rw, f"certainty '{row['certainty']}'", row["certainty"] == expect[0],
                     "the row's own (issue 39 item 5)", f"the row's label gives '{expect[0]}'")
        if "probability_bound" in row:
            pb = row["probability_bound"]
            rc.check(rw, f"probability_bound {pb}", (pb is None and expect[1] is None) or
                     (pb is not None and expect[1] is not None and float(pb) == float(expect[1])),
                     "the row's own (issue 39 item 5)", f"the row's label gives {expect[1]}")
    if "meaning" in data:
        rc.check(where, "meaning names the prime condition", PRIME_CONDITION in data["meaning"], "it does",
                 f"the probe's meaning states no prime condition ('{PRIME_CONDITION}', issue 39 item 2)")
    _probe_lists(rc, where, data, cell, ranks)
    _probe_top(rc, where, data, certainties, p)


def _probe_lists(rc, where: str, data, cell, ranks) -> None:
    positional = cell.positional_rank > 0
    limit = data.get("limit_rank")
    caps = {n: formulas.count_cap(cell.vocab, n, positional) for n in ranks}
    rc.check(where, f"cap_decides {data.get('cap_decides')}",
             data.get("cap_decides") == [n for n in ranks if ranks[n] == caps[n]], "the N where rank == cap",
             f"it is {[n for n in ranks if ranks[n] == caps[n]]}")
    # a sampled rank labelled certified exact or probabilistic met a bound, so it is the rank at these weights; only a
    # sample that met none (label "lower bound", or none) is undetermined (issue 39); no limit, no lists
    undetermined = {row["tokens"] for row in data["ranks"] if row.get("sampled")
                    and row.get("label", "lower bound") == "lower bound"}
    below = [n for n in ranks if limit is not None and ranks[n] < min(caps[n], limit) and n not in undetermined]
    rc.check(where, f"below_min_of_cap_and_limit {data.get('below_min_of_cap_and_limit')}",
             data.get("below_min_of_cap_and_limit") == below, "the exact ranks below min(cap, limit)", f"it is {below}")
    sbelow = [n for n in ranks if limit is not None and ranks[n] < min(caps[n], limit) and n in undetermined]
    if "sampled_below_min_of_cap_and_limit" in data:
        rc.check(where, f"sampled_below_min_of_cap_and_limit {data['sampled_below_min_of_cap_and_limit']}",
                 data["sampled_below_min_of_cap_and_limit"] == sbelow, "the undetermined ranks below min(cap, limit)",
                 f"it is {sbelow}")
    above = [n for n in ranks if limit is not None and ranks[n] > limit]
    rc.check(where, f"above_limit {data.get('above_limit')}", data.get("above_limit") == above,
             "the N whose rank exceeds the limit", f"it is {above}")
    if data.get("conjecture_scale") is not None and cell.rank > 1:
        scale = _scale(cell.rank, cell.depth)
        rc.check(where, f"conjecture_scale {data['conjecture_scale']}",
                 abs(data["conjecture_scale"] - scale) <= 1e-9 * scale, "r L / log3 r", f"it is {scale}")


def _probe_top(rc, where: str, data, certainties, p) -> None:
    modulus = data.get("modulus")
    if modulus is not None:
        rc.check(where, f"field {data.get('field')}", data.get("field") == f"gf:{modulus}",
                 "names the modulus the ranks were computed with (issue 39 item 5)",
                 f"the ranks were computed mod {modulus} (issue 39 item 5: field is gf:<modulus>)")
        rc.check(where, f"primes {data.get('primes')}", data.get("primes") == [modulus], "[modulus]",
                 f"the ranks were computed mod {modulus} only")
    limit = data.get("limit") or {}
    if limit.get("rank") is not None:  # the limit is a value of the export too (issue 39)
        certainties = certainties + [("certified", 0.0) if limit.get("certified_exact") else
                                     (f"certified lower bound; equal to generic w.h.p. unless {PRIME_CONDITION}",
                                      limit.get("probability_bound"))]
    if "certainty" in data:
        labels = [c for c, _ in certainties]
        if "certified lower bound" in labels:
            expect, prob = "certified lower bound", None
        elif any(c != "certified" for c in labels):
            expect = next(c for c in labels if c != "certified")
            prob = max(float(pb) for c, pb in certainties if c != "certified" and pb is not None)
        else:
            expect, prob = "certified", 0.0
        rc.check(where, f"certainty '{data['certainty']}'", data["certainty"] == expect,
                 "the weakest row's (issue 39 item 5)", f"the weakest row's is '{expect}'")
        if "probability_bound" in data:
            pb = data["probability_bound"]
            rc.check(where, f"probability_bound {pb}", (pb is None and prob is None) or
                     (pb is not None and prob is not None and float(pb) == prob),
                     "the weakest row's (issue 39 item 5)", f"the weakest row's is {prob}")


def _probe_continuous(rc, path, data) -> None:
    for i, row in enumerate(data["ranks"]):
        n = row["tokens"]
        check_sep_row(rc, f"{path} ranks[{i}] N={n}", {
            "depth": data["depth"], "width": data["width"], "heads": data["heads"], "attn_dim": data.get("attn_dim"),
            "residual": data.get("residual", False), "rank": row["rank"], "seed": data.get("seed", 0),
            "tokens": n, "certified_exact": None})
