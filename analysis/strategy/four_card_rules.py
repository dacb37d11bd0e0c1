"""The written strategy of Four Card Poker a player can carry in his head: the simple rule
Shuffle Master prints for the game (fold a pair of twos or less, play once the ante with a
pair of threes to nines, three times with a pair of tens or better), as words and as code
that gives the play bet, in antes, from the player's five cards (the dealer's up card is
not looked at). Priced exactly against every deal by :func:`analysis.engine.no_board.cost_of`.

>>> from analysis.model.cards import parse_cards
>>> hands = np.array([parse_cards(h) for h in ("As Kd 9c 5h 2s", "3s 3d 9c 5h 2s", "Ts Td 9c 5h 2s", "2s 2d 9c 5h 3s")])
>>> RULES["the simple rule"].plays(hands, np.zeros(4, dtype=np.int64)).tolist()
[0, 1, 3, 0]
"""

from __future__ import annotations

import numpy as np

from analysis.hands.four_card import CATEGORY_SPAN, PAIR
from analysis.hands.rankings import RANKINGS
from analysis.strategy.caribbean_rules import WrittenRule

THREE, TEN = 1, 8
_FOUR = RANKINGS["four-card"]


def _pair_rules(hands: np.ndarray, up: np.ndarray) -> np.ndarray:
    value = _FOUR.values(hands)
    category, pair_rank = value // CATEGORY_SPAN, (value % CATEGORY_SPAN) // 13**3
    big = (category > PAIR) | ((category == PAIR) & (pair_rank >= TEN))
    small = (category == PAIR) & (pair_rank >= THREE) & (pair_rank < TEN)
    return np.where(big, 3, np.where(small, 1, 0))


#: The written strategies, by name, in the order a sheet lists them.
RULES = {
    "the simple rule": WrittenRule(
        "Play three times the ante with a pair of tens or better, once the ante with a pair of threes to nines; "
        "fold a pair of twos or less, whatever the dealer shows.",
        _pair_rules,
    ),
}
