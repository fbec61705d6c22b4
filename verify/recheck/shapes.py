"""The shape of each export kind: which fields its checks read, with their types and ranges (``fields``),
checked for the whole file before any check runs, so that a malformed field is refused in one line naming the
file, row and field (issue 46 item 4) and never reaches a check as a wrong type or an unpriced size.
"""

from __future__ import annotations

from .fields import LIMITS, Fields, is_count, pairs, validate_sep, validate_token_cell
from .limit import first_even_n
from .reading import MAX_INT_DIGITS

__all__ = ["atlas_rows", "cells_rows", "table_csv_rows", "reach_rows", "probe", "table_json", "report",
           "store_row", "certificate"]


#: The largest N a scan "the first even N whose counting cap reaches X" may reach (results/ stop at N = 64).
MAX_SCAN = 10_000


def _positional(row) -> bool:
    return row["pos_rank"].split()[0] != "0"


def _big(text: str) -> bool:
    return text.isdigit() and text.isascii() and len(text) <= MAX_INT_DIGITS


def _label(text: str) -> bool:
    if text == "certified":
        return True
    if text.startswith("lb-"):
        return is_count(text[3:])
    if text.startswith("probabilistic(") and text.endswith(")"):
        inner = text[len("probabilistic("):-1]
        try:
            return len(inner) <= 32 and 0 <= float(inner) <= 1
        except ValueError:
            return False
    return False


def _eq74(text: str) -> bool:
    parts = text.split("/")
    return 1 <= len(parts) <= 2 and all(_big(p) or p == "-" for p in parts)


def _first_word_int(fields: Fields, name: str, limit: str) -> None:
    words = (fields.text(name, optional=False) or "").split()
    if not words:
        fields.bad(name, "", "an integer")
    Fields(fields.path, fields.where, {name: words[0]}, texts=True).int(name, limit)


def atlas_rows(path: str, rows: list) -> None:
    for i, row in enumerate(rows):
        f = Fields(path, f"row {i + 1}", row, texts=True)
        validate_token_cell(f, vocab="vocab_r", rank="vocab_r", positional_rank="no such field", prime="prime")
        f.int("vocab_r", "embedding_rank")
        f.int("attn_dim", "attn_dim")
        f.int("prime", "prime")
        _first_word_int(f, "pos_rank", "positional_rank")
        for name in ("layer_degree", "limit_upper_bound", "n_c1", "n_c2", "n_c4", "cap_at_n_c1", "cap_at_n_c2",
                     "cap_at_n_c4"):
            f.int(name, "bound", optional=name == "limit_upper_bound")
        for name in ("first_n_limit", "first_n_cap_reaches_limit", "first_n_thm2_bound", "max_n"):
            f.int(name, "bound", optional=name != "max_n")
        f.number("scale_rL_over_log3r", 0, 1e6, optional=False)
        for name in ("thm2_proof_bound", "limit_certainty", "status", "maximal_rank_exceptions", "sampled_below"):
            f.text(name, optional=False)
        limit = (f.text("limit", optional=False) or "").strip()
        if limit.startswith(">= "):
            limit = limit[3:]
        if limit not in ("", "-") and not is_count(limit):
            f.bad("limit", row["limit"], "an integer in [0, 10^12], '>= ' one, or empty")
        if is_count(limit) and (first_even_n(int(row["vocab_r"]), int(limit), _positional(row)) or 10**9) > MAX_SCAN:
            f.bad("limit", row["limit"], f"a rank some counting cap reaches by N = {MAX_SCAN} (the checks scan the N "
                  f"whose cap reaches it no further)")
        ranks = pairs(f, "ranks", is_count)
        labels = pairs(f, "ranks_labels", _label)
        pairs(f, "eq74_bounds", _eq74)
        pairs(f, "caps", _big)
        if set(labels) - set(ranks):
            f.bad("ranks_labels", row["ranks_labels"], "labels of ranked N only")
        # format version 2 (r1's columns): what each label rests on and the limit's own probability
        pairs(f, "ranks_sampled", _sampled)
        pairs(f, "ranks_offer", lambda text: 0 < len(text) <= 32)
        f.number("limit_probability", 0, 1)
        f.text("first_n_limit_certainty")


