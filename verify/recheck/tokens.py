"""Token ranks and their labels: the rows of `verify probe-n --json`, of results/n_atlas.csv, of
results/n_positional_cells.csv and the store's ``probe_step`` rows.

Per rank: recomputed as the rank of the whole token matrix at the seeded weights mod p (``network``; or, where
that is priced beyond ``--max-seconds``, of a random k x k part of it, a lower bound).  Per label, its argument
(docs/mathematics.md §7; issue 39 items 1-2):

- "certified exact": the rank equals the smallest bound proven at every weight: the counting cap, eq. 7.4
  with the caps (a)-(c), the derivative bound, the limit where it is certified;
- "probabilistic(X)": the rank meets eq. 7.4 with H at the positions, a computed limit or every sequence was kept;
  X is the union over the row's menu (Lemma C), a repeated row's the product (Lemma R), rounded up to 3 digits;
- "lower bound" (lb-S): the rank is below the smallest bound on offer by S."""

from __future__ import annotations

from fractions import Fraction

from . import arith, formulas, hilbert, network
from .core import BEYOND, CONSISTENT, CONTRADICTED, RECOMPUTED, Recheck
from .repeats import product_over_runs
from .sep import PRIME_CONDITION

__all__ = ["Cell", "usable_prime", "check_token_rank", "row_certainty"]


def usable_prime(p) -> bool:
    """A prime 2 < p < 2^31 (FLINT's primality test)."""
    import flint

    return isinstance(p, int) and 2 < p < 2**31 and bool(flint.fmpz(p).is_prime())


class Cell:
    """One network and embedding of a token export, with its limit as stated."""

    def __init__(self, depth: int, width: int, heads, attn_dim: int, vocab: int, rank: int, positional_rank: int,
                 seed: int = 0, weight_range: int = 2**31,
                 p=arith.TOKEN_PRIME, limit=None, limit_certified=None, limit_upper=None, output: int = 0,
                 position: int = 0) -> None:
        self.depth, self.width, self.heads, self.attn_dim = depth, width, heads, attn_dim or width // heads
        self.vocab, self.rank, self.positional_rank = vocab, rank, positional_rank
        self.seed, self.weight_range = seed, weight_range
        # ranks need a prime below 2^31 (int64 exactness, FLINT's nmod_mat); a stated modulus that is not one is
        # reported by its own line, and the values are recomputed mod 2^31 - 1 instead
        self.p = p if usable_prime(p) else arith.TOKEN_PRIME
        self.limit, self.limit_certified, self.limit_upper = limit, limit_certified, limit_upper
        self.output, self.position = output, position
        # runs behind the limit and behind each repeated row (the atlas's ``repeats`` column; Lemma R)
        self.limit_runs, self.row_runs = 1, {}
        self._net = None

    @property
    def name(self) -> str:
        return (f"(L={self.depth}, V={self.vocab}, r={self.rank}, H={self.heads}, R={self.positional_rank})")

    @property
    def net(self) -> network.TokenNetwork:
        if self._net is None:
            self._net = network.TokenNetwork(self.depth, self.width, self.heads, self.attn_dim, self.vocab, self.rank,
                                             self.positional_rank, self.seed, self.weight_range, self.p,
                                             self.output, self.position)
        return self._net

    def proven(self, tokens: int) -> tuple[int, str]:
        """The smallest bound proven at every weight at N, and its name."""
        offers = [(formulas.count_cap(self.vocab, tokens, self.positional_rank > 0), "the counting cap"),
                  (formulas.derivative_bound(self.depth, self.width, self.vocab, self.positional_rank),
                   "the derivative bound")]
        if self.positional_rank:
            offers.append((formulas.eq74_caps(self.depth, self.vocab, self.positional_rank, tokens),
                           "eq. 7.4 with the caps"))
        if self.limit is not None and self.limit_certified:
            offers.append((self.limit, "the certified limit"))
        return min(offers)

    def _side_route(self, size: int) -> tuple[float, object]:
        return hilbert.side_route(self, size)

    def hilbert_key(self, tokens: int) -> tuple:
        return hilbert.eq74_key(self, tokens)

    def hilbert_price(self, tokens: int) -> float:
        return hilbert.eq74_price(self, tokens)

    def eq74_at_positions(self, tokens: int) -> int:
        return hilbert.eq74_at(self, tokens)

    def hilbert_settled(self, tokens: int) -> float:
        return hilbert.eq74_settled(self, tokens)

    def limit_probability(self) -> Fraction:
        return product_over_runs(lambda p: formulas.limit_probability(self.limit_upper, self.depth, self.weight_range,
                                                                      p), self.p, self.limit_runs)


