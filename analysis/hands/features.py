"""What a player sees at the decision: made hand and draws of each state, vectorised.

A state is the player's hole cards and the flop. In Omaha games the final hand uses
**exactly 2** hole cards and 3 board cards, so every feature is computed over the player's
2-card subsets of his hole cards: a flush draw needs two hole cards of the suit and two on
the flop, a straight draw two hole ranks and two flop ranks. In Hold'em-style games
(best 5 of all) any of the cards count.

>>> from analysis.model.cards import parse_cards
>>> from analysis.model.rules import preset
>>> holes = [parse_cards("Ah 9h 2c"), parse_cards("9c Td 2c")]
>>> flops = [parse_cards("Kh 8h Tc"), parse_cards("Jh Qh 3c")]
>>> f = state_features(preset("casino-omaha"), holes, flops)
>>> f.flush_draw.tolist(), f.backdoor_flush.tolist(), f.straight_outs.tolist(), f.overcards.tolist()
([True, False], [False, True], [0, 2], [1, 0])
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from functools import cache
from itertools import combinations

import numpy as np
from numpy.typing import ArrayLike

from analysis.hands.evaluate import best_strength, omaha_strength
from analysis.hands.lookup import tables
from analysis.model.categories import FLUSH, STRAIGHT
from analysis.model.rules import Rules

#: Rank masks of the ten straights (the wheel A-2-3-4-5 first).
STRAIGHT_MASKS = np.array([0b1000000001111] + [0b11111 << low for low in range(9)], dtype=np.int32)


@dataclass
class StateFeatures:
    """Per-state features (one entry per state, in the order given)."""

    made: np.ndarray  # category code of the best hand made now (hole cards + flop)
    made_rank: np.ndarray  # its main rank: the pair's rank, the top pair's, the trips' (0..12 = 2..A)
    board_pair_only: np.ndarray  # a pair that is the flop's own pair: the hole cards add nothing
    flush_draw: np.ndarray  # four to a flush that one more suited board card completes
    backdoor_flush: np.ndarray  # three to a flush that needs both turn and river
    straight_outs: np.ndarray  # ranks that complete a straight with one more board card (2: open-ended)
    overcards: np.ndarray  # hole cards ranked above every flop card
    high_rank: np.ndarray  # the player's highest hole rank
    second_rank: np.ndarray  # his second-highest hole rank (equal to the highest with a pocket pair)

    def __len__(self) -> int:
        return len(self.made)

    @property
    def top_two(self) -> np.ndarray:
        """The two highest hole ranks as one number, ``13 * highest + second``: A-K > A-2 > K-Q."""
        return 13 * self.high_rank.astype(np.int16) + self.second_rank

    @staticmethod
    def concat(parts: list[StateFeatures]) -> StateFeatures:
        return StateFeatures(*(np.concatenate([getattr(p, f.name) for p in parts]) for f in fields(StateFeatures)))


def _rank_mask(*ranks: np.ndarray) -> np.ndarray:
    """13-bit mask of the given rank columns."""
    mask = np.zeros(len(ranks[0]), dtype=np.int32)
    for r in ranks:
        mask |= np.left_shift(1, r, dtype=np.int32)
    return mask


def _suit_counts(suits: np.ndarray) -> list[np.ndarray]:
    """Per suit 0..3, how many of each row's cards have it."""
    return [sum((suits[:, j] == s).astype(np.int8) for j in range(suits.shape[1])) for s in range(4)]


@cache
def straight_outs_table() -> np.ndarray:
    """For every 13-bit rank mask: the mask of ranks that would complete a straight it lacks."""
    masks = np.arange(1 << 13, dtype=np.int32)
    outs = np.zeros(len(masks), dtype=np.int32)
    for s in STRAIGHT_MASKS:
        missing = s & ~masks
        one_missing = (missing != 0) & ((missing & (missing - 1)) == 0)
        outs |= np.where(one_missing, missing, 0)
    return outs


@cache
def popcount_table() -> np.ndarray:
    """Number of set bits of every 13-bit mask."""
    return np.array([bin(m).count("1") for m in range(1 << 13)], dtype=np.int8)


def _chunk_features(rules: Rules, hole: np.ndarray, flop: np.ndarray) -> StateFeatures:
    hole, flop = hole.astype(np.int8), flop.astype(np.int8)
    hr, fr = hole >> 2, flop >> 2
    hs, fs = hole & 3, flop & 3
    pop, outs_of = popcount_table(), straight_outs_table()
    if rules.omaha:
        strength = omaha_strength(np.ascontiguousarray(hole), np.ascontiguousarray(flop))
    else:
        strength = best_strength(np.ascontiguousarray(np.concatenate([hole, flop], axis=1)))
    made = tables().category[strength].astype(np.int8)
    made_rank = tables().primary[strength].astype(np.int8)
    flop_paired = (fr[:, 0] == fr[:, 1]) | (fr[:, 1] == fr[:, 2]) | (fr[:, 0] == fr[:, 2])
    board_pair_only = (made == 1) & flop_paired

    hole_suited, flop_suited = _suit_counts(hs), _suit_counts(fs)
    if rules.omaha:
        # exactly two hole cards of the suit go into a flush
        flush_draw = np.logical_or.reduce([(h >= 2) & (f == 2) for h, f in zip(hole_suited, flop_suited)])
        backdoor = np.logical_or.reduce([(h >= 2) & (f == 1) for h, f in zip(hole_suited, flop_suited)])
        # four ranks: two hole ranks and two flop ranks, all different
        outs = np.zeros(len(hole), dtype=np.int32)
        for a, b in combinations(range(hole.shape[1]), 2):
            for c, d in combinations(range(3), 2):
                mask = _rank_mask(hr[:, a], hr[:, b], fr[:, c], fr[:, d])
                outs |= np.where(pop[mask] == 4, outs_of[mask], 0)
    else:
        flush_draw = np.logical_or.reduce([h + f == 4 for h, f in zip(hole_suited, flop_suited)])
        backdoor = np.logical_or.reduce([h + f == 3 for h, f in zip(hole_suited, flop_suited)])
        outs = outs_of[_rank_mask(*(hr[:, j] for j in range(hr.shape[1])), *(fr[:, j] for j in range(3)))]
    not_better = made < STRAIGHT  # a straight draw means nothing to a made straight or better
    by_rank = np.sort(hr, axis=1)
    flop_top = np.maximum.reduce([fr[:, j] for j in range(3)])
    overcards = sum((hr[:, j] > flop_top).astype(np.int8) for j in range(hr.shape[1]))
    return StateFeatures(
        made=made,
        made_rank=made_rank,
        board_pair_only=board_pair_only,
        flush_draw=flush_draw & (made < FLUSH),
        backdoor_flush=backdoor & (made < FLUSH),
        straight_outs=np.where(not_better, pop[outs], 0).astype(np.int8),
        overcards=overcards,
        high_rank=by_rank[:, -1],
        second_rank=by_rank[:, -2],
    )


def state_features(rules: Rules, hole: ArrayLike, flop: ArrayLike, chunk: int = 1 << 21) -> StateFeatures:
    """Features of every state (rows of hole cards and flops), computed in chunks."""
    hole, flop = np.atleast_2d(np.asarray(hole)), np.atleast_2d(np.asarray(flop))
    parts = [_chunk_features(rules, hole[i : i + chunk], flop[i : i + chunk]) for i in range(0, len(hole), chunk)]
    return StateFeatures.concat(parts) if parts else _chunk_features(rules, hole, flop)