def _sampled(text: str) -> bool:
    """'ROWSxCOLS', both counts, or 'ROWSxCOLS+SxS' (rows against every column, then a square sample) (the atlas's
    ranks_sampled, format version 2)."""
    parts = text.split("+")
    return len(parts) <= 2 and all(_shape(part) for part in parts)


def _shape(text: str) -> bool:
    rows, sep, cols = text.partition("x")
    return bool(sep) and is_count(rows) and is_count(cols)


def cells_rows(path: str, rows: list) -> None:
    for i, row in enumerate(rows):
        f = Fields(path, f"row {i + 1}", row, texts=True)
        # format version 2: a cell with no proven bound has no bound, floor, N or scale (cells.cells skips them)
        unbound = row.get("status") == "no bound" and not f.has("bound")
        r = f.int("r", "embedding_rank")
        if r + 1 > LIMITS["width"][1]:
            f.bad("r", r, f"at most {LIMITS['width'][1] - 1} (the width is r + 1)")
        f.int("depth", "token_depth")
        heads = f.int("heads", "heads")
        if heads > r + 1:
            f.bad("heads", heads, f"at most the width {r + 1}")
        f.int("pos_rank", "positional_rank")
        f.int("prime", "prime")
        f.int("seed", "seed")
        for name in ("bound", "counting_floor", "cap_at_n"):
            f.int(name, "bound", optional=unbound)
        f.int("n_reached", "tokens", optional=True, even=True)
        for name in ("eq74_at_n", "rank_at_least", "rank_at_n"):
            if name in row:
                f.int(name, "rank" if name != "eq74_at_n" else "bound", optional=True)
        f.number("scale", 0, 1e6, optional=unbound)
        f.number("c", 0, 1e6)
        if row.get("schema_version", "").strip():  # format version 2: the certainty split in two (docs/formats.md)
            f.text("n_reached_certainty", optional=True)
            route = f.text("rank_route", optional=True)
            if route not in (None, "", "sampled minor", "count rows", "count route"):
                f.bad("rank_route", route, "'sampled minor', 'count rows', 'count route' or empty")
        else:
            f.text("certainty", optional=unbound)


def table_csv_rows(path: str, rows: list) -> None:
    for i, row in enumerate(rows):
        f = Fields(path, f"row {i + 1}", row, texts=True)
        validate_sep(f, rank="sep")
        f.flag("certified_exact", optional=False)
        for name in row:
            if isinstance(name, str) and name.endswith(" log3"):
                f.number(name)
            if isinstance(name, str) and name.endswith(" holds"):
                f.flag(name)


def reach_rows(path: str, rows: list) -> None:
    for i, row in enumerate(rows):
        f = Fields(path, f"row {i + 1}", row, texts=True)
        if not (f.text("rank", optional=False) or "").strip():
            continue
        validate_sep(f)
        f.text("status", optional=False)


def _sep_json(path: str, where: str, row, rank: str) -> Fields:
    f = Fields(path, where, row)
    validate_sep(f, rank=rank)
    f.flag("certified_exact")
    f.flag("residual")
    for name in ("output", "position"):
        _index(f, name, "width" if name == "output" else "tokens")
    return f


def _index(f: Fields, name: str, within: str) -> None:
    """An output coordinate (< d_x) or an output position (< N): an index the pass reads."""
    value = f.int(name, "bound", optional=True)
    if value is None:
        return
    top = f.data.get(within) if within == "width" else (f.data.get("valid_from_tokens") or f.data.get("tokens"))
    top = top if isinstance(top, int) and not isinstance(top, bool) else None
    if top is None and within == "tokens":
        top = 2 * ((f.data.get("width") or 0) + 1)
    if top is not None and value >= top:
        f.bad(name, value, f"an index below {top} (the {'width' if within == 'width' else 'tokens'})")


