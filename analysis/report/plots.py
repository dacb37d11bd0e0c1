"""Plots of a game's return, strategy and pay-table sweeps (matplotlib).

Every plot is drawn on a matplotlib ``Figure`` object (no pyplot state, any backend), so
the report, notebooks and the tuning panel share them.
"""

from __future__ import annotations

import io
from typing import cast

import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.ticker import PercentFormatter

from analysis.engine.result import GameResult
from analysis.model.game import game_title
from analysis.report.tables import LEVELS
from analysis.strategy.by_hand import StrategyAnalysis


def png(fig: Figure) -> bytes:
    """The figure as PNG bytes."""
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=110, bbox_inches="tight")
    return buf.getvalue()


def plot_contributions(result: GameResult) -> Figure:
    """Each return-table row's contribution to the player's return."""
    t = result.table
    labels = [f"{o} {c}".strip().replace("_", " ") for o, c in zip(t.outcome, t.category)]
    fig = Figure(figsize=(8, 5.5))
    ax = fig.subplots()
    ax.barh(labels[::-1], t.contribution[::-1], color=np.where(t.contribution[::-1] < 0, "#b2182b", "#2166ac"))
    ax.axvline(0, color="black", lw=0.8)
    ax.set_xlabel("contribution to the player's return (antes per hand)")
    ax.set_title(f"{game_title(result.rules.name)}: contributions to the return ({result.strategy} strategy)")
    return fig


def plot_outcome_distribution(result: GameResult) -> Figure:
    """Probability of each net result of a hand."""
    return plot_outcome_comparison(
        [result], title=f"{game_title(result.rules.name)}: distribution of the result of a hand ({result.strategy})"
    )


def plot_outcome_comparison(results: list[GameResult], title: str = "Distribution of the result of a hand") -> Figure:
    """Probability of each net result of a hand, games (or strategies) side by side."""
    tables = [r.table.groupby("payoff")["probability"].sum() for r in results]
    payoffs = sorted(set().union(*(t.index for t in tables)))
    x = np.arange(len(payoffs))
    width = 0.8 / len(results)
    fig = Figure(figsize=(9, 4))
    ax = fig.subplots()
    for i, (r, t) in enumerate(zip(results, tables)):
        ax.bar(
            x + (i - (len(results) - 1) / 2) * width,
            t.reindex(payoffs, fill_value=0).to_numpy(),
            width,
            label=f"{game_title(r.rules.name)} ({r.strategy})",
            color=None if len(results) > 1 else "#4d4d4d",
        )
    ax.set_xticks(x, [f"{p:+g}" for p in payoffs])
    ax.set_yscale("log")
    ax.set_xlabel("player's net result of a hand (antes)")
    ax.set_ylabel("probability (log scale)")
    ax.set_title(title)
    if len(results) > 1:
        ax.legend()
    return fig


def plot_final_hands(final_hands: pd.DataFrame) -> Figure:
    fig = Figure(figsize=(8, 4))
    ax = fig.subplots()
    ax.barh(final_hands.final_hand[::-1].str.replace("_", " "), final_hands.probability[::-1], color="#35978f")
    ax.set_xscale("log")
    ax.set_xlabel("probability over all deals (log scale)")
    ax.set_title("Player's final hand")
    return fig


def plot_confidence(confidence: pd.DataFrame, house_edge: float) -> Figure:
    """The house's win per hand after N hands, with its confidence ranges."""
    fig = Figure(figsize=(8, 4.5))
    ax = fig.subplots()
    for level, shade in zip(LEVELS, ("#2171b5", "#6baed6", "#c6dbef")):
        c = confidence[confidence.confidence == level]
        ax.fill_between(
            c.hands, 100 * c.per_hand_low, 100 * c.per_hand_high, color=shade, alpha=0.45, label=f"{level:.0%} range"
        )
    ax.axhline(100 * house_edge, color="black", lw=1, label="house edge")
    ax.axhline(0, color="grey", lw=0.6, ls=":")
    ax.set_xscale("log")
    ax.set_xlabel("hands played")
    ax.set_ylabel("house win per hand (% of the ante)")
    ax.set_title("The house's result after N hands")
    ax.legend()
    return fig


def plot_call_rates(profile: pd.DataFrame) -> Figure:
    """Optimal and simple call rates by hand class."""
    fig = Figure(figsize=(8, 5))
    ax = fig.subplots()
    y = np.arange(len(profile))
    ax.barh(y - 0.2, profile.optimal_call_rate, height=0.4, label="optimal", color="#2166ac")
    ax.barh(y + 0.2, profile.simple_call_rate, height=0.4, label="simple", color="#f4a582")
    ax.set_yticks(y, profile.hand)
    ax.invert_yaxis()
    ax.set_xlabel("call rate")
    ax.set_title("Call rate by hand at the flop")
    ax.legend(loc="lower right")
    return fig