def _same_bound(printed, exact: Fraction) -> bool:
    """A printed probability against the proof's: the proof's value rounded up to the printed number of
    significant digits (a bound may be rounded up, never down); a full float (10 digits or more) must lie
    within 1e-12 above the exact rational."""
    text = printed if isinstance(printed, str) else repr(float(printed))
    value = Fraction(text)
    mantissa = text.lower().split("e")[0].replace("-", "").replace(".", "").lstrip("0")
    digits = max(1, len(mantissa))
    if exact >= 1:
        return value == 1
    if digits >= 10:
        return exact <= value <= exact * (1 + Fraction(1, 10**12)) + Fraction(1, 10**300)
    return Fraction(repr(formulas.round_up(exact, digits))) == value


#: What a probabilistic label rests on when the file says every sequence was kept (docs/mathematics.md §7).
EVERY = "every sequence kept"
#: The contradiction of a label whose only argument is one the file does not show (issue 46 item 2).
NOT_SHOWN = ("the file does not show every sequence was kept (it records no such thing at this N), and the rank "
             "meets no other bound on offer")


def _offers(cell: Cell, tokens: int, rank: int, at_positions, every, menu: bool = False,
            every_menu: bool = False) -> list[tuple[Fraction, str]]:
    """The probabilistic offers a rank meets: (probability, what); ``menu``: every offer the row has, met or not
    (fixed by the spec and N before the draw; ``every_menu``: the every-sequence offer among them, ``_every_on_menu``).
    ``every``: True only where the file records that every sequence was kept at this N (issue 46 item 2)."""
    out, runs = [], cell.row_runs.get(tokens, 1)
    if cell.positional_rank and at_positions is not None and (menu or rank == at_positions):
        out.append((product_over_runs(lambda p: formulas.union_probability(cell.depth, cell.vocab,
                                                                           cell.positional_rank, tokens, p),
                                      cell.p, runs), "eq. 7.4 with H at the positions (union over every j)"))
    if cell.limit is not None and not cell.limit_certified and (menu or rank == cell.limit) and \
            cell.limit_upper is not None:
        out.append((cell.limit_probability(), "the computed limit"))
    if (every is True or (menu and every_menu)) and cell.positional_rank:
        proven, _ = cell.proven(tokens)
        out.append((product_over_runs(lambda p: formulas.every_sequence_probability(proven, cell.depth,
                                                                                    cell.weight_range, p),
                                      cell.p, runs if at_positions is None else 1), EVERY))
    return out


def row_certainty(cell: Cell, tokens: int, rank: int, label: str | None, probability) -> tuple[str, float | None]:
    """issue 39 item 5: a row's own certainty and probability_bound, from its label (positional rows) or from
    the cap and the limit (rows without positions)."""
    whp = f"certified lower bound; equal to generic w.h.p. unless {PRIME_CONDITION}"
    if label is not None:
        return {"certified exact": ("certified", 0.0), "probabilistic": (whp, probability)}.get(
            label, ("certified lower bound", None))
    if rank == formulas.count_cap(cell.vocab, tokens, False) or (cell.limit_certified and rank == cell.limit):
        return "certified", 0.0
    if cell.limit is not None and not cell.limit_certified and rank == cell.limit:
        return whp, float(cell.limit_probability())
    return "certified lower bound", None