def probe(path: str, data: dict) -> None:
    f = Fields(path, "", data)
    mode = f.text("mode", optional=False)
    rows = f.array("ranks", optional=False)
    if mode != "tokens":
        for name, limit in (("depth", "sep_depth"), ("width", "width"), ("heads", "heads")):
            f.int(name, limit)
        f.int("attn_dim", "attn_dim", optional=True)
        f.int("seed", "seed", optional=True)
        f.flag("residual")
        for i, row in enumerate(rows):
            g = Fields(path, f"ranks[{i}]", row)
            g.int("tokens", "tokens", even=True)
            g.int("rank", "rank")
        return
    validate_token_cell(f, prime="modulus")
    limit = f.obj("limit")
    if limit is not None:
        g = Fields(path, "limit", limit)
        g.int("rank", "rank", optional=True)
        g.int("upper_bound", "bound", optional=True)
        g.int("modulus", "prime", optional=True)
        g.flag("certified_exact")
        g.number("probability_bound", 0, 1)
    f.int("limit_rank", "rank", optional=True)
    f.number("conjecture_scale", 0, 1e6)
    f.number("probability_bound", 0, 1)
    for name in ("meaning", "field", "certainty"):
        f.text(name)
    for i, row in enumerate(rows):
        g = Fields(path, f"ranks[{i}]", row)
        g.int("tokens", "tokens", even=True)
        g.int("rank", "rank")
        for name in ("count_cap", "bound_eq74", "aim"):
            g.int(name, "bound", optional=True)
        g.int("short_by", "integer", optional=True)
        g.int("bound_eq74_at_positions", "bound", optional=True)
        g.text("label")
        g.text("label_text")
        g.text("certainty")
        g.flag("sampled")
        g.flag("cap_decides")
        g.number("probability", 0, 1)
        g.number("probability_bound", 0, 1)


def table_json(path: str, data: dict) -> None:
    rows = Fields(path, "", data).array("rows", optional=False)
    for i, row in enumerate(rows):
        f = _sep_json(path, f"row {i + 1}", row, "sep_rank")
        for j, bound in enumerate(f.array("bounds") or ()):
            g = Fields(path, f"row {i + 1} bounds[{j}]", bound)
            g.text("bound", optional=False)
            g.text("kind", optional=False)
            g.number("log3_value")
            g.flag("holds")


def report(path: str, data: dict) -> None:
    header = Fields(path, "", data).obj("header", optional=False)
    f = Fields(path, "header", header)
    for i, row in enumerate(f.array("rank_table", optional=False)):
        g = _sep_json(path, f"rank_table[{i}]", row, "rank")
        g.array("primes")
    f.array("primes")
    f.int("ranks", "rank", optional=True)
    f.int("ranks_certified_exact", "rank", optional=True)
    f.number("probability_bound", 0, 1)
    f.text("field")


def store_row(path: str, where: str, kind, seed, field, spec, params, value) -> None:
    """One store row, its JSON columns already decoded (``reading.load_json``)."""
    row = Fields(path, where, {"kind": kind, "seed": seed, "field": field, "spec": spec, "params": params,
                               "value": value})
    row.text("kind", optional=False)
    row.text("field")
    row.int("seed", "seed", optional=True)
    s, p, v = row.obj("spec", optional=False), row.obj("params", optional=False), row.obj("value", optional=False)
    if kind == "degree_block":
        _degree_block(path, where, s, p, v)
    if kind not in ("sep", "probe_step"):
        return
    fs, fp, fv = Fields(path, f"{where} spec", s), Fields(path, f"{where} params", p), Fields(path, f"{where} value", v)
    fv.int("rank", "rank")
    for name, limit in (("depth", "sep_depth" if kind == "sep" else "token_depth"), ("width", "width"),
                        ("heads", "heads")):
        fs.int(name, limit)
    fs.int("attn_dim", "attn_dim", optional=True)
    fs.flag("residual")
    _index(fs, "output", "width")
    if kind == "sep":
        fs.data = {**s, "valid_from_tokens": v.get("valid_from_tokens")}
        _index(fs, "position", "tokens")
        fv.int("valid_from_tokens", "tokens", optional=True, even=True)
        fv.int("upper_bound", "bound", optional=True)
        fv.number("probability_bound", 0, 1)
        fv.flag("certified_exact")
        fv.array("primes")
        return
    fp.int("tokens", "tokens", even=True)
    fs.data = {**s, "tokens": p.get("tokens")}
    _index(fs, "position", "tokens")
    fp.flag("continuous")
    if not p.get("continuous"):
        fp.int("vocab", "vocab")
        fp.int("rank", "embedding_rank")
        fp.int("positional_rank", "positional_rank", optional=True)
        fp.int("weight_range", "weight_range", optional=True)
        fv.int("modulus", "prime", optional=True)
        fv.flag("sampled")
        bounds = fv.obj("bounds")
        if bounds is not None:
            fb = Fields(path, f"{where} value.bounds", bounds)
            fb.int("at_positions", "bound", optional=True)
            fb.int("certified", "bound", optional=True)
            fb.number("probability", 0, 1)


