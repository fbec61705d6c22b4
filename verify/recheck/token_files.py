"""Reading the token exports directly (json, csv of the standard library): `verify probe-n --json`,
results/n_atlas.csv (atlas section 1) and results/n_positional_cells.csv (atlas section 2, with the old single
``rank_at_n`` column or issue 39's ``rank_at_least`` and ``rank_at_n``).  Formats: docs/conjecture_n.md and
docs/commands.md; no engine loader is used.
"""

from __future__ import annotations

import math

from . import arith, formulas
from . import limit as limit_route
from .cells import _prime, _scale, cells, int_or_none
from .core import BEYOND, RECOMPUTED
from .limit import check_limit
from .repeats import parse_repeats, run_prime, run_seed
from .sep import check_sep_row
from .tokens import PRIME_CONDITION, Cell, check_token_rank, row_certainty

__all__ = ["atlas", "cells", "probe", "int_or_none"]


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
        rc.check(where, f"thm2_proof_bound {stated}", ((stated.startswith("n/a") or not stated) and bound is None) or
                 (stated.isdigit() and int(stated) == bound),
                 "(( floor((r - 1 - H)/2) over 3^(L-2) )) ([W21] Theorem 2's proof)", f"the bound is {bound}")
        certainty = row["limit_certainty"]
        version2 = row.get("schema_version") == "2"
        partial = None
        if row["limit"].startswith(">= ") or (version2 and not row["limit"].strip()):
            if row["limit"].strip() or row.get("limit_at_least", "").strip():  # a limit computation stopped there
                partial = f"limit {row['limit'] or '>= ' + row['limit_at_least']} ({certainty})"
            limit = None
        else:
            limit = _int(row["limit"])
        certified = None if limit is None else certainty == "certified exact"
        probability = None
        if limit is not None and certainty.startswith("= generic w.p. >= 1 - "):
            probability = certainty[len("= generic w.p. >= 1 - "):].split()[0]
        elif limit is not None and version2 and not certified:
            probability = row["limit_probability"]
        elif version2 and certified:
            rc.check(where, f"limit_probability {row['limit_probability']}", row["limit_probability"] in ("0", "0.0"),
                     "0 for a certified exact limit", "a certified exact limit carries probability 0")
        cell = Cell(depth, width, heads, int(row["attn_dim"]), r, r, big_r, int(row["seed"]), 2**31, p, limit,
                    certified, _int(row["limit_upper_bound"]))
        runs = parse_repeats(row.get("repeats", ""))
        cell.limit_runs = runs.get("limit", (1, 0))[0]
        cell.row_runs = {n: k for n, (k, _) in runs.items() if n != "limit"}
        own = limit_route.recheck_stated_limit(rc, where, cell, row["limit"], row.get("limit_at_least"))
        if partial is not None:  # the engine's limit route stopped: what it states is the lower bound, rechecked
            rc.add(where, partial, RECOMPUTED if own is not None else BEYOND,
                   "a partial result of the engine's limit route: the lower bound it states is recomputed on its own "
                   "line" if own is not None else "a partial result of the engine's limit route with no value",
                   needs=[own])
        ranks = {n: int(v) for n, v in _pairs(row["ranks"]).items()}
        labels = _pairs(row["ranks_labels"])
        eq74 = {n: v.split("/") for n, v in _pairs(row["eq74_bounds"]).items()}
        caps = {n: int(v) for n, v in _pairs(row["caps"]).items()}
        every, offers = _every_kept(row, r, big_r), _pairs(row.get("ranks_offer", ""))
        square = _square_sample(row, r)
        found, label_found = {}, {}
        for n, rank in ranks.items():
            if runs.get(n, (1, 0))[1]:  # a rank from a repeat run (Lemma R; pr's repeats)
                found[n], label_found[n] = _repeated_rank(rc, where, row, cell, n, rank, runs[n][1])
                continue
            label, prob, short = _label(labels[n]) if n in labels else (None, None, None)
            caps74, at = (eq74[n] + [None])[:2] if n in eq74 else (None, None)
            found[n], label_found[n] = check_token_rank(
                rc, where, cell, n, rank, label, prob, short,
                at_positions=(None if at in (None, "-") else int(at)) if big_r else "unknown",
                every=every.get(n), stated_caps=caps.get(n), stated_eq74=_int(caps74) if caps74 else None,
                offer=offers.get(n), square=square.get(n, False))
        limit_found = check_limit(rc, where, cell, limit, certified, _int(row["limit_upper_bound"]), probability,
                                  ranks, found)
        if limit is not None and certainty != "certified exact":
            rc.check(where, "limit_certainty names the prime condition", PRIME_CONDITION in certainty or
                     not certainty.startswith("="), "it does", "a probability over GF(p) without the prime condition "
                     f"('{PRIME_CONDITION}', issue 39 item 2)")
        _atlas_derived(rc, where, row, cell, ranks, labels, bound, limit, found, limit_found)


