"""Bets on the player's hand alone in a game without a board (Pair Plus, Aces Up): each pay
line's hands counted from the classes of player hands the solve holds, and the exact figures
per unit bet (every hand of the deck one deal; the dealer and the decision play no part)."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from analysis.engine.statistics import ExactFigures, figures_of
from analysis.hands.evaluate import pair_rank
from analysis.model.no_board import HandBet, NoBoard


@dataclass(frozen=True)
class HandBetFigures:
    """A bet on the player's hand alone: the hands of each pay line, best first (a category
    split by pair lines keeps its other hands under its own name), and the exact figures
    (per unit bet; every hand of the deck is one deal)."""

    bet: HandBet
    hands: dict[str, int]
    exact: ExactFigures


def hand_bet_figures(
    nb: NoBoard,
    hands: np.ndarray,
    weight: np.ndarray,
    category: np.ndarray,
    pays: dict[str, dict[str, Fraction]] | None = None,
) -> dict[str, HandBetFigures]:
    """Each bet of ``nb`` priced on the classes of player hands (a member's cards, the hands
    each stands for, its category index), with the file's pays or ``pays[name]`` instead."""
    pair = pair_rank(hands)
    out = {}
    for name, bet in nb.hand_bets.items():
        placed = HandBet(bet.title, bet.pays if pays is None or name not in pays else pays[name])
        lines: dict[str, int] = {}
        for c, hand in reversed(list(enumerate(nb.categories))):
            rest = category == c
            split = [x for x in placed.lines(nb.categories) if x.category == hand and x.name != hand]
            for line in split:
                hit = rest & (pair >= line.low) & (pair <= line.high)
                lines[line.name], rest = int(weight[hit].sum()), rest & ~hit
            if rest.any() or not split:
                lines[hand] = int(weight[rest].sum())
        payoffs = {line: Fraction(placed.pays.get(line, -1)) for line in lines}
        out[name] = HandBetFigures(placed, lines, figures_of(lines, payoffs, Fraction(1), Fraction(1)))
    return out
