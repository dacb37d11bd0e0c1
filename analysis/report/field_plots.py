"""The field trial in words and as a funnel plot: what each table's handle came from, and each
table's hold against its hands, with the theoretical hold and its 95% and 99% bands narrowing
as hands grow, every table named beside its point."""

from __future__ import annotations

import textwrap

import numpy as np
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.font_manager import FontProperties
from matplotlib.textpath import TextToPath
from matplotlib.ticker import FuncFormatter, LogLocator, NullFormatter, PercentFormatter

from analysis.engine.field import DROP_TO_HANDLE, LEVELS, FieldTrial, HandleFrom, TableCheck

#: Points of type: the tables' names, and the longest name drawn whole.
LABEL_SIZE = 8
LABEL_CHARS = 24
#: How many name heights a name may move up or down from its point.
MAX_STEPS = 12


def conversion_note(trial: FieldTrial) -> str:
    """In words, what the tables' handles and hands come from (every output states it)."""
    ratio = trial.assumed
    words: dict[HandleFrom, str] = {
        "hands": "hands played x average wager per hand, both recorded",
        "handle": "as recorded, the drop-to-handle ratio measured (drop / handle)",
        "drop": (
            f"the drop / an assumed drop-to-handle ratio of {ratio} ({float(ratio or 0):.2%} of the handle"
            f"{', the default assumption' if ratio == DROP_TO_HANDLE else ''})"
        ),
    }
    which: dict[HandleFrom, str] = {
        "hands": "tables with their hands recorded",
        "handle": "tables with their handle recorded",
        "drop": "tables with only their drop recorded",
    }
    kinds = trial.handles_from
    note = words[kinds[0]] if len(kinds) == 1 else "; ".join(f"for {which[k]}, {words[k]}" for k in kinds)
    if kinds != ["hands"]:
        wager = float(trial.expected.average_wager)
        where = "" if "hands" not in kinds else ", where not recorded"
        note += f"; hands{where}: the handle / (ante x {wager:.4f} antes, the game's exact average wager per hand)"
    return f"Handle: {note}"


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
    # hands written out, at 1, 2 and 5 times a power of ten where the axis spans few decades
    ax.xaxis.set_major_locator(LogLocator(subs=(1.0, 2.0, 5.0) if n[-1] / n[0] < 300 else (1.0,)))
    ax.xaxis.set_major_formatter(FuncFormatter(lambda x, _: f"{x:,.0f}"))
    ax.xaxis.set_minor_formatter(NullFormatter())
    ax.yaxis.set_major_formatter(PercentFormatter(decimals=2))
    ax.set_xlabel("hands (recorded, or the handle / (ante x the game's average wager))")
    ax.set_ylabel("hold (win / handle)")
    ax.set_title(title)
    ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1))
    ax.set_ylim(ax.get_ylim())  # the names are placed on the final axes
    unnamed = _name_points(ax, spots, trial.tables)
    note = conversion_note(trial) + "."
    if unnamed:
        note += (
            f" Names left off for want of room: {unnamed} of {len(trial.tables)} tables (the results list them all)."
        )
    note = textwrap.fill(note, 150)
    ax.annotate(note, (0, -0.13), xycoords="axes fraction", va="top", fontsize=7.5, color="#333333")
    return fig


def _name_points(ax: Axes, spots: list[float], tables: list[TableCheck]) -> int:
    """Each table's name beside its point, where it covers no other name or point: the free
    place nearest its point (beside it, else above or below, right before left; a leader line
    where it moved), the tables outside the bands first, then from left to right. A name with
    no room within :data:`MAX_STEPS` lines of its point is left off: how many were."""
    fig = ax.get_figure()
    assert fig is not None
    to_points = 72 / fig.dpi
    box = ax.get_window_extent()
    left, right = box.x0 * to_points, box.x1 * to_points
    bottom, top = box.y0 * to_points, box.y1 * to_points
    xy = [(x, 100 * float(t.hold)) for x, t in zip(spots, tables)]
    at = [(px * to_points, py * to_points) for px, py in ax.transData.transform(xy)]
    height = 1.5 * LABEL_SIZE  # a line of names, with room between them
    measure, font = TextToPath(), FontProperties(size=LABEL_SIZE)  # a name's width in points
    taken = _Boxes()
    for px, py in at:
        taken.add((px - 4, px + 4, py - 4, py + 4))
    first = {"outside 99%": 0, "outside 95%": 1}
    unnamed = 0
    for i in sorted(range(len(tables)), key=lambda i: (first.get(tables[i].flag, 2), at[i])):
        name = tables[i].table
        name = name if len(name) <= LABEL_CHARS else name[: LABEL_CHARS - 1] + "…"
        width = measure.get_text_width_height_descent(name, font, ismath=False)[0]
        px, py = at[i]
        for k in range(2 * MAX_STEPS + 1):
            dy = height * ((k + 1) // 2) * (1 if k % 2 else -1) if k else 0.0
            spots_here = [(s, (px + 5, px + 9 + width) if s > 0 else (px - 9 - width, px - 5)) for s in (1, -1)]
            free = [
                (s, (x0, x1, py + dy - height / 2, py + dy + height / 2))
                for s, (x0, x1) in spots_here
                if left <= x0 and x1 <= right and bottom <= py + dy - height / 2 and py + dy + height / 2 <= top
            ]
            free = [(s, b) for s, b in free if not taken.hits(b)]
            if free:
                side, chosen = free[0]
                taken.add(chosen)
                break
        else:
            unnamed += 1
            continue
        ax.annotate(
            name,
            xy[i],
            xytext=(7 * side, dy),
            textcoords="offset points",
            ha="left" if side > 0 else "right",
            va="center",
            fontsize=LABEL_SIZE,
            arrowprops=None if dy == 0 else dict(arrowstyle="-", color="#555555", lw=0.6, shrinkA=0, shrinkB=3),
            zorder=5,
        )
    return unnamed


class _Boxes:
    """Boxes (x0, x1, y0, y1) in points, kept in a grid of cells so that a new box is checked
    only against those near it."""

    CELL = 40.0

    def __init__(self) -> None:
        self.cells: dict[tuple[int, int], list[tuple[float, float, float, float]]] = {}

    def _cells(self, b: tuple[float, float, float, float]) -> list[tuple[int, int]]:
        c = self.CELL
        return [
            (i, j) for i in range(int(b[0] // c), int(b[1] // c) + 1) for j in range(int(b[2] // c), int(b[3] // c) + 1)
        ]

    def add(self, b: tuple[float, float, float, float]) -> None:
        for cell in self._cells(b):
            self.cells.setdefault(cell, []).append(b)

    def hits(self, b: tuple[float, float, float, float]) -> bool:
        return any(
            not (b[1] <= o[0] or b[0] >= o[1] or b[3] <= o[2] or b[2] >= o[3])
            for cell in self._cells(b)
            for o in self.cells.get(cell, ())
        )
