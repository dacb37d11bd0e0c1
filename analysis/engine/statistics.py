"""The exact statistics of a return table: house edge, element of risk, call rate,
variance, hit frequency (Fractions), and the normal-approximation ranges of the house's
result after N hands that every later figure (reports, floor figures, sampled runs) uses.
"""

from __future__ import annotations

from fractions import Fraction
from math import sqrt
from statistics import NormalDist

import numpy as np

from analysis.model.payoffs import RowKey
from analysis.model.rules import Rules


def exact_figures(combos: dict[RowKey, int], payoffs: dict[RowKey, Fraction], rules: Rules, called_states: int) -> dict:
    """House edge, element of risk, call rate, variance, ... as exact Fractions, from the
    deals counted per return-table row and the row's payoff."""
    total = sum(combos.values())
    ev = Fraction(sum(n * payoffs[k] for k, n in combos.items()), total)
    ev2 = Fraction(sum(n * payoffs[k] ** 2 for k, n in combos.items()), total)
    call_rate = Fraction(called_states, rules.states)
    average_wager = 1 + rules.call_multiple * call_rate
    return {
        "total_combinations": total,
        "ev": ev,
        "house_edge": -ev,
        "call_rate": call_rate,
        "average_wager": average_wager,
        "element_of_risk": -ev / average_wager,
        "variance": ev2 - ev**2,
        "std_dev": sqrt(ev2 - ev**2),
        "hit_frequency": Fraction(sum(n for k, n in combos.items() if payoffs[k] > 0), total),
    }


def summary_figures(exact: dict) -> dict:
    """The exact figures for display and JSON: floats, plus the exact values as strings."""
    return {
        "total_combinations": exact["total_combinations"],
        "house_edge": float(exact["house_edge"]),
        "element_of_risk": float(exact["element_of_risk"]),
        "call_rate": float(exact["call_rate"]),
        "average_wager": float(exact["average_wager"]),
        "std_dev": exact["std_dev"],
        "hit_frequency": float(exact["hit_frequency"]),
        "house_edge_exact": str(exact["house_edge"]),
        "element_of_risk_exact": str(exact["element_of_risk"]),
    }


def z_score(level: float) -> float:
    """Two-sided normal quantile of a confidence level."""
    return NormalDist().inv_cdf((1 + level) / 2)


def house_result(house_edge: float, sigma: float, n: float, level: float) -> tuple[float, float, float]:
    """The house's expected result after ``n`` independent hands and its range at a
    confidence level: ``n x HE -/+ z x sigma x sqrt(n)`` (normal approximation; in the
    units of HE and sigma)."""
    half = z_score(level) * sigma * np.sqrt(n)
    return n * house_edge, n * house_edge - half, n * house_edge + half
