"""PNG plots (matplotlib, optional dependency ``verify[plot]``), written atomically."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from ..errors import InputError

__all__ = ["plot_probe", "plot_table"]


def _pyplot():
    try:
        import matplotlib
    except ImportError:
        raise InputError("--plot needs matplotlib; install it with: pip install 'verify[plot]'") from None
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    return plt


def plot_probe(data: dict, path: str) -> None:
    """Separation rank against N (log scale), with the limit, Corollary 1's bound and r L / log3 r."""
    if not path.lower().endswith(".png"):
        raise InputError(f"plot file {path!r} must end in .png; use e.g. --plot probe.png")
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(7, 4.5))
    tokens = [row["tokens"] for row in data["ranks"]]
    ranks = [row["rank"] for row in data["ranks"]]
    ax.plot(tokens, ranks, "o-", label="exact sep(N)")
    if data.get("limit_rank"):
        ax.axhline(data["limit_rank"], color="gray", ls="--", label=f"N-independent limit {data['limit_rank']}")
    if data.get("lower_bound"):
        ax.axhline(data["lower_bound"], color="red", ls=":", label=f"Corollary 1 lower bound {data['lower_bound']}")
    if data.get("conjecture_scale"):
        ax.axvline(data["conjecture_scale"], color="green", ls="-.", label="r L / log3 r")
    ax.set_yscale("log")
    ax.set_xlabel("sequence length N")
    ax.set_ylabel("separation rank")
    what = f"V={data['vocab']}, r={data['rank']}" if data["mode"] == "tokens" else "continuous inputs"
    heads = f"{data['heads']} head" + ("s" if data["heads"] > 1 else "")
    ax.set_title(f"depth {data['depth']}, width {data['width']}, {heads}, {what}")
    ax.legend(fontsize=8)
    _save(fig, plt, path)


#: The main-text bounds drawn as curves (the table has them all).
_CURVES = {"levine2020_theorem1_upper": ("Thm 1 upper", "--"), "levine2020_theorem1_lower": ("Thm 1 lower", ":"),
           "levine2020_theorem2_upper": ("Thm 2 upper", "--"), "levine2020_theorem2_lower": ("Thm 2 lower", ":")}


def plot_table(rows: list[dict], path: str) -> None:
    """log3 sep against depth, one panel per width and one line per head count, with the main-text
    bounds of Theorems 1-2 where they apply and the transition L = log3 d_x marked."""
    import math

    if not path.lower().endswith(".png"):
        raise InputError(f"plot file {path!r} must end in .png; use e.g. --plot table.png")
    plt = _pyplot()
    widths = sorted({r["width"] for r in rows})
    fig, axes = plt.subplots(1, len(widths), figsize=(3.6 * len(widths), 3.8), squeeze=False)
    for ax, width in zip(axes[0], widths):
        mine = [r for r in rows if r["width"] == width]
        for n, heads in enumerate(sorted({r["heads"] for r in mine})):
            line = sorted((r for r in mine if r["heads"] == heads), key=lambda r: r["depth"])
            color = f"C{n}"
            ax.plot([r["depth"] for r in line], [r["log3_sep"] for r in line], "o-", color=color,
                    label=f"H={heads} exact")
            for claim, (name, style) in _CURVES.items():
                points = [(r["depth"], b["log3_value"]) for r in line for b in r["bounds"]
                          if b["claim"] == claim and b["log3_value"] is not None]
                if points:
                    ax.plot(*zip(*points), style, marker="x", color=color, alpha=0.7, label=f"H={heads} {name}")
        ax.axvline(math.log(width, 3), color="gray", lw=0.8)
        ax.text(math.log(width, 3), ax.get_ylim()[1], " L = log3 d_x", fontsize=7, va="top", color="gray")
        ax.set_title(f"width {width}")
        ax.set_xlabel("depth L")
        ax.set_ylabel("log3 separation rank")
        ax.legend(fontsize=6)
    _save(fig, plt, path)


def _save(fig, plt, path: str) -> None:
    fig.tight_layout()
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=target.parent, suffix=".png")
    os.close(fd)
    try:
        fig.savefig(tmp, format="png", dpi=110)
        os.replace(tmp, target)
    finally:
        plt.close(fig)
        if os.path.exists(tmp):
            os.unlink(tmp)
