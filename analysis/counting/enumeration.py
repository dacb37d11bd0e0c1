"""Exact enumeration: drives the compiled counting kernel over flop classes.

For every decision state (hole cards + flop) the kernel counts all its completions by
(player final category x dealer result): the 40 columns of
:data:`analysis.model.outcomes.COLUMNS`. The pay table never enters here. States are
enumerated one per suit-symmetry orbit, with the number of real states each stands for.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

import analysis._enumerator as _enumerator
from analysis.counting.symmetry import FlopClass, flop_classes, flop_holdings, turn_river_orbits
from analysis.hands.lookup import dealer_qualifier, hand_tables
from analysis.model.errors import InputError
from analysis.model.outcomes import COLUMNS, StateCounts
from analysis.model.rules import Rules
from analysis.parallel.threads import check_threads


def plan(rules: Rules) -> list[FlopClass]:
    """The flop classes of the game's deck, in code order (the shard units)."""
    return flop_classes(rules.deck, rules.suits)


@dataclass
class Prepared:
    """Kernel inputs for some flop classes (built in Python, run in the kernel)."""

    rules: Rules
    flop_cards: np.ndarray
    holdings: np.ndarray
    hold_offsets: np.ndarray
    weights: np.ndarray
    tr_pairs: np.ndarray
    tr_new_orbit: np.ndarray
    tr_offsets: np.ndarray

    def game_args(self) -> tuple[int, bool, int, int, int]:
        """The kernels' first arguments (:meth:`game_args_of` the rules)."""
        return self.game_args_of(self.rules)

    @staticmethod
    def game_args_of(r: Rules) -> tuple[int, bool, int, int, int]:
        """The kernels' first arguments: hole cards, Omaha or not, the qualifier's strength,
        the deck as a bit set, dealer holdings per board and player holding."""
        return r.hole_cards, r.omaha, dealer_qualifier(r.qualifier_rank), sum(1 << c for c in r.deck), r.dealer_holdings

    def layout_args(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """The kernels' flop-by-flop layout: flops, holdings, turn/river orbits, offsets."""
        return self.flop_cards, self.holdings, self.hold_offsets, self.tr_pairs, self.tr_new_orbit, self.tr_offsets


def prepare(rules: Rules, flops: list[FlopClass]) -> Prepared:
    """Canonical holdings and turn/river orbits of each flop class, as kernel arrays."""
    k = rules.hole_cards
    holds, weights, trs, news = [], [], [], []
    for fc in flops:
        h, sizes = flop_holdings(fc, rules.deck, k)
        tr, new = turn_river_orbits(fc, rules.deck)
        holds.append(h)
        weights.append(sizes * fc.multiplicity)
        trs.append(tr)
        news.append(new)
    return Prepared(
        rules=rules,
        flop_cards=np.array([fc.cards for fc in flops], dtype=np.int8).reshape(-1, 3),
        holdings=np.ascontiguousarray(np.concatenate(holds), dtype=np.int8),
        hold_offsets=np.concatenate([[0], np.cumsum([len(h) for h in holds])]).astype(np.int64),
        weights=np.concatenate(weights),
        tr_pairs=np.ascontiguousarray(np.concatenate(trs), dtype=np.int8),
        tr_new_orbit=np.concatenate(news).astype(np.uint8),
        tr_offsets=np.concatenate([[0], np.cumsum([len(t) for t in trs])]).astype(np.int64),
    )


def board_results(rules: Rules, threads: int | None = None) -> _enumerator.BoardResults:
    """Every board's class results for the kernel, once per suit-isomorphism class of boards
    (1.70 GiB for a 52-card Omaha deck, built in 2 to 4 s): worth it for many flops."""
    return _enumerator.BoardResults(*Prepared.game_args_of(rules), *hand_tables(rules.omaha), check_threads(threads))


@lru_cache(maxsize=1)
def _shared_board_results(rules: Rules) -> _enumerator.BoardResults:
    """The last game's board results, kept for the next shard of the same game (a worker's)."""
    return board_results(rules)


def run(p: Prepared, threads: int | None = None, boards: _enumerator.BoardResults | None = None) -> StateCounts:
    """Run the counting kernel on prepared flop classes (releases the GIL), reading each
    board's class results from ``boards`` (:func:`board_results`) when given."""
    rules = p.rules
    out = np.zeros((len(p.holdings), len(COLUMNS)), dtype=np.uint32)
    _enumerator.count_states(
        *p.game_args(), *p.layout_args(), *hand_tables(rules.omaha), out, check_threads(threads), boards
    )
    return StateCounts(
        flop=np.repeat(p.flop_cards, np.diff(p.hold_offsets), axis=0),
        hole=p.holdings,
        weight=p.weights,
        counts=out,
    )


def count_flops(rules: Rules, flops: list[FlopClass], threads: int | None = None) -> StateCounts:
    """Exact counts for every canonical state of the given flop classes (a shard: the
    game's board results are kept for the next one)."""
    return run(prepare(rules, flops), threads, _shared_board_results(rules))


def single_state(rules: Rules, hole: Iterable[int], flop: Iterable[int]) -> Prepared:
    """Kernel inputs of one decision state on its own (no symmetry: every turn/river pair)."""
    hole_cards, flop_cards = sorted(int(c) for c in hole), sorted(int(c) for c in flop)
    deck = set(rules.deck)
    cards = hole_cards + flop_cards
    if len(hole_cards) != rules.hole_cards or len(flop_cards) != 3 or len(set(cards)) != rules.hole_cards + 3:
        raise InputError(f"a state is {rules.hole_cards} hole cards and 3 flop cards, all different")
    if not set(cards) <= deck:
        raise InputError("the state uses cards that are not in the game's deck")
    rest = sorted(deck - set(cards))
    pairs = np.array([(a, b) for i, a in enumerate(rest) for b in rest[i + 1 :]], dtype=np.int8)
    return Prepared(
        rules=rules,
        flop_cards=np.array([flop_cards], dtype=np.int8),
        holdings=np.array([hole_cards], dtype=np.int8),
        hold_offsets=np.array([0, 1], dtype=np.int64),
        weights=np.ones(1, dtype=np.int64),
        tr_pairs=pairs,
        tr_new_orbit=np.ones(len(pairs), dtype=np.uint8),  # no symmetry used: each pair alone
        tr_offsets=np.array([0, len(pairs)], dtype=np.int64),
    )


def count_state(rules: Rules, hole: Iterable[int], flop: Iterable[int], threads: int = 1) -> np.ndarray:
    """Exact counts (40 columns) of one decision state, enumerated on its own."""
    return run(single_state(rules, hole, flop), threads).counts[0]
