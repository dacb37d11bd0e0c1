"""The Omaha high and 8-or-better low evaluators against pokerkit (an independent oracle)
and against the plain definition (best of every 2 hole + 3 board cards)."""

from functools import cmp_to_key
from itertools import combinations

import numpy as np
import pokerkit
import pytest

from analysis.hands.evaluate import best_strength, omaha_strength
from analysis.hands.lookup import tables
from analysis.model.cards import format_cards, parse_cards, rank_of
from analysis.model.categories import CATEGORIES
from analysis.omaha4.evaluators import (
    LOW_BIT,
    NO_LOW,
    describe_high,
    describe_low,
    low_ranks,
    omaha_high,
    omaha_low,
    omaha_tables,
)

LOW_DECK = [c for c in range(52) if rank_of(c) <= 6 or rank_of(c) == 12]  # A and 2..8: lows, counterfeits
TWO_SUITS = [c for c in range(52) if c % 4 in (0, 2)]  # flushes and straight flushes
STRAIGHTS = [c for c in range(52) if rank_of(c) in (12, 0, 1, 2, 3, 8, 9, 10, 11)]  # wheels and broadways


def deals(deck, n, seed) -> tuple[np.ndarray, np.ndarray]:
    """n random (4 hole cards, 5 board cards) deals from the given cards."""
    rng = np.random.default_rng(seed)
    deck = np.asarray(deck)
    cards = deck[np.argsort(rng.random((n, len(deck))), axis=1)[:, :9]].astype(np.int8)
    return np.ascontiguousarray(cards[:, :4]), np.ascontiguousarray(cards[:, 4:])


def pokerkit_hand(kind, hole, board):
    """pokerkit's hand, or None when no hand qualifies (no low)."""
    try:
        return kind.from_game(format_cards(hole).replace(" ", ""), format_cards(board).replace(" ", ""))
    except ValueError:
        return None


def assert_same_order(ours: np.ndarray, theirs: list) -> None:
    """Our values order the hands exactly as pokerkit's (None = no hand, below every hand)."""

    def cmp(i, j):
        a, b = theirs[i], theirs[j]
        if a is None or b is None:
            return (a is not None) - (b is not None)
        return (a > b) - (a < b)

    order = sorted(range(len(theirs)), key=cmp_to_key(cmp))
    for i, j in zip(order, order[1:]):
        assert (cmp(i, j) == 0) == (ours[i] == ours[j]), (i, j)
        assert ours[i] <= ours[j], (i, j)


@pytest.mark.parametrize("deck, seed", [(range(52), 1), (TWO_SUITS, 2), (STRAIGHTS, 3)])
def test_high_orders_hands_as_pokerkit(deck, seed):
    hole, board = deals(deck, 700, seed)
    ours = omaha_high(hole, board)
    theirs = [pokerkit_hand(pokerkit.OmahaHoldemHand, h, b) for h, b in zip(hole, board)]
    assert_same_order(ours, theirs)
    labels = {
        "High card": "high_card",
        "One pair": "pair",
        "Two pair": "two_pair",
        "Three of a kind": "three_of_a_kind",
        "Straight": "straight",
        "Flush": "flush",
        "Full house": "full_house",
        "Four of a kind": "four_of_a_kind",
        "Straight flush": "straight_flush",
    }
    for value, hand in zip(ours, theirs):
        ours_name = CATEGORIES[tables().category[value]]
        assert labels[hand.entry.label.value] == ours_name.replace("royal_flush", "straight_flush")
    if deck is TWO_SUITS:
        assert {CATEGORIES[c] for c in tables().category[ours]} >= {"flush", "straight_flush"}


@pytest.mark.parametrize("deck, seed", [(range(52), 4), (LOW_DECK, 5), (STRAIGHTS, 6)])
def test_low_orders_hands_as_pokerkit(deck, seed):
    hole, board = deals(deck, 1000, seed)
    ours = omaha_low(hole, board)
    theirs = [pokerkit_hand(pokerkit.OmahaEightOrBetterLowHand, h, b) for h, b in zip(hole, board)]
    assert [v == NO_LOW for v in ours] == [t is None for t in theirs]
    assert_same_order(ours, theirs)
    assert 0 < (ours == NO_LOW).sum() < len(ours)


def test_high_is_the_best_of_every_two_plus_three():
    rng = np.random.default_rng(7)
    for k in (2, 3, 4, 5, 6):
        cards = np.argsort(rng.random((300, 52)), axis=1)[:, : k + 5].astype(np.int8)
        hole, board = np.ascontiguousarray(cards[:, :k]), np.ascontiguousarray(cards[:, k:])
        ours = omaha_high(hole, board, hole_cards=k)
        np.testing.assert_array_equal(ours, omaha_strength(hole, board))
        for h, b, v in zip(hole[:40], board[:40], ours[:40]):
            rows = [list(p) + list(t) for p in combinations(h, 2) for t in combinations(b, 3)]
            assert v == best_strength(rows).max()


