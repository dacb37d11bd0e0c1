"""The compiled evaluators against the rules of poker (exhaustive 5-card counts) and
against the slow Python definition of hand order (random hands)."""

from itertools import combinations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from analysis.hands.evaluate import best_strength, category_of, describe, describe_omaha, omaha_strength
from analysis.hands.lookup import hand_key, qualifier_strength, tables
from analysis.model.cards import rank_of, suit_of
from analysis.model.categories import CATEGORIES, CATEGORY_COUNTS_5


def all_five_card_hands() -> np.ndarray:
    idx = np.array(list(combinations(range(52), 5)), dtype=np.int8)
    return idx


def test_every_five_card_hand_category_count():
    hands = all_five_card_hands()
    assert len(hands) == 2_598_960
    strengths = best_strength(hands, threads=2)
    counts = np.bincount(category_of(strengths), minlength=10)
    assert tuple(counts) == CATEGORY_COUNTS_5
    assert len(np.unique(strengths)) == 7462


def key(cards):
    ranks = [rank_of(c) for c in cards]
    return hand_key(ranks, suited=len({suit_of(c) for c in cards}) == 1)


hand5 = st.lists(st.integers(0, 51), min_size=5, max_size=5, unique=True)


@settings(max_examples=400)
@given(hand5, hand5)
def test_strength_order_is_poker_order(a, b):
    sa, sb = (int(s) for s in best_strength([a, b]))
    ka, kb = key(a), key(b)
    assert (sa > sb) == (ka > kb) and (sa == sb) == (ka == kb)
    assert CATEGORIES[int(category_of(sa))] == CATEGORIES[ka[0]]


@settings(max_examples=300)
@given(st.lists(st.integers(0, 51), min_size=6, max_size=7, unique=True))
def test_best_of_six_or_seven_is_best_five(cards):
    best = max(int(best_strength([list(s)])[0]) for s in combinations(cards, 5))
    assert int(best_strength([cards])[0]) == best


#: (k, k hole cards + 5 board cards): 3 hole cards as in Casino Omaha, 4 as in Omaha.
OMAHA_DEALS = st.integers(3, 4).flatmap(
    lambda k: st.tuples(st.just(k), st.lists(st.integers(0, 51), min_size=k + 5, max_size=k + 5, unique=True))
)


@settings(max_examples=300)
@given(OMAHA_DEALS)
def test_omaha_uses_exactly_two_hole_and_three_board(deal):
    k, cards = deal
    hole, board = cards[:k], cards[k:]
    assert len(hole) == k and len(board) == 5
    best = max(
        int(best_strength([list(h) + list(b)])[0]) for h in combinations(hole, 2) for b in combinations(board, 3)
    )
    assert int(omaha_strength([hole], [board])[0]) == best


def test_named_hands():
    assert describe("Ah 2d 3c 4s 5h") == "straight"
    assert describe("Ah 2h 3h 4h 5h") == "straight_flush"
    assert describe("Ah Kh Qh Jh 9h 9d 9c") == "flush"
    # Omaha: four hearts on board and one in hand is no flush
    assert describe_omaha("Ah Kc 2d", "Qh Jh Th 3h 4d") == "straight"
    assert describe_omaha("Ah Kh 2d", "Qh Jh Th 3c 4d") == "royal_flush"


def test_qualifiers():
    t = tables()
    sevens = qualifier_strength(5)  # 7-7-4-3-2
    assert t.category[sevens] == 1 and t.category[sevens - 1] == 1  # 6-6-A-K-Q is a pair too
    assert int(best_strength([[20, 21, 8, 4, 0]])[0]) == sevens  # 7c 7d 4c 3c 2c
    assert int(best_strength([[16, 17, 48, 44, 40]])[0]) == sevens - 1  # 6c 6d Ac Kc Qc
