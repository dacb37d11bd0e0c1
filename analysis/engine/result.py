"""The exact return of one game, pay table and strategy: the return table (every outcome
with its exact number of deals) and the figures computed from it."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import NamedTuple

import numpy as np
import pandas as pd

from analysis.engine.statistics import ExactFigures, exact_figures
from analysis.model.payoffs import RowKey, outcome_payoffs
from analysis.model.paytable import PayTable
from analysis.model.rules import CountedGame, Rules
from analysis.model.settlement import ONE_DECISION, Settlement


class Outcome(NamedTuple):
    """One row of any game's return table, in the one vocabulary of every engine: the
    street where the betting ended (``"fold"`` for a fold), the play bet in antes, the
    player's final category and the dealer's result (empty where the row covers them all),
    its deals and its net result in antes."""

    ended: str
    play_bet: int
    final_hand: str
    dealer: str
    deals: int
    net: Fraction


#: The dealer's result of each one-decision return-table outcome.
_DEALER = {"dealer_not_qualifying": "noqual", "player_wins": "win", "tie": "tie", "dealer_wins": "loss"}


@dataclass
class GameResult:
    """The exact return of one game, pay table and strategy."""

    rules: Rules
    paytable: PayTable
    strategy: str
    pays_on: str
    table: pd.DataFrame  # the return table
    exact: ExactFigures
    calls: np.ndarray  # the decision per state

    def summary(self) -> dict[str, int | float | str]:
        """Figures for display and JSON: floats, plus exact values as strings."""
        head = {
            "game": self.rules.name,
            "paytable": self.paytable.name,
            "pays_on": self.pays_on,
            "strategy": self.strategy,
        }
        return head | self.exact.summary()

    @property
    def settlement(self) -> Settlement:
        """How this result's wagers settle: the family's rule with its pay table."""
        return ONE_DECISION.with_table(self.paytable, self.pays_on)

    def outcomes(self) -> list[Outcome]:
        """The return table's rows as :class:`Outcome` (the call is made at the flop)."""
        payoffs = outcome_payoffs(self.paytable, self.rules, self.pays_on)
        deals = dict(zip(zip(self.table["outcome"], self.table["category"]), self.table["combinations"]))
        m = self.rules.call_multiple
        return [
            Outcome("fold", 0, "", "", int(deals[key]), p)
            if key[0] == "fold"
            else Outcome("flop", m, key[1], _DEALER[key[0]], int(deals[key]), p)
            for key, p in payoffs.items()
        ]

    @property
    def decisions(self) -> dict[tuple[str, str], int]:
        """Deals that took each option at each decision point (the one-decision game's flop)."""
        folded = int(self.table.loc[self.table["outcome"] == "fold", "combinations"].sum())
        return {("flop", "fold"): folded, ("flop", f"bet {self.rules.call_multiple}"): self.exact.deals - folded}


def game_result(
    rules: Rules,
    paytable: PayTable,
    strategy: str,
    pays_on: str,
    combos: dict[RowKey, int],
    calls: np.ndarray,
    game: CountedGame | None = None,
) -> GameResult:
    """Return table and exact figures from the deals counted per return-table row, over
    the states and deals of ``game`` (default: the rules' own)."""
    game = rules if game is None else game
    payoffs = outcome_payoffs(paytable, rules, pays_on)
    total = sum(combos.values())
    if total != game.total_combinations:
        raise AssertionError(f"combinations add up to {total}, expected {game.total_combinations}")
    called_states = game.states - combos[("fold", "")] // game.completions
    table = pd.DataFrame(
        {
            "outcome": [k[0] for k in payoffs],
            "category": [k[1] for k in payoffs],
            "combinations": np.array([combos[k] for k in payoffs], dtype=np.int64),
            "probability": [combos[k] / total for k in payoffs],
            "payoff": [float(p) for p in payoffs.values()],
            "contribution": [float(Fraction(combos[k], total) * p) for k, p in payoffs.items()],
        }
    )
    exact = exact_figures(combos, payoffs, game, called_states)
    return GameResult(rules, paytable, strategy, pays_on, table, exact, calls)
