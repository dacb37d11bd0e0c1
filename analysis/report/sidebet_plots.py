"""Plots of side bets (matplotlib ``Figure`` objects, as in :mod:`analysis.report.plots`): each line's
contribution to the return, the same bet's lines in several games, and a progressive's
return as the meter grows."""

from __future__ import annotations

import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from matplotlib.ticker import PercentFormatter

from analysis.model.game import game_title
from analysis.sidebets.result import SideBetResult


def plot_side_bet(result: SideBetResult) -> Figure:
    """Each line's contribution to the player's return per unit staked, with its odds."""
    t = result.table
    fig = Figure(figsize=(8, 0.45 * len(t) + 1.5))
    ax = fig.subplots()
    labels = [f"{line} ({pays})".replace("_", " ") for line, pays in zip(t.line, t.pays)]
    ax.barh(labels[::-1], t.contribution[::-1], color=np.where(t.contribution[::-1] < 0, "#b2182b", "#2166ac"))
    for y, (c, n) in enumerate(zip(t.contribution[::-1], t.one_in[::-1])):
        ax.annotate(f" 1 in {n:,.0f}" if n >= 2 else "", (max(c, 0), y), va="center", fontsize=8)
    ax.axvline(0, color="black", lw=0.8)
    ax.set_xlabel("contribution to the return (per unit staked)")
    he = float(result.exact.house_edge)
    meter = "" if result.meter is None else f" (meter {float(result.meter):,.0f})"
    ax.set_title(f"{result.bet.name} on {game_title(result.rules.name)}{meter}: house edge {he:.2%}")
    return fig


def plot_line_probabilities(results: list[SideBetResult]) -> Figure:
    """The probability of each line of one bet in several games (or strategies), side by side."""
    lines = [line.name for line in results[0].bet.lines]
    x = np.arange(len(lines))
    width = 0.8 / len(results)
    fig = Figure(figsize=(9, 4))
    ax = fig.subplots()
    for i, r in enumerate(results):
        p = r.table.set_index("line")["probability"].reindex(lines)
        label = f"{game_title(r.rules.name)}: return {float(r.exact.player_return):.1%}"
        ax.bar(x + (i - (len(results) - 1) / 2) * width, p.values, width, label=label)
    ax.set_xticks(x, [name.replace("_", " ") for name in lines], rotation=30, ha="right")
    ax.set_yscale("log")
    ax.set_ylabel("probability (log scale)")
    ax.set_title(f"{results[0].bet.name}: how often each line pays")
    ax.legend()
    return fig


def plot_meter(frame: pd.DataFrame, break_even: float | None = None, long_run: float | None = None) -> Figure:
    """A progressive's return as a function of its meter (``frame`` from
    :func:`analysis.sidebets.progressive.meter_returns`), with the break-even meter."""
    fig = Figure(figsize=(8, 4))
    ax = fig.subplots()
    ax.plot(frame["meter"], frame["return"], marker="o", color="#2166ac", label="return at the meter")
    ax.axhline(1, color="black", lw=0.8)
    if break_even is not None:
        ax.axvline(break_even, color="#b2182b", ls="--", label=f"break-even meter {break_even:,.0f}")
    if long_run is not None:
        ax.axhline(long_run, color="#35978f", ls=":", label=f"long-run return {long_run:.1%}")
    ax.yaxis.set_major_formatter(PercentFormatter(1.0))
    ax.set_xlabel("meter")
    ax.set_ylabel("return per unit staked")
    ax.set_title("Progressive: return as the meter grows")
    ax.legend()
    return fig
