"""Token ranks and their labels: the rows of `verify probe-n --json`, of results/n_atlas.csv, of
results/n_positional_cells.csv and the store's ``probe_step`` rows.

Per rank: recomputed as the rank of the whole token matrix at the seeded weights mod p (``network``; or, where
that is priced beyond ``--max-seconds``, of a random k x k part of it, a lower bound).  Per label, its argument
(docs/mathematics.md §7; issue 39 items 1-2):

- "certified exact": the rank equals the smallest bound proven at every weight: the counting cap, eq. 7.4
  with the caps (a)-(c), the derivative bound, the limit where it is certified;
- "probabilistic(X)": the rank meets eq. 7.4 with H at the positions (X = the union over every j on both
  sides, issue 39 item 1), a computed limit (1c) or every sequence was kept (1b); X is the smallest of those
  it meets, rounded up to 3 significant digits;
- "lower bound" (lb-S): the rank is below the smallest bound on offer by S.
"""

from __future__ import annotations

from fractions import Fraction

from . import arith, formulas, network
from .core import BEYOND, CONFIRMED, CONTRADICTED, Recheck
from .sep import PRIME_CONDITION

__all__ = ["Cell", "usable_prime", "check_token_rank", "check_limit", "row_certainty"]


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
        self._net = None
        self._hilbert = {}

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

    def hilbert_price(self, tokens: int) -> float:
        m = (self.vocab - 1) * (1 + self.positional_rank)
        half = tokens // 2
        return sum(formulas.hilbert_seconds(self.vocab**size, m, formulas.layer_degree(self.depth))
                   for size in (half, half - 1) if size >= 1)

    def eq74_at_positions(self, tokens: int) -> int:
        """Eq. 7.4 with H_B and H_A' computed at the seeded positions mod p (formulas.hilbert_at_positions)."""
        if tokens not in self._hilbert:
            half, c = tokens // 2, formulas.layer_degree(self.depth)
            pis = [arith.positional_coefficients(self.positional_rank, self.seed, j) for j in range(tokens)]
            h_b = formulas.hilbert_at_positions(formulas.side_points(self.vocab, pis[half:]), c, self.p)
            h_a = (formulas.hilbert_at_positions(formulas.side_points(self.vocab, pis[1:half]), c, self.p)
                   if half > 1 else [1] * (c + 1))
            self._hilbert[tokens] = formulas.eq74(self.depth, self.vocab, tokens, lambda j: h_b[j], lambda j: h_a[j])
        return self._hilbert[tokens]

    def limit_probability(self) -> Fraction:
        return formulas.limit_probability(self.limit_upper, self.depth, self.weight_range, self.p)


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


def _offers(cell: Cell, tokens: int, rank: int, at_positions, every) -> list[tuple[Fraction, str]]:
    """The probabilistic offers a rank meets: (probability, what); ``every`` None = not recorded."""
    out = []
    if cell.positional_rank and at_positions is not None and rank == at_positions:
        out.append((formulas.union_probability(cell.depth, cell.vocab, cell.positional_rank, tokens, cell.p),
                    "eq. 7.4 with H at the positions (union over every j)"))
    if cell.limit is not None and not cell.limit_certified and rank == cell.limit and cell.limit_upper is not None:
        out.append((cell.limit_probability(), "the computed limit"))
    if every is not False and cell.positional_rank:
        proven, _ = cell.proven(tokens)
        out.append((formulas.every_sequence_probability(proven, cell.depth, cell.weight_range, cell.p),
                    "every sequence kept" + (" (the file does not record whether it was)" if every is None else "")))
    return out


