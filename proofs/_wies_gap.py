"""The proof gap of eq. 14 (vocabulary-bottleneck paper, appendix B.2) shared by the claims that state it
(wies2021_corollary1_lower, wies2021_theorem2_lower, wies2021_corollary1_tokens; issue 20, rule 5).

Every route of the printed proof (Corollary 1 through Lemma 5 or 6, Corollary 2 through Lemma 7) lays the
columns of A out as eq. 15 does, (d_a - 1)/2 coordinates per head and half.  At even d_a each head's second half
has d_a/2 - 1 coordinates under any numbering, so that layout carries at most H floor((d_a - 1)/2) columns
(the corrected numbering reaches it; proofs/_reach.py), fewer than the (r - H)/2 the proof
needs when d_a is even and r >= d_x - H + 2.  The smallest case where eq. 14 then says more than the
construction gives is (d_x, H, r, L) = (8, 2, 8, 2), with (8, 4, 8, 2) beside it.

Every number the gap texts cite about those two specs is recomputed by a check here: ``CITED_GRID`` (the
plain network's certified grid-rank lower bounds, N = 2) and ``CITED_TOKENS`` (exact token ranks with a
vocabulary embedding, N = 2 and 4); a changed value fails its check, and the claim then reads ``violated``.
"""

from math import comb

from verify.authoring import H, L, Property, r
from verify.authoring.network import NetworkSpec
from verify.authoring.probe import corollary1_lower_bound
from verify.authoring.ranks import rank_once

from ._reach import REPAIRED, gap_check
from ._tokens import probe
from ._wies import LOG3_LOWER, LOWER

#: The two smallest cases (d_x, H, r, L) where eq. 14 exceeds what the corrected construction gives.
SMALLEST = ((8, 2, 8, 2), (8, 4, 8, 2))
#: Templates per position of the grid route: the grid matrix at N = 2 is TEMPLATES x TEMPLATES.
TEMPLATES = 12
#: H -> rank of the grid matrix at (d_x, L, N) = (8, 2, 2), seed-0 integer weights, TEMPLATES templates
#: (``verify sep --depth 2 --width 8 --heads H --tokens 2 --method grid --templates 12``): a certified
#: lower bound on sep.  Rechecked by ``grid_ranks`` (about 0.5 s each).  At N = 4 the same command takes
#: 70-115 s per spec, so no N = 4 value is cited.
CITED_GRID = {2: 12, 4: 12}
#: Vocabulary size of the token check: V = r = 8 >= 2 ((3 over 1)) + 1 = 7, Lemma 6's assumption at H = 2.
VOCAB = 8
#: H -> exact token ranks over GF(p) at N = 2 and N = 4 (vocabulary embedding of rank 8, V = 8, seed 0;
#: ``verify probe-n``, Gram route), lower bounds on the generic rank.  Rechecked by ``token_ranks`` (< 1 s).
CITED_TOKENS = {2: (8, 36), 4: (8, 36)}

PROOF = ("d_a even with r >= d_x - H + 2 (so H >= 2; at r = d_x every even d_a with H >= 2): the printed proof "
         "(appendix B.2: Corollary 1 through Lemma 5 or 6, or Corollary 2 through Lemma 7, all on eq. 15's layout of "
         "(d_a - 1)/2 coordinates per head and half) needs (r - H)/2 columns of A (Lemma 7: (r - 1 - H)/2) in both "
         "halves, but at even d_a the second half, (d_a - 1)/2 <= (alpha - 1) mod d_a < d_a - 1, has d_a/2 - 1 = "
         "floor((d_a - 1)/2) coordinates per head whatever the numbering phi of that per-head layout, so the layout "
         "carries at most H floor((d_a - 1)/2) columns (the printed phi, d_a - 1 per head, carries fewer still: at "
         "(d_x, H, r) = (8, 2, 8) its second half holds column 2 only; the corrected numbering reaches H floor((d_a - "
         "1)/2): claims wies2021_lemma6_vocabulary_embedding, levine2020_supp1_lemma4_construction), and eq. 14 then "
         "exceeds the rank the construction gives (or, with no column, sep >= 1).  No passage of appendix B.2 (nor the "
         "first paper's construction) treats even d_a: footnote 3's floor concerns the parity of r - H only, and "
         "zeroing one coordinate per head (odd d_a - 1, width d_x - H) reaches the same H floor((d_a - 1)/2).  The "
         "construction is empty first at (d_x, H, r, L) = (4, 2, 4, 2) (d_a = 2), but the bound is 1 there, met by any "
         "nonzero output; the smallest case where the bound says more than the proof gives is (8, 2, 8, 2): eq. 14 "
         "gives ((3 over 1)) = 3, the construction 2 columns, sep >= 2 (and (8, 4, 8, 2), d_a = 2: bound 2, no "
         "column).  A layout pairing columns across heads (the one-slot construction) is not bound by this reach.")

