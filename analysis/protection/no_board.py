"""Game protection for the games without a board (Three Card Poker): a flashed dealer card is
one more card the player sees before his decision, so the exposed game is the same game
with the dealer showing it, solved exactly state by state (a state is the player's hand and
the cards he saw). What the card is worth, by its rank, and the pattern that gives the
player away: how often he plays a hand the optimal player folds, and folds one he plays.

>>> from analysis.model.game import load_game
>>> e = exposure_no_board(load_game("three-card-poker"), 1)
>>> f"{float(-e.exposed.exact.house_edge):.4%}", f"{float(e.plays_folded):.2%}"
('3.4829%', '24.64%')
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction

import numpy as np

from analysis.engine.no_board import NoBoardFigures, solve_no_board
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


def exposure_no_board(game: GameSpec, seen: int) -> BoardlessExposure:
    """``game`` solved with ``seen`` of the dealer's cards seen before the decision."""
    nb = game.no_board
    if nb is None:
        raise InputError(f"{game.title} has a board: its protection runs on the outcome store")
    if nb.up:
        raise InputError(
            f"{game.title} already shows {nb.up} of the dealer's cards: one more seen is "
            f"{nb.up + seen} per state, more states than are counted at once so far"
        )
    if not 1 <= seen < nb.hole:
        raise InputError(f"{game.title}: 1 to {nb.hole - 1} of the dealer's {nb.hole} cards seen, not {seen}")
    base = solve_no_board(game)
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