def _top_share_value(values: np.ndarray, share: np.ndarray, top: float) -> float:
    """The smallest value v such that the states above v hold at most ``top`` of the share
    (the top 5% of rows are sorted, which holds more than ``top`` as a row weighs at most
    24 times another)."""
    k = int(0.95 * len(values))
    if k == 0:
        return float(values.max())
    cut = np.partition(values, k)[k]
    upper = np.flatnonzero(values >= cut)
    order = upper[np.argsort(values[upper])[::-1]]
    above = np.cumsum(share[order])
    return float(values[order[min(int(np.searchsorted(above, top)), len(order) - 1)]])


def plot_margin(analysis: StrategyAnalysis) -> Figure:
    """Distribution over all states of EV(call) - EV(fold); the rare big values (made
    straight flushes and better) are gathered in the last bin."""
    margin, share = analysis.margin_antes(), analysis.engine.weight / analysis.rules.states
    top = _top_share_value(margin, share, 0.001)
    fig = Figure(figsize=(8, 4))
    ax = fig.subplots()
    ax.hist(np.minimum(margin, top), bins=120, weights=share, color="#762a83")
    ax.axvline(0, color="black", lw=0.8)
    ax.set_xlabel(f"EV(call) - EV(fold), antes (values above {top:.2f} in the last bin)")
    ax.set_ylabel("share of states")
    ax.set_title(f"{game_title(analysis.rules.name)}: value of calling over folding, per state")
    return fig


def _marker(frame: pd.DataFrame) -> str | None:
    """Points marked when they were computed one by one; an exact curve's breakpoints are
    too many to mark (the line runs through them)."""
    return "o" if len(frame) <= 50 else None


def plot_sweep(
    frame: pd.DataFrame, x: str, by: str | None = None, y: str = "house_edge", ax: Axes | None = None
) -> Axes:
    """House edge (or another figure) against one pay, a line per value of ``by``; returns
    the axes (a new figure's when ``ax`` is None)."""
    if ax is None:
        ax = Figure(figsize=(6, 3.6)).subplots()
    if by:
        for value, part in frame.groupby(by):
            pays = cast(float, value)  # the by column holds pays: numbers
            ax.plot(part[x], part[y], marker=_marker(part), label=f"{by.replace('_', ' ')} pays {pays:g}")
    else:
        ax.plot(frame[x], frame[y], marker=_marker(frame), label=None)
    ax.axhline(0, color="grey", lw=0.8)
    ax.set_xlabel(f"{x.replace('_', ' ')} pays (to 1)")
    ax.set_ylabel(y.replace("_", " "))
    if y in ("house_edge", "element_of_risk", "call_rate", "hit_frequency"):
        ax.yaxis.set_major_formatter(PercentFormatter(1.0))
    if by:
        ax.legend()
    ax.set_title(f"{y.replace('_', ' ')} with the strategy re-optimised for each table")
    return ax


def plot_protection(information: pd.DataFrame, seen: pd.DataFrame | None = None) -> Figure:
    """The player's edge against the information he has (95% intervals where sampled) and,
    when computed, by the rank of the dealer card he saw."""
    rows = information.dropna(subset=["house_edge"])
    fig = Figure(figsize=(10, 4.5))
    axes = fig.subplots(1, 2 if seen is not None else 1, squeeze=False)[0]
    ax = axes[0]
    edge = -rows["house_edge"].to_numpy(float)  # the player's edge
    err = np.vstack([edge + rows["ci95_high"].to_numpy(float), -rows["ci95_low"].to_numpy(float) - edge])
    y = np.arange(len(rows))[::-1]
    ax.barh(y, edge, xerr=err, color=np.where(edge > 0, "#b2182b", "#2166ac"), capsize=3)
    ax.set_yticks(y, rows["information"])
    ax.axvline(0, color="black", lw=0.8)
    ax.xaxis.set_major_formatter(PercentFormatter(1.0))
    ax.set_xlabel("player's edge per ante (red: the player wins)")
    ax.set_title("What information is worth")
    if seen is not None:
        ranks = seen[seen["card_seen"].str.len() == 1]
        player = -ranks["house_edge"].to_numpy(float)
        axes[1].bar(ranks["card_seen"], player, color=np.where(player > 0, "#b2182b", "#2166ac"))
        axes[1].axhline(0, color="black", lw=0.8)
        axes[1].yaxis.set_major_formatter(PercentFormatter(1.0))
        axes[1].set_xlabel("rank of the dealer card seen")
        axes[1].set_ylabel("player's edge per ante")
        axes[1].set_title("One dealer card seen, by its rank")
    fig.tight_layout()
    return fig