def row_certainty(cell: Cell, tokens: int, rank: int, label: str | None, probability) -> tuple[str, float | None]:
    """issue 39 item 5: a row's own certainty and probability_bound, from its label (positional rows) or from
    the cap and the limit (rows without positions)."""
    whp = f"certified lower bound; equal to generic w.h.p. unless {PRIME_CONDITION}"
    if label is not None:
        if label == "certified exact":
            return "certified", 0.0
        if label == "probabilistic":
            return whp, probability
        return "certified lower bound", None
    if rank == formulas.count_cap(cell.vocab, tokens, False) or (cell.limit_certified and rank == cell.limit):
        return "certified", 0.0
    if cell.limit is not None and not cell.limit_certified and rank == cell.limit:
        return whp, float(cell.limit_probability())
    return "certified lower bound", None


def check_token_rank(rc: Recheck, where: str, cell: Cell, tokens: int, rank: int, label: str | None = None,
                     probability=None, short_by=None, at_positions: str = "unknown", every=None, stated_caps=None,
                     stated_eq74=None) -> None:
    """Every check of one token rank (module doc).  ``label``: "certified exact", "probabilistic",
    "lower bound" or None (rows without positions: exact at these weights); ``at_positions``: the stated
    eq. 7.4 with H at the positions (None: not computed; "unknown": not stated)."""
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
    if cell.positional_rank and at_positions not in (None, "unknown"):
        def run_at(stated=at_positions):
            value = cell.eq74_at_positions(tokens)
            if value == stated:
                return CONFIRMED, "H_B, H_A' recomputed at the seeded positions mod p (monomial ranks, FLINT)"
            return CONTRADICTED, f"with H recomputed at the seeded positions mod p eq. 7.4 is {value}"
        rc.later(where, f"eq. 7.4 at the positions {at_positions}", cell.hilbert_price(tokens), run_at)
    proven, proven_name = cell.proven(tokens)
    exact_type = label in (None, "certified exact", "probabilistic")
    if rank > proven:
        rc.add(where, f"rank {rank}", CONTRADICTED, f"above {proven_name} {proven}, a bound at every weight")
    else:
        _rank_task(rc, where, cell, tokens, rank, exact_type)
    stated_at = None if at_positions == "unknown" else at_positions
    if label == "certified exact":
        rc.check(where, f"label certified exact ({rank})", rank == proven, f"meets {proven_name} {proven}",
                 f"does not meet the smallest bound proven at every weight, {proven_name} {proven}")
    elif label == "probabilistic":
        offers = _offers(cell, tokens, rank, stated_at, every)
        if rank == proven:
            rc.add(where, f"label probabilistic({probability})", CONTRADICTED,
                   f"the rank meets {proven_name} {proven}: certified exact, with no probability")
        elif not offers:
            rc.add(where, f"label probabilistic({probability})", CONTRADICTED,
                   "the rank meets no bound on offer (eq. 7.4 at the positions, a computed limit, every sequence)")
        else:
            # the row's probability is the smallest offer it meets; where the file does not record whether every
            # sequence was kept (the atlas), the smallest of the offers it provably meets is accepted too
            best = min(offers, key=lambda o: o[0])
            known = [o for o in offers if "does not record" not in o[1]]
            allowed = [best] + ([min(known, key=lambda o: o[0])] if known and len(known) < len(offers) else [])
            fits = [o for o in allowed if probability is not None and _same_bound(probability, o[0])]
            if probability is not None and fits:
                rc.add(where, f"probability {probability}", CONFIRMED,
                       f"the bound for '{fits[0][1]}' is {float(fits[0][0]):.4g}")
            else:
                rc.add(where, f"probability {probability}", CONTRADICTED,
                       f"the proof gives {formulas.round_up(best[0])} ('{best[1]}'; rounded up to 3 digits)")
    elif label == "lower bound":
        aims = [(proven, proven_name)]
        if stated_at is not None:
            aims.append((stated_at, "eq. 7.4 at the positions"))
        if cell.limit is not None and not cell.limit_certified:
            aims.append((cell.limit, "the computed limit"))
        aim, aim_name = min(aims)
        ok = rank < aim and (short_by is None or short_by == aim - rank)
        rc.check(where, f"label lower bound ({rank}, {short_by} short)", ok,
                 f"below {aim_name} {aim} by {aim - rank}",
                 f"the smallest bound on offer is {aim_name} {aim}: " +
                 ("the rank meets it, so the label would be certified or probabilistic" if rank >= aim
                  else f"{aim - rank} short, not {short_by}"))


