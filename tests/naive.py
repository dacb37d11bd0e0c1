"""Naive per-state reference: every turn/river pair, every dealer holding, evaluated and
compared one by one (independent of the enumerator kernel)."""

from itertools import combinations

import numpy as np

from analysis.rules import Rules
from analysis.tables import tables
from brute_force import classify, holding_values


def naive_state_counts(rules: Rules, hole, flop) -> np.ndarray:
    """40 counts (category x dealer result) of one decision state."""
    k, category = rules.hole_cards, tables().category
    used = set(hole) | set(flop)
    rest = [c for c in rules.deck if c not in used]
    out = np.zeros(40, dtype=np.int64)
    for tr in combinations(rest, 2):
        board = tuple(flop) + tr
        left = [c for c in rest if c not in tr]
        dealers = np.array(list(combinations(left, k)), dtype=np.int8)
        player = int(holding_values(rules, np.array([hole], dtype=np.int8), board)[0])
        dealer = holding_values(rules, dealers, board)
        counts = classify(np.array([player]), dealer, np.ones((1, len(dealer)), dtype=bool), rules.qualifier)[0]
        out[4 * category[player] : 4 * category[player] + 4] += counts
    return out
