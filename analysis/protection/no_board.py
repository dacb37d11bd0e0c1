"""Game protection for the games without a board (Three Card Poker, Caribbean Stud): a
flashed dealer card is one more card the player sees before his decision, so the exposed
game is the same game with the dealer showing it, solved exactly state by state (a state is
the player's hand and the cards he saw). What the card is worth, by its rank, and the
pattern that gives the player away: how often he plays a hand the optimal player folds, and
folds one he plays. A hole card beside the up card (Caribbean Stud, Four Card Poker: 145
million states) is counted a chunk at a time by :mod:`analysis.protection.hole_card`; any
number of cards can also be drawn at random, each state decided exactly against every
dealer hand (:func:`sampled_exposure_no_board`).

>>> from analysis.model.game import load_game
>>> e = exposure_no_board(load_game("three-card-poker"), 1)
>>> f"{float(-e.exposed.exact.house_edge):.4%}", f"{float(e.plays_folded):.2%}"
('3.4829%', '24.64%')
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction
from math import sqrt
from statistics import NormalDist

import numpy as np

from analysis.engine.no_board import NoBoardFigures, evs_of_state, solve_no_board
from analysis.model.cards import RANKS
from analysis.model.errors import InputError
from analysis.model.game import GameSpec


@dataclass(frozen=True)
class BoardlessExposure:
    """The game played with ``seen`` more of the dealer's cards seen: the base game's and
    the exposed game's exact figures, the share of deals in which the exposed player plays
    a hand the base strategy folds (and folds one it plays), and with one card seen his
    expected result per hand by the rank of that card."""

    seen: int
    base: NoBoardFigures
    exposed: NoBoardFigures
    plays_folded: Fraction
    folds_played: Fraction
    by_rank: dict[str, Fraction]

    @property
    def house_edge(self) -> Fraction:
        """The exposed game's house edge (per ante; negative when the player has the edge)."""
        return self.exposed.exact.house_edge

    @property
    def call_rate(self) -> Fraction:
        """The share of hands the exposed player plays."""
        return self.exposed.exact.call_rate


def exposure_no_board(game: GameSpec, seen: int, base: NoBoardFigures | None = None) -> BoardlessExposure:
    """``game`` solved with ``seen`` of the dealer's cards seen before the decision (``base``:
    the game as dealt, already solved)."""
    nb = game.no_board
    if nb is None:
        raise InputError(f"{game.title} has a board: its protection runs on the outcome store")
    if nb.up:
        raise InputError(
            f"{game.title} already shows {nb.up} of the dealer's cards: a hole card beside it is counted by "
            "analysis.protection.hole_card (minutes); more are drawn by sampled_exposure_no_board"
        )
    if not 1 <= seen < nb.dealer_cards:
        raise InputError(
            f"{game.title}: 1 to {nb.dealer_cards - 1} of the dealer's {nb.dealer_cards} cards seen, not {seen}"
        )
    base = solve_no_board(game) if base is None else base
    exposed = solve_no_board(replace(game, name=f"{game.name}+{seen}", no_board=replace(nb, up=seen)))
    s, b = exposed.states, base.states
    if not np.array_equal(s.codes, b.codes):
        raise AssertionError("the exposed game's classes of hands are not the base game's")
    fold = next(i for i, o in enumerate(game.preflop) if o.kind == "fold")
    plays, played = s.chosen != fold, (b.chosen != fold)[s.cls]
    deals = int(s.weight.sum())
    by_rank: dict[str, Fraction] = {}
    if seen == 1:
        ev = s.values[np.arange(len(s.chosen)), s.chosen] * s.weight
        rank = s.seen[:, 0] >> 2
        for r in sorted(set(rank.tolist())):
            at = rank == r
            by_rank[RANKS[r]] = Fraction(int(ev[at].sum()), s.scale * int(s.weight[at].sum()))
    return BoardlessExposure(
        seen,
        base,
        exposed,
        Fraction(int(s.weight[plays & ~played].sum()), deals),
        Fraction(int(s.weight[~plays & played].sum()), deals),
        by_rank,
    )


@dataclass(frozen=True)
class SampledBoardlessExposure:
    """The player's expected result with ``seen`` more dealer cards seen, estimated from
    ``samples`` random states, each decided exactly: the house edge (negative when the player
    has the edge) with its standard error, and the share of states he plays. ``control``:
    each state's gain over the base game's decision in the same state (whose mean is known
    exactly), the variance of the estimate cut; else the plain mean."""

    seen: int
    samples: int
    seed: int
    base: NoBoardFigures
    house_edge: float
    standard_error: float
    call_rate: float
    control: bool

    def interval(self, level: float = 0.95) -> tuple[float, float]:
        """The normal interval of the house edge at ``level``."""
        z = NormalDist().inv_cdf(0.5 + level / 2)
        return self.house_edge - z * self.standard_error, self.house_edge + z * self.standard_error


def sampled_exposure_no_board(
    game: GameSpec, seen: int, samples: int, seed: int = 0, control: bool = True
) -> SampledBoardlessExposure:
    """``game`` with ``seen`` more of the dealer's cards seen, on ``samples`` random states
    (the player's hand, the cards the dealer shows and those flashed), each decided exactly."""
    nb = game.no_board
    if nb is None:
        raise InputError(f"{game.title} has a board: its protection runs on the outcome store")
    hidden = nb.dealer_cards - nb.up
    if not 1 <= seen < hidden or isinstance(samples, bool) or not 2 <= samples <= 10**7:
        raise InputError(f"{game.title}: 1 to {hidden - 1} more dealer cards seen and 2 to 10,000,000 samples")
    base = solve_no_board(game)
    rng = np.random.default_rng(seed)
    deck = np.array(game.rules.deck)
    cards = deck[np.argsort(rng.random((samples, len(deck))), axis=1)[:, : nb.hole + nb.up + seen]]
    hands, shown = cards[:, : nb.hole], cards[:, nb.hole :]
    s = base.states
    at = s.find(hands, shown[:, : nb.up], game.rules.suits)
    base_ev = s.values[at, s.chosen[at]] / s.scale  # the base game's decision in the same state
    fold = next(i for i, o in enumerate(game.preflop) if o.kind == "fold")
    gains, plays = np.empty(samples), 0
    for i, (hand, up) in enumerate(zip(hands.tolist(), shown.tolist())):
        evs = list(evs_of_state(game, hand, up).values())
        best = max(range(len(evs)), key=lambda j: (evs[j], -game.preflop[j].risk))
        plays += best != fold
        gains[i] = float(evs[best]) - (base_ev[i] if control else 0.0)
    mean = gains.mean() + (float(-base.exact.house_edge) if control else 0.0)
    error = float(gains.std(ddof=1)) / sqrt(samples)
    return SampledBoardlessExposure(seen, samples, seed, base, -mean, error, plays / samples, control)
