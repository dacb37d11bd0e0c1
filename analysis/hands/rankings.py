"""The hand rankings of the games without a board, by the name a game file gives them: how
a hand of the player's or the dealer's cards is valued (bigger is better), its category,
and the least value of a dealer hand that qualifies with given high cards.

- ``"three-card"``: all three cards play, a straight beats a flush (:mod:`analysis.hands.three_card`);
- ``"five-card"``: all five cards play, ranked as five-card poker (Caribbean Stud);
- ``"four-card"``: the best four of the hand's cards play, ranked as four-card hands
  (Four Card Poker, :mod:`analysis.hands.four_card`).

>>> five = RANKINGS["five-card"]
>>> from analysis.model.cards import parse_cards
>>> hands = np.array([parse_cards("As Kd 4c 3h 2s"), parse_cards("As Qd Jc 9h 8s")])
>>> [bool(v >= five.floor((12, 11))) for v in five.values(hands)]
[True, False]
>>> RANKINGS["three-card"].floor((10,)) == 10 * 169
True
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from itertools import combinations

import numpy as np

from analysis.hands.evaluate import best_strength, category_of
from analysis.hands.four_card import HIGH, best_four_values, four_card_category, four_card_values
from analysis.hands.three_card import high_card_floor, three_card_category, three_card_values
from analysis.model.no_board import RANKINGS as SHAPES


@dataclass(frozen=True)
class Ranking:
    """How hands of ``cards`` cards are valued and named."""

    cards: int
    categories: tuple[str, ...]  # weakest first
    values: Callable[[np.ndarray], np.ndarray]
    category: Callable[[np.ndarray], np.ndarray]  # value -> index into categories
    floor: Callable[[tuple[int, ...]], int]  # high ranks (best first) -> least value with them or better

    def qualifying(self, ranks: tuple[int, ...] | None, category: str | None = None) -> int:
        """The least value of a dealer hand that qualifies with ``ranks`` or better, or with
        a hand of ``category`` or better (neither: every hand qualifies)."""
        if category is not None:
            return _category_floor(self.cards, self.categories, self.categories.index(category))
        return 0 if ranks is None else self.floor(ranks)


@cache
def _category_floor(cards: int, categories: tuple[str, ...], category: int) -> int:
    """The least value of a hand of ``cards`` cards of the ``category``-th category or
    better: every such set of the deck valued."""
    ranking = next(r for r in RANKINGS.values() if r.cards == cards and r.categories == categories)
    values = ranking.values(np.array(list(combinations(range(52), cards)), dtype=np.int64))
    return int(values[ranking.category(values) >= category].min())


def _three_card_floor(ranks: tuple[int, ...]) -> int:
    if len(ranks) != 1:
        raise ValueError("a three-card qualifier names one high card")
    return high_card_floor(ranks[0])


@cache
def _five_card_floor(ranks: tuple[int, ...]) -> int:
    """The least value of a five-card high-card hand whose highest ranks are ``ranks``."""
    if not 1 <= len(ranks) <= 5 or any(r not in range(13) for r in ranks) or list(ranks) != sorted(ranks)[::-1]:
        raise ValueError(f"distinct ranks, highest first, not {ranks}")
    sets = [s[::-1] for s in combinations(range(13), 5) if s[::-1][: len(ranks)] == ranks]
    hands = np.array([[r * 4 + (i % 4) for i, r in enumerate(s)] for s in sets])  # four suits: no flush
    values = best_strength(hands)
    high = values[category_of(values) == 0]
    if len(high) == 0:
        raise ValueError(f"no high-card hand has the high ranks {ranks}")
    return int(high.min())


@cache
def _four_card_floor(ranks: tuple[int, ...]) -> int:
    """The least value of a four-card high-card hand whose highest ranks are ``ranks``."""
    if not 1 <= len(ranks) <= 4 or any(r not in range(13) for r in ranks) or list(ranks) != sorted(ranks)[::-1]:
        raise ValueError(f"distinct ranks, highest first, not {ranks}")
    sets = [s[::-1] for s in combinations(range(13), 4) if s[::-1][: len(ranks)] == ranks]
    values = four_card_values(np.array([[r * 4 + i for i, r in enumerate(s)] for s in sets]))  # four suits: no flush
    high = values[four_card_category(values) == HIGH]
    if len(high) == 0:
        raise ValueError(f"no high-card hand has the high ranks {ranks}")
    return int(high.min())


def _five_card_values(cards: np.ndarray) -> np.ndarray:
    return best_strength(cards).astype(np.int64)


#: Every ranking a game file may name (its cards and categories are the model's).
RANKINGS = {
    "three-card": Ranking(*SHAPES["three-card"], three_card_values, three_card_category, _three_card_floor),
    "five-card": Ranking(*SHAPES["five-card"], _five_card_values, category_of, _five_card_floor),
    "four-card": Ranking(*SHAPES["four-card"], best_four_values, four_card_category, _four_card_floor),
}
