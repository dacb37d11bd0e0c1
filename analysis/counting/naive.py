"""Naive reference counts, independent of the enumerator kernel: every board, every player
holding, every dealer holding, evaluated with the batch evaluators only
(:mod:`analysis.hands.evaluate`, themselves checked against the exact category counts) and
compared pair by pair. Slow on purpose: what it has in its favour is that it is obviously
right.

* :func:`naive_state_counts`: the 40 counts of one decision state of any deck (a few
  seconds for a full-deck Casino Omaha state), by every turn and river and every dealer
  holding of the cards left;
* :func:`brute_force`: the 40 counts of every decision state of a (small) deck, every
  player holding against every dealer holding on every board.

``casino-omaha verify`` and the tests compare the enumerator's counts with these.

>>> from analysis.model.rules import preset
>>> rules = preset("casino-holdem").small_deck("9TJQKA", "cd")
>>> counts = brute_force(rules)
>>> len(counts) == rules.states, sum(int(c.sum()) for c in counts.values()) == rules.total_combinations
(True, True)
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import replace
from itertools import combinations

import numpy as np

from analysis.hands.evaluate import best_strength, omaha_strength
from analysis.hands.lookup import dealer_qualifier, tables
from analysis.model.rules import Rules

#: One decision state of a deck: (flop, hole cards), each a tuple of card codes.
State = tuple[tuple[int, ...], tuple[int, ...]]


def holding_values(rules: Rules, holds: np.ndarray, board: tuple[int, ...]) -> np.ndarray:
    """The final strength of each holding (a row of ``holds``) with the five board cards."""
    boards = np.tile(np.array(board, dtype=np.int8), (len(holds), 1))
    if rules.omaha:
        return omaha_strength(holds, boards).astype(np.int64)
    return best_strength(np.concatenate([holds, boards], axis=1)).astype(np.int64)


def classify(player: np.ndarray, dealer: np.ndarray, disjoint: np.ndarray, qualifier: int) -> np.ndarray:
    """players x 4 counts of the dealer holdings disjoint from each player holding (the
    ``disjoint`` players x dealers mask): not qualifying, win, tie, loss."""
    qual = dealer[None, :] >= qualifier
    p, d = player[:, None], dealer[None, :]
    return np.stack(
        [
            (disjoint & ~qual).sum(1),
            (disjoint & qual & (d < p)).sum(1),
            (disjoint & qual & (d == p)).sum(1),
            (disjoint & qual & (d > p)).sum(1),
        ],
        axis=1,
    )


def boards(rules: Rules, flop: tuple[int, ...]) -> Iterator[tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]]:
    """For every turn and river after the flop: (holdings from the cards left, their values,
    their card masks, which pairs of them are disjoint)."""
    rest = [c for c in rules.deck if c not in flop]
    for tr in combinations(rest, 2):
        left = [c for c in rest if c not in tr]
        hs = np.array(list(combinations(left, rules.hole_cards)), dtype=np.int8)
        vals = holding_values(rules, hs, tuple(flop) + tr)
        masks = np.zeros(len(hs), dtype=np.int64)
        for j in range(rules.hole_cards):
            masks |= np.int64(1) << hs[:, j].astype(np.int64)
        yield hs, vals, masks, (masks[:, None] & masks[None, :]) == 0


def counting_rules(rules: Rules) -> Rules:
    """The rules with the call bet at its default: it changes no count (a key for caches)."""
    return replace(rules, call_multiple=2)


def cards(cs: Sequence[int] | np.ndarray) -> tuple[int, ...]:
    """Card codes as a tuple of plain ints."""
    return tuple(int(c) for c in cs)


def naive_state_counts(rules: Rules, hole: Sequence[int] | np.ndarray, flop: Sequence[int] | np.ndarray) -> np.ndarray:
    """The 40 counts (category x dealer result, int64) of one decision state: every turn and
    river, every dealer holding of the cards left, evaluated and compared one by one."""
    hole_t, flop_t = cards(hole), cards(flop)
    k, category = rules.hole_cards, tables().category
    qualifier = dealer_qualifier(rules.qualifier_rank)
    used = set(hole_t) | set(flop_t)
    rest = [c for c in rules.deck if c not in used]
    out = np.zeros(40, dtype=np.int64)
    for tr in combinations(rest, 2):
        board = flop_t + tr
        left = [c for c in rest if c not in tr]
        dealers = np.array(list(combinations(left, k)), dtype=np.int8)
        player = int(holding_values(rules, np.array([hole_t], dtype=np.int8), board)[0])
        dealer = holding_values(rules, dealers, board)
        counts = classify(np.array([player]), dealer, np.ones((1, len(dealer)), dtype=bool), qualifier)[0]
        out[4 * category[player] : 4 * category[player] + 4] += counts
    return out


def brute_force(rules: Rules) -> dict[State, np.ndarray]:
    """{(flop, hole): 40 counts} for every decision state of a (small) deck: on every board,
    every player holding against every dealer holding disjoint from it."""
    k, deck = rules.hole_cards, rules.deck
    category = tables().category
    qualifier = dealer_qualifier(rules.qualifier_rank)
    result: dict[State, np.ndarray] = {}
    for flop in combinations(deck, 3):
        rest = [c for c in deck if c not in flop]
        holds = list(combinations(rest, k))
        row_of = {h: i for i, h in enumerate(holds)}
        acc = np.zeros((len(holds), 40), dtype=np.int64)
        for hs, vals, _, disjoint in boards(rules, flop):
            counts = classify(vals, vals, disjoint, qualifier)
            rows = np.array([row_of[cards(h)] for h in hs])
            cols = 4 * category[vals].astype(np.int64)
            for r in range(4):
                np.add.at(acc, (rows, cols + r), counts[:, r])
        for h, i in row_of.items():
            result[(flop, h)] = acc[i]
    return result
