"""A community card seen early in a game without a dealer (Let It Ride, Mississippi Stud),
exactly: the community cards are dealt face down before the first decision, and a dealer
who flashes one of them gives the player that card from the start. He then decides every
street before it is turned knowing it as well as the cards he holds.

What the player knows at a decision is a set of cards (the card seen is one of them, and
which one does not matter: the final hand is the set of five), so the exposed game is the
engine's backward induction (:func:`~analysis.engine.hand_paid.solve_hand_paid`) on sets one
card larger up to the street of the card seen, joined there to the game's own values. Every
deal counts once: the hole cards, the card seen and the order of the others.

>>> from analysis.model.game import load_game
>>> ride = load_game("let-it-ride")
>>> [e.house_edge for e in community_card_exposure(ride)]  # tests/test_hand_paid.py: every deal played out
[Fraction(-7027, 83300), Fraction(-66142, 270725)]
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from math import comb, perm

import numpy as np

from analysis.engine.hand_paid import HandPaidFigures, final_nets, held_sets, solve_hand_paid
from analysis.model.errors import InputError
from analysis.model.game import GameSpec


@dataclass(frozen=True)
class CommunityCardExposure:
    """The game played by a player who saw the card of one street (0: the first turned)
    from the start: the house edge per unit (negative: the player's edge) and the deals."""

    street: int
    house_edge: Fraction
    deals: int
    base: HandPaidFigures


def community_card_exposure(game: GameSpec, base: HandPaidFigures | None = None) -> list[CommunityCardExposure]:
    """``game`` with each street's card seen from the start, one result per street, exactly
    (``base``: the game already solved)."""
    hp = game.hand_paid
    if hp is None:
        raise InputError(f"{game.title} has a dealer: a card of his is counted by protect --exposed")
    if set(hp.streets) != {1}:
        raise InputError(f"{game.title}: a community card seen early is counted where the streets turn one card each")
    base = solve_hand_paid(game) if base is None else base
    return [_exposed(game, base, k) for k in range(len(hp.streets))]


def _exposed(game: GameSpec, base: HandPaidFigures, k: int) -> CommunityCardExposure:
    """The card of street ``k`` seen from the start: backward from the decision before that
    street (which knows what the game's next decision knows) to the first."""
    hp = game.hand_paid
    assert hp is not None
    n, scale = len(game.rules.deck), base.scale
    if k + 1 < len(hp.seen):  # the values of the game's own next decision, its best option taken
        later = {s: v.max(axis=0) for s, v in base.values[k + 1].items()}
    else:  # the card seen is the last: the decision before it knows the final hand
        nets = final_nets(game)[1]
        later = {s: s * nets for s in hp.stakes[-1]}
    for j in reversed(range(k + 1)):
        known = hp.seen[j] + 1  # his cards and the card seen
        completions = perm(n - known, 5 - known)  # the cards still to come, in their order
        if j < k:  # the next street's card is not the one seen: each is summed over
            holds = held_sets(n, known + 1, known)
            order = sorted(later)
            later = dict(zip(order, (holds @ np.stack([later[s] for s in order], axis=1)).T))
        values = {
            s: np.stack(
                [
                    np.full(comb(n, known), -s * scale * completions, dtype=np.int64)
                    if m.kind == "fold"
                    else later[s + m.change]
                    for m in hp.options(j)
                ]
            )
            for s in hp.stakes[j]
        }
        later = {s: v.max(axis=0) for s, v in values.items()}
    first = hp.seen[0] + 1
    deals = comb(n, first) * first * perm(n - first, 5 - first)
    total = int(later[hp.start].sum()) * first
    return CommunityCardExposure(k, -Fraction(total, scale * deals), deals, base)
