"""The simple strategy an advantage player uses when he sees one dealer card: a few rules
on top of the base game's simple strategy, derived exactly from the exposure run's group
sums, with its exact house edge.

The rules' shape is fixed; what they cover is derived, each choice the one that gains most:

1. The seen card pairs a flop card (the dealer has at least that pair): call the hand
   classes that gain by calling (every such state of the class), fold the others.
2. Otherwise, when the seen card is low (at most a derived rank): call every hand.
3. Otherwise, when it is high (at least a derived rank): fold the hand classes that lose
   by calling (those the simple strategy calls).
4. Otherwise: the simple strategy.

Every group of states is called or folded whole, so the strategy's EV is the sum of the
margins of the groups it calls: exact. Rule 2 is what surveillance sees most: calls with
hands the basic player folds, right after the dealer's card was exposed.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from analysis.hands.classes import HAND_CLASSES
from analysis.model.cards import RANKS
from analysis.protection.exposure import GROUP_SHAPE, RELATIONS, ExposureSums

PAIRS_FLOP = RELATIONS.index("pairs the flop")
#: Ranks: "never" thresholds of rules 2 and 3.
NO_LOW, NO_HIGH = -1, len(RANKS)


@dataclass
class GroupAxes:
    """The exposure run's groups, flattened, with what each group is."""

    states: np.ndarray  # int64 weighted states
    margins: np.ndarray  # Python ints: sum of margins
    hand_class: np.ndarray
    simple: np.ndarray  # bool: the simple strategy calls
    basic: np.ndarray  # bool: the base game's optimal strategy calls
    rank: np.ndarray  # rank of the card seen
    relation: np.ndarray  # index into RELATIONS
    call: np.ndarray  # bool: the optimal player who saw the card calls


def group_axes(sums: ExposureSums) -> GroupAxes:
    """The groups of :class:`analysis.protection.exposure.ExposureSums`, flattened."""
    index = np.indices(GROUP_SHAPE).reshape(len(GROUP_SHAPE), -1)
    hgroup, basic, egroup, call = index
    return GroupAxes(
        sums.states.astype(np.int64).ravel(),
        sums.margins.ravel(),
        hgroup // 2,
        (hgroup % 2).astype(bool),
        basic.astype(bool),
        egroup // len(RELATIONS),
        egroup % len(RELATIONS),
        call.astype(bool),
    )


@dataclass
class AdvantageStrategy:
    """The rules (see the module docstring) and the exact figures of playing them."""

    flop_pair_calls: tuple[str, ...]  # rule 1: classes called when the card pairs the flop
    low_rank: int  # rule 2: call everything up to this rank (NO_LOW: never)
    high_rank: int  # rule 3: from this rank up ... (NO_HIGH: never)
    high_folds: tuple[str, ...]  # ... fold these classes
    house_edge: Fraction
    call_rate: Fraction
    element_of_risk: Fraction
    simple_house_edge: Fraction  # the simple strategy, not looking at the card
    calls_basic_folds: Fraction  # share of states called where the basic optimal player folds

    def describe(self) -> list[str]:
        """The rules in words, in the order they are applied."""
        low = f"a {RANKS[self.low_rank]} or lower" if self.low_rank > 0 else f"a {RANKS[0]}"
        high = f"a {RANKS[self.high_rank]} or higher" if self.high_rank < len(RANKS) - 1 else f"an {RANKS[-1]}"
        lines = [
            "The seen card pairs a flop card: "
            + (f"call with {_classes(self.flop_pair_calls)}; fold the rest." if self.flop_pair_calls else "fold."),
            f"Otherwise, the seen card is {low}: call every hand."
            if self.low_rank != NO_LOW
            else "Otherwise, a low seen card changes nothing.",
            f"Otherwise, the seen card is {high}: fold {_classes(self.high_folds)}."
            if self.high_folds
            else "Otherwise, a high seen card changes nothing.",
            "Otherwise: play the simple strategy.",
        ]
        return lines

    def summary(self) -> dict[str, list[str] | float | str]:
        return {
            "rules": self.describe(),
            "house_edge": float(self.house_edge),
            "house_edge_exact": str(self.house_edge),
            "call_rate": float(self.call_rate),
            "element_of_risk": float(self.element_of_risk),
            "simple_strategy_house_edge": float(self.simple_house_edge),
            "calls_basic_folds": float(self.calls_basic_folds),
        }

    def calls(self, axes: GroupAxes) -> np.ndarray:
        """Whether the strategy calls each group."""
        pair = axes.relation == PAIRS_FLOP
        flop_calls = np.isin(axes.hand_class, [HAND_CLASSES.index(c) for c in self.flop_pair_calls])
        high_folds = np.isin(axes.hand_class, [HAND_CLASSES.index(c) for c in self.high_folds])
        return np.where(
            pair,
            flop_calls,
            (axes.rank <= self.low_rank) | (axes.simple & ~((axes.rank >= self.high_rank) & high_folds)),
        )


def _classes(names: Iterable[str]) -> str:
    return "; ".join(names)


def _sum(values: Iterable[int]) -> int:
    return int(sum(values, 0))


def derive_advantage_strategy(axes: GroupAxes, scale: int, call_multiple: int) -> AdvantageStrategy:
    """The rules that gain most over the simple strategy, and their exact figures."""
    m, pair = axes.margins, axes.relation == PAIRS_FLOP
    flop_calls = tuple(c for i, c in enumerate(HAND_CLASSES) if _sum(m[pair & (axes.hand_class == i)]) > 0)
    # rule 2: calling the states the simple strategy folds, for low ranks up to a threshold
    gain = [_sum(m[~pair & ~axes.simple & (axes.rank == r)]) for r in range(len(RANKS))]
    prefix = np.cumsum(np.array(gain, dtype=object))
    low = int(np.argmax(prefix)) if max(prefix) > 0 else NO_LOW
    # rule 3: folding classes the simple strategy calls, for ranks from a threshold up
    best: tuple[int, int, tuple[str, ...]] = (0, NO_HIGH, ())
    for high in range(low + 1, len(RANKS)):
        loss = {
            c: _sum(m[~pair & axes.simple & (axes.rank >= high) & (axes.hand_class == i)])
            for i, c in enumerate(HAND_CLASSES)
        }
        folds = tuple(c for c, v in loss.items() if v < 0)
        saved = -sum(loss[c] for c in folds)
        if saved > best[0] or (saved == best[0] and saved > 0 and high > best[1]):
            best = (saved, high, folds)
    strategy = AdvantageStrategy(flop_calls, low, best[1], best[2], *(Fraction(0),) * 5)
    called = strategy.calls(axes)
    total = int(axes.states.sum())
    ev = Fraction(_sum(m[called]) - total * scale, total * scale)
    simple_ev = Fraction(_sum(m[axes.simple]) - total * scale, total * scale)
    call_rate = Fraction(int(axes.states[called].sum()), total)
    strategy.house_edge, strategy.call_rate = -ev, call_rate
    strategy.element_of_risk = -ev / (1 + call_multiple * call_rate)
    strategy.simple_house_edge = -simple_ev
    strategy.calls_basic_folds = Fraction(int(axes.states[called & ~axes.basic].sum()), total)
    return strategy
