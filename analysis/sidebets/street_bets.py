"""Side bets on a game with several decision points (Ultimate Texas Hold'em's Trips, a bad
beat) or without a board (Three Card Poker's Pair Plus), settled on the final hands, from
the exact solve of the game.

A solved game knows every deal by the player's final category and the dealer's result
whatever the player does (:attr:`~analysis.engine.streets.StreetFigures.every_deal`) and
the deals that ended in each outcome of its optimal play; a folded deal's final hand is
the difference of the two. So a bet on the final hands is priced with no counting of its
own, and with the main game outcome by outcome. A bet the player forfeits by folding is
played with the main game's optimal strategy (``separate``); deciding the main game with
the side bet at stake (``joint``) is not counted for these games yet.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from analysis.engine.no_board import NoBoardFigures
from analysis.engine.streets import StreetFigures
from analysis.model.categories import CATEGORIES
from analysis.model.errors import InputError
from analysis.model.numbers import NumberLike, as_fraction
from analysis.sidebets.bet import SideBet, SideBetSpec
from analysis.sidebets.counts import OUTCOMES
from analysis.sidebets.result import SideBetResult
from analysis.sidebets.returns import bet_meter, settle


def street_side_bet(
    figures: StreetFigures | NoBoardFigures,
    bet: SideBetSpec,
    stake: NumberLike = 1,
    meter: NumberLike | None = None,
    strategy: str = "separate",
) -> SideBetResult:
    """The exact return of ``bet`` on a solved multi-street game, alone and with the game."""
    bet = SideBet.load(bet)
    game = figures.game
    if bet.kind == "first-six":
        raise InputError(
            f"{bet.name}: a bet on the hole cards and the flop is counted for the one-decision games; "
            f"on {game.title} a side bet is paid on the final hands (kinds final and bad-beat)"
        )
    if bet.forfeit and strategy != "separate":
        raise InputError(
            f"{bet.name} is lost on a fold: on {game.title} it is played with the game's optimal strategy "
            "(strategy separate); deciding the game with the side bet at stake is not counted yet"
        )
    if not figures.every_deal:
        raise InputError(f"{game.title}: these figures do not hold every deal's final hand; solve the game again")
    stake_antes = as_fraction(stake, "stake")
    outcomes = figures.outcomes()
    folds = [j for j, o in enumerate(outcomes) if o.ended == "fold"]
    payoffs = [o.net for o in outcomes] + ([] if folds else [game.fold_value])
    fold = folds[0] if folds else len(outcomes)

    def side(category: str, result: str) -> int:
        c = CATEGORIES.index(category)
        return c if bet.kind == "final" else 2 * c + (result == "loss")  # lost to a qualifying dealer

    counts = np.zeros((OUTCOMES[bet.kind], len(payoffs)), dtype=np.int64)
    played: dict[tuple[str, str], int] = {}
    for j, o in enumerate(outcomes):
        if o.ended != "fold":
            counts[side(o.final_hand, o.dealer), j] += o.deals
            played[(o.final_hand, o.dealer)] = played.get((o.final_hand, o.dealer), 0) + o.deals
    for (category, result), n in figures.every_deal.items():
        folded = n - played.get((category, result), 0)
        if folded < 0:
            raise AssertionError(f"{game.name}: more deals played than dealt with {category}, {result}")
        counts[side(category, result), fold] += folded
    return settle(
        bet,
        counts,
        figures,
        game.rules,
        payoffs,
        fold,
        stake_antes,
        bet_meter(bet, meter),
        "separate" if bet.forfeit else "optimal",
    )


@dataclass(frozen=True)
class StreetSideBets:
    """Side bets priced on one solved game with several decision points or without a board:
    what the progressive analysis (:func:`analysis.sidebets.progressive.analyse_progressive`)
    asks of :class:`~analysis.sidebets.returns.SideBetEngine`, the game played optimally."""

    figures: StreetFigures | NoBoardFigures

    def evaluate(
        self, bet: SideBetSpec, stake: NumberLike = 1, meter: NumberLike | None = None, strategy: str = "separate"
    ) -> SideBetResult:
        return street_side_bet(self.figures, bet, stake, meter, strategy)