def _rank_task(rc: Recheck, where: str, cell: Cell, tokens: int, rank: int, exact_type: bool) -> None:
    full = cell.net.full_rank_seconds(tokens)
    if full <= rc.max_seconds:
        def run():
            found = cell.net.full_rank(tokens)
            how = f"the whole token matrix, literal eq. 3 pass, seeded weights, mod {cell.p}: rank {found}"
            if found == rank or (not exact_type and found > rank):
                return CONFIRMED, how
            return CONTRADICTED, how + (" (a lower bound above the stated rank: the sample missed it, but the "
                                         "label claims it exact)" if found > rank else "")
        rc.later(where, f"rank {rank}", full, run)
        return
    k = rank + 4
    count = min(cell.net.side_counts(tokens))
    k = min(k, count)
    every_column = cell.net.sample_seconds(tokens, k, True) <= rc.max_seconds  # rows against every column first

    def run_sample():
        found = cell.net.sampled_rank(tokens, k, where, every_column)
        part = f"{k} random rows against every column" if every_column else f"a random {k} x {k} part"
        how = f"{part} of the token matrix, mod {cell.p}: rank {found}"
        if found > rank and exact_type:
            return CONTRADICTED, how + ", a certified lower bound above a rank labelled exact at these weights"
        if found >= rank:
            return CONFIRMED, how + " (a lower bound at these weights, at least the stated rank)"
        return BEYOND, how + f" < {rank}; the whole matrix is priced at {full:.3g} s, beyond the budget"
    rc.later(where, f"rank {rank}", cell.net.sample_seconds(tokens, k, every_column), run_sample)


def check_limit(rc: Recheck, where: str, cell: Cell, limit, certified, upper, probability=None,
                ranks: dict | None = None) -> None:
    """The N-independent limit: its upper bound is the derivative bound (docs/mathematics.md §7), certified
    exactly when it meets it, else its probability is docs/mathematics.md §7, the limit; a rank that reaches it confirms
    it as a lower bound (every rank is at most the limit when it is certified)."""
    bound = formulas.derivative_bound(cell.depth, cell.width, cell.vocab, cell.positional_rank)
    if upper is not None:
        rc.check(where, f"limit upper bound {upper}", upper == bound,
                 "min over j0 of V sum_{j<j0} binom(j+m-1, m-1) + binom(C-j0+m, m)", f"the derivative bound is {bound}")
    if limit is None:
        return
    rc.check(where, f"limit {limit} against the derivative bound", limit <= bound, f"at most {bound}",
             f"above the derivative bound {bound}, which holds at every weight")
    if certified is not None:
        rc.check(where, f"limit certified = {certified}", bool(certified) == (limit == bound),
                 "certified exactly when it meets the derivative bound",
                 f"the limit {'meets' if limit == bound else 'is below'} the derivative bound {bound}")
    if probability is not None and not certified:
        exact = formulas.limit_probability(bound, cell.depth, cell.weight_range, cell.p)
        rc.check(where, f"limit probability {probability}", _same_bound(probability, exact),
                 "upper * entry_degree / |S'| + upper / p (docs/mathematics.md §7, the limit)",
                 f"the proof gives {formulas.round_up(exact)} (docs/mathematics.md §7, the limit)")
    if ranks:
        above = [n for n, r in ranks.items() if r > limit]
        if certified:
            rc.check(where, f"limit {limit} above every rank", not above, "no rank exceeds a certified limit",
                     f"ranks above it at N = {above}")
        reached = [n for n, r in ranks.items() if r == limit]
        if reached:
            rc.add(where, f"limit {limit} as a lower bound", CONFIRMED,
                   f"the rank at N = {reached[0]} (rechecked on its own line) reaches it")
