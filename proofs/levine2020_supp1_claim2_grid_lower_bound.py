"""Claim 2 (first supplement): grid tensors give lower bounds on the separation rank."""

from verify.authoring import Claim, Property, shifted
from verify.authoring.network import NetworkSpec
from verify.authoring.ranks import default_template_count
from verify.authoring.ranks import rank_once as separation_rank  # one run at the given seed

from ._common import MAIN, Source


def _check(slack=0):
    """Grid rank <= sep - slack for every template count (slack = 0: Claim 2)."""
    rows = []
    for depth, width, heads in [(1, 2, 1), (1, 3, 3), (2, 2, 2)]:
        spec = NetworkSpec(depth=depth, width=width, heads=heads, tokens=2)
        sep = separation_rank(spec, "coefficients").rank
        exact = default_template_count(spec)
        for templates in sorted({1, 2, 3, exact // 2, exact}):
            grid = separation_rank(spec, "grid", templates=templates).rank
            rows.append((depth, width, heads, templates, grid, sep))
            if grid > sep - slack:
                return False, f"grid rank {grid} > sep {sep}", {"spec": str(spec), "templates": templates}
            if templates == exact and grid != sep:
                return False, f"exact grid rank {grid} != sep {sep}", {"spec": str(spec), "templates": templates}
    return True, "grid rank <= sep for every template count, = sep with binom(3^L+d_x, d_x) templates: " + \
        "; ".join(f"L={a} d={b} H={c} M={m}: {g}<={s}" for a, b, c, m, g, s in rows), None


CLAIM = Claim(
    id="levine2020_supp1_claim2_grid_lower_bound",
    source=Source(MAIN, "supplement B.1.2", "Claim 2"),
    statement="For any M and any template vectors, rank of the grid-tensor matricisation <= sep(y_p^i).",
    domain="N = 2, depth 1-2, template counts from 1 to exact",
    checks=[Property(_check, name="grid vs coefficient ranks",
                     perturb={"grid rank <= sep - 1 (the bound one stronger)": shifted(_check, slack=1)})],
)
