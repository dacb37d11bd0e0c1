"""The three-card evaluator against closed forms and an independent ranking written here."""

from __future__ import annotations

from collections import Counter
from itertools import combinations
from math import comb

import numpy as np

from analysis.hands.three_card import high_card_floor, three_card_category, three_card_values
from analysis.model.cards import parse_cards
from analysis.model.categories import THREE_CARD_CATEGORIES

HANDS = np.array(list(combinations(range(52), 3)))


def brute_key(hand: tuple[int, ...]) -> tuple[int, tuple[int, ...]]:
    """A hand's order by the rules as a reader states them: the category first (straight
    flush, three of a kind, straight, flush, pair, high card), then the ranks that name it."""
    ranks = sorted((c // 4 for c in hand), reverse=True)
    flush = len({c % 4 for c in hand}) == 1
    runs = {(r + 1, r + 2, r + 3): r + 3 for r in range(-1, 11)}  # rank +1 so that the ace is 13 or 0
    low = sorted(r + 1 for r in ranks)
    as_low = sorted(0 if r == 12 else r + 1 for r in ranks)
    top = runs.get(tuple(low), runs.get(tuple(as_low)))
    counts = Counter(ranks)
    if top is not None:
        return (5 if flush else 3), (top,)
    if len(counts) == 1:
        return 4, (ranks[0],)
    if flush:
        return 2, tuple(ranks)
    if len(counts) == 2:
        pair = max(counts, key=lambda r: counts[r])
        return 1, (pair, min(counts, key=lambda r: counts[r]))
    return 0, tuple(ranks)


def test_every_category_count_in_closed_form():
    """22,100 hands: straight flushes 12 runs x 4 suits; trips 13 x C(4,3); straights 12 runs
    x 4^3 less the suited; flushes 4 x C(13,3) less the straight flushes; pairs 13 x C(4,2) x
    12 x 4; the rest high cards."""
    counts = Counter(three_card_category(three_card_values(HANDS)).tolist())
    expected = {
        "straight_flush": 12 * 4,
        "three_of_a_kind": 13 * comb(4, 3),
        "straight": 12 * (4**3 - 4),
        "flush": 4 * comb(13, 3) - 12 * 4,
        "pair": 13 * comb(4, 2) * 12 * 4,
    }
    expected["high_card"] = comb(52, 3) - sum(expected.values())
    assert {THREE_CARD_CATEGORIES[c]: n for c, n in counts.items()} == expected
    assert expected == {
        "straight_flush": 48,
        "three_of_a_kind": 52,
        "straight": 720,
        "flush": 1096,
        "pair": 3744,
        "high_card": 16440,
    }


def test_order_matches_an_independent_ranking_of_every_hand():
    values = three_card_values(HANDS)
    keys = [brute_key(tuple(h)) for h in HANDS.tolist()]
    order = sorted(range(len(keys)), key=keys.__getitem__)
    ranked_keys = [keys[i] for i in order]
    ranked_values = values[order]
    # values never go down along the independent order, and are equal exactly where the keys are
    assert np.all(np.diff(ranked_values) >= 0)
    same_key = np.array([a == b for a, b in zip(ranked_keys, ranked_keys[1:])])
    assert np.array_equal(np.diff(ranked_values) == 0, same_key)
    assert three_card_category(values).tolist() == [k[0] for k in keys]  # the codes are the same
    assert len(set(values.tolist())) == len(set(keys))


def test_straights_at_the_ends_and_the_ace_that_does_not_wrap():
    def value(text: str) -> int:
        return int(three_card_values([parse_cards(text)])[0])

    def category(text: str) -> str:
        return THREE_CARD_CATEGORIES[int(three_card_category(value(text)))]

    assert category("Ac 2d 3h") == "straight"
    assert category("Kc Ad 2h") == "high_card"
    assert category("Qc Kd Ah") == "straight"
    assert category("2s 3s As") == "straight_flush"
    assert category("2s 7s As") == "flush"
    assert value("Ac 2d 3h") < value("2c 3d 4h") < value("Qc Kd Ah")
    assert value("Ac 2d 3h") > value("As Ks Js")  # any straight beats any flush
    assert value("Qh Kh Ah") == value("Qc Kc Ac") > value("2c 2d 2h") > value("Ac Kd Qh")
    assert value("Ac Kd 2h") > value("Ac Qd Jh")  # K-A-2 is ace-king high
    assert value("9c 9d Ah") > value("9h 9s Kd") > value("8c 8d Ah")
    assert value("Qc 3d 2h") >= high_card_floor(10) > value("Jc Td 8h")