def _square_sample(row, vocab: int) -> dict:
    """Per N, whether ranks_sampled shows a square sample ('SxS' below V^(N/2) a side, or 'RxC+SxS'): the sampler
    squares only where its first rows against every column pass its budget (docs/mathematics.md §7, Lemma C)."""
    out = {}
    for n, shape in _pairs(row.get("ranks_sampled", "")).items():
        rows, _, cols = shape.partition("x")
        out[n] = "+" in shape or (rows == cols and rows.isdigit() and int(rows) < vocab ** (n // 2))
    return out


def _every_kept(row, vocab: int, positional_rank: int) -> dict:
    """Per N, whether the file records that every sequence was kept (True: ranks_sampled N:ROWSxCOLS with both
    V^(N/2), format version 2), that rows x columns were sampled (False), or nothing (absent: a file of the old
    format, issue 46 item 2)."""
    out = {}
    for n, shape in _pairs(row.get("ranks_sampled", "")).items():
        rows, _, cols = shape.partition("x")  # 'RxC+SxS' (two samples): not every sequence
        every = vocab ** (n // 2)
        out[n] = bool(positional_rank) and "+" not in shape and int(rows) == every and int(cols) == every
    return out


def _first_n(rc, where, name, stated, first, target, what, cell, ranks, labels, found, target_found, certainty=None):
    """A first N is a statement about every smaller N (docs/mathematics.md §11): the rank there is below
    ``target``, proven where a bound proven at every weight is below it, else resting on that rank's own line (a
    rank labelled a lower bound cannot show it: a larger rank may hide in what was not sampled).  ``certainty``
    (format version 2): "certified" only where every smaller N has a bound proven below the target."""
    needs, unsure, unproven = [target_found], [], []
    for n in sorted(ranks):
        if first is not None and n > first:
            break
        if n != first and cell.proven(n)[0] < target:
            continue
        needs.append(found.get(n))
        if n != first:
            unproven.append(n)
            if labels.get(n, "").startswith("lb-"):
                unsure.append(n)
    trust = (f"the ranks at N = {unsure} are below {target} (lower bounds with no proven bound below {target} there)"
             if unsure else "")
    rc.check(where, f"{name} {stated if stated is not None else '-'}", stated == first, what,
             f"the ranks give {first}", needs=needs, trust=trust)
    if certainty == "certified" and first is not None:
        rc.check(where, f"{name}_certainty certified", not unproven, "every smaller N has a bound proven below "
                 f"{target}", f"N = {unproven} have no bound proven below {target}: not certified", needs=needs)


def _repeated_rank(rc, where, row, cell, tokens, rank, run):
    """A row whose rank came from repeat ``run`` (Lemma R): the rank is rechecked at that run's documented draws
    (seed and prime, ``repeats``) as exact there; its offers (eq. 7.4 at that run's positions) are not."""
    other = Cell(cell.depth, cell.width, cell.heads, cell.attn_dim, cell.vocab, cell.rank, cell.positional_rank,
                 run_seed(cell.seed, run), 2**31, run_prime(cell.p, run), cell.limit, cell.limit_certified,
                 cell.limit_upper)
    found, _ = check_token_rank(rc, f"{where} (repeat run {run})", other, tokens, rank)
    label = rc.add(f"{where} N={tokens}", f"label {_pairs(row['ranks_labels']).get(tokens)}", BEYOND,
                   f"the rank is repeat run {run}'s; the bounds it met at that run's draws are not recomputed here",
                   needs=[found])
    return found, label


def _atlas_derived(rc, where, row, cell, ranks, labels, bound, limit, found, limit_found):
    positional = cell.positional_rank > 0
    v = cell.vocab
    every_rank = [found.get(n) for n in sorted(ranks)]
    first = next((n for n in sorted(ranks) if limit is not None and ranks[n] == limit), None)
    if limit is not None or _int(row["first_n_limit"]) is not None:
        _first_n(rc, where, "first_n_limit", _int(row["first_n_limit"]), first, limit, "the first N whose rank is "
                 "the limit", cell, ranks, labels, found, limit_found, row.get("first_n_limit_certainty"))
    cap_first = None
    if limit is not None:
        cap_first = 2
        while formulas.count_cap(v, cap_first, positional) < limit:
            cap_first += 2
    rc.check(where, f"first_n_cap_reaches_limit {row['first_n_cap_reaches_limit'] or '-'}",
             _int(row["first_n_cap_reaches_limit"]) == cap_first, "the first even N whose counting cap reaches the "
                 "limit",
             f"it is {cap_first}", needs=[limit_found])
    if bound is not None:
        # format version 2 leaves the first N empty for a bound with no content (0: every rank reaches it)
        reach = None if bound == 0 and row.get("schema_version") == "2" else next(
            (n for n in sorted(ranks) if ranks[n] >= bound), None)
        _first_n(rc, where, "first_n_thm2_bound", _int(row["first_n_thm2_bound"]), reach, bound,
                 "the first N whose rank reaches Theorem 2's proof bound", cell, ranks, labels, found, None,
                 row.get("first_n_thm2_bound_certainty"))
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
             f"the ranks give '{' '.join(exceptions)}'", needs=every_rank + [limit_found])
    rc.check(where, f"sampled_below '{row['sampled_below']}'", row["sampled_below"].split() == below,
             "the lower-bound ranks below min(cap, limit)", f"the ranks give '{' '.join(below)}'",
             needs=every_rank + [limit_found])
    reached = limit is not None and bool(ranks) and ranks[max(ranks)] == limit
    rc.check(where, f"status '{row['status']}'", (row["status"] == "reached the limit") == reached,
             "agrees with the ranks and the limit",
             f"the last rank {'meets' if reached else 'does not meet'} the limit", needs=every_rank + [limit_found])


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
    cell.limit_runs = len(limit.get("runs") or []) or 1  # the limit's independent runs (Lemma R)
    ranks = {row["tokens"]: row["rank"] for row in data["ranks"]}
    certainties, found, label_found = [], {}, {}
    for i, row in enumerate(data["ranks"]):
        n, rank = row["tokens"], row["rank"]
        rw = f"{where} ranks[{i}]"
        label = row.get("label")
        at = row.get("bound_eq74_at_positions", "unknown") if cell.positional_rank else "unknown"
        found[n], label_found[n] = check_token_rank(
            rc, rw, cell, n, rank, label, row.get("probability"), row.get("short_by"), at_positions=at,
            every=(not row.get("sampled")) if "sampled" in row else None, stated_caps=row.get("count_cap"),
            stated_eq74=row.get("bound_eq74"))
        needs = [found[n], label_found[n]]
        cap = formulas.count_cap(cell.vocab, n, cell.positional_rank > 0)
        rc.check(rw, f"cap_decides {row.get('cap_decides')}", row.get("cap_decides") == (rank == cap),
                 "rank == count cap", f"rank {rank} {'==' if rank == cap else '!='} cap {cap}", needs=[found[n]])
        if label is not None and "label_text" in row and label == "probabilistic":
            rc.check(rw, "label_text names the prime condition", PRIME_CONDITION in row["label_text"], "it does",
                     f"a probability over GF(p) without '{PRIME_CONDITION}' (issue 39 item 2)")
        if label is not None and row.get("aim") is not None and row.get("short_by") is not None:
            rc.check(rw, f"short_by {row['short_by']}", row["short_by"] == row["aim"] - rank, "aim - rank",
                     f"aim - rank = {row['aim'] - rank}", needs=needs)
        expect = row_certainty(cell, n, rank, label, row.get("probability"))
        certainties.append(expect)
        if "certainty" in row:
            rc.check(rw, f"certainty '{row['certainty']}'", row["certainty"] == expect[0],
                     "the row's own (issue 39 item 5)", f"the row's label gives '{expect[0]}'", needs=needs)
        if "probability_bound" in row:
            pb = row["probability_bound"]
            rc.check(rw, f"probability_bound {pb}", (pb is None and expect[1] is None) or
                     (pb is not None and expect[1] is not None and float(pb) == float(expect[1])),
                     "the row's own (issue 39 item 5)", f"the row's label gives {expect[1]}", needs=needs)
    if limit.get("rank") is not None:
        limit_route.check_limit_value(rc, f"{where} limit", cell, limit["rank"], False)
    limit_found = check_limit(rc, f"{where} limit", cell, limit.get("rank"), limit.get("certified_exact"),
                              limit.get("upper_bound"), limit.get("probability_bound"), ranks, found)
    if limit.get("rank") is not None:
        rc.check(where, f"limit_rank {data.get('limit_rank')}", data.get("limit_rank") == limit["rank"],
                 "the limit's rank", f"the limit's rank is {limit['rank']}")
    if "meaning" in data:
        rc.check(where, "meaning names the prime condition", PRIME_CONDITION in data["meaning"], "it does",
                 f"the probe's meaning states no prime condition ('{PRIME_CONDITION}', issue 39 item 2)")
    every = [f for n in ranks for f in (found[n], label_found[n])] + [limit_found]
    _probe_lists(rc, where, data, cell, ranks, every)
    _probe_top(rc, where, data, certainties, p, every)


def _probe_lists(rc, where, data, cell, ranks, every):
    positional = cell.positional_rank > 0
    limit = data.get("limit_rank")
    caps = {n: formulas.count_cap(cell.vocab, n, positional) for n in ranks}
    rc.check(where, f"cap_decides {data.get('cap_decides')}",
             data.get("cap_decides") == [n for n in ranks if ranks[n] == caps[n]], "the N where rank == cap",
             f"it is {[n for n in ranks if ranks[n] == caps[n]]}", needs=every)
    # a sampled rank labelled certified exact or probabilistic met a bound, so it is the rank at these weights; only a
    # sample that met none (label "lower bound", or none) is undetermined (issue 39); no limit, no lists
    undetermined = {row["tokens"] for row in data["ranks"] if row.get("sampled")
                    and row.get("label", "lower bound") == "lower bound"}
    below = [n for n in ranks if limit is not None and ranks[n] < min(caps[n], limit) and n not in undetermined]
    rc.check(where, f"below_min_of_cap_and_limit {data.get('below_min_of_cap_and_limit')}",
             data.get("below_min_of_cap_and_limit") == below, "the exact ranks below min(cap, limit)", f"it is {below}",
             needs=every)
    sbelow = [n for n in ranks if limit is not None and ranks[n] < min(caps[n], limit) and n in undetermined]
    if "sampled_below_min_of_cap_and_limit" in data:
        rc.check(where, f"sampled_below_min_of_cap_and_limit {data['sampled_below_min_of_cap_and_limit']}",
                 data["sampled_below_min_of_cap_and_limit"] == sbelow, "the undetermined ranks below min(cap, limit)",
                 f"it is {sbelow}", needs=every)
    above = [n for n in ranks if limit is not None and ranks[n] > limit]
    rc.check(where, f"above_limit {data.get('above_limit')}", data.get("above_limit") == above,
             "the N whose rank exceeds the limit", f"it is {above}", needs=every)
    if data.get("conjecture_scale") is not None and cell.rank > 1:
        scale = _scale(cell.rank, cell.depth)
        rc.check(where, f"conjecture_scale {data['conjecture_scale']}",
                 abs(data["conjecture_scale"] - scale) <= 1e-9 * scale, "r L / log3 r", f"it is {scale}")


def _probe_top(rc, where, data, certainties, p, every):
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
                 "the weakest row's (issue 39 item 5)", f"the weakest row's is '{expect}'", needs=every)
        if "probability_bound" in data:
            pb = data["probability_bound"]
            rc.check(where, f"probability_bound {pb}", (pb is None and prob is None) or
                     (pb is not None and prob is not None and float(pb) == prob),
                     "the weakest row's (issue 39 item 5)", f"the weakest row's is {prob}", needs=every)


def _probe_continuous(rc, path, data) -> None:
    for i, row in enumerate(data["ranks"]):
        n = row["tokens"]
        check_sep_row(rc, f"{path} ranks[{i}] N={n}", {
            "depth": data["depth"], "width": data["width"], "heads": data["heads"], "attn_dim": data.get("attn_dim"),
            "residual": data.get("residual", False), "rank": row["rank"], "seed": data.get("seed", 0),
            "tokens": n, "certified_exact": None})
