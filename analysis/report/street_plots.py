"""Plots of a multi-street game's par sheet: the pre-flop strategy as a coloured grid and
how often each option is taken at each street (matplotlib ``Figure`` objects, no pyplot)."""

from __future__ import annotations

import numpy as np
import pandas as pd
from matplotlib.colors import ListedColormap
from matplotlib.figure import Figure
from matplotlib.patches import Patch
from matplotlib.ticker import PercentFormatter

#: A bet's colour darkens with its size (1 to 9 antes).
BET_COLOURS = ("#c6dbef", "#9ecae1", "#6baed6", "#4292c6", "#2171b5", "#08519c", "#08306b", "#041f4a", "#020f26")


def option_colour(option: str) -> str:
    """The same colour for the same option everywhere: fold red, check grey, bets blue."""
    if option == "fold":
        return "#d6604d"
    if option.startswith("bet "):
        return BET_COLOURS[min(max(int(option.split()[1]), 1), 9) - 1]
    return "#d9d9d9"


def _dark(option: str) -> bool:
    return option.startswith("bet ") and int(option.split()[1]) >= 4


def plot_preflop_grid(grid: pd.DataFrame, options: list[str], title: str) -> Figure:
    """A two-card pre-flop grid (first column: the row's rank; the others: one column per
    rank; each cell an option's name, empty where the deck has no such hand) as coloured
    squares labelled with the hand (pairs on the diagonal, suited above, offsuit below)."""
    ranks = [str(c) for c in grid.columns[1:]]
    cells = grid.iloc[:, 1:].to_numpy()
    index = {o: i for i, o in enumerate(options)}
    codes = np.array([[index.get(str(v), -1) for v in row] for row in cells], dtype=float)
    codes[codes < 0] = np.nan
    n = len(ranks)
    fig = Figure(figsize=(1.0 + 0.55 * n, 1.3 + 0.55 * n))
    ax = fig.subplots()
    cmap = ListedColormap([option_colour(o) for o in options])
    ax.imshow(codes, cmap=cmap, vmin=-0.5, vmax=len(options) - 0.5)
    for i in range(n):
        for j in range(n):
            if np.isnan(codes[i, j]):
                continue
            high, low = (ranks[i], ranks[j]) if i <= j else (ranks[j], ranks[i])
            label = high + low + ("" if i == j else "s" if i < j else "o")
            colour = "white" if _dark(options[int(codes[i, j])]) else "black"
            ax.text(j, i, label, ha="center", va="center", fontsize=7, color=colour)
    ax.set_xticks(range(n), ranks)
    ax.set_yticks(range(n), ranks)
    ax.tick_params(length=0)
    ax.set_title(title, fontsize=10)
    ax.legend(
        handles=[Patch(color=option_colour(o), label=o) for o in options],
        loc="upper left",
        bbox_to_anchor=(1.01, 1),
        frameon=False,
    )
    return fig


def plot_bet_share_grid(share: pd.DataFrame, title: str) -> Figure:
    """A grid of shares (rows and columns labelled by rank), e.g. the share of three-card
    holdings that bet before the flop by their two highest cards; empty cells are blank."""
    values = share.to_numpy(dtype=float)
    fig = Figure(figsize=(1.5 + 0.55 * share.shape[1], 1.3 + 0.55 * share.shape[0]))
    ax = fig.subplots()
    image = ax.imshow(values, cmap="Blues", vmin=0, vmax=1)
    for (i, j), v in np.ndenumerate(values):
        if not np.isnan(v):
            ax.text(j, i, f"{v:.0%}", ha="center", va="center", fontsize=6, color="white" if v > 0.6 else "black")
    ax.set_xticks(range(share.shape[1]), [str(c) for c in share.columns])
    ax.set_yticks(range(share.shape[0]), [str(r) for r in share.index])
    ax.set_xlabel("second highest card")
    ax.set_ylabel("highest card")
    ax.tick_params(length=0)
    ax.set_title(title, fontsize=10)
    fig.colorbar(image, ax=ax, format=PercentFormatter(1.0), shrink=0.8)
    return fig


def plot_decision_rates(rates: pd.DataFrame, options: dict[str, list[str]], title: str) -> Figure:
    """One bar per decision point: the share of all deals taking each option there, and the
    deals whose betting had already ended (``rates``: columns "decision point", "option",
    "share of all deals"; ``options``: each decision point's options in risk order)."""
    fig = Figure(figsize=(8, 1.2 + 0.7 * len(options)))
    ax = fig.subplots()
    streets = list(options)
    seen: set[str] = set()
    for y, street in enumerate(streets):
        left = 0.0
        mine = rates[rates["decision point"] == street].set_index("option")["share of all deals"]
        for option in options[street]:
            width = float(mine.get(option, 0.0))
            label = option if option not in seen else None
            seen.add(option)
            ax.barh(y, width, left=left, color=option_colour(option), label=label, edgecolor="white")
            if width > 0.04:
                colour = "white" if _dark(option) else "black"
                ax.text(left + width / 2, y, f"{width:.1%}", ha="center", va="center", fontsize=8, color=colour)
            left += width
        if left < 0.999:
            label = "betting already ended" if "ended" not in seen else None
            seen.add("ended")
            ax.barh(y, 1 - left, left=left, color="white", edgecolor="#999999", hatch="//", label=label)
    ax.set_yticks(range(len(streets)), streets)
    ax.invert_yaxis()
    ax.set_xlim(0, 1)
    ax.xaxis.set_major_formatter(PercentFormatter(1.0))
    ax.set_xlabel("share of all deals")
    ax.set_title(title, fontsize=10)
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1), frameon=False)
    return fig


def plot_result_distribution(distribution: pd.DataFrame, title: str) -> Figure:
    """The probability of each net result of a hand (``distribution``: columns "net result
    (antes)" and "probability")."""
    fig = Figure(figsize=(9, 4))
    ax = fig.subplots()
    x = np.arange(len(distribution))
    net = distribution["net result (antes)"].to_numpy(dtype=float)
    ax.bar(x, distribution["probability"], color=np.where(net < 0, "#b2182b", np.where(net > 0, "#2166ac", "#999999")))
    ax.set_xticks(x, [f"{v:+g}" for v in net], rotation=90, fontsize=7)
    ax.set_xlabel("net result of the hand (antes)")
    ax.yaxis.set_major_formatter(PercentFormatter(1.0))
    ax.set_ylabel("probability")
    ax.set_title(title, fontsize=10)
    return fig
