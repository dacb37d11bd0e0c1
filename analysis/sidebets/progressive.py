"""Progressive side bets: the return as a function of the meter, the break-even meter, and the
long-run return once the contributions and resets are counted, as published progressive
analyses show them.

A line paying ``share`` of the meter M (in the units of the bet's ``stake``) nets the player
``share x M / stake`` per unit staked, so while the decisions stay the same the return is
linear in the meter: ``return(M) = base + slope x M``, ``base`` the return with an empty meter
and ``slope = sum over meter lines of P(line) x share / stake``. The break-even meter is
where the return reaches 1. (A forfeited bet played ``joint`` calls more as the meter grows,
so there the return is piecewise linear; the break-even meter is found on the final piece,
exactly.)

Over the long run every contribution is paid back through the meter, and so is every
reset the casino puts in after a line takes the whole meter: per hand the meter pays
``contribution x stake + P(reset) x reset`` on average, so the long-run return is
``base + contribution + P(reset) x reset / stake``, whatever the meter shows now.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction

import pandas as pd

from analysis.model.errors import InputError, SolveError
from analysis.model.numbers import NumberLike, as_fraction
from analysis.sidebets.bet import Meter, SideBet, SideBetSpec
from analysis.sidebets.result import PricesSideBets, SideBetResult

#: Steps of the exact break-even search before giving up (decisions keep changing).
MAX_STEPS = 50


@dataclass
class Progressive:
    """A progressive bet at one meter value (``result`` is its return table there)."""

    result: SideBetResult
    base: Fraction  # return with an empty meter (these decisions)
    slope: Fraction  # return added per unit of meter
    break_even: Fraction | None  # meter at which the return is 1 (None: the meter pays nothing)
    reset_probability: Fraction  # chance per hand that a line takes the whole meter
    long_run_return: Fraction

    def summary(self) -> dict[str, float | str | None]:
        m = _meter(self.result.bet)
        return {
            "meter": float(_meter_value(self.result)),
            "seed": float(m.seed),
            "reset": float(m.reset),
            "contribution": float(m.contribution),
            "stake": float(m.stake),
            "return_at_meter": float(self.result.exact.player_return),
            "return_empty_meter": float(self.base),
            "return_per_unit_of_meter": float(self.slope),
            "break_even_meter": None if self.break_even is None else float(self.break_even),
            "break_even_meter_exact": None if self.break_even is None else str(self.break_even),
            "reset_probability": float(self.reset_probability),
            "long_run_return": float(self.long_run_return),
            "long_run_return_exact": str(self.long_run_return),
        }


def analyse_progressive(
    bets: PricesSideBets,
    bet: SideBetSpec,
    stake: NumberLike = 1,
    meter: NumberLike | None = None,
    strategy: str = "joint",
) -> Progressive:
    """The progressive analysis of a bet at ``meter`` (default its seed)."""
    bet = SideBet.load(bet)
    settings = _meter(bet)
    result = bets.evaluate(bet, stake, meter, strategy)
    base, slope, reset_probability = _linear(result)
    return Progressive(
        result,
        base,
        slope,
        _break_even(bets, bet, stake, strategy, result) if slope else None,
        reset_probability,
        base + settings.contribution + reset_probability * settings.reset / settings.stake,
    )


def _meter(bet: SideBet) -> Meter:
    """The bet's progressive meter (an InputError for a bet without one)."""
    if bet.meter is None:
        raise InputError(f"{bet.name} has no progressive meter (no line pays from the meter)")
    return bet.meter


def _meter_value(result: SideBetResult) -> Fraction:
    """The meter a progressive's result was played at (every bet with a meter is played at one)."""
    if result.meter is None:
        raise InputError(f"{result.bet.name} has no progressive meter (no line pays from the meter)")
    return result.meter


def _linear(result: SideBetResult) -> tuple[Fraction, Fraction, Fraction]:
    """(base, slope, reset probability) of the return in the meter, these decisions held."""
    total, meter = result.exact.deals, _meter(result.bet)
    slope = reset = Fraction(0)
    for line, combinations in zip(result.bet.lines, result.table["combinations"]):
        if line.share is not None:
            p = Fraction(int(combinations), total)
            slope += p * line.share / meter.stake
            reset += p if line.share == 1 else 0
    return result.exact.player_return - slope * _meter_value(result), slope, reset


def _break_even(
    bets: PricesSideBets, bet: SideBet, stake: NumberLike, strategy: str, result: SideBetResult
) -> Fraction:
    """The meter at which the return is exactly 1: the root of the current linear piece,
    checked by playing at it (a forfeited bet's decisions may change with the meter)."""
    for _ in range(MAX_STEPS):
        base, slope, _ = _linear(result)
        root = max((1 - base) / slope, Fraction(0))
        if root == result.meter:
            return root
        at_root = bets.evaluate(bet, stake, root, strategy)
        if at_root.exact.player_return == 1 or (root == 0 and at_root.exact.player_return >= 1):
            return root
        result = at_root
    raise SolveError(f"{bet.name}: no exact break-even meter: the decisions keep changing near {float(root)}")


def meter_returns(
    bets: PricesSideBets,
    bet: SideBetSpec,
    meters: Iterable[NumberLike],
    stake: NumberLike = 1,
    strategy: str = "joint",
) -> pd.DataFrame:
    """The return and house edge at each meter value (exact, decisions re-optimised at each)."""
    rows = []
    for m in meters:
        e = bets.evaluate(bet, stake, as_fraction(m, "meter"), strategy).exact
        rows.append(
            {
                "meter": float(m),
                "return": float(e.player_return),
                "house_edge": float(e.house_edge),
                "return_exact": str(e.player_return),
            }
        )
    return pd.DataFrame(rows)
