"""Plain-terms hand classes of a decision state: what the player holds at the flop, in words.

Every state goes into the first class of :data:`HAND_CLASSES` that fits (made hands, then
draws, then high cards), and into a cell of the made-hand x draw grid. The
:class:`HandProfile` of a game (class, grid cell, two best hole ranks, three to a flush,
per state) does not depend on pays, so a store computes it once.

>>> from analysis.model.cards import parse_cards
>>> from analysis.model.rules import preset
>>> p = hand_profile(preset("casino-omaha"), [parse_cards("As Kd 7h")], [parse_cards("Qs Jd 2c")])
>>> HAND_CLASSES[p.hand_class[0]], int(p.top_two[0]) == 13 * 12 + 11
('gutshot straight draw', True)
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

import numpy as np
from numpy.typing import ArrayLike

from analysis.hands.features import StateFeatures, state_features
from analysis.model.cards import RANKS
from analysis.model.categories import PAIR, STRAIGHT, TRIPS, TWO_PAIR
from analysis.model.rules import Rules

#: Plain-terms hand classes, first match wins (made hands, then draws, then high cards).
HAND_CLASSES: tuple[str, ...] = (
    "straight or better",
    "three of a kind",
    "two pair",
    "high pair with a hole card",
    "low pair with a hole card",
    "four to a flush",
    "open-ended straight draw",
    "gutshot straight draw",
    "the flop's pair only",
    "three to a flush",
    "two or more overcards",
    "one overcard",
    "nothing",
)

#: Made-hand and draw dimensions of the call-rate grid.
MADE_HANDS = (
    "straight or better",
    "three of a kind",
    "two pair",
    "high pair with a hole card",
    "low pair with a hole card",
    "the flop's pair only",
    "high card",
)
DRAWS = ("four to a flush", "open-ended straight draw", "gutshot straight draw", "three to a flush", "no draw")


def class_notes(rules: Rules) -> dict[str, str]:
    """What each hand class means, in words, for this game."""
    q = RANKS[rules.qualifying_pair]
    cards = "exactly two hole cards and two flop cards" if rules.omaha else "hole cards and flop cards"
    high = (
        "any pair that uses a hole card (the dealer always qualifies)"
        if rules.qualifier_rank is None
        else f"a pair of {q}s or better (the dealer's qualifier) that uses a hole card"
    )
    return {
        "high pair with a hole card": high,
        "low pair with a hole card": f"a pair below {q}s that uses a hole card",
        "four to a flush": f"four cards of a suit ({cards}): one more on the board makes a flush",
        "open-ended straight draw": f"two or more ranks complete a straight ({cards}); double gutshots included",
        "gutshot straight draw": f"one rank completes a straight ({cards})",
        "the flop's pair only": "the flop is paired and the hole cards add nothing to it",
        "three to a flush": "three cards of a suit (two hole cards in Omaha): both turn and river must match",
        "two or more overcards": "no pair, no draw; at least two hole cards above every flop card",
        "one overcard": "no pair, no draw; one hole card above every flop card",
        "nothing": "no pair, no draw, no overcard",
    }


def hand_classes(features: StateFeatures, rules: Rules) -> np.ndarray:
    """Index into :data:`HAND_CLASSES` of every state (the first class that fits)."""
    f = features
    hole_pair = (f.made == PAIR) & ~f.board_pair_only
    conditions = [
        f.made >= STRAIGHT,
        f.made == TRIPS,
        f.made == TWO_PAIR,
        hole_pair & (f.made_rank >= rules.qualifying_pair),
        hole_pair,
        f.flush_draw,
        f.straight_outs >= 2,
        f.straight_outs == 1,
        f.board_pair_only,
        f.backdoor_flush,
        f.overcards >= 2,
        f.overcards == 1,
    ]
    return np.select(conditions, np.arange(len(conditions), dtype=np.int8), default=len(conditions)).astype(np.int8)


def grid_cells(features: StateFeatures, classes: np.ndarray) -> np.ndarray:
    """Cell of every state in the made-hand x draw grid: ``made * len(DRAWS) + draw``."""
    f = features
    made = np.where(classes <= 4, classes, np.where(f.board_pair_only, 5, 6))
    draw = np.select(
        [f.flush_draw, f.straight_outs >= 2, f.straight_outs == 1, f.backdoor_flush], [0, 1, 2, 3], default=4
    )
    return (made * len(DRAWS) + draw).astype(np.int8)


@dataclass
class HandProfile:
    """Per state: hand class, grid cell, two best hole ranks (``13 * highest + second``)
    and whether the player holds three to a flush."""

    hand_class: np.ndarray
    cell: np.ndarray
    top_two: np.ndarray
    three_flush: np.ndarray

    def arrays(self) -> dict[str, np.ndarray]:
        return asdict(self)


def hand_profile(rules: Rules, hole: ArrayLike, flop: ArrayLike) -> HandProfile:
    """The hand profile of every state (rows of hole cards and flops)."""
    features = state_features(rules, hole, flop)
    classes = hand_classes(features, rules)
    return HandProfile(
        classes, grid_cells(features, classes), features.top_two.astype(np.int16), features.backdoor_flush.astype(bool)
    )