GRID_TEXT = (f"  The statement still holds there as far as computed: certified grid-rank lower bounds at seed-0 "
             f"integer weights with {TEMPLATES} templates per position (verify sep --tokens 2 --method grid "
             f"--templates {TEMPLATES}) give sep >= {CITED_GRID[2]} at N = 2 for H = 2 and sep >= {CITED_GRID[4]} "
             f"for H = 4 (rechecked by the gap check 'certified grid ranks at the smallest cases'); larger N is "
             f"not cited (N = 4 takes 70-115 s per spec).  Being lower bounds on sep, these values can confirm eq. 14 "
             f"at those specs (N = 2) but never refute it, and say nothing about the proof." + REPAIRED)

TOKEN_TEXT = (f"  The statement still holds there as far as computed: with a vocabulary embedding of rank r = 8 and "
              f"a vocabulary of V = {VOCAB} (Lemma 6 needs V >= 7 at H = 2, V >= 5 at H = 4), exact token ranks at "
              f"seed 0 are {CITED_TOKENS[2][0]} at N = 2 and {CITED_TOKENS[2][1]} at N = 4 for H = 2, "
              f"{CITED_TOKENS[4][0]} and {CITED_TOKENS[4][1]} for H = 4 (rechecked by the gap check 'token ranks at "
              f"the smallest cases'); larger N is not computed.  Being lower bounds on sep, "
              f"these values can confirm eq. 14 there but never refute it." + REPAIRED
              + "  That repair is for the plain network (r = d_x, templates free); a vocabulary embedding's "
                "templates (Lemmas 6-7) on the one-slot layout are not built here, so for this statement it is "
                "evidence, not proof.")


def eq14(depth: int, rank: int, heads: int) -> int:
    """eq. 14 from this registry's own formula ``LOWER`` (sympy: ((floor((r - H)/2) over 3^(L-2))))."""
    return int(LOWER.subs({L: depth, r: rank, H: heads}))


def engine_bound_is_eq14(depths=range(2, 5), heads_range=range(1, 5), above=range(1, 10)):
    """The engine's eq. 14 (``corollary1_lower_bound``: what the checks here compare with and what ``verify
    probe-n`` prints) equals ``eq14`` on L = 2..4, H = 1..4, r = H + 1..H + 9, both parities of r - H (a bound
    rounding (r - H)/2 up differs at every odd r - H).  (ok, text, counterexample)."""
    for depth in depths:
        for heads in heads_range:
            for rank in (heads + k for k in above):
                engine, formula = corollary1_lower_bound(depth, rank, heads), eq14(depth, rank, heads)
                if engine != formula:
                    return False, (f"the engine's eq. 14 at L={depth} r={rank} H={heads} is {engine}, the formula "
                                   f"gives {formula}"), {"L": depth, "r": rank, "H": heads, "engine": engine}
    return True, f"the engine's eq. 14 equals the formula at {len(depths) * len(heads_range) * len(above)} points", None


