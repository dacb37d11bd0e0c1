"""The exact return of one game, pay table and strategy: the return table (every outcome
with its exact number of deals) and the figures computed from it."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import numpy as np
import pandas as pd

from analysis.engine.statistics import ExactFigures, exact_figures
from analysis.model.payoffs import RowKey, outcome_payoffs
from analysis.model.paytable import PayTable
from analysis.model.rules import CountedGame, Rules


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
