"""States with more information than the player's cards and the flop: dealer cards he saw,
the turn shown early, dead cards (hole cards partners showed him). Their exact counts come
from enumerating each state's completions (:mod:`analysis._informed`), their EVs from the
pay table.

>>> from analysis.model.cards import parse_cards
>>> from analysis.model.rules import preset
>>> know = Knowledge(seen=tuple(parse_cards("3c")))
>>> completions(preset("casino-omaha"), know)  # C(45, 2) boards x C(43, 2) rests of the dealer
893970
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from math import comb

import numpy as np

import analysis._informed as _informed
from analysis.hands.lookup import dealer_qualifier, hand_tables
from analysis.model.cards import format_cards
from analysis.model.errors import InputError
from analysis.model.payoffs import margin_coefficients
from analysis.model.paytable import PayTable
from analysis.model.rules import Rules
from analysis.parallel.threads import check_threads


@dataclass(frozen=True)
class Knowledge:
    """What the player knows besides his cards and the flop."""

    seen: tuple[int, ...] = ()  # dealer cards he saw
    dead: tuple[int, ...] = ()  # cards out of play (other seats' hole cards)
    turn: int | None = None  # the turn card, shown before he decides

    def cards(self) -> list[int]:
        return list(self.seen) + list(self.dead) + ([self.turn] if self.turn is not None else [])


def unseen_cards(rules: Rules, knowledge: Knowledge) -> int:
    """Cards nobody at the decision has seen: the turn and river to come, the dealer's rest."""
    return len(rules.deck) - rules.hole_cards - 3 - len(knowledge.cards())


def completions(rules: Rules, knowledge: Knowledge) -> int:
    """Deals per state: the board cards still to come, then the dealer's unseen cards."""
    n, unseen_dealer = unseen_cards(rules, knowledge), rules.hole_cards - len(knowledge.seen)
    if knowledge.turn is not None:
        return n * comb(n - 1, unseen_dealer)
    return comb(n, 2) * comb(n - 2, unseen_dealer)


def check_knowledge(rules: Rules, hole: Sequence[int], flop: Sequence[int], knowledge: Knowledge) -> None:
    """Raise ValueError (naming the cards) unless the state can be dealt."""
    cards = list(hole) + list(flop) + knowledge.cards()
    if len(set(cards)) != len(cards):
        twice = sorted({c for c in cards if cards.count(c) > 1})
        raise InputError(f"{format_cards(twice)} dealt twice (hole, flop, seen, dead and turn cards must differ)")
    outside = [c for c in cards if c not in rules.deck]
    if outside:
        raise InputError(f"{format_cards(outside)} not in the deck of {rules.name}")
    if len(knowledge.seen) > rules.hole_cards:
        raise InputError(f"the dealer holds {rules.hole_cards} cards; {len(knowledge.seen)} seen")
    if unseen_cards(rules, knowledge) < (1 if knowledge.turn is not None else 2) + rules.hole_cards - len(
        knowledge.seen
    ):
        raise InputError(f"{len(knowledge.dead)} dead cards leave too few cards to finish the deal")


def count_informed(
    rules: Rules,
    holes: np.ndarray,
    flops: np.ndarray,
    seen: np.ndarray,
    turns: np.ndarray,
    dead: np.ndarray,
    threads: int | None = None,
) -> np.ndarray:
    """The 40 exact counts of each state: rows of hole cards, flops, seen dealer cards (k a
    row, -1 for none), turns (-1: to come) and dead-card bit masks (uint64)."""
    out = np.zeros((len(holes), 40), dtype=np.uint32)
    _informed.count_informed(
        rules.hole_cards,
        rules.omaha,
        dealer_qualifier(rules.qualifier_rank),
        sum(1 << c for c in rules.deck),
        np.ascontiguousarray(holes, dtype=np.int8),
        np.ascontiguousarray(flops, dtype=np.int8),
        np.ascontiguousarray(seen, dtype=np.int8),
        np.ascontiguousarray(turns, dtype=np.int8),
        np.ascontiguousarray(dead, dtype=np.uint64),
        *hand_tables(rules.omaha),
        out,
        check_threads(threads),
    )
    return out


def state_counts(rules: Rules, hole: Sequence[int], flop: Sequence[int], knowledge: Knowledge) -> np.ndarray:
    """The 40 exact counts of one state with the given knowledge (checked)."""
    check_knowledge(rules, hole, flop, knowledge)
    seen = list(knowledge.seen) + [-1] * (rules.hole_cards - len(knowledge.seen))
    counts = count_informed(
        rules,
        np.array([hole]),
        np.array([flop]),
        np.array([seen]),
        np.array([-1 if knowledge.turn is None else knowledge.turn]),
        np.array([sum(1 << c for c in knowledge.dead)], dtype=np.uint64),
        threads=1,
    )[0].astype(np.int64)
    if int(counts.sum()) != completions(rules, knowledge):
        raise AssertionError(f"the state's counts add up to {int(counts.sum())}, not {completions(rules, knowledge)}")
    return counts


def call_margin(rules: Rules, counts: np.ndarray, total: int, paytable: PayTable, pays_on: str) -> Fraction:
    """Exact EV(call) - EV(fold), in antes, of a state with these counts (``total`` deals)."""
    coef, base, _ = margin_coefficients(paytable, rules, pays_on, total)
    return Fraction(base + sum(c * int(n) for c, n in zip(coef, counts)), base)
