"""§4.2.1-4.2.2 in exact token ranks: the embedding rank r caps the width's contribution -- with V and r fixed,
widening beyond d_x = r leaves sep unchanged while deepening raises it -- and a rank-r < d_x network has a
smaller sep than the full-rank one, so it cannot express it."""

from verify.authoring import Cases, Claim, neighbour, shifted

from ._common import WIES, Source
from ._tokens import probe


def _sep(depth, width, vocab, rank):
    return max(row["rank"] for row in probe(depth, width, 1, vocab, rank)["ranks"])


#: (L, V, r, widths >= r, compare with depth L + 1): sep against the width with the embedding fixed (depth L + 1
#: at r = 2 costs ~10 s and is left out).
WIDENING = [(2, 4, 1, (1, 2, 5), True), (2, 4, 2, (2, 3, 4, 5), False), (3, 3, 1, (1, 2, 3), True)]
#: (L, d_x = V, ranks): sep against the embedding rank with the width fixed.
NARROWING = [(2, 4, (1, 2, 3, 4)), (3, 3, (1, 2, 3))]


def _widening(depth, vocab, rank, widths, deepen, gain=0):
    """sep is the same at every width >= r (gain = 1: widening raises it by >= 1), and depth + 1 raises it."""
    seps = [_sep(depth, w, vocab, rank) for w in widths]
    deeper = _sep(depth + 1, widths[0], vocab, rank) if deepen else None
    flat = all(b >= a + gain for a, b in zip(seps, seps[1:], strict=False)) if gain else len(set(seps)) == 1
    return flat and (deeper is None or deeper > seps[0]), (
        f"L={depth} V={vocab} r={rank}: sep at d_x = {list(widths)}: {seps}" +
        (f"; at L={depth + 1}, d_x={widths[0]}: {deeper}" if deepen else ""))


def _narrowing(depth, width, ranks, tie=False):
    """sep grows strictly with r up to r = d_x (tie: the rank d_x - 1 network already matches full rank)."""
    seps = [_sep(depth, width, width, rank) for rank in ranks]
    ok = seps[-2] >= seps[-1] if tie else all(a < b for a, b in zip(seps, seps[1:], strict=False))
    return ok, f"L={depth} d_x=V={width}: sep at r = {list(ranks)}: {seps}"


CLAIM = Claim(
    id="wies2021_width_capped_by_rank",
    source=Source(WIES, "§4.2.1-4.2.2", "the embedding rank caps the width's contribution; r < d_x cannot express r = "
                                        "d_x"),
    statement="With the vocabulary embedding (V, r) fixed, widening beyond d_x = r does not raise sep while deepening "
              "does; a network with r < d_x has a smaller sep than the full-rank one, so it cannot express its "
              "function.",
    domain="depths 2-3, V = 3-4, r = 1-4, d_x = r..5; token ranks maximised over N up to saturation (N <= 30), seed 0",
    reading="The paper states these as consequences of Theorems 1-2; here they are measured on exact token ranks (a "
            "separation in sep at one weight draw shows the functions differ; the generic ranks are at least these).",
    checks=[Cases(WIDENING, _widening, name="width beyond r: sep unchanged; depth: sep raised",
                  perturb={"widening raises sep by >= 1": shifted(_widening, gain=1)}),
            Cases(NARROWING, _narrowing, name="sep strictly increasing in r up to d_x",
                  perturb={"rank d_x - 1 already matches full rank": neighbour(_narrowing, tie=True)})],
)
