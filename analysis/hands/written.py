"""The card tests of the written strategy of a Hold'em-hand game with decisions at the flop
and at the river (Ultimate Texas Hold'em): what a player can see at the table, as exact
predicates over cards, so that the strategy in words and the strategy counted are one.

- *hidden*: the hand is a pair or better and beats the board's own hand by more than a
  kicker (:attr:`~analysis.hands.lookup.HandTables.made`): a pair made with a hole card, a
  pocket pair above the board's pairs, trips or two pair using a hole card, a straight or
  flush a hole card improves;
- *flush draw with a high card*: four cards of a suit, a hole card of that suit a ten or
  better;
- *outs*: the cards the player cannot see that would, with the board, make a hand better
  than his (what the dealer beats him with holding that card): his own cards never do, so
  the count is a function of the board and his hand alone, as the kernel takes it.

>>> from analysis.model.cards import parse_cards
>>> flop_bets(np.array([parse_cards("As 7d"), parse_cards("Ks Qd"), parse_cards("2s 2d")]),
...           np.array([parse_cards("7s 4c 2h"), parse_cards("7s 7c 2h"), parse_cards("9s 5c 4h")])).tolist()
[True, False, False]
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from analysis.hands.evaluate import best_strength
from analysis.hands.lookup import tables
from analysis.model.categories import PAIR, QUADS, TRIPS, TWO_PAIR

#: The rules in words, as the par sheet prints them.
FLOP_RULE = (
    "a hidden pair or better (a pair or better that beats the flop's own cards by more than a kicker), "
    "except a pair of twos in the hand alone; four to a flush with a ten or better of that suit in the hand"
)
RIVER_RULE = (
    "a hidden pair or better (a pair or better that beats the board's own hand by more than a kicker); any "
    "hand that fewer than 21 of the 45 cards you cannot see would beat together with the board (on a smaller "
    "deck, fewer in that proportion)"
)
#: The river rule bets a hand with fewer outs than 21 in every 45 cards unseen.
RIVER_OUTS = (21, 45)
TEN = 8


def board_made(boards: np.ndarray) -> np.ndarray:
    """The ``made`` key of fewer than five cards on their own (a board before the river):
    four of a kind, three of a kind, two pair, a pair or nothing; too few cards for a
    straight or a flush."""
    r = np.asarray(boards, dtype=np.int64) >> 2
    counts = (r[:, :, None] == np.arange(13)).sum(axis=1)  # rows x 13 ranks
    top = counts.max(axis=1)
    high = 12 - np.argmax(counts[:, ::-1] == top[:, None], axis=1)  # the highest rank of the most copies
    pairs = counts == 2
    npairs = pairs.sum(axis=1)
    low = np.argmax(pairs, axis=1)  # the lowest paired rank
    key = np.zeros(len(r), dtype=np.int64)
    key[top == 4] = QUADS * 14**5 + (high[top == 4] + 1) * 14**4
    key[top == 3] = TRIPS * 14**5 + (high[top == 3] + 1) * 14**4
    one, two = (top == 2) & (npairs == 1), (top == 2) & (npairs == 2)
    key[one] = PAIR * 14**5 + (high[one] + 1) * 14**4
    key[two] = TWO_PAIR * 14**5 + (high[two] + 1) * 14**4 + (low[two] + 1) * 14**3
    return key


def flop_bets(holes: np.ndarray, flops: np.ndarray) -> np.ndarray:
    """Whether the written strategy bets at the flop, for each (two hole cards, flop) row."""
    holes, flops = np.asarray(holes, dtype=np.int64), np.asarray(flops, dtype=np.int64)
    t = tables()
    strength = best_strength(np.concatenate([holes, flops], axis=1))
    made = t.made[strength].astype(np.int64)
    hidden = (t.category[strength] >= PAIR) & (made > board_made(flops))
    deuces = (made == PAIR * 14**5 + 14**4) & ((holes >> 2) == 0).all(axis=1)
    draw = np.zeros(len(holes), dtype=bool)
    for suit in range(4):
        mine = (holes & 3) == suit
        four = mine.sum(axis=1) + ((flops & 3) == suit).sum(axis=1) == 4
        draw |= four & (mine & ((holes >> 2) >= TEN)).any(axis=1)
    return (hidden & ~deuces) | draw


def river_bets(holes: np.ndarray, boards: np.ndarray, deck: Sequence[int] = range(52)) -> np.ndarray:
    """Whether the written strategy bets at the river, for each (two hole cards, board of
    five) row, the player's outs counted among the cards of ``deck`` he cannot see: what
    the counting kernel decides board by board, written out per hand."""
    holes, boards = np.asarray(holes, dtype=np.int64), np.asarray(boards, dtype=np.int64)
    t = tables()
    mine = best_strength(np.concatenate([holes, boards], axis=1)).astype(np.int64)
    own = best_strength(boards)
    hidden = (t.category[mine] >= PAIR) & (t.made[mine] > t.made[own])
    outs = np.zeros(len(holes), dtype=np.int64)
    for card in deck:
        unseen = ~((holes == card).any(axis=1) | (boards == card).any(axis=1))
        with_it = best_strength(np.concatenate([boards, np.full((len(boards), 1), card)], axis=1))
        outs += unseen & (with_it > mine)
    fewer, of = RIVER_OUTS
    return hidden | (outs * of < fewer * (len(deck) - 7))
