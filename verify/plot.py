"""PNG plots (matplotlib, optional dependency ``verify[plot]``), written atomically."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from .errors import InputError

__all__ = ["plot_probe"]


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