# over 80 lines: one rank's checks in the order the file states them (caps, eq. 7.4, the rank, its offer and label),
# each needing the findings made before it; split, the findings would be threaded through every part.
def check_token_rank(rc: Recheck, where: str, cell: Cell, tokens: int, rank: int, label: str | None = None,
                     probability=None, short_by=None, at_positions="unknown", every=None, stated_caps=None,
                     stated_eq74=None, offer=None, square=False):
    """Every check of one token rank (module doc).  ``label``: "certified exact", "probabilistic",
    "lower bound" or None (rows without positions: exact at these weights); ``at_positions``: the stated
    eq. 7.4 with H at the positions (None: not computed; "unknown": not stated); ``every``: the file records that
    every sequence was kept at this N (True), that it was not (False), or nothing (None); ``offer``: the offer the
    file says the label meets (``OFFERS``; None: not stated); ``square``: the file shows a square sample here
    (``_every_on_menu``).  Returns (the rank's finding, the label's finding or None): what the row's other values
    rest on."""
    where = f"{where} N={tokens}"
    cap = formulas.count_cap(cell.vocab, tokens, cell.positional_rank > 0)
    if stated_caps is not None:
        rc.check(where, f"count cap {stated_caps}", stated_caps == cap,
                 "the counting cap " + ("V^(N/2)" if cell.positional_rank else "binom(N/2 + V - 1, V - 1)"),
                 f"the counting cap is {cap}")
    if cell.positional_rank and stated_eq74 is not None:
        caps74 = formulas.eq74_caps(cell.depth, cell.vocab, cell.positional_rank, tokens)
        rc.check(where, f"eq. 7.4 with the caps {stated_eq74}", stated_eq74 == caps74,
                 "min over k of the caps' H_B(k - 1) + V H_A'(C - k) (docs/mathematics.md eq. 7.4)",
                 f"eq. 7.4 with the caps is {caps74}")
    at_finding = None
    if cell.positional_rank and at_positions not in (None, "unknown"):
        def run_at(stated=at_positions):
            value = cell.eq74_at_positions(tokens)
            if value == stated:
                return RECOMPUTED, "H_B, H_A' recomputed at the seeded positions mod p (monomial ranks, FLINT)"
            return CONTRADICTED, f"with H recomputed at the seeded positions mod p eq. 7.4 is {value}"
        at_finding = rc.later(where, f"eq. 7.4 at the positions {at_positions}", cell.hilbert_price(tokens), run_at,
                              key=cell.hilbert_key(tokens), settle=lambda: cell.hilbert_settled(tokens))
    proven, proven_name = cell.proven(tokens)
    if cell.positional_rank and at_positions is None and label == "probabilistic" and rank < proven:
        # the file did not compute eq. 7.4 at the positions: the recheck does, an upper bound on the rank at every
        # weight at these positions, so a rank raised above it is caught even where the rank itself is beyond reach
        def run_own():
            value = cell.eq74_at_positions(tokens)
            if rank > value:
                return CONTRADICTED, (f"above eq. 7.4 with H recomputed at the seeded positions, {value}, a bound at "
                                      f"every weight at these positions")
            return RECOMPUTED, f"at most eq. 7.4 with H recomputed at the seeded positions, {value}"
        rc.later(where, f"rank {rank} against eq. 7.4 at the positions", cell.hilbert_price(tokens), run_own,
                 key=cell.hilbert_key(tokens), settle=lambda: cell.hilbert_settled(tokens))
    exact_type = label in (None, "certified exact", "probabilistic")
    if rank > proven:
        rank_finding = rc.add(where, f"rank {rank}", CONTRADICTED,
                              f"above {proven_name} {proven}, a bound at every weight")
    elif rank < 0:
        rank_finding = rc.add(where, f"rank {rank}", CONTRADICTED, "a rank is never negative")
    else:
        at_bound = (at_positions, at_finding) if at_finding is not None else None
        rank_finding = _rank_task(rc, where, cell, tokens, rank, exact_type, proven, at_bound)
    stated_at = None if at_positions == "unknown" else at_positions
    needs = [rank_finding]
    limit_trust = (f"the computed limit {cell.limit} (the engine's limit route, not recomputed here)"
                   if cell.limit is not None and not cell.limit_certified else "")
    label_finding = None
    if offer is not None:
        _check_offer(rc, where, cell, tokens, rank, label, offer, stated_at, every, needs, at_finding)
    if label == "certified exact":
        label_finding = rc.check(where, f"label certified exact ({rank})", rank == proven,
                                 f"meets {proven_name} {proven}",
                                 f"does not meet the smallest bound proven at every weight, {proven_name} {proven}",
                                 needs=needs)
    elif label == "probabilistic":
        label_finding = _probabilistic(rc, where, cell, tokens, rank, probability, stated_at, every, proven,
                                       proven_name, needs, at_finding, limit_trust, square)
    elif label == "lower bound":
        aims = [(proven, proven_name, None)]
        if stated_at is not None:
            aims.append((stated_at, "eq. 7.4 at the positions", at_finding))
        if cell.limit is not None and not cell.limit_certified:
            aims.append((cell.limit, "the computed limit", None))
        aim, aim_name, aim_finding = min(aims, key=lambda a: (a[0], a[1]))
        ok = rank < aim and (short_by is None or short_by == aim - rank)
        label_finding = rc.check(where, f"label lower bound ({rank}, {short_by} short)", ok,
                                 f"below {aim_name} {aim} by {aim - rank}",
                                 f"the smallest bound on offer is {aim_name} {aim}: " +
                                 ("the rank meets it, so the label would be certified or probabilistic"
                                  if rank >= aim else f"{aim - rank} short, not {short_by}"),
                                 needs=needs + [aim_finding], trust=limit_trust if aim_name == "the computed limit"
                                 else "")
    return rank_finding, label_finding


