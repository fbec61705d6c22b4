"""PNG plots (matplotlib, the optional ``plot`` extra: ``pip install -e '.[plot]'`` in the checkout),
written through ``verify.files.write_output`` (atomic for files; ``-``, a symlink, a FIFO or
``/dev/null`` respected)."""

from __future__ import annotations

import io
from typing import Any

from ..errors import InputError
from ..files import is_stream, write_output

__all__ = ["cap_series", "plot_probe", "plot_table", "table_png", "curves_drawn", "require_matplotlib",
           "PLOT_HINT"]

#: The install form of the plot extra (this package is installed from its checkout, not from PyPI).
PLOT_HINT = "pip install -e '.[plot]' in the seprank-verify checkout"


def require_matplotlib() -> None:
    """Refuse (InputError) when matplotlib cannot be imported: checked before any work starts.

    Found is not enough: a broken install (a missing compiled part, a wrong version of a dependency)
    is found and then raises on import, so pyplot is imported here, with the backend the plots use."""
    import importlib.util

    try:
        found = importlib.util.find_spec("matplotlib") is not None
    except (ImportError, ValueError):
        found = False
    if not found:
        raise InputError(f"--plot needs matplotlib, which is not installed; install it with {PLOT_HINT}, "
                         f"or drop --plot")
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot  # noqa: F401 - the import is the check
    except Exception as exc:  # noqa: BLE001 - whatever a broken install raises, the plot cannot be drawn
        first = (str(exc).splitlines() or [""])[0][:200]
        raise InputError(f"--plot needs matplotlib, which is installed but does not import ({type(exc).__name__}: "
                         f"{first}); reinstall it with {PLOT_HINT}, or drop --plot") from None


def _check_png(path: str, example: str) -> None:
    if not is_stream(path) and not path.lower().endswith(".png"):
        raise InputError(f"plot file {path!r} must end in .png; use e.g. --plot {example}")


def _pyplot():
    require_matplotlib()
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    return plt


def _integer_axis(axis) -> None:
    """Integer ticks only (depth, N): no 1.5 layers."""
    from matplotlib.ticker import MaxNLocator

    axis.set_major_locator(MaxNLocator(integer=True))


def _rank_axis(ax, values: list) -> None:
    """A linear axis with integer ticks where the ranks span less than a factor 10 (log ticks would read
    "1.75x10^1"), else a log axis with plain-number ticks."""
    from matplotlib.ticker import FuncFormatter, LogLocator, NullLocator

    positive = [v for v in values if v and v > 0]
    if positive and max(positive) / min(positive) >= 10:
        ax.set_yscale("log")
        ax.yaxis.set_major_locator(LogLocator(base=10, subs=(1.0, 2.0, 5.0)))
        ax.yaxis.set_minor_locator(NullLocator())
        ax.yaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:,.0f}" if v >= 1 else f"{v:g}"))
    else:
        _integer_axis(ax.yaxis)


def cap_series(data: dict[str, Any]) -> tuple[str, list[int], list[int]] | None:
    """(label, N, counting cap) of a token probe's rows (``count_cap``), None for continuous inputs: the
    proven upper bound binom(N/2 + V - 1, V - 1) (multisets, no positional embedding) or V^(N/2)
    (sequences) that ``plot_probe`` draws beside the ranks."""
    rows = [row for row in data.get("ranks", []) if row.get("count_cap") is not None]
    if not rows:
        return None
    what = "sequences V^(N/2)" if data.get("positional_rank") else "multisets binom(N/2 + V - 1, V - 1)"
    return f"counting cap: {what}", [row["tokens"] for row in rows], [row["count_cap"] for row in rows]


