"""What the computed bound cells prove (issue 39, item 7): on each cell, the smallest N at which the generic token
separation rank reaches Theorem 2's proof bound is the counting floor, certified from both sides.

Below the floor the counting cap V^(N/2) < bound bounds sep(N) for every weight (docs/mathematics.md §7, counting
caps); at the floor a sampled bound x bound minor, nonsingular mod p at seeded integer weights, is a certified lower
bound on the generic rank (§3).  No probability enters either side.  The strengthening "first reached one step
later" (N = floor + 2) is refuted by that minor, so the check can fail: had the minor at the floor been singular,
neither the statement nor its neighbour would have been shown."""

from verify.authoring import Claim, Property, neighbour
from verify.authoring.network import NetworkSpec, VocabularyEmbedding, draw_weights
from verify.authoring.probe import lemma7_lower_bound
from verify.authoring.ranks import counting_floor, sampled_minor_rank

from ._common import WIES, Source
from .wies2021_conjecture_n_positional import PRIME

#: Largest bound whose bound x bound minor this claim ranks (10^6 evaluations of F, seconds with the batched pass).
MAX_BOUND = 1000
#: Every bound cell of the atlas with a positional embedding (docs/conjecture_n.md: V = r = 8, 10, 12, L = 3, 4, 5,
#: H = 1, 2, R = 1, 2) whose bound is at most MAX_BOUND: 30 of the 36 (issue 49).  The other six, (r, L, H) =
#: (10, 5, 1) and (12, 5, 2) (bound 4,060: 16.5 million evaluations, minutes each) and (12, 5, 1) (31,465), are the
#: atlas's rows, not checked here.
CELLS = [(vocab, depth, heads, big_r) for depth in (3, 4, 5) for vocab in (8, 10, 12) for heads in (1, 2)
         for big_r in (1, 2) if 0 < lemma7_lower_bound(depth, vocab, heads) <= MAX_BOUND]

#: The cells, each named, for the statement (issue 47, item 6: it read as more cells than the 7 it checks).
CELL_LIST = ", ".join(f"({vocab}, {depth}, {heads}, {big_r})" for vocab, depth, heads, big_r in CELLS)


def _n_min(shift: int = 0):
    """Holds iff in every cell N_min = counting floor + ``shift``: every even N < that is shown below the bound (the
    counting cap, proven for every weight) and that N reaches it (a nonsingular sampled minor of size bound); False
    where a certified fact refutes it, None (undecided) where a singular minor leaves it open.
    ``shift`` = 2 is the neighbour 'first reached one step later', refuted where the minor at the floor is
    nonsingular (``shift`` = -2 would be refuted by the counting cap alone, so it is not offered)."""
    lines = []
    for vocab, depth, heads, big_r in CELLS:
        width = vocab + 1
        spec = NetworkSpec(depth=depth, width=width, heads=heads, attn_dim=width // heads)
        bound = lemma7_lower_bound(depth, vocab, heads)
        floor = counting_floor(vocab, bound, True)
        claimed = floor + shift
        name = f"r={vocab} L={depth} H={heads} R={big_r}"
        if claimed < 2 or vocab ** (claimed // 2) < bound:
            return False, (f"{name}: at N = {claimed} the counting cap {vocab ** max(claimed // 2, 0)} < bound {bound} "
                           "for every weight, so N_min > N"), {"cell": name, "N": claimed}
        weights, embedding = draw_weights(spec, 0), VocabularyEmbedding(width, vocab, vocab, big_r, 0)
        below = claimed - 2
        if below >= 2 and vocab ** (below // 2) >= bound:  # counting does not rule out N = below: the minor decides
            rank = sampled_minor_rank(spec, weights, embedding, below, bound, 0, PRIME)
            if rank >= bound:
                return False, (f"{name}: a nonsingular {bound} x {bound} minor at N = {below} shows sep >= bound "
                               f"there, so N_min <= {below}"), {"cell": name, "N": below}
            return None, f"{name}: N = {below} neither ruled out by counting nor reached (minor rank {rank})", None
        rank = sampled_minor_rank(spec, weights, embedding, claimed, bound, 0, PRIME)
        if rank < bound:
            return None, f"{name}: minor rank {rank} < bound {bound} at N = {claimed}: not shown either way", None
        under = (f"every N < {claimed} below it by counting (cap {vocab ** (below // 2)} at N = {below})" if below >= 2
                 else "no smaller N")
        lines.append(f"{name}: bound {bound}; {under}, N = {claimed} reaches it (nonsingular minor of size {rank})")
    return True, "; ".join(lines), None


CLAIM = Claim(
    id="derived_conjecture_n_counting_floor",
    source=Source(WIES, "§4 after Theorem 2; appendix B.2.2 before Corollary 2 (the conjecture on N, on computed "
                        "cells)",
                  "derived here, not in the papers: N_min = the counting floor on each computed cell"),
    statement="Derived in this toolkit, not stated in the papers: with a positional embedding, on each of the "
              f"{len(CELLS)} computed cells (r, L, H, R) = {CELL_LIST} (V = r, width r + 1, d_a = floor(d_x / H)), "
              "the smallest even N at which the generic token separation rank reaches Theorem 2's proof bound "
              "((floor((r-1-H)/2) over 3^(L-2))) is the counting floor 2 ceil(log_V bound), certified: below it the "
              "counting cap V^(N/2) < bound for every weight, at it a nonsingular sampled minor of size bound.",
    reading="A result of this toolkit about the cells of docs/conjecture_n.md (the evidence of claim "
            "wies2021_conjecture_n_positional, which stays not-decided: an asymptotic statement is not decided by "
            "finitely many cells).  Both sides are certain: the cap is proven for every weight, and a minor "
            "nonsingular mod p at integer weights is nonsingular over Q, hence a lower bound on the generic rank.  "
            "Its neighbour 'first reached one step later' is refuted by the minor at the floor (a computation that "
            "could have failed).  'One step earlier' is not offered: counting alone refutes it, whatever the ranks.",
    domain="the 30 positional bound cells with bound <= 1,000 (CELLS here); seed 0, mod 2^31 - 1.  Not checked "
           "here: (10, 5, 1) and (12, 5, 2), R = 1, 2 (bound 4,060, decided at the floor 8 by the atlas's rows, "
           "docs/conjecture_n.md), and (12, 5, 1) (bound 31,465, floor 10: not computed)",
    checks=[Property(_n_min, name="N_min = the counting floor on each cell",
                     perturb={"first reached one step later (N = floor + 2)": neighbour(_n_min, shift=2)})],
)
