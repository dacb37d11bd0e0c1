"""Naive per-state reference: every turn/river pair, every dealer holding, evaluated and
compared one by one (independent of the enumerator kernel; the package's
:func:`analysis.counting.naive.naive_state_counts`, which ``casino-omaha verify`` runs
too). Each state is enumerated once per test session (memoised; the counts are handed out
read-only)."""

from functools import cache
from itertools import combinations

import numpy as np

from analysis.counting import naive
from analysis.counting.naive import cards, classify, counting_rules, holding_values
from analysis.hands.lookup import dealer_qualifier, tables
from analysis.model.rules import Rules


def naive_state_counts(rules: Rules, hole, flop) -> np.ndarray:
    """40 counts (category x dealer result) of one decision state."""
    return _naive_state_counts(counting_rules(rules), cards(hole), cards(flop))


def read_only(counts: np.ndarray) -> np.ndarray:
    counts.flags.writeable = False
    return counts


@cache
def _naive_state_counts(rules: Rules, hole: tuple[int, ...], flop: tuple[int, ...]) -> np.ndarray:
    return read_only(naive.naive_state_counts(rules, hole, flop))


def naive_informed_counts(rules: Rules, hole, flop, seen=(), dead=(), turn=None) -> np.ndarray:
    """40 counts of one state when the player also saw dealer cards ``seen``, knows the
    ``dead`` cards and (optionally) the turn: every board still to come, every dealer
    holding that contains the seen cards, evaluated one by one."""
    turn = None if turn is None else int(turn)
    return _naive_informed_counts(counting_rules(rules), cards(hole), cards(flop), cards(seen), cards(dead), turn)


@cache
def _naive_informed_counts(
    rules: Rules,
    hole: tuple[int, ...],
    flop: tuple[int, ...],
    seen: tuple[int, ...],
    dead: tuple[int, ...],
    turn: int | None,
) -> np.ndarray:
    k, category = rules.hole_cards, tables().category
    used = set(hole) | set(flop) | set(seen) | set(dead) | ({turn} if turn is not None else set())
    rest = [c for c in rules.deck if c not in used]
    boards = [(turn, r) for r in rest] if turn is not None else list(combinations(rest, 2))
    out = np.zeros(40, dtype=np.int64)
    for tr in boards:
        board = tuple(flop) + tr
        left = [c for c in rest if c not in tr]
        dealers = np.array([tuple(seen) + d for d in combinations(left, k - len(seen))], dtype=np.int8)
        player = int(holding_values(rules, np.array([hole], dtype=np.int8), board)[0])
        dealer = holding_values(rules, dealers, board)
        counts = classify(
            np.array([player]), dealer, np.ones((1, len(dealer)), dtype=bool), dealer_qualifier(rules.qualifier_rank)
        )[0]
        out[4 * category[player] : 4 * category[player] + 4] += counts
    return read_only(out)