@pytest.mark.parametrize(
    "hole, board",
    [("2h 5h 9h Jh Kh Ah", "3h 4h Th 7c 7d"), ("Ah Kh Qh Jh 2h", "Th 9h 8h 2c 3d"), ("As Ks Qs", "Js Ts 9s 8s 7s")],
)
def test_many_suited_hole_cards(hole, board):
    h, b = parse_cards(hole), parse_cards(board)
    rows = [list(p) + list(t) for p in combinations(h, 2) for t in combinations(b, 3)]
    assert omaha_high([h], [b], hole_cards=None)[0] == best_strength(rows).max()


def test_low_is_the_best_of_every_two_plus_three():
    hole, board = deals(LOW_DECK, 400, 8)
    for h, b, v in zip(hole, board, omaha_low(hole, board)):
        lows = []
        for p in combinations(h, 2):
            for t in combinations(b, 3):
                ranks = {(rank_of(c) + 1) % 13 for c in (*p, *t)}  # ace = 0, deuce = 1, ...
                if len(ranks) == 5 and max(ranks) <= 7:
                    lows.append(sorted(ranks, reverse=True))
        expected = "no low" if not lows else "-".join("A2345678"[r] for r in min(lows))
        assert low_ranks(int(v)) == expected


@pytest.mark.parametrize(
    "hole, board, high, low",
    [
        ("As 2d Kc Qh", "3h 4s 5c 9d Jh", "straight", "5-4-3-2-A"),  # wheel straight and wheel low
        ("Ac 2d 3c 4h", "5s 6d 7h Kc Kd", "straight", "7-6-5-2-A"),  # exactly two hole cards for both
        ("Ac 2d Kc Kh", "2h 3s 8c Kd Qh", "three_of_a_kind", "no low"),  # the board's deuce counterfeits
        ("Ac 2d 4c Kh", "2h 3s 8c Kd Qh", "two_pair", "8-4-3-2-A"),  # ... unless a third low card saves it
        ("As 2s 3s 4s", "9d Tc Jh Qh Kh", "high_card", "no low"),  # no low possible on this board
        ("Ah Kc 2d 3s", "Qh Jh Th 3h 4d", "straight", "no low"),  # four hearts on board, one in hand: no flush
        ("Ah Kh 2d 3s", "Qh Jh Th 3c 4d", "royal_flush", "no low"),
        ("5h 6h Ad 2c", "2h 3h 4h 8d 8s", "straight_flush", "5-4-3-2-A"),  # low from other hole cards
        ("Ac Ad 2c 2d", "As 2s 3h 4h 5h", "straight", "5-4-3-2-A"),  # no full house without a board pair
        ("Ac Ad Ah Kc", "Qs Js 9h 7h 5h", "pair", "no low"),  # three aces in hand play as a pair
    ],
)
def test_named_hands(hole, board, high, low):
    assert describe_high(hole, board) == high
    assert describe_low(hole, board) == low
    h, b = parse_cards(hole), parse_cards(board)
    kit = pokerkit_hand(pokerkit.OmahaEightOrBetterLowHand, h, b)
    assert (kit is None) == (describe_low(hole, board) == "no low")


def test_low_values_order_and_names():
    t = omaha_tables()
    assert sorted(t.low_value[t.low_value > 0]) == list(range(1, 57))
    assert low_ranks(56) == "5-4-3-2-A" and low_ranks(1) == "8-7-6-5-4"
    assert low_ranks(55) == "6-4-3-2-A" and low_ranks(54) == "6-5-3-2-A"
    assert low_ranks(NO_LOW) == "no low"
    with pytest.raises(ValueError, match="outside"):
        low_ranks(57)
    assert LOW_BIT[12] == 1 and LOW_BIT[6] == 128 and LOW_BIT[7] == 0  # ace, eight, nine


def test_bad_input():
    with pytest.raises(ValueError, match="4 hole cards"):
        omaha_high([[0, 1, 2]], [[8, 9, 10, 11, 12]])
    with pytest.raises(ValueError, match="rows of 5"):
        omaha_low([[0, 1, 2, 3]], [[8, 9, 10, 11]])
    with pytest.raises(ValueError, match="boards"):
        omaha_high([[0, 1, 2, 3]] * 2, [[8, 9, 10, 11, 12]])
    with pytest.raises(ValueError, match="expected 5 cards"):
        describe_low("As 2d 3c 4h", "5s 6d 7h Kc")
    with pytest.raises(ValueError, match="card As is dealt twice"):
        describe_high("As 2d 3c 4h", "5s 6d 7h Kc As")