def _degree_block(path: str, where: str, spec, params, value) -> None:
    """A `verify sep --store` degree-block row: the fields ``blocks.check_block_row`` reads."""
    fs, fp, fv = Fields(path, f"{where} spec", spec), Fields(path, f"{where} params", params), \
        Fields(path, f"{where} value", value)
    width = fs.int("width", "width")
    fs.int("depth", "sep_depth")
    if fs.int("heads", "heads") > width:
        fs.bad("heads", spec["heads"], f"at most the width {width}")
    fs.int("attn_dim", "attn_dim", optional=True)
    fs.flag("residual")
    _index(fs, "output", "width")
    fp.int("degree", "integer")  # a degree outside 0..C is judged by the check (a contradiction)
    fp.int("weight_range", "weight_range")
    for name in ("rows", "cols"):
        fv.int(name, "bound", optional=True)
    if fv.flag("ranked") is not False:
        fv.int("rank", "integer")  # a size no block can have is judged by the check (a contradiction)


def _int_matrix(f: Fields, name: str, rows: int, cols: int, value) -> None:
    ok = (isinstance(value, list) and len(value) == rows and
          all(isinstance(r, list) and len(r) == cols and
              all(isinstance(c, int) and not isinstance(c, bool) and c.bit_length() <= 256 for c in r) for r in value))
    if not ok:
        f.bad(name, value, f"a {rows} x {cols} matrix of integers")


def certificate(path: str, data: dict) -> None:
    f = Fields(path, "", data)
    width = f.int("width", "width")
    f.int("depth", "sep_depth")
    heads = f.int("heads", "heads")
    attn = f.int("attn_dim", "attn_dim")
    f.int("tokens", "tokens", optional=True, even=True)
    f.flag("residual")
    f.text("bound")
    f.int("prime", "prime")
    f.int("claimed_rank", "integer")  # a size that is not a rank is judged by the check (a contradiction)
    f.int("determinant_mod_prime", "integer", optional=True)
    f.int("output", "bound")
    if data["output"] >= width:
        f.bad("output", data["output"], f"an index below the width {width}")
    weights = f.obj("weights", optional=False)
    g = Fields(path, "weights", weights)
    g.int("seed", "seed")
    g.int("weight_range", "weight_range")
    layers = g.array("layers", optional=False)
    if len(layers) != data["depth"]:
        g.bad("layers", f"<{len(layers)} layers>", f"{data['depth']} layers (the depth)")
    for i, layer in enumerate(layers):
        h = Fields(path, f"weights.layers[{i}]", layer)
        for name, shape in (("query", (attn, width)), ("key", (attn, width)), ("value", (attn, width)),
                            ("output", (width, attn))):
            heads_list = h.array(name, optional=False)
            if len(heads_list) != heads:
                h.bad(name, f"<{len(heads_list)} heads>", f"one matrix per head ({heads})")
            for matrix in heads_list:
                _int_matrix(h, name, *shape, matrix)
    for side in ("templates_a", "templates_b"):
        templates = f.array(side, optional=False)
        if len(templates) > 4096:
            f.bad(side, f"<{len(templates)} vectors>", "at most 4096 vectors")
        _int_matrix(f, side, len(templates), width, templates)
