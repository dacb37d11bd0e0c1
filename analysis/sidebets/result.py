"""The exact return of one side bet: its figures per unit staked (house edge, return, hit and
push frequency, standard deviation), the main game and the side bet together per hand, and
the result object that holds them with the bet's return table."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from math import sqrt
from typing import Protocol

import numpy as np
import pandas as pd

from analysis.engine.solve import Solved
from analysis.model.numbers import NumberLike
from analysis.model.rules import Rules
from analysis.sidebets.bet import SideBet, SideBetSpec


@dataclass(frozen=True)
class SideFigures:
    """The exact figures of a side bet, per unit staked."""

    deals: int  # every deal of the game
    ev: Fraction  # the player's expected net result
    house_edge: Fraction  # -ev
    player_return: Fraction  # 1 + ev: what comes back per unit staked
    hit_frequency: Fraction  # P(the bet wins)
    push_frequency: Fraction  # P(the stake comes back)
    variance: Fraction
    standard_deviation: float


@dataclass(frozen=True)
class CombinedFigures:
    """The main game and a side bet together, per hand in antes (side stake ``stake`` antes)."""

    house_edge: Fraction
    average_wager: Fraction  # the main game's average wager plus the side stake
    per_unit_wagered: Fraction  # house edge / average wager
    standard_deviation: float


@dataclass
class SideBetResult:
    """The exact return of one side bet, with the main game played by ``strategy``."""

    bet: SideBet
    rules: Rules
    strategy: str  # "joint" or "separate" for a forfeited bet, else "optimal"
    stake: Fraction  # the side stake, in antes
    meter: Fraction | None
    table: pd.DataFrame  # the side bet's return table
    exact: SideFigures  # its figures per unit staked
    combined: CombinedFigures  # main game and side bet together, per hand in antes
    main: Solved  # the main game as played with the side bet

    def summary(self) -> dict[str, str | float | bool | None]:
        """Figures for display and JSON: floats, plus the exact values as strings."""
        e, c = self.exact, self.combined
        out: dict[str, str | float | bool | None] = {
            "game": self.rules.name,
            "bet": self.bet.name,
            "kind": self.bet.kind,
            "forfeit": self.bet.forfeit,
            "strategy": self.strategy,
            "meter": None if self.meter is None else float(self.meter),
            "deals": e.deals,
        }
        out |= {
            "house_edge": float(e.house_edge),
            "return": float(e.player_return),
            "hit_frequency": float(e.hit_frequency),
            "push_frequency": float(e.push_frequency),
        }
        out |= {
            "standard_deviation": e.standard_deviation,
            "house_edge_exact": str(e.house_edge),
            "return_exact": str(e.player_return),
        }
        out |= {"stake_antes": str(self.stake)}
        out |= {
            "main_house_edge": float(self.main.exact.house_edge),
            "main_call_rate": float(self.main.exact.call_rate),
        }
        out |= {
            "combined_house_edge_per_hand": float(c.house_edge),
            "combined_house_edge_per_unit_wagered": float(c.per_unit_wagered),
        }
        return out | {
            "combined_standard_deviation": c.standard_deviation,
            "combined_house_edge_exact": str(c.house_edge),
        }


def side_figures(combos: list[int], nets: list[Fraction]) -> SideFigures:
    """House edge, return, hit and push frequency, variance per unit staked (exact)."""
    total = sum(combos)
    ev = Fraction(sum(c * v for c, v in zip(combos, nets)), total)
    ev2 = Fraction(sum(c * v * v for c, v in zip(combos, nets)), total)
    return SideFigures(
        deals=total,
        ev=ev,
        house_edge=-ev,
        player_return=1 + ev,
        hit_frequency=Fraction(sum(c for c, v in zip(combos, nets) if v > 0), total),
        push_frequency=Fraction(sum(c for c, v in zip(combos, nets) if v == 0), total),
        variance=ev2 - ev**2,
        standard_deviation=sqrt(ev2 - ev**2),
    )


def combined_figures(
    by_row: np.ndarray, nets: list[Fraction], payoffs: list[Fraction], stake: Fraction, main: Solved
) -> CombinedFigures:
    """The main game and the side bet together, per hand in antes: house edge, per unit
    wagered (the main game's average wager plus the side stake), standard deviation."""
    total = int(by_row.sum())
    ev = ev2 = Fraction(0)
    for side, row in zip(nets, by_row):
        for x, count in zip(payoffs, row):
            if count:
                value = x + stake * side
                ev += int(count) * value
                ev2 += int(count) * value * value
    ev, ev2 = ev / total, ev2 / total
    wager = main.exact.average_wager + stake
    return CombinedFigures(
        house_edge=-ev, average_wager=wager, per_unit_wagered=-ev / wager, standard_deviation=sqrt(ev2 - ev**2)
    )


class PricesSideBets(Protocol):
    """What prices a side bet (at a meter, with a pay changed): a one-decision game's
    :class:`~analysis.sidebets.returns.SideBetEngine`, or a solved game of any other shape
    (:class:`~analysis.sidebets.street_bets.StreetSideBets`)."""

    def evaluate(
        self, bet: SideBetSpec, stake: NumberLike = 1, meter: NumberLike | None = None, strategy: str = ...
    ) -> SideBetResult: ...
