"""The written strategies of Caribbean Stud, the ones a player can carry in his head: each a
rule in words and the same rule as code that decides, from the player's five cards and the
dealer's up card, whether to call. Priced exactly against every deal by
:func:`analysis.engine.no_board.cost_of`; the published totals of each (Wizard of Odds,
"Caribbean Stud Poker": perfect strategy, three rules of thumb, ...) are the checks.

>>> from analysis.model.cards import parse_cards
>>> hands = np.array([parse_cards("As Kd 9c 5h 2s"), parse_cards("As Kd Qc 5h 2s")])
>>> RULES["three rules of thumb"].plays(hands, np.array([parse_cards("9d")[0]] * 2)).tolist()
[True, False]
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from analysis.hands.rankings import RANKINGS

ACE, KING, QUEEN, JACK = 12, 11, 10, 9
_FIVE = RANKINGS["five-card"]


@dataclass(frozen=True)
class WrittenRule:
    """A strategy in words and as code: ``plays(hands, up)`` is true where it calls (or, in
    a game of several play bets, the bet in antes, 0 where it folds)."""

    words: str
    plays: Callable[[np.ndarray, np.ndarray], np.ndarray]


def _paired(hands: np.ndarray) -> np.ndarray:
    return _FIVE.category(_FIVE.values(hands)) >= 1


def _ace_king(hands: np.ndarray) -> np.ndarray:
    ranks = hands >> 2
    return (ranks == ACE).any(axis=1) & (ranks == KING).any(axis=1)


def _high_cards_or_better(ranks: tuple[int, ...]) -> Callable[[np.ndarray, np.ndarray], np.ndarray]:
    return lambda hands, up: _FIVE.values(hands) >= _FIVE.floor(ranks)


def _rules_of_thumb(hands: np.ndarray, up: np.ndarray) -> np.ndarray:
    ranks = -np.sort(-(hands >> 2), axis=1)  # highest first
    seen = up >> 2
    matches = (ranks == seen[:, None]).any(axis=1)
    has = {r: (ranks == r).any(axis=1) for r in (QUEEN, JACK)}
    ace_king = _ace_king(hands) & ~_paired(hands)
    first = (seen <= QUEEN) & matches
    second = (seen >= KING) & (has[QUEEN] | has[JACK])
    third = ~matches & has[QUEEN] & (seen < ranks[:, 3])
    return _paired(hands) | (ace_king & (first | second | third))


#: The written strategies, by name, in the order a sheet lists them.
RULES = {
    "three rules of thumb": WrittenRule(
        "Call with a pair or better; fold below ace-king. With ace-king, call when the dealer's card is a 2 to a "
        "queen and matches one of yours; when it is an ace or a king and you hold a queen or a jack; or when it "
        "matches none of yours, you hold a queen and it is below your fourth-highest card.",
        _rules_of_thumb,
    ),
    "ace-king-jack-8-3 or better": WrittenRule(
        "Call with A-K-J-8-3 or better, whatever the dealer shows.", _high_cards_or_better((ACE, KING, JACK, 6, 1))
    ),
    "a pair or better": WrittenRule("Call with a pair or better; fold the rest.", lambda hands, up: _paired(hands)),
    "ace-king or better": WrittenRule(
        "Call with ace-king or better; fold the rest.", lambda hands, up: _paired(hands) | _ace_king(hands)
    ),
    "always call": WrittenRule("Call every hand (playing blind).", lambda hands, up: np.ones(len(hands), dtype=bool)),
}
