"""One dealer card seen, exactly: every state (hole cards, flop, the dealer card e the
player saw) decided for a pay table and summed, by the compiled kernel
(:mod:`analysis._exposure`; the algorithm is in its docstring).

The player sees one of the dealer's cards at random, so every deal counts once per dealer
card: k times the base game's deals, over ``rules.states x (cards e can be)`` states of
``C(n-k-4, 2) x C(n-k-6, k-1)`` completions each. Per-state counts would not fit in
memory (18.7 billion states for Casino Omaha, 850 million up to suit symmetry), so the
kernel keeps sums per *group* of states: (holding group, base-game decision, rank of e x
its relation to the player's cards, decision). The holding group is the hand class x the simple strategy's decision, so
that every strategy that deviates from the simple one by hand class and card seen has an
exact EV (:mod:`analysis.protection.edges`). The run is split into shards of flop classes.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from math import comb
from typing import Any

import numpy as np

import analysis._exposure as _exposure
from analysis.counting.enumeration import Prepared, prepare
from analysis.counting.symmetry import FlopClass
from analysis.hands.classes import HAND_CLASSES, hand_profile
from analysis.hands.lookup import dealer_qualifier, hand_tables
from analysis.model.errors import InputError
from analysis.model.outcomes import COLUMNS
from analysis.model.payoffs import margin_coefficients
from analysis.model.paytable import PayTable
from analysis.model.rules import Rules
from analysis.parallel.threads import check_threads
from analysis.strategy.simple import SimpleStrategy

#: Holding groups: hand class x the simple strategy's decision.
HOLDING_GROUPS = 2 * len(HAND_CLASSES)
#: Groups of the seen card: 3 x rank + its relation to the player's cards (RELATIONS).
E_GROUPS = _exposure.E_GROUPS
RELATIONS = _exposure.RELATIONS
#: Axes of the group sums: holding group, base-game decision, e group, decision.
GROUP_SHAPE = (HOLDING_GROUPS, 2, E_GROUPS, 2)
#: Margins (and weight x margin) stay below this, so that the kernel's int64 sums are exact.
MARGIN_LIMIT = 2**62
#: Version of the exposure counts; part of a result's key.
EXPOSURE_VERSION = 1


@dataclass(frozen=True)
class ExposedGame:
    """The numbers of a game played with one dealer card seen."""

    rules: Rules

    @property
    def name(self) -> str:
        return self.rules.name

    @property
    def call_multiple(self) -> int:
        return self.rules.call_multiple

    @property
    def seen_choices(self) -> int:
        """Cards the seen dealer card can be, given the player's cards and the flop."""
        return len(self.rules.deck) - self.rules.hole_cards - 3

    @property
    def states(self) -> int:
        """Decision states: (hole cards, flop, seen dealer card)."""
        return self.rules.states * self.seen_choices

    @property
    def completions(self) -> int:
        """Deals per state: turn and river, then the dealer's other cards."""
        n, k = len(self.rules.deck), self.rules.hole_cards
        return comb(n - k - 4, 2) * comb(n - k - 6, k - 1)

    @property
    def total_combinations(self) -> int:
        return self.states * self.completions


@dataclass
class ExposureSums:
    """The kernel's sums over some flop classes (they add up over shards).

    ``states`` and ``margins`` are indexed by :data:`GROUP_SHAPE`: the weighted number of
    states and the sum of their margins ``base + coef . counts`` (EV(call) - EV(fold) times
    ``scale``); ``called`` holds the weighted counts of the called states, per count column.
    """

    states: np.ndarray  # uint64, GROUP_SHAPE
    margins: np.ndarray  # Python ints, GROUP_SHAPE
    called: np.ndarray  # uint64, 40 columns

    def __add__(self, other: ExposureSums) -> ExposureSums:
        return ExposureSums(self.states + other.states, self.margins + other.margins, self.called + other.called)

    @classmethod
    def zero(cls) -> ExposureSums:
        return cls(
            np.zeros(GROUP_SHAPE, np.uint64),
            np.zeros(GROUP_SHAPE, dtype=object),
            np.zeros(len(COLUMNS), np.uint64),
        )

    def to_json(self) -> dict[str, list[int]]:
        """Plain lists of exact integers."""
        return {
            "states": [int(v) for v in self.states.ravel()],
            "margins": [int(v) for v in self.margins.ravel()],
            "called": [int(v) for v in self.called],
        }

    @classmethod
    def from_json(cls, data: dict[str, list[int]]) -> ExposureSums:
        margins = np.empty(int(np.prod(GROUP_SHAPE)), dtype=object)
        margins[:] = [int(v) for v in data["margins"]]
        return cls(
            np.array(data["states"], dtype=np.uint64).reshape(GROUP_SHAPE),
            margins.reshape(GROUP_SHAPE),
            np.array(data["called"], dtype=np.uint64),
        )

    def digest(self) -> str:
        """SHA-256 of the sums' exact integers."""
        return hashlib.sha256(json.dumps(self.to_json(), separators=(",", ":")).encode()).hexdigest()