#: The offers a label may name (the atlas's ranks_offer, format version 2): certified labels, probabilistic ones,
#: a lower bound's none and the count route of a row without positions.
OFFERS = {"count_cap": "certified exact", "eq74": "certified exact", "derivative_bound": "certified exact",
          "certified_limit": "certified exact", "eq74_at_positions": "probabilistic",
          "computed_limit": "probabilistic", "every_sequence": "probabilistic", "none": "lower bound",
          "count_route": None}


def _check_offer(rc, where, cell, tokens, rank, label, offer, stated_at, every, needs, at_finding):
    """The offer the file names for a label is one of its kind and the rank meets it (the every-sequence offer
    only where the file shows every sequence was kept)."""
    value = f"offer {offer}"
    if offer not in OFFERS or OFFERS[offer] != label:
        rc.add(where, value, CONTRADICTED, f"not an offer of a label '{label}' ({', '.join(sorted(OFFERS))})")
        return
    positional = cell.positional_rank > 0
    meets = {"count_cap": formulas.count_cap(cell.vocab, tokens, positional),
             "eq74": formulas.eq74_caps(cell.depth, cell.vocab, cell.positional_rank, tokens) if positional else None,
             "derivative_bound": formulas.derivative_bound(cell.depth, cell.width, cell.vocab, cell.positional_rank),
             "certified_limit": cell.limit if cell.limit_certified else None,
             "eq74_at_positions": stated_at, "computed_limit": None if cell.limit_certified else cell.limit}
    if offer == "every_sequence":
        holds, wrong = every is True, "the file does not show every sequence was kept at this N"
    elif offer in ("none", "count_route"):
        holds, wrong = True, ""
    else:
        holds, wrong = meets[offer] == rank, f"the rank {rank} does not meet it ({meets[offer]})"
    rc.check(where, value, holds and (offer != "count_route" or not positional), "the rank meets it",
             wrong or "a row with positions has no count route", needs=needs + (
                 [at_finding] if offer == "eq74_at_positions" else []))


