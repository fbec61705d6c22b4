"""The atlas's figure (``results/n_atlas.png``): rank against N, one panel per depth (the grid, one head),
and one panel for the bound cells: the N at which Theorem 2's bound is reached against r L / log3 r.
Needs matplotlib (the ``plot`` extra); written through ``verify.files`` (atomic)."""

from __future__ import annotations

import math
from typing import Any

from ..rank.token.caps import count_caps
from .plot import _pyplot, _rank_axis, _save

__all__ = ["plot_atlas"]


def _points(text: str) -> list[tuple[int, int]]:
    return [tuple(map(int, item.split(":"))) for item in str(text).split()]


def _grid_panel(ax, rows: list[dict[str, Any]], depth: int) -> None:
    """Rank against N at one depth (the fewest heads), caps faint, r L / log3 r dotted."""
    from matplotlib.ticker import FuncFormatter, MaxNLocator

    styles = {"0": "-", "1": "--", "2": "-."}
    heads = min(int(x["heads"]) for x in rows)
    shown = []  # every value drawn: the rank axis is chosen from their span
    for r in (r for r in rows if int(r["depth"]) == depth and int(r["heads"]) == heads):
        points = _points(r["ranks"])
        if not points:
            continue
        vocab = int(r["vocab_r"])
        color = f"C{vocab - 2}"
        pos = str(r["pos_rank"]).split()[0]  # version 1 wrote "R (full)"; version 2 R and pos_full
        full = r.get("pos_full") == "true" or str(r["pos_rank"]).endswith("(full)")
        ax.plot(*zip(*points, strict=False), ":" if full else styles.get(pos, ":"), color=color, marker=".", ms=3,
                lw=1, label=f"V = r = {vocab}, R = {pos}" + (" (full)" if full else ""))
        shown += [p[1] for p in points]
        if pos in ("0", "1"):  # caps: multisets (R = 0), sequences (R >= 1), drawn once per V
            xs = list(range(2, max(p[0] for p in points) + 1, 2))
            caps = [count_caps(vocab, n, pos != "0").cap for n in xs]
            ax.plot(xs, caps, color=color, lw=0.6, alpha=0.35)
            shown += caps
        if pos == "0":
            ax.axvline(float(r["scale_rL_over_log3r"]), color=color, lw=0.8, ls=(0, (1, 3)))
    # a log axis with ticks at 1, 2, 5 x 10^k where the values span a factor 10 or more, else a linear one
    # with integer ticks (a log axis over 2..7 had one tick label: 10^0 and 10^1 lie outside)
    _rank_axis(ax, shown)
    ax.yaxis.set_minor_formatter(FuncFormatter(lambda v, _: ""))
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_title(f"depth L = {depth}", fontsize=10)
    ax.set_xlabel("sequence length N")
    ax.set_ylabel("exact token rank sep(N) mod p", fontsize=8)


def _bound_panel(ax, rows: list[dict[str, Any]]) -> None:
    """Bound cells: N at which the rank reaches Theorem 2's bound (filled: reached, hollow: the counting
    floor of a cell beyond its budget), against r L / log3 r, with N = r L / log3 r drawn."""
    markers = {"0": "s", "1": "o", "2": "^"}
    scales = []
    for r in rows:
        if not r.get("counting_floor"):
            continue
        scale, pos = float(r["scale"]), str(r["pos_rank"])
        scales.append(scale)
        reached = bool(str(r["n_reached"]))
        color = f"C{int(r['depth']) - 1}"
        shift = (int(r["heads"]) - 1) * 0.3 + {"0": -0.2, "2": 0.2}.get(pos, 0.0)  # side by side, not on top
        ax.plot(scale + shift, int(r["n_reached"] if reached else r["counting_floor"]),
                markers.get(pos, "x"), color=color, ms=5, mfc=color if reached else "none",
                label=f"L = {r['depth']}, " + ("no positions" if pos == "0" else f"R = {pos}"))
    if scales:
        xs = [min(scales) - 1, max(scales) + 1]
        ax.plot(xs, xs, color="gray", lw=0.8, ls=(0, (1, 3)), label="N = r L / log3 r")
    handles, labels = ax.get_legend_handles_labels()
    unique = {}
    for label, handle in zip(labels, handles, strict=False):
        unique.setdefault(label, handle)
    ax.legend(unique.values(), unique.keys(), fontsize=6, loc="upper left")
    ax.set_ylim(bottom=0)
    ax.set_title("Theorem 2's bound (r = 8, 10, 12): N at which it is reached", fontsize=9)
    ax.set_xlabel("r L / log3 r (H = 2 shifted right by 0.3; R = 0, 1, 2 side by side)", fontsize=8)
    ax.set_ylabel("N (hollow: counting floor, beyond budget)", fontsize=8)


def plot_atlas(grid_rows: list[dict[str, Any]], bound_rows: list[dict[str, Any]], path: str) -> None:
    """The atlas's figure (module doc) at ``path``; rows as the CSV holds them (strings or numbers)."""
    plt = _pyplot()
    depths = sorted({int(r["depth"]) for r in grid_rows})
    panels = len(depths) + bool(bound_rows)
    columns = min(2, panels)
    lines = math.ceil(panels / columns)
    fig, grid = plt.subplots(lines, columns, figsize=(5.2 * columns + 2.6, 3.9 * lines), squeeze=False)
    axes = list(grid.ravel())
    for ax, depth in zip(axes, depths, strict=False):
        _grid_panel(ax, grid_rows, depth)
    if bound_rows:
        _bound_panel(axes[len(depths)], bound_rows)
    for ax in axes[panels:]:
        ax.set_visible(False)
    if depths:
        handles, labels = axes[len(depths) - 1].get_legend_handles_labels()
        fig.legend(handles, labels, fontsize=7, loc="center right")
    fig.suptitle("Token rank against N (one head, d_x = r + 1); faint: counting caps (multisets R = 0, sequences "
                 "R >= 1); dotted verticals: r L / log3 r", fontsize=9)
    fig.tight_layout(rect=(0, 0, 0.8, 0.95))
    _save(fig, plt, path, layout=False)
