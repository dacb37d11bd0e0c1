"""A forfeited side bet's exact figures as one line's pay varies: what a dragged side-bet pay
needs at once, and the whole curve with every breakpoint.

The player who forfeits the side bet by folding adds ``stake x (E[side net | call] + 1)`` to
each state's EV(call) - EV(fold) (:mod:`analysis.sidebets.returns`). With one line paying
``p``, that term is linear in ``p`` and never falls as ``p`` rises, so each state's margin is
``alpha + p x beta`` with one root, as for a main-game pay
(:class:`analysis.engine.pay_curve.RootOrder`). With the states in root order and running
sums of the main game's margin, of the side term at ``p = 0`` and of its slope, any ``p``
gives the main game's, the side bet's and the combined figures by one search, exactly. The
side bet's return rises with ``p`` and jumps up at each root: a state that starts calling
brings its side bet into play (its main-game margin falls by as much).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from math import lcm

import numpy as np
import pandas as pd

from analysis.engine.pay_curve import RootOrder, weighted_sum
from analysis.model.errors import InputError, SolveError
from analysis.model.numbers import NumberLike, as_fraction
from analysis.sidebets.bet import SideBet, SideBetSpec
from analysis.sidebets.returns import SideBetEngine, bet_meter

_INT64 = 2**63


@dataclass(frozen=True)
class SideCurvePoint:
    """The exact figures with the varied line at one pay (joint strategy)."""

    pay: Fraction
    side_return: Fraction  # per unit of side stake
    side_house_edge: Fraction
    main_house_edge: Fraction  # per ante
    call_rate: Fraction
    combined_house_edge: Fraction  # main game and side bet, per hand in antes
    combined_per_unit_wagered: Fraction


class SideBetCurve:
    """A forfeited side bet played ``joint`` as line ``vary``'s pay varies, every other pay,
    the stake and the meter fixed (see the module docstring). Building it is one pass over
    the states and one sort; a value is then a search."""

    def __init__(
        self,
        bets: SideBetEngine,
        bet: SideBetSpec,
        vary: str,
        stake: NumberLike = 1,
        meter: NumberLike | None = None,
    ) -> None:
        bet, stake = SideBet.load(bet), as_fraction(stake, "stake")
        if stake <= 0:
            raise InputError(f"the side stake must be positive, got {stake}")
        if not bet.forfeit:
            raise InputError(
                f"{bet.name} is not forfeited by a fold: its pays leave the decisions alone and its return is "
                "a straight line in each pay (solve_side_bet finds a pay in one step)"
            )
        if bet.line(vary).share is not None:
            raise InputError(f"line {vary!r} pays from the meter: vary a fixed-pay line")
        self.bet, self.vary, self.stake = bet, vary, stake
        self.meter = bet_meter(bet, meter)
        engine, rules = bets.engine, bets.engine.rules
        coef, base, d = engine.coefficients(bets.paytable, bets.pays_on)
        zero, one = (bets.term(bet.with_pays({vary: v}), stake, self.meter) for v in (0, 1))
        # margins and side terms on one whole-number scale, as the engine decides them
        self.scale = lcm(d * rules.completions, zero.denominator, one.denominator)
        factor = self.scale // (d * rules.completions)
        try:
            main = engine.pay.linear([c * factor for c in coef]) + base * factor
        except OverflowError:
            main = None
        side0 = zero.numerators(self.scale // zero.denominator)
        side1 = one.numerators(self.scale // one.denominator)
        if main is None or side0 is None or side1 is None or _too_wide(main, side0, side1):
            raise InputError(
                f"the pays of {bets.paytable.name} and {bet.name} have too large a common denominator for the "
                "exact curve's 64-bit sums; round them to fewer decimals"
            )
        slope = side1 - side0
        if (slope < 0).any():
            raise AssertionError("a line's pay enters the side term as a non-negative multiple")
        alpha, w = main + side0, engine.weight.astype(np.int64)
        self.total_weight, self.call_multiple = int(w.sum()), rules.call_multiple
        # pays are >= 0 and slopes >= 0: a state that calls at p = 0 calls at every pay, one with
        # no slope that folds there folds at every pay; only the others have a root to sort
        calls, folds = alpha > 0, (alpha <= 0) & (slope == 0)
        # the states that always call: their main margins, side terms at p = 0 and slopes
        self.fixed = [weighted_sum(w[calls], x[calls]) for x in (main, side0, slope)]
        self.fixed_weight = int(w[calls].sum())
        moving = np.flatnonzero(~calls & ~folds)
        self.states = RootOrder(alpha[moving], slope[moving], w[moving], 1, extra=(side0[moving],))

    def __len__(self) -> int:
        """The states whose decision depends on the pay (one breakpoint each)."""
        return len(self.states)

    def at(self, pay: NumberLike) -> SideCurvePoint:
        """The exact figures with the line paying ``pay``."""
        p = as_fraction(pay, f"{self.vary} pay")
        if p < 0:
            raise InputError(f"{self.vary} pay must be at least 0, not {p}")
        start, near = self.states.split(p)
        a_sum, b_sum, weight, (side0,) = self.states.called(start, near)
        side = self.fixed[1] + side0 + p * (b_sum + self.fixed[2])  # weight x the called states' side terms, x scale
        main = self.fixed[0] + a_sum - side0  # weight x the called states' main-game margins, x scale
        main_edge = 1 - Fraction(main, self.total_weight * self.scale)
        side_return = Fraction(side) / (self.total_weight * self.scale * self.stake)
        call_rate = Fraction(weight + self.fixed_weight, self.total_weight)
        combined = main_edge + self.stake * (1 - side_return)
        wager = 1 + self.call_multiple * call_rate + self.stake
        return SideCurvePoint(p, side_return, 1 - side_return, main_edge, call_rate, combined, combined / wager)

    def pay_for(self, target_return: Fraction) -> Fraction:
        """The exact pay at which the side bet returns ``target_return`` per unit staked.
        SolveError when no pay does: the target lies in a jump of the return (at a root,
        where a state starts calling) or beyond every pay."""
        norm = self.total_weight * self.scale * self.stake
        want = target_return * norm - self.fixed[1]  # the called states' side terms, x scale

        def piece(j: int) -> tuple[int, int]:  # (side terms at p = 0, slope) with the first j states called
            _, b, _, (s0,) = self.states.called(j, [])
            return s0, b

        def root(j: int) -> Fraction:
            return Fraction(-int(self.states.alpha[j]), int(self.states.beta[j]))

        lo, hi = 0, len(self)  # the first piece whose value at its right end (the next root) reaches want
        while lo < hi:
            j = (lo + hi) // 2
            s0, b = piece(j)
            if s0 + root(j) * (b + self.fixed[2]) >= want:
                hi = j
            else:
                lo = j + 1
        s0, b = piece(lo)
        if b + self.fixed[2] == 0:
            raise SolveError(f"line {self.vary!r} pays nothing here while the return is below the target")
        pay = max((want - s0) / (b + self.fixed[2]), Fraction(0))
        if self.at(pay).side_return != target_return:
            raise SolveError(
                f"no pay of {self.vary!r} returns exactly {float(target_return):.6%}: the return jumps past it "
                f"near {float(pay):g}, where a state starts calling and brings its side bet into play"
            )
        return pay

    def breakpoints(self, low: float, high: float) -> pd.DataFrame:
        """Every breakpoint with the pay in [low, high], and the ends, as floats for drawing.
        The return jumps at a breakpoint, so each has two rows: the value at it (the state
        there ties and folds) and just above it; the curve is straight from one breakpoint's
        second row to the next one's first."""
        roots, above = self.states.steps(low, high)
        pays = np.repeat(roots, 2)
        k = np.repeat(above, 2)  # states called just above each pay; at it, those with a lower root
        k[0::2] = np.searchsorted(self.states.roots, roots, side="left")
        side0 = self.states.extra_sums(0, k) + self.fixed[1]
        side = side0 + pays * (self.states.beta_sums(k) + self.fixed[2])
        main = self.states.alpha_sums(k) + self.fixed[0] - self.states.extra_sums(0, k)
        norm = self.total_weight * self.scale
        side_return = side / (norm * float(self.stake))
        main_edge = 1 - main / norm
        return pd.DataFrame(
            {
                f"{self.vary} pays": pays,
                "side bet return": side_return,
                "main game house edge": main_edge,
                "combined house edge per hand": main_edge + float(self.stake) * (1 - side_return),
            }
        )


def _too_wide(main: np.ndarray, side0: np.ndarray, side1: np.ndarray) -> bool:
    """Whether a margin at p = 0 or the side term's slope could leave 64 bits."""
    largest = [int(np.abs(x).max(initial=0)) for x in (main, side0, side1)]
    return largest[0] + largest[1] >= _INT64 or largest[1] + largest[2] >= _INT64
