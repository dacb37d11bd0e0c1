"""The floor figures of a game and its side bets: the theoretical win per hour, per seat and
per table, and the range the house's result for a wager should fall in after a day, a week
and a month of play (results outside it are what an operator investigates).

A seat plays ``hands_per_hour`` hands an hour, staking ``average_bet`` on a wager each hand
(the ante for the main game: its house edge and standard deviation are per ante and
include the call). After N hands the house's result on a seat is N x bet x HE, within
z x sigma x bet x sqrt(N) at the confidence level (:func:`analysis.report.tables.house_result`).

The ranges are per seat: the players at one table share the board and the dealer's hand,
so a table's results are correlated across its seats and its range is not the seat's
scaled by the number of seats; the theoretical win, an expectation, does add up by seat.
"""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from analysis.engine.statistics import house_result
from analysis.model.errors import InputError
from analysis.model.numbers import as_fraction
from analysis.sidebets.result import SideBetResult

#: Periods of play: (name, days).
PERIODS = (("day", 1), ("week", 7), ("month", 30))


@dataclass(frozen=True)
class Wager:
    """One wager on the floor: its average stake per hand and its exact-derived figures per
    unit staked."""

    name: str
    average_bet: float
    house_edge: float
    standard_deviation: float


def floor_figures(
    wagers: list[Wager], hands_per_hour: float, seats: int = 1, hours_per_day: float = 16, level: float = 0.95
) -> pd.DataFrame:
    """One row per wager and period: the theoretical win per hour (per seat and per table of
    ``seats``), and after the period the hands per seat, the expected house result and its
    range at ``level`` on one seat."""
    if hands_per_hour <= 0 or seats < 1 or not 0 < hours_per_day <= 24 or not 0 < level < 1:
        raise InputError("hands per hour must be positive, seats at least 1, hours per day in (0, 24], level in (0, 1)")
    rows = []
    for w in wagers:
        per_hour = hands_per_hour * w.average_bet * float(w.house_edge)
        for period, days in PERIODS:
            hands = hands_per_hour * hours_per_day * days
            expected, low, high = house_result(
                float(w.house_edge) * w.average_bet, w.standard_deviation * w.average_bet, hands, level
            )
            rows.append(
                {
                    "wager": w.name,
                    "average_bet": w.average_bet,
                    "house_edge": float(w.house_edge),
                    "win_per_hour_per_seat": per_hour,
                    "win_per_hour_per_table": per_hour * seats,
                    "period": period,
                    "hands_per_seat": hands,
                    "expected_house_result": expected,
                    "range_low": low,
                    "range_high": high,
                }
            )
    return pd.DataFrame(rows)


def side_bet_wagers(result: SideBetResult, ante: float, side_bet: float) -> list[Wager]:
    """The main game, the side bet and both together, from a side bet's result played at a
    side stake of ``side_bet / ante`` antes (:class:`analysis.sidebets.returns.SideBetResult`)."""
    units = as_fraction(ante, "ante")
    if units <= 0:
        raise InputError(f"ante: a positive number of units, not {ante}")
    if result.stake != as_fraction(side_bet, "side bet") / units:
        raise InputError(f"the result was played at {result.stake} antes of side bet, not {side_bet} / {ante}")
    main, combined = result.main.exact, result.combined
    return [
        Wager(f"{result.rules.name} (per ante)", ante, float(main.house_edge), main.standard_deviation),
        Wager(result.bet.name, side_bet, float(result.exact.house_edge), result.exact.standard_deviation),
        Wager("both (per ante)", ante, float(combined.house_edge), combined.standard_deviation),
    ]
