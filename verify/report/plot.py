"""PNG plots (matplotlib, the optional ``plot`` extra: ``pip install -e '.[plot]'`` in the checkout),
written through ``verify.files.write_output`` (atomic for files; ``-``, a symlink, a FIFO or
``/dev/null`` respected)."""

from __future__ import annotations

import io

from ..errors import InputError
from ..files import is_stream, write_output

__all__ = ["cap_series", "plot_probe", "plot_table", "require_matplotlib", "PLOT_HINT"]

#: The install form of the plot extra (this package is installed from its checkout, not from PyPI).
PLOT_HINT = "pip install -e '.[plot]' in the seprank-verify checkout"


def require_matplotlib() -> None:
    """Refuse (InputError) when matplotlib cannot be imported: checked before any work starts."""
    import importlib.util

    try:
        found = importlib.util.find_spec("matplotlib") is not None
    except (ImportError, ValueError):
        found = False
    if not found:
        raise InputError(f"--plot needs matplotlib, which is not installed; install it with {PLOT_HINT}, "
                         f"or drop --plot")


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


def cap_series(data: dict) -> tuple[str, list, list] | None:
    """(label, N, counting cap) of a token probe's rows (``count_cap``), None for continuous inputs: the
    proven upper bound binom(N/2 + V - 1, V - 1) (multisets, no positional embedding) or V^(N/2)
    (sequences) that ``plot_probe`` draws beside the ranks."""
    rows = [row for row in data.get("ranks", []) if row.get("count_cap") is not None]
    if not rows:
        return None
    what = "sequences V^(N/2)" if data.get("positional_rank") else "multisets binom(N/2 + V - 1, V - 1)"
    return f"counting cap: {what}", [row["tokens"] for row in rows], [row["count_cap"] for row in rows]


def plot_probe(data: dict, path: str, field: str | None = None, seed: int | None = None) -> None:
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


def plot_table(rows: list[dict], path: str, title: str | None = None) -> None:
    """log3 sep against depth, one panel per width and one line per head count, with the main-text
    bounds of Theorems 1-2 (Levine et al. 2020) where they apply and the transition L = log3 d_x marked;
    one legend beside the panels, a title naming the field and seed."""
    import math

    _check_png(path, "table.png")
    plt = _pyplot()
    widths = sorted({r["width"] for r in rows})
    fig, axes = plt.subplots(1, len(widths), figsize=(3.6 * len(widths) + 3.2, 4.0), squeeze=False)
    handles = {}
    colors = {h: f"C{i}" for i, h in enumerate(sorted({r["heads"] for r in rows}))}  # one colour per H
    for ax, width in zip(axes[0], widths):
        mine = [r for r in rows if r["width"] == width]
        for heads in sorted({r["heads"] for r in mine}):
            line = sorted((r for r in mine if r["heads"] == heads and r["log3_sep"] is not None),
                          key=lambda r: r["depth"])
            color = colors[heads]
            drawn, = ax.plot([r["depth"] for r in line], [r["log3_sep"] for r in line], "o-", color=color)
            handles.setdefault(f"H = {heads}: exact rank", drawn)
            for claim, (name, style) in _CURVES.items():
                points = [(r["depth"], b["log3_value"]) for r in line for b in r["bounds"]
                          if b["claim"] == claim and b["log3_value"] is not None]
                if points:
                    drawn, = ax.plot(*zip(*points), style, marker="x", color=color, alpha=0.7)
                    handles.setdefault(f"H = {heads}: {name}", drawn)
        depths = [r["depth"] for r in mine]
        transition = math.log(width, 3)
        if min(depths) - 0.5 <= transition <= max(depths) + 0.5:
            drawn = ax.axvline(transition, color="gray", lw=0.8, ls="-")
            handles.setdefault("transition L = log3 d_x", drawn)
        ax.set_xlim(min(depths) - 0.3, max(depths) + 0.3)
        _integer_axis(ax.xaxis)
        ax.set_title(f"width d_x = {width}", fontsize=10)
        ax.set_xlabel("depth L")
        ax.set_ylabel("log3 separation rank")
    fig.suptitle("Exact separation rank against depth" + (f" ({title})" if title else ""), fontsize=11)
    right = 1 - 3.0 / (3.6 * len(widths) + 3.2)  # the panels end here; the legend sits beside them
    fig.tight_layout(rect=(0, 0, right, 1))
    order = sorted(handles, key=lambda k: (k.startswith("transition"), k.split(":")[0], "exact" not in k, k))
    fig.legend([handles[k] for k in order], order, fontsize=7, loc="center left", bbox_to_anchor=(right, 0.5),
               frameon=False)
    _save(fig, plt, path, layout=False)


def _save(fig, plt, path: str, layout: bool = True) -> None:
    """Render the figure to PNG bytes, then write them with ``write_output``; a path that cannot be
    written raises InputError."""
    try:
        if layout:
            fig.tight_layout()
        buffer = io.BytesIO()
        fig.savefig(buffer, format="png", dpi=110, bbox_inches="tight")
    finally:
        plt.close(fig)
    write_output(path, buffer.getvalue())
