"""The figures (verify.report.plot, verify.report.atlas_plot) read as a reviewer reads them: equal series
drawn once and named together, the bounds drawn named, tick labels on every rank axis."""

from __future__ import annotations

import pytest

pytest.importorskip("matplotlib")


def _figures(monkeypatch, module):
    figures = []
    monkeypatch.setattr(module, "_save", lambda fig, plt, path, layout=True: figures.append(fig))
    return figures


def _visible_labels(fig, ax) -> list[str]:
    fig.canvas.draw()
    low, high = sorted(ax.get_ylim())
    return [t.get_text() for t in ax.get_yticklabels() if t.get_text() and low <= t.get_position()[1] <= high]


def test_equal_series_share_one_line_named_by_both_and_the_drawn_bounds_are_named(tmp_path, monkeypatch):
    """H = 1 and H = 2 with equal ranks are one line labelled 'H = 1, 2' (drawn twice, the second hid
    the first and its legend entry claimed a line nobody could see); H = 4 differs and keeps its own
    line; the bound, equal at every H, is one line. The title names the bounds drawn and says the table holds the
    rest."""
    from verify.report import plot

    figures = _figures(monkeypatch, plot)
    upper = {"claim": "levine2020_theorem2_upper", "log3_value": 9.0}
    rows = [{"depth": d, "width": 4, "heads": h, "log3_sep": float(d) + (h == 4), "bounds": [upper]}
            for d in (1, 2) for h in (1, 2, 4)]
    plot.plot_table(rows, str(tmp_path / "t.png"))
    fig = figures[0]
    labels = [t.get_text() for t in fig.legends[0].get_texts()]
    assert "H = 1, 2: exact rank" in labels and "H = 4: exact rank" in labels
    assert "H = 1, 2, 4: Levine et al. 2020, Thm 2 upper" in labels  # the same bound at every H: one line
    assert not any(label.startswith(("H = 1:", "H = 2:")) for label in labels)
    assert len([line for line in fig.axes[0].get_lines() if line.get_marker() == "o"]) == 2
    title = fig._suptitle.get_text()
    assert "bounds drawn: Levine et al. 2020, Thm 2 upper" in title and "Thm 1" not in title
    assert "the table lists every bound" in title


def test_every_atlas_depth_panel_has_several_rank_labels(tmp_path, monkeypatch):
    """Depth 1's ranks lie between 2 and 7: a log axis there showed one tick label; the panel now has at
    least three, each inside the drawn range."""
    from verify.report import atlas_plot

    figures = _figures(monkeypatch, atlas_plot)
    rows = [{"depth": 1, "vocab_r": 2, "heads": 1, "pos_rank": "0", "ranks": "2:2 4:3 6:3",
             "scale_rL_over_log3r": "3.2"},
            {"depth": 1, "vocab_r": 3, "heads": 1, "pos_rank": "2", "ranks": "2:3 4:5 6:7",
             "scale_rL_over_log3r": "4.1"}]
    atlas_plot.plot_atlas(rows, [], str(tmp_path / "atlas.png"))
    fig = figures[0]
    assert len(_visible_labels(fig, fig.axes[0])) >= 3