def _every_on_menu(cell: Cell, tokens: int, every, square: bool) -> bool | None:
    """Whether the every-sequence offer is on the row's menu, fixed before the draw (docs/mathematics.md §7, Lemma C):
    True where every sequence was kept or V^(N/2) <= the smallest proven bound + 16 (the first sample has
    min(V^(N/2), aim + 16) sequences a side); False where the file shows a square sample (taken only where aim + 16
    rows against every column, hence the V^N of the whole matrix, pass the budget); None: the budget decides."""
    if every is True or (cell.positional_rank and cell.vocab ** (tokens // 2) <= cell.proven(tokens)[0] + 16):
        return True
    return False if square or not cell.positional_rank else None


def _probabilistic(rc, where, cell, tokens, rank, probability, stated_at, every, proven, proven_name, needs,
                   at_finding, limit_trust, square=False):
    """A probabilistic label: the rank meets an offer the file shows, and its probability is the union over every
    offer on the row's menu, met or not (docs/mathematics.md §7, "A label's union"); a repeated row: the product
    over its runs of the kind fixed before the repeats (Lemma R), rounded up to the printed digits.  The offer the
    file names is checked apart (``_check_offer``)."""
    value = f"label probabilistic({probability})"
    if rank >= proven:
        return rc.add(where, value, CONTRADICTED,
                      f"the rank meets {proven_name} {proven}: certified exact, with no probability")
    offers = _offers(cell, tokens, rank, stated_at, every)
    if not offers:
        if every is not True and cell.positional_rank:
            return rc.add(where, value, CONTRADICTED, NOT_SHOWN if every is None else NOT_SHOWN.replace(
                "it records no such thing at this N", "it records a sample at this N"))
        return rc.add(where, value, CONTRADICTED, "the rank meets no bound on offer (eq. 7.4 at the positions, a "
                      "computed limit, every sequence kept)")
    if tokens in cell.row_runs:  # Lemma R (any number of runs; Lemma C): the product over the kind fixed by N alone
        kind = EVERY if stated_at is None else "eq. 7.4"
        fixed = [o for o in offers if o[1].startswith(kind)]
        if not fixed:
            return rc.add(where, value, CONTRADICTED, f"a repeated row's runs must meet the kind fixed before the "
                          f"repeats ({kind}: docs/mathematics.md §7, Lemma R), which this rank does not")
        best = fixed[0]
    else:  # one run: the union over the row's whole menu (docs/mathematics.md §7, "A label's union", Lemma C)
        on_menu = _every_on_menu(cell, tokens, every, square)  # offered where it can be met, met this time or not
        menu = _offers(cell, tokens, rank, stated_at, every, menu=True, every_menu=on_menu is not False)
        best = (min(Fraction(1), sum((p for p, _ in menu), Fraction(0))),
                "the union of the row's offers: " + "; ".join(what for _, what in menu))
        if on_menu is None and probability is not None and not _same_bound(probability, best[0]):
            without = min(Fraction(1), sum((p for p, what in menu if what != EVERY), Fraction(0)))
            if _same_bound(probability, without):  # rests on the sample budget, which the file does not record
                return rc.add(where, value, CONSISTENT, "the union without the every-sequence offer, "
                              f"{float(without):.4g}, is a bound only where the budget could not keep every sequence",
                              needs=needs)
    if probability is None or not _same_bound(probability, best[0]):
        unseen = ""
        if every is None and cell.positional_rank:
            unseen = (" (a smaller bound would need every sequence kept, which the file does not show)")
        return rc.add(where, value, CONTRADICTED,
                      f"the proof gives {formulas.round_up(best[0])} ('{best[1]}'; rounded up to 3 digits){unseen}",
                      needs=needs)
    rests = needs + ([at_finding] if "eq. 7.4" in best[1] else [])
    return rc.add(where, value, RECOMPUTED, f"the bound for '{best[1]}' is {float(best[0]):.4g}", needs=rests,
                  trust=limit_trust if "the computed limit" in best[1] else "")


def _rank_task(rc, where, cell: Cell, tokens: int, rank: int, exact_type: bool, proven: int, at_bound=None):
    """The rank's own line: the whole token matrix where it is priced within the budget, except where the rank meets
    a bound at every weight and rank + 4 random rows against every column are cheaper (a part of rank >= the stated
    rank then proves it, the bound giving the other side; rows against every column lose only what the rows lose,
    docs/mathematics.md §10, a square part loses on both sides): a bound proven at every weight, or ``at_bound`` =
    (eq. 7.4 at these positions as stated, its own line), a bound at every weight at these positions once that line
    is recomputed (the rank's line then rests on it); else a random part (rows against every column first)."""
    full = cell.net.full_rank_seconds(tokens)
    k = min(rank + 4, min(cell.net.side_counts(tokens)))
    by_at = rank < proven and at_bound is not None and rank == at_bound[0]
    bounded = rank >= proven or by_at
    square = bounded and cell.net.sample_seconds(tokens, k, True) < full  # rows against every column suffice

    def run():
        found = cell.net.full_rank(tokens)
        how = f"the whole token matrix, literal eq. 3 pass, seeded weights, mod {cell.p}: rank {found}"
        if found == rank or (not exact_type and found > rank):
            return RECOMPUTED, how
        return CONTRADICTED, how + (" (a lower bound above the stated rank: the sample missed it, but the "
                                     "label claims it exact)" if found > rank else "")
    if full <= rc.max_seconds and not square:
        return rc.later(where, f"rank {rank}", full, run)
    every_column = square or cell.net.sample_seconds(tokens, k, True) <= rc.max_seconds  # rows x every column

    def run_sample():
        found = cell.net.sampled_rank(tokens, k, where, every_column)
        if square and found < rank and rc.spent + full <= rc.max_seconds:  # the rows fell short: the whole matrix,
            rc.spent += full  # spent from what is left (deterministic: the tasks before it are)
            return run()
        part = f"{k} random rows against every column" if every_column else f"a random {k} x {k} part"
        how = f"{part} of the token matrix, mod {cell.p}: rank {found}"
        if found > rank and exact_type:
            return CONTRADICTED, how + ", a certified lower bound above a rank labelled exact at these weights"
        if found >= rank and (not exact_type or (square and bounded) or rank >= proven):
            return RECOMPUTED, how + (" (a lower bound at these weights, at least the stated rank" + (
                ", which meets eq. 7.4 at these positions, a bound at every weight here)" if by_at and exact_type
                else ", which meets the proven bound)" if exact_type else ")"))
        if found >= rank:  # a lower bound equal to a rank said to be exact: its upper side is not recomputed
            return CONSISTENT, how + (f": at least the stated rank; that no larger rank hides in the rest of the "
                                      f"matrix is taken on trust (the whole matrix is priced at {full:.3g} s)")
        return BEYOND, how + f" < {rank}; the whole matrix is priced at {full:.3g} s, beyond the budget"
    return rc.later(where, f"rank {rank}", cell.net.sample_seconds(tokens, k, every_column), run_sample,
                    needs=[at_bound[1]] if square and by_at else ())
