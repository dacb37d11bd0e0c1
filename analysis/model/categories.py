"""Poker hand categories: their names (the words of pay tables and reports), their codes
(the index into :data:`CATEGORIES`, weakest first) and how many 5-card hands each has.

>>> CATEGORIES[FLUSH], sum(CATEGORY_COUNTS_5)
('flush', 2598960)
"""

from __future__ import annotations

#: Category names, weakest first; the index is the category code used everywhere.
CATEGORIES = (
    "high_card",
    "pair",
    "two_pair",
    "three_of_a_kind",
    "straight",
    "flush",
    "full_house",
    "four_of_a_kind",
    "straight_flush",
    "royal_flush",
)
HIGH_CARD, PAIR, TWO_PAIR, TRIPS, STRAIGHT, FLUSH, FULL_HOUSE, QUADS, STRAIGHT_FLUSH, ROYAL_FLUSH = range(10)

#: Number of 5-card hands in each category (out of C(52,5) = 2,598,960).
CATEGORY_COUNTS_5 = (1302540, 1098240, 123552, 54912, 10200, 5108, 3744, 624, 36, 4)

#: The categories of three-card poker, weakest first (a straight beats a flush there): the
#: index is the category code of :mod:`analysis.hands.three_card`; the names are the
#: five-card ones, so pay tables name them alike.
THREE_CARD_CATEGORIES = ("high_card", "pair", "flush", "straight", "three_of_a_kind", "straight_flush")

#: The categories of four-card poker, weakest first (three of a kind beats a straight and a
#: flush, four of a kind a straight flush): the index is the category code of
#: :mod:`analysis.hands.four_card`.
FOUR_CARD_CATEGORIES = (
    "high_card",
    "pair",
    "two_pair",
    "straight",
    "flush",
    "three_of_a_kind",
    "straight_flush",
    "four_of_a_kind",
)
