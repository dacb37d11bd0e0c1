"""The exact statistics of a return table: house edge, element of risk, call rate,
variance, hit frequency (Fractions), and the normal-approximation ranges of the house's
result after N hands that every later figure (reports, floor figures, sampled runs) uses.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from math import sqrt
from statistics import NormalDist
from typing import TypeVar

import numpy as np

from analysis.model.payoffs import RowKey
from analysis.model.rules import CountedGame


@dataclass(frozen=True)
class ExactFigures:
    """The exact figures of a game's return table, per hand in antes (ante 1): Fractions,
    and the standard deviation (a square root) as a float beside its exact variance."""

    deals: int  # every deal of the game
    ev: Fraction  # the player's expected net result
    house_edge: Fraction  # -ev
    call_rate: Fraction  # the share of deals that put up a play bet (call)
    average_wager: Fraction  # antes wagered per hand: ante, blind and play bet
    element_of_risk: Fraction  # house edge / average wager
    variance: Fraction
    standard_deviation: float  # sqrt(variance)
    hit_frequency: Fraction  # P(the player's net result > 0)

    def summary(self) -> dict[str, int | float | str]:
        """The figures for display and JSON, the same names for every game: each as a
        number, and beside it the exact value as text ("p/q")."""
        return {
            "deals": self.deals,
            "house_edge": float(self.house_edge),
            "element_of_risk": float(self.element_of_risk),
            "call_rate": float(self.call_rate),
            "average_wager": float(self.average_wager),
            "standard_deviation": self.standard_deviation,
            "hit_frequency": float(self.hit_frequency),
            "house_edge_exact": str(self.house_edge),
            "element_of_risk_exact": str(self.element_of_risk),
            "call_rate_exact": str(self.call_rate),
            "average_wager_exact": str(self.average_wager),
            "variance_exact": str(self.variance),
            "hit_frequency_exact": str(self.hit_frequency),
        }


Key = TypeVar("Key", bound=Hashable)


def exact_figures(
    combos: dict[RowKey, int], payoffs: dict[RowKey, Fraction], rules: CountedGame, called_states: int
) -> ExactFigures:
    """The figures of a one-decision return table: the deals counted per row, the row's
    payoff, and the states called (each state has the same number of deals)."""
    call_rate = Fraction(called_states, rules.states)
    return figures_of(combos, payoffs, call_rate, 1 + rules.call_multiple * call_rate)


def figures_of(
    combos: Mapping[Key, int], payoffs: Mapping[Key, Fraction], call_rate: Fraction, average_wager: Fraction
) -> ExactFigures:
    """House edge, element of risk, variance, hit frequency, ... exactly, from the deals of
    each outcome and its net result, for any game: ``call_rate`` is the share of deals
    that put up a play bet, ``average_wager`` the antes wagered per hand."""
    total = sum(combos.values())
    ev = Fraction(sum(n * payoffs[k] for k, n in combos.items()), total)
    ev2 = Fraction(sum(n * payoffs[k] ** 2 for k, n in combos.items()), total)
    return ExactFigures(
        deals=total,
        ev=ev,
        house_edge=-ev,
        call_rate=call_rate,
        average_wager=average_wager,
        element_of_risk=-ev / average_wager,
        variance=ev2 - ev**2,
        standard_deviation=sqrt(ev2 - ev**2),
        hit_frequency=Fraction(sum(n for k, n in combos.items() if payoffs[k] > 0), total),
    )


def z_score(level: float) -> float:
    """Two-sided normal quantile of a confidence level."""
    return NormalDist().inv_cdf((1 + level) / 2)


def house_result(house_edge: float, sigma: float, n: float, level: float) -> tuple[float, float, float]:
    """The house's expected result after ``n`` independent hands and its range at a
    confidence level: ``n x HE -/+ z x sigma x sqrt(n)`` (normal approximation; in the
    units of HE and sigma)."""
    half = z_score(level) * sigma * np.sqrt(n)
    return n * house_edge, n * house_edge - half, n * house_edge + half
