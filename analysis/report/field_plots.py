"""The field trial's funnel plot: each table's hold against the hands it played, with the
theoretical hold and its 95% and 99% bands narrowing as hands grow."""

from __future__ import annotations

import numpy as np
from matplotlib.figure import Figure
from matplotlib.ticker import PercentFormatter

from analysis.engine.field import LEVELS, FieldTrial


def plot_field(trial: FieldTrial, title: str = "Field trial: each table's hold against the game") -> Figure:
    """Hold against hands played (log scale), the bands drawn; tables outside the 99% band
    are marked and named."""
    expected = trial.expected
    most = max(t.observed.hands for t in trial.tables)
    least = min(t.observed.hands for t in trial.tables)
    n = np.geomspace(max(1, least / 3), most * 3, 200)
    fig = Figure(figsize=(8, 4.8))
    ax = fig.subplots()
    hold = float(expected.hold)
    for level, shade in zip(sorted(LEVELS, reverse=True), ("#c6dbef", "#6baed6")):
        low, high = np.array([expected.band(int(k), level) for k in np.maximum(n, 1).astype(int)]).T
        ax.fill_between(n, 100 * low, 100 * high, color=shade, alpha=0.6, label=f"{level:.0%} band")
    ax.axhline(100 * hold, color="black", lw=1, label=f"theoretical hold {hold:.3%}")
    inside = [t for t in trial.tables if not t.outside(0.99)]
    outside = [t for t in trial.tables if t.outside(0.99)]
    ax.scatter(
        [t.observed.hands for t in inside], [100 * t.hold for t in inside], color="#238b45", zorder=3, label="table"
    )
    if outside:
        ax.scatter(
            [t.observed.hands for t in outside],
            [100 * t.hold for t in outside],
            color="#b2182b",
            marker="X",
            s=80,
            zorder=4,
            label="table outside the 99% band",
        )
        for t in outside:
            ax.annotate(t.observed.table, (t.observed.hands, 100 * t.hold), xytext=(6, 4), textcoords="offset points")
    ax.set_xscale("log")
    ax.yaxis.set_major_formatter(PercentFormatter(decimals=1))
    ax.set_xlabel("hands played")
    ax.set_ylabel("hold (house win / total wagered)")
    ax.set_title(title)
    ax.legend(fontsize=8)
    return fig
