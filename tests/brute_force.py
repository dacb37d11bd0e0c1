"""Naive reference counts: every board, every player holding, every dealer holding.

The counting is the package's (:mod:`analysis.counting.naive`, which ``casino-omaha
verify`` runs too): independent of the enumerator kernel, it uses only the batch
evaluators (themselves checked against the exact category counts) and compares every pair
of holdings. The exposed-card variant, which only the tests need, is here.

Each deck is brute-forced once per test session: the results are memoised by the rules
that decide the counts (the call bet does not) and handed out read-only, so a test that
wrote into them would fail instead of changing another test's reference.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from itertools import combinations
from types import MappingProxyType

import numpy as np

from analysis.counting import naive
from analysis.counting.naive import boards, classify, counting_rules
from analysis.hands.lookup import dealer_qualifier, tables
from analysis.model.rules import Rules


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
    return frozen(naive.brute_force(rules))


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