@dataclass(frozen=True)
class ExposureJob:
    """Everything a shard of the run needs (small and picklable, for a cluster)."""

    rules: Rules
    paytable: PayTable
    pays_on: str
    simple: SimpleStrategy

    def coefficients(self) -> tuple[list[int], int, int]:
        """(coef, base, d) of a state's margin; checked to keep the kernel's sums exact."""
        game = ExposedGame(self.rules)
        coef, base, d = margin_coefficients(self.paytable, self.rules, self.pays_on, game.completions)
        if (max(map(abs, coef)) * game.completions + base) * 256 >= MARGIN_LIMIT:
            raise InputError(
                f"pay table {self.paytable.name}: its pays' common denominator ({d}) is too large for the "
                "exposure kernel's 64-bit margins; round the pays to fewer decimals"
            )
        return coef, base, d

    def key(self) -> dict[str, Any]:
        """What the result depends on (a result store is keyed by it)."""
        return {
            "version": EXPOSURE_VERSION,
            "rules": self.rules.fingerprint(),
            "call_multiple": self.rules.call_multiple,
            "paytable": {c: str(p) for c, p in self.paytable.pays.items()},
            "pays_on": self.pays_on,
            "simple": {k: list(v) for k, v in sorted(self.simple.thresholds.items())},
        }

    def run(self, flops: list[FlopClass], threads: int | None = None) -> ExposureSums:
        """The sums of every state of the given flop classes (releases the GIL)."""
        coef, base, _ = self.coefficients()
        p = prepare(self.rules, flops)
        flop_rows = np.repeat(p.flop_cards, np.diff(p.hold_offsets), axis=0)
        groups = holding_groups(self.rules, p.holdings, flop_rows, self.simple)
        return ExposureSums(*count_exposed(p, groups, HOLDING_GROUPS, coef, base, threads=threads))


def count_exposed(
    p: Prepared,
    groups: np.ndarray,
    n_groups: int,
    coef: list[int],
    base: int,
    margins_out: np.ndarray | None = None,
    threads: int | None = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The kernel on prepared flop classes: (states, margins, called) sums, with every
    state's margin in ``margins_out`` (holdings x 52) when given."""
    rules = p.rules
    n, k = len(rules.deck), rules.hole_cards
    return _exposure.count_exposed(
        k,
        rules.omaha,
        dealer_qualifier(rules.qualifier_rank),
        sum(1 << c for c in rules.deck),
        rules.dealer_holdings,
        comb(n - 5 - k - 1, k - 1),
        p.flop_cards,
        p.holdings,
        p.hold_offsets,
        p.weights,
        np.ascontiguousarray(groups, dtype=np.int32),
        n_groups,
        p.tr_pairs,
        p.tr_new_orbit,
        p.tr_offsets,
        *hand_tables(rules.omaha),
        np.array(coef, dtype=np.int64),
        base,
        margins_out,
        check_threads(threads),
    )


def holding_groups(rules: Rules, holdings: np.ndarray, flops: np.ndarray, simple: SimpleStrategy) -> np.ndarray:
    """Holding group of each state: 2 x hand class + the simple strategy's decision."""
    profile = hand_profile(rules, holdings, flops)
    return (2 * profile.hand_class.astype(np.int32) + simple.decide(profile)).astype(np.int32)
