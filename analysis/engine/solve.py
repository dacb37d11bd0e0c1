"""One entry point for every game: ``solve(game)`` gives its exact result, whichever
counting path the game takes, as one shape (:class:`Solved`): the figures with the same
names for every game, the deals that took each option at each decision point, every
outcome, and the settlement that priced them.

A game file decides the path (:attr:`analysis.model.game.GameSpec.single_decision`): a
one-decision game of the family is played from its outcome store, whose counts do not
depend on pays, so any pay table and strategy is a re-optimisation; every other game by
backward induction over its streets (:mod:`analysis.engine.streets`), optimal play; a
game without a board hand by hand (:mod:`analysis.engine.no_board`); a game without a
dealer by the sets of cards the player holds (:mod:`analysis.engine.hand_paid`); a game
whose bets add up (a decision at the turn) by its margins (:mod:`analysis.engine.turns`,
through the street engine's entry).

>>> from analysis.model.game import load_game
>>> solve(load_game("casino-holdem").rules.small_deck("9TJQKA", "cd")).exact.deals
Traceback (most recent call last):
...
analysis.model.errors.InputError: solve: give a game's name, its file or a GameSpec (load_game), not Rules
"""

from __future__ import annotations

from pathlib import Path
from typing import Protocol

from analysis.engine.result import Outcome
from analysis.engine.statistics import ExactFigures
from analysis.model.errors import InputError
from analysis.model.game import GameSpec, load_game
from analysis.model.paytable import PayTableSpec
from analysis.model.settlement import Settlement
from analysis.parallel.options import RunOptions


class Solved(Protocol):
    """What every game's exact result gives, whichever engine counted it."""

    @property
    def exact(self) -> ExactFigures: ...

    @property
    def decisions(self) -> dict[tuple[str, str], int]: ...

    @property
    def settlement(self) -> Settlement | None: ...  # None: a game without a dealer (its own wagers)

    def outcomes(self) -> list[Outcome]: ...


def solve(
    game: str | Path | GameSpec,
    paytable: PayTableSpec = None,
    strategy: str = "optimal",
    pays_on: str = "ante",
    options: RunOptions | None = None,
) -> Solved:
    """The exact result of ``game`` (a shipped game's name, a game file or a GameSpec):
    a one-decision game with ``paytable`` (default its file's), ``strategy`` and
    ``pays_on``; any other game as its file states it, played optimally."""
    if not isinstance(game, (str, Path, GameSpec)):
        raise InputError(f"solve: give a game's name, its file or a GameSpec (load_game), not {type(game).__name__}")
    spec = game if isinstance(game, GameSpec) else load_game(game)
    if spec.single_decision:
        from analysis.engine.return_engine import ReturnEngine
        from analysis.store.runs import ensure_store

        engine = ReturnEngine.from_store(ensure_store(spec.rules, options))
        return engine.decide(spec.ante_pays if paytable is None else paytable, strategy, pays_on)
    given = [
        name
        for name, on in (
            ("paytable", paytable is not None),
            ("strategy", strategy != "optimal"),
            ("pays_on", pays_on != "ante"),
        )
        if on
    ]
    if given:
        raise InputError(
            f"{spec.title}: {', '.join(given)} only for a one-decision game; a game file states its own pays "
            "and is played with the optimal strategy"
        )
    if spec.no_board is not None:
        from analysis.engine.no_board import solve_no_board

        return solve_no_board(spec)
    if spec.hand_paid is not None:
        from analysis.engine.hand_paid import solve_hand_paid

        return solve_hand_paid(spec)
    from analysis.engine.streets import solve_streets

    return solve_streets(spec, options)
