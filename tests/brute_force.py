"""Naive reference counts: every board, every player holding, every dealer holding.

Independent of the enumerator kernel: it uses only the batch evaluators (themselves
checked against the exact category counts) and compares every pair of holdings.

Each deck is brute-forced once per test session: the results are memoised by the rules
that decide the counts (the call bet does not) and handed out read-only, so a test that
wrote into them would fail instead of changing another test's reference.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from functools import cache
from itertools import combinations
from types import MappingProxyType

import numpy as np

from analysis.hands.evaluate import best_strength, omaha_strength
from analysis.hands.lookup import dealer_qualifier, tables
from analysis.model.rules import Rules


def holding_values(rules: Rules, holds: np.ndarray, board: tuple[int, ...]) -> np.ndarray:
    boards = np.tile(np.array(board, dtype=np.int8), (len(holds), 1))
    if rules.omaha:
        return omaha_strength(holds, boards).astype(np.int64)
    return best_strength(np.concatenate([holds, boards], axis=1)).astype(np.int64)


def classify(player: np.ndarray, dealer: np.ndarray, disjoint: np.ndarray, qualifier: int) -> np.ndarray:
    """players x 4 counts of disjoint dealer holdings: not qualifying, win, tie, loss."""
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


def boards(rules: Rules, flop: tuple[int, ...]):
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
    """The rules with the call bet at its default: it changes no count, so it is no key."""
    return replace(rules, call_multiple=2)


def frozen(result: dict) -> Mapping:
    """The result, read-only: a shared reference must not be changed by one test."""
    for counts in result.values():
        counts.flags.writeable = False
    return MappingProxyType(result)


def brute_force(rules: Rules) -> Mapping[tuple[tuple[int, ...], tuple[int, ...]], np.ndarray]:
    """{(flop, hole): 40 counts} for every decision state of the (small) deck (memoised,
    read-only)."""
    return _brute_force(counting_rules(rules))


@cache
def _brute_force(rules: Rules) -> Mapping[tuple[tuple[int, ...], tuple[int, ...]], np.ndarray]:
    k, deck = rules.hole_cards, rules.deck
    category = tables().category
    result = {}
    for flop in combinations(deck, 3):
        rest = [c for c in deck if c not in flop]
        holds = list(combinations(rest, k))
        row_of = {h: i for i, h in enumerate(holds)}
        acc = np.zeros((len(holds), 40), dtype=np.int64)
        for hs, vals, _, disjoint in boards(rules, flop):
            counts = classify(vals, vals, disjoint, dealer_qualifier(rules.qualifier_rank))
            rows = np.array([row_of[tuple(int(c) for c in h)] for h in hs])
            cols = 4 * category[vals].astype(np.int64)
            for r in range(4):
                np.add.at(acc, (rows, cols + r), counts[:, r])
        for h, i in row_of.items():
            result[(flop, h)] = acc[i]
    return frozen(result)


def brute_force_exposed(rules: Rules, flops=None) -> Mapping[tuple[tuple[int, ...], tuple[int, ...], int], np.ndarray]:
    """{(flop, hole, e): 40 counts} for every state of the given flops (default: all) when
    the player sees the dealer's card e: every board, and every dealer holding with e
    (memoised, read-only)."""
    flops = combinations(rules.deck, 3) if flops is None else flops
    return _brute_force_exposed(counting_rules(rules), tuple(tuple(int(c) for c in flop) for flop in flops))


@cache
def _brute_force_exposed(
    rules: Rules, flops: tuple[tuple[int, ...], ...]
) -> Mapping[tuple[tuple[int, ...], tuple[int, ...], int], np.ndarray]:
    k, deck = rules.hole_cards, rules.deck
    category = tables().category
    result = {}
    for flop in flops:
        rest = [c for c in deck if c not in flop]
        holds = list(combinations(rest, k))
        row_of = {h: i for i, h in enumerate(holds)}
        acc = np.zeros((len(holds), 52, 40), dtype=np.int64)
        for hs, vals, masks, disjoint in boards(rules, flop):
            counts = classify(
                vals, vals, disjoint, dealer_qualifier(rules.qualifier_rank)
            )  # check of the 4 results' order
            p, d = vals[:, None], vals[None, :]
            code = np.where(d < dealer_qualifier(rules.qualifier_rank), 0, np.where(d < p, 1, np.where(d == p, 2, 3)))
            contains = ((masks[:, None] >> np.arange(52)) & 1).astype(np.int64)  # dealer holding x card e
            rows = np.array([row_of[tuple(int(c) for c in h)] for h in hs])
            for r in range(4):
                per_e = (disjoint & (code == r)).astype(np.int64) @ contains  # player holding x card e
                assert (per_e.sum(axis=1) == k * counts[:, r]).all()
                np.add.at(acc, (rows, slice(None), 4 * category[vals].astype(np.int64) + r), per_e * (1 - contains))
        for h, i in row_of.items():
            for e in rest:
                if e not in h:
                    result[(flop, h, e)] = acc[i, e]
    return frozen(result)
