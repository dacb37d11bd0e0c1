"""The card tests of the written strategy of a Hold'em-hand game whose bets add up, with a
check or a bet at the flop and at the turn (Texas Hold'em Bonus): the simplified rules that
table-games-online.com publishes for it, as exact predicates over cards, so that the
strategy in words and the strategy counted are one. Each rule counts a hand only when a
hole card makes it (its ``made`` is above the board's own, :func:`board_made`; a draw of
four needs a hole card among its four):

- *flop*: any pair or better; four cards in a row (ace high or low); four cards of a suit;
- *turn*: a pair of sixes or better, two pair or better (a straight, a flush and a full
  house included); four cards in a row of one suit.

>>> from analysis.model.cards import parse_cards
>>> flop_bets(np.array([parse_cards("9s 8d"), parse_cards("Ks Qd"), parse_cards("2s 2d")]),
...           np.array([parse_cards("7s 6c 2h"), parse_cards("7s 7c 2h"), parse_cards("9s 5c 4h")])).tolist()
[True, False, True]
>>> turn_bets(np.array([parse_cards("5s 4d"), parse_cards("6s 2d"), parse_cards("Ks 3s")]),
...           np.array([parse_cards("5h 9c Jd 2c"), parse_cards("6h 9c Jd 2c"), parse_cards("Qs Js Ts 2c")])).tolist()
[False, True, True]
"""

from __future__ import annotations

import numpy as np

from analysis.hands.evaluate import best_strength
from analysis.hands.lookup import tables
from analysis.hands.written import board_made
from analysis.model.categories import PAIR, TWO_PAIR

#: The rules in words, as the par sheet prints them.
FLOP_RULE = (
    "any pair or better made with a hole card; four cards in a row (an ace high or low) or four cards of a "
    "suit, a hole card among them"
)
TURN_RULE = (
    "a pair of sixes or better made with a hole card; two pair or better (a straight, a flush, a full house) "
    "made with a hole card; four cards in a row of one suit, a hole card among them"
)
#: Where the rules come from.
SOURCE = "the simplified strategy published by table-games-online.com"
SIX = 4


def _runs(masks: np.ndarray) -> np.ndarray:
    """Per 13-bit rank mask, the bits where four ranks in a row start (the ace also below
    the two)."""
    m = (masks << 1) | ((masks >> 12) & 1)
    return m & (m >> 1) & (m >> 2) & (m >> 3)


def _suit_masks(cards: np.ndarray) -> np.ndarray:
    """Per row, the 13-bit mask of the ranks of each suit's cards (rows x 4)."""
    bits = np.left_shift(1, cards >> 2)
    return np.stack([np.bitwise_or.reduce(np.where((cards & 3) == s, bits, 0), axis=1) for s in range(4)], axis=1)


def _hidden(holes: np.ndarray, board: np.ndarray, board_key: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The category and the ``made`` key of the best hand, and whether a hole card makes it
    (above the board's own hand, ``board_key``, by more than a kicker)."""
    t = tables()
    strength = best_strength(np.concatenate([holes, board], axis=1))
    category = t.category[strength].astype(np.int64)
    made = t.made[strength].astype(np.int64)
    return category, made, (category >= PAIR) & (made > board_key)


def flop_bets(holes: np.ndarray, flops: np.ndarray) -> np.ndarray:
    """Whether the written strategy bets at the flop, per (two hole cards, flop) row."""
    holes, flops = np.asarray(holes, dtype=np.int64), np.asarray(flops, dtype=np.int64)
    _, _, hidden = _hidden(holes, flops, board_made(flops))
    suits = _suit_masks(np.concatenate([holes, flops], axis=1))
    straight = _runs(np.bitwise_or.reduce(suits, axis=1)) != 0  # three flop cards alone are never four in a row
    flush = (np.bitwise_count(suits) >= 4).any(axis=1)
    return hidden | straight | flush


def turn_bets(holes: np.ndarray, boards: np.ndarray) -> np.ndarray:
    """Whether the written strategy bets at the turn, per (two hole cards, four board cards)
    row."""
    holes, boards = np.asarray(holes, dtype=np.int64), np.asarray(boards, dtype=np.int64)
    suits = _suit_masks(np.concatenate([holes, boards], axis=1))
    return _turn_bets(holes, boards, board_made(boards), _runs(_suit_masks(boards)), suits)


def _turn_bets(
    holes: np.ndarray, boards: np.ndarray, board_key: np.ndarray, board_runs: np.ndarray, suits: np.ndarray
) -> np.ndarray:
    """:func:`turn_bets` given each board's ``made`` key and runs of four per suit, and the
    suit masks of the six cards."""
    category, made, hidden = _hidden(holes, boards, board_key)
    pair_rank = (made // 14**4) % 14 - 1
    bets = hidden & ((category >= TWO_PAIR) | ((category == PAIR) & (pair_rank >= SIX)))
    return bets | ((_runs(suits) & ~board_runs) != 0).any(axis=1)  # a run of a suit the board alone does not make


def turn_masks(holes: np.ndarray, flops: np.ndarray, deck: tuple[int, ...] | range = range(52)) -> np.ndarray:
    """Per (two hole cards, flop) row, the turn cards of ``deck`` on which the rules bet, bit
    t for card t: what the turn kernel takes in place of its margins. Each board's own
    hand is read once per distinct flop and turn card."""
    holes, flops = np.asarray(holes, dtype=np.int64), np.asarray(flops, dtype=np.int64)
    distinct, which = np.unique(flops, axis=0, return_inverse=True)
    masks = np.zeros(len(holes), dtype=np.uint64)
    seen = np.concatenate([holes, flops], axis=1)
    five = _suit_masks(seen)
    for card in deck:
        rows = np.flatnonzero(~(seen == card).any(axis=1))
        fours = np.concatenate([distinct, np.full((len(distinct), 1), card)], axis=1)  # some hold the card twice:
        key, runs = board_made(fours)[which[rows]], _runs(_suit_masks(fours))[which[rows]]  # no row reads those
        board = np.concatenate([flops[rows], np.full((len(rows), 1), card)], axis=1)
        suits = five[rows]
        suits[:, card & 3] |= 1 << (card >> 2)
        masks[rows[_turn_bets(holes[rows], board, key, runs, suits)]] |= np.uint64(1) << np.uint64(card)
    return masks