def plot_probe(data: dict[str, Any], path: str, field: str | None = None, seed: int | None = None) -> None:
    """Separation rank against N, with the counting caps (token inputs, ``cap_series``), the N-independent
    limit, the lower bound of Corollary 1 (Wies et al. 2021) and the conjectured scale r L / log3 r; the
    title names the spec, field and seed."""
    _check_png(path, "probe.png")
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(8, 4.5))
    tokens = [row["tokens"] for row in data["ranks"]]
    ranks = [row["rank"] for row in data["ranks"]]
    ax.plot(tokens, ranks, "o-", label="exact sep(N)")
    shown = list(ranks)
    caps = cap_series(data)
    if caps:
        label, cap_tokens, cap_values = caps
        ax.plot(cap_tokens, cap_values, color="orange", ls="--", marker=".", ms=3, label=label)
        shown.extend(cap_values)
    if data.get("limit_rank"):
        shown.append(data["limit_rank"])
        ax.axhline(data["limit_rank"], color="gray", ls="--", label=f"N-independent limit ({data['limit_rank']})")
    if data.get("lower_bound"):
        shown.append(data["lower_bound"])
        ax.axhline(data["lower_bound"], color="red", ls=":",
                   label=f"Wies et al. 2021, Corollary 1 lower bound ({data['lower_bound']})")
    if data.get("conjecture_scale"):
        ax.axvline(data["conjecture_scale"], color="green", ls="-.",
                   label=f"conjectured N = r L / log3 r ({data['conjecture_scale']:.1f})")
    _rank_axis(ax, shown)
    _integer_axis(ax.xaxis)
    ax.set_xlabel("sequence length N")
    ax.set_ylabel("separation rank")
    what = f"V = {data['vocab']}, r = {data['rank']}" if data["mode"] == "tokens" else "continuous inputs"
    heads = f"{data['heads']} head" + ("s" if data["heads"] > 1 else "")
    extra = ", ".join(x for x in (f"field {field}" if field else "", f"seed {seed}" if seed is not None else "") if x)
    ax.set_title(f"depth {data['depth']}, width {data['width']}, {heads}, {what}" + (f"\n{extra}" if extra else ""),
                 fontsize=10)
    ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.02, 1.0), borderaxespad=0)
    _save(fig, plt, path)


#: The main-text bounds drawn as curves (the table has them all), named with paper and theorem.
_CURVES = {"levine2020_theorem1_upper": ("Levine et al. 2020, Thm 1 upper", "--"),
           "levine2020_theorem1_lower": ("Levine et al. 2020, Thm 1 lower", ":"),
           "levine2020_theorem2_upper": ("Levine et al. 2020, Thm 2 upper", "--"),
           "levine2020_theorem2_lower": ("Levine et al. 2020, Thm 2 lower", ":")}


def _series(rows: list[dict[str, Any]]) -> list[tuple[tuple, list, list]]:
    """The lines of one panel: (heads sharing it, depths, values) for the exact ranks and each curve of
    ``_CURVES``, one line per distinct series: head counts whose points are equal share one line (drawn
    once, labelled with all of them) instead of hiding each other."""
    lines: dict[tuple, list] = {}
    for heads in sorted({r["heads"] for r in rows}):
        line = sorted((r for r in rows if r["heads"] == heads and r["log3_sep"] is not None), key=lambda r: r["depth"])
        series = [("exact rank", tuple((r["depth"], r["log3_sep"]) for r in line))]
        series += [(claim, tuple((r["depth"], b["log3_value"]) for r in line for b in r["bounds"]
                                 if b["claim"] == claim and b["log3_value"] is not None)) for claim in _CURVES]
        for what, points in series:
            if points:
                lines.setdefault((what, points), []).append(heads)
    return [(what, tuple(heads), points) for (what, points), heads in lines.items()]


def curves_drawn(rows: list[dict[str, Any]]) -> list[str]:
    """The names of the main-text bounds ``plot_table`` draws for ``rows`` (those that apply somewhere)."""
    found = {b["claim"] for r in rows for b in r["bounds"] if b["log3_value"] is not None}
    return [name for claim, (name, _) in _CURVES.items() if claim in found]


