"""Tuning a side bet: the pay of one line that gives the bet a target return, exactly, and the
whole-number pays either side of it with their exact returns.

A line paying ``p`` to 1 adds ``P(line) x p`` to the return while the decisions stay the
same, so the exact pay is the root of that straight line. For a forfeited bet played
``joint`` the decisions move with the pay: the bet's exact curve
(:class:`analysis.sidebets.curve.SideBetCurve`) gives the return at any pay by a search, and
the root on its piece. The return never falls when a pay rises, so the whole numbers below
and above the exact pay bracket the target. A game of any other shape prices the bet on its
solve (:class:`~analysis.sidebets.street_bets.StreetSideBets`), the decisions its own.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from fractions import Fraction

import pandas as pd

from analysis.model.errors import InputError, SolveError
from analysis.model.numbers import NumberLike, as_bounds, as_fraction
from analysis.sidebets.bet import SideBet, SideBetSpec
from analysis.sidebets.curve import SideBetCurve
from analysis.sidebets.result import PricesSideBets, SideBetResult
from analysis.sidebets.returns import SideBetEngine


def solve_side_bet(
    bets: PricesSideBets,
    bet: SideBetSpec,
    target_return: NumberLike,
    vary: str,
    bounds: tuple[NumberLike, NumberLike] = (0, 10_000),
    stake: NumberLike = 1,
    meter: NumberLike | None = None,
    strategy: str = "joint",
) -> pd.DataFrame:
    """The pay of line ``vary`` for which the bet returns ``target_return`` per unit staked
    (e.g. 0.95): the exact pay, then the whole-number pays just below and above it.

    Raises ValueError when the target is out of reach within ``bounds``.
    """
    bet = SideBet.load(bet)
    line = bet.line(vary)
    if line.share is not None:
        raise InputError(f"line {vary!r} pays from the meter: vary a fixed-pay line")
    target = as_fraction(target_return, "target return")
    lo, hi = as_bounds(bounds)
    if not 0 <= lo <= hi:
        raise InputError(f"bounds must satisfy 0 <= low <= high, got {lo}, {hi}")

    def play(pay: Fraction) -> SideBetResult:
        return bets.evaluate(bet.with_pays({vary: pay}, name=f"{bet.name} ({vary} {pay})"), stake, meter, strategy)

    # a forfeited bet played joint moves the decisions with the pay: its exact curve answers at once
    joint = bet.forfeit and strategy == "joint"
    curve = SideBetCurve(bets, bet, vary, stake, meter) if joint and isinstance(bets, SideBetEngine) else None

    def side_return(pay: Fraction) -> Fraction:
        return curve.at(pay).side_return if curve is not None else play(pay).exact.player_return

    low, high = side_return(lo), side_return(hi)
    if not low <= target <= high:
        raise InputError(
            f"target return {float(target):.4%} is out of reach: with {vary} paying {float(lo):g} to {float(hi):g} "
            f"the return ranges from {float(low):.4%} to {float(high):.4%}"
        )
    exact = curve.pay_for(target) if curve is not None else _root(play, bet.lines.index(line), target, play(lo), lo)
    rows = {exact: side_return(exact)}
    for whole in {math.floor(exact), math.ceil(exact)}:
        if lo <= whole <= hi and Fraction(whole) not in rows:
            rows[Fraction(whole)] = side_return(Fraction(whole))
    out = []
    for pay, r in sorted(rows.items()):
        out.append(
            {
                "line": vary,
                "pays": float(pay),
                "whole_number": pay.denominator == 1,
                "return": float(r),
                "house_edge": float(1 - r),
                "error": float(r - target),
                "pays_exact": pay,
                "return_exact": r,
            }
        )
    return pd.DataFrame(out)


def _root(
    play: Callable[[Fraction], SideBetResult], index: int, target: Fraction, result: SideBetResult, lo: Fraction
) -> Fraction:
    """The exact pay whose return is the target when the decisions stay put: the root of
    the return's straight line through ``result`` (at pay ``lo``), checked by playing it."""
    p = Fraction(int(result.table["combinations"].iloc[index]), result.exact.deals)
    if p == 0:
        raise InputError(f"line {result.bet.lines[index].name!r} never pays here: its pay cannot move the return")
    pay = lo + (target - result.exact.player_return) / p
    if play(pay).exact.player_return != target:
        raise SolveError(f"no exact pay: the return is not a straight line in the pay near {float(pay)}")
    return pay
