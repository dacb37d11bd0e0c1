"""Bets on the player's hand alone (Pair Plus, Aces Up, Let It Ride's 3-Card Bonus): each pay
line's hands counted from rows of player hands (the classes a solve holds, or every hand of
the cards the bet is on) and the exact figures per unit bet (every hand of the deck one deal;
the dealer and the decisions play no part)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from analysis.engine.statistics import ExactFigures, figures_of
from analysis.hands.evaluate import pair_rank, straight_top
from analysis.model.no_board import HandBet


@dataclass(frozen=True)
class HandBetFigures:
    """A bet on the player's hand alone: the hands of each pay line, best first (a category
    split by pair lines keeps its other hands under its own name), and the exact figures
    (per unit bet; every hand of the deck is one deal)."""

    bet: HandBet
    hands: dict[str, int]
    exact: ExactFigures
    #: the ranking's categories, weakest first (what the lines' words are read in)
    categories: tuple[str, ...] = ()


def hand_bet_figures(
    bets: Mapping[str, HandBet],
    categories: tuple[str, ...],
    hands: np.ndarray,
    weight: np.ndarray,
    category: np.ndarray,
    pays: dict[str, dict[str, Fraction]] | None = None,
) -> dict[str, HandBetFigures]:
    """Each of ``bets`` priced on rows of player hands (a member's cards, the hands each
    stands for, its index in ``categories``), with its own pays or ``pays[name]`` instead.
    A line of ranks takes its hands of the category (a pair by its pair, a straight flush by
    its top card); the category's own line, or nothing, the rest."""
    rank = {"pair": pair_rank(hands), "straight_flush": straight_top(hands)}
    out = {}
    for name, bet in bets.items():
        placed = HandBet(bet.title, bet.pays if pays is None or name not in pays else pays[name])
        lines: dict[str, int] = {}
        for c, hand in reversed(list(enumerate(categories))):
            rest = category == c
            split = [x for x in placed.lines(categories) if x.category == hand and x.name != hand]
            for line in split:
                hit = rest & (rank[hand] >= line.low) & (rank[hand] <= line.high)
                lines[line.name], rest = int(weight[hit].sum()), rest & ~hit
            if rest.any() or not split:
                lines[hand] = int(weight[rest].sum())
        payoffs = {line: Fraction(placed.pays.get(line, -1)) for line in lines}
        exact = figures_of(lines, payoffs, Fraction(1), Fraction(1))
        out[name] = HandBetFigures(placed, lines, exact, categories)
    return out