def _table_figure(rows: list[dict[str, Any]], title: str | None):
    import math

    plt = _pyplot()
    widths = sorted({r["width"] for r in rows})
    columns = min(3, len(widths))  # at most three panels a line: a page shows the figure at a readable size
    lines = math.ceil(len(widths) / columns)
    fig, axes = plt.subplots(lines, columns, figsize=(3.6 * columns + 3.2, 3.4 * lines + 0.9), squeeze=False)
    for ax in axes.ravel()[len(widths):]:
        ax.set_visible(False)
    handles = {}
    colors = {h: f"C{i}" for i, h in enumerate(sorted({r["heads"] for r in rows}))}  # one colour per H
    for ax, width in zip(axes.ravel(), widths, strict=False):
        mine = [r for r in rows if r["width"] == width]
        for what, heads, points in _series(mine):
            color = colors[heads[0]]
            who = "H = " + ", ".join(map(str, heads))
            if what == "exact rank":
                drawn, = ax.plot(*zip(*points, strict=False), "o-", color=color)
                handles.setdefault(f"{who}: exact rank", drawn)
            else:
                name, style = _CURVES[what]
                drawn, = ax.plot(*zip(*points, strict=False), style, marker="x", color=color, alpha=0.7)
                handles.setdefault(f"{who}: {name}", drawn)
        depths = [r["depth"] for r in mine]
        transition = math.log(width, 3)
        if min(depths) - 0.5 <= transition <= max(depths) + 0.5:
            drawn = ax.axvline(transition, color="gray", lw=0.8, ls="-")
            handles.setdefault("transition L = log3 d_x", drawn)
        ax.set_xlim(min(depths) - 0.3, max(depths) + 0.3)
        ax.set_xticks(sorted(set(depths)))  # the depths computed: one tick each (one depth got 1.74, 1.80, ...)
        ax.set_title(f"width d_x = {width}", fontsize=10)
        ax.set_xlabel("depth L")
        ax.set_ylabel("log3 separation rank")
    drawn = curves_drawn(rows)
    fig.suptitle("Exact separation rank against depth" + (f" ({title})" if title else "") + "\nbounds drawn: "
                 + ("; ".join(drawn) if drawn else "none applies") + " (main text only; the table lists every "
                 "bound of the registry; equal series share one line)", fontsize=9)
    right = 1 - 3.0 / (3.6 * columns + 3.2)  # the panels end here; the legend sits beside them
    fig.tight_layout(rect=(0, 0, right, 1))
    order = sorted(handles, key=lambda k: (k.startswith("transition"), k.split(":")[0], "exact" not in k, k))
    fig.legend([handles[k] for k in order], order, fontsize=7, loc="center left", bbox_to_anchor=(right, 0.5),
               frameon=False)
    return fig, plt


def plot_table(rows: list[dict[str, Any]], path: str, title: str | None = None) -> None:
    """log3 sep against depth, one panel per width and one line per head count (head counts with equal
    values share a line), with the main-text bounds of Theorems 1-2 (Levine et al. 2020) where they apply,
    named in the title, and the transition L = log3 d_x marked; one legend beside the panels."""
    _check_png(path, "table.png")
    fig, plt = _table_figure(rows, title)
    _save(fig, plt, path, layout=False)


def table_png(rows: list[dict[str, Any]], title: str | None = None) -> bytes:
    """``plot_table``'s figure as PNG bytes (report.html embeds them)."""
    fig, plt = _table_figure(rows, title)
    return _png(fig, plt, layout=False)


def _png(fig, plt, layout: bool = True) -> bytes:
    try:
        if layout:
            fig.tight_layout()
        buffer = io.BytesIO()
        fig.savefig(buffer, format="png", dpi=110, bbox_inches="tight")
    finally:
        plt.close(fig)
    return buffer.getvalue()


def _save(fig, plt, path: str, layout: bool = True) -> None:
    """Render the figure to PNG bytes, then write them with ``write_output``; a path that cannot be
    written raises InputError."""
    write_output(path, _png(fig, plt, layout))