def grid_ranks():
    """Recompute ``CITED_GRID``: at each smallest case the grid route's rank (N = 2) is certified as a lower
    bound, equals the cited value, and exceeds eq. 14 (so the statement holds there as far as computed).
    First the engine's eq. 14, used below, is pinned to the formula (``engine_bound_is_eq14``)."""
    pinned = engine_bound_is_eq14()
    if not pinned[0]:
        return pinned
    lines = []
    for width, heads, _, depth in SMALLEST:
        spec = NetworkSpec(depth=depth, width=width, heads=heads, tokens=2)
        result = rank_once(spec, "grid", templates=TEMPLATES)
        bound = corollary1_lower_bound(depth, width, heads)
        where = f"d_x={width} H={heads} L={depth} N=2"
        lines.append(f"{where}: certified grid rank {result.rank} (cited {CITED_GRID[heads]}), eq. 14 {bound}")
        if not result.certainty.certified_lower_bound or result.rank != CITED_GRID[heads] or result.rank < bound:
            return False, "; ".join(lines), {"spec": where, "grid_rank": result.rank, "cited": CITED_GRID[heads]}
    return True, "; ".join(lines), None


def token_ranks():
    """Recompute ``CITED_TOKENS``: exact token ranks (V = r = 8) at N = 2 and 4 at each smallest case equal the
    cited values and reach eq. 14 (the engine's, pinned to the formula first: ``engine_bound_is_eq14``)."""
    pinned = engine_bound_is_eq14()
    if not pinned[0]:
        return pinned
    lines = []
    for width, heads, rank, depth in SMALLEST:
        data = probe(depth, width, heads, VOCAB, rank, max_tokens=4)
        ranks = tuple(row["rank"] for row in data["ranks"] if row["tokens"] in (2, 4))
        bound = corollary1_lower_bound(depth, rank, heads)
        where = f"d_x={width} H={heads} r={rank} V={VOCAB} L={depth}"
        lines.append(f"{where}: token ranks at N = 2, 4 {ranks} (cited {CITED_TOKENS[heads]}), eq. 14 {bound}")
        if ranks != CITED_TOKENS[heads] or min(ranks) < bound:
            return False, "; ".join(lines), {"spec": where, "ranks": ranks, "cited": CITED_TOKENS[heads]}
    return True, "; ".join(lines), None


def reach_over_rank(widths=range(2, 25), depths=range(2, 6)):
    """The gap over the embedding rank r too (r <= d_x, the tokens claim's domain): (d_x, L, H, r) with d_a even
    where eq. 14, ((floor((r - H)/2) over 3^(L-2))), exceeds max(1, the construction's rank) (its columns:
    min(floor((r - H)/2), H floor((d_a - 1)/2))).  The smallest must be SMALLEST's, at r = d_x."""
    found = []
    for width in widths:
        for heads in (h for h in range(1, width) if width % h == 0 and (width // h) % 2 == 0):
            carried = heads * ((width // heads - 1) // 2)
            for rank in range(heads + 1, width + 1):
                for depth in depths:
                    power, needed = 3 ** (depth - 2), (rank - heads) // 2
                    bound = comb(needed + power - 1, power)
                    built = min(needed, carried)
                    if bound > max(1, comb(built + power - 1, power) if built else 0):
                        found.append((width, depth, heads, rank))
    found.sort()
    first = [(w, h, r, d) for w, d, h, r in found if (w, d) == found[0][:2]] if found else []
    return first == list(SMALLEST), (f"{len(found)} points (d_x <= {max(widths)}, L <= {max(depths)}, any r <= d_x) "
                                     f"where eq. 14 exceeds the construction; the smallest (d_x, H, r, L): "
                                     f"{first}"), None


def plain_gap_checks(regime=None) -> list:
    """The gap checks of eq. 14 on the plain network (Corollary 1, Theorem 2): its bound at r = d_x
    against the construction's corrected reach at even d_a (inside ``regime``), and the certified grid
    ranks the gap text cites."""
    return [Property(gap_check(LOG3_LOWER, regime, (8, 2, 2), widths=range(3, 25)),
                     name="eq. 14 at r = d_x against the construction's corrected reach, d_a even"),
            Property(grid_ranks, name="certified grid ranks at the smallest cases")]
