"""The field trial in words and as a funnel plot: what each table's handle came from, and each
table's hold against its hands, with the theoretical hold and its 95% and 99% bands narrowing
as hands grow, every table named beside its point."""

from __future__ import annotations

import textwrap

import numpy as np
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.ticker import PercentFormatter

from analysis.engine.field import DROP_TO_HANDLE, LEVELS, FieldTrial, HandleFrom, TableCheck

#: Points of type: the tables' names, and the longest name drawn whole.
LABEL_SIZE = 8
LABEL_CHARS = 24


def conversion_note(trial: FieldTrial) -> str:
    """In words, what the tables' handles and hands come from (every output states it)."""
    wager = f"{float(trial.expected.average_wager):.4f} antes, the game's exact average wager per hand"
    by_ante = f"hands: the handle / (ante x {wager})"
    ratio = trial.assumed
    words: dict[HandleFrom, str] = {
        "hands": "hands played x average wager per hand, both recorded",
        "handle": f"as recorded, the drop-to-handle ratio measured (drop / handle); {by_ante}",
        "drop": (
            f"the drop / an assumed drop-to-handle ratio of {ratio} ({float(ratio or 0):.2%} of the handle"
            f"{', the default assumption' if ratio == DROP_TO_HANDLE else ''}); {by_ante}"
        ),
    }
    which: dict[HandleFrom, str] = {
        "hands": "tables with their hands recorded",
        "handle": "tables with their handle recorded",
        "drop": "tables with only their drop recorded",
    }
    kinds = trial.handles_from
    if len(kinds) == 1:
        return f"Handle: {words[kinds[0]]}"
    return "Handle: " + "; ".join(f"for {which[k]}, {words[k]}" for k in kinds)


def plot_field(trial: FieldTrial, title: str = "Field trial: each table's hold against the game") -> Figure:
    """Hold against hands (log scale), the bands drawn, each table marked by its flag and
    named; what the handles came from is written beneath."""
    expected = trial.expected
    spots = [t.equivalent_hands for t in trial.tables]
    n = np.geomspace(max(1.0, min(spots) / 3), max(spots) * 3, 200)
    fig = Figure(figsize=(10, 5.6))
    ax = fig.subplots()
    fig.subplots_adjust(left=0.08, right=0.76, top=0.92, bottom=0.2)
    hold = float(expected.hold)
    for level, shade in zip(sorted(LEVELS, reverse=True), ("#c6dbef", "#6baed6")):
        low, high = np.array([expected.band(k, level) for k in n]).T
        ax.fill_between(n, 100 * low, 100 * high, color=shade, alpha=0.6, label=f"{level:.0%} band")
    ax.axhline(100 * hold, color="black", lw=1, label=f"theoretical hold {hold:.3%}")
    styles = {
        "inside": dict(color="#238b45", marker="o", s=30, label="table inside the bands"),
        "outside 95%": dict(color="#e6851e", marker="D", s=36, label="table outside the 95% band"),
        "outside 99%": dict(color="#b2182b", marker="X", s=80, label="table outside the 99% band"),
    }
    for flag, style in styles.items():
        these = [(x, t) for x, t in zip(spots, trial.tables) if t.flag == flag]
        if these:
            ax.scatter([x for x, _ in these], [100 * float(t.hold) for _, t in these], zorder=4, **style)  # type: ignore[arg-type]
    ax.set_xscale("log")
    ax.set_xlim(n[0], n[-1])
    ax.yaxis.set_major_formatter(PercentFormatter(decimals=2))
    ax.set_xlabel("hands (recorded, or the handle / (ante x the game's average wager))")
    ax.set_ylabel("hold (win / handle)")
    ax.set_title(title)
    ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1))
    ax.set_ylim(ax.get_ylim())  # the names are placed on the final axes
    _name_points(ax, spots, trial.tables)
    note = textwrap.fill(conversion_note(trial) + ".", 150)
    ax.annotate(note, (0, -0.13), xycoords="axes fraction", va="top", fontsize=7.5, color="#333333")
    return fig


def _name_points(ax: Axes, spots: list[float], tables: list[TableCheck]) -> None:
    """Each table's name beside its point (to its left where it would leave the axes). Names
    whose boxes share columns are stacked in the order of their points, each as near its point
    as the stack allows (a leader line where it moved), so that no two names overlap and no
    leader lines cross."""
    fig = ax.get_figure()
    assert fig is not None
    to_points = 72 / fig.dpi
    box = ax.get_window_extent()
    right, bottom, top = box.x1 * to_points, box.y0 * to_points, box.y1 * to_points
    xy = [(x, 100 * float(t.hold)) for x, t in zip(spots, tables)]
    at = [(px * to_points, py * to_points) for px, py in ax.transData.transform(xy)]
    names = [t.table if len(t.table) <= LABEL_CHARS else t.table[: LABEL_CHARS - 1] + "…" for t in tables]
    sides, spans = [], []
    for (px, _), name in zip(at, names):
        width = 0.62 * LABEL_SIZE * len(name)
        side = 1 if px + 9 + width <= right else -1
        sides.append(side)
        spans.append((px + 7, px + 7 + width) if side > 0 else (px - 7 - width, px - 7))
    height = 1.3 * LABEL_SIZE
    placed = [0.0] * len(tables)
    for column in _columns(spans):
        column.sort(key=lambda i: at[i][1])
        ys = _stacked([at[i][1] for i in column], height, bottom + height / 2, top - height / 2)
        for i, y in zip(column, ys):
            placed[i] = y - at[i][1]
    for i, name in enumerate(names):
        dy = placed[i] if abs(placed[i]) > 0.5 else 0.0
        ax.annotate(
            name,
            xy[i],
            xytext=(7 * sides[i], dy),
            textcoords="offset points",
            ha="left" if sides[i] > 0 else "right",
            va="center",
            fontsize=LABEL_SIZE,
            arrowprops=None if dy == 0 else dict(arrowstyle="-", color="#555555", lw=0.6, shrinkA=0, shrinkB=3),
            zorder=5,
        )


def _columns(spans: list[tuple[float, float]]) -> list[list[int]]:
    """The names whose horizontal spans overlap, directly or through others."""
    columns: list[list[int]] = []
    end = float("-inf")
    for i in sorted(range(len(spans)), key=lambda i: spans[i][0]):
        start, stop = spans[i]
        if start >= end:
            columns.append([])
        columns[-1].append(i)
        end = max(end, stop)
    return columns


def _stacked(wanted: list[float], height: float, low: float, high: float) -> list[float]:
    """Heights for names wanted at ``wanted`` (ascending), at least ``height`` apart, in
    order, as near as they can be (blocks of touching names centred on their wishes: pool
    adjacent violators), then moved inside [low, high] where they fit."""
    blocks: list[list[float]] = []  # each: the wishes of its names, less their offsets in it
    for y in wanted:
        blocks.append([y])
        while len(blocks) > 1:
            below, above = blocks[-2], blocks[-1]
            if sum(below) / len(below) + len(below) * height <= sum(above) / len(above):
                break
            blocks[-2:] = [below + [v - len(below) * height for v in above]]
    ys = [sum(b) / len(b) + k * height for b in blocks for k in range(len(b))]
    if ys:
        shift = max(0.0, low - ys[0]) or min(0.0, high - ys[-1])
        ys = [y + shift for y in ys]
    return ys
