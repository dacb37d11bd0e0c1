"""The optimal house edge as an exact function of one pay, every other pay fixed: what a
dragged slider needs at once, and the whole curve with every breakpoint.

With one pay ``p`` free, each state's EV(call) - EV(fold), scaled to whole numbers, is
``alpha + d * p * beta`` (``beta`` >= 0: the deals where the line pays, weighted by what it
pays per unit of ``p``), so the optimal player calls exactly when ``p`` exceeds the state's
root ``-alpha / (d * beta)`` (a tie folds, as the engine's). With the states sorted by root
and running sums of ``weight * alpha``, ``weight * beta`` and ``weight``, any ``p`` gives the
called sums by one search, exactly: the states whose floating root lies within rounding of
``p`` are decided in whole numbers. The player's return is convex and piecewise linear in
``p`` (the house edge concave), with a breakpoint at every root.

The whole return table at ``p`` (and so the variance and hit frequency) is the called
states' sums of the engine's pay-relevant columns: kept per block of ``BLOCK`` states in
root order as running sums, a value adds at most one block's rows to the running sum
before it, so the table costs a few thousand rows, not a pass over every state.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from analysis.engine.result import GameResult, game_result
from analysis.engine.return_engine import ReturnEngine
from analysis.model.categories import CATEGORIES
from analysis.model.errors import InputError
from analysis.model.numbers import NumberLike, as_fraction
from analysis.model.paytable import PayTable, PayTableSpec

#: Splits each alpha into two 32-bit halves, so the running sums stay exact in int64.
_HALF = 1 << 32
_INT64 = 1 << 63
#: Floating roots within this relative distance of a queried pay are decided exactly.
_NEAR = 1e-9
#: States per block of the return table's running sums (a value sums at most this many rows).
BLOCK = 4096


@dataclass(frozen=True)
class CurvePoint:
    """The optimal figures at one value of the pay, exact."""

    pay: Fraction
    house_edge: Fraction
    call_rate: Fraction
    element_of_risk: Fraction


def running(x: np.ndarray) -> np.ndarray:
    """0, then the running sums of ``x`` (int64)."""
    out = np.empty(len(x) + 1, dtype=np.int64)
    out[0] = 0
    np.cumsum(x, dtype=np.int64, out=out[1:])
    return out


def weighted_sum(w: np.ndarray, x: np.ndarray) -> int:
    """Sum of w x x (int64 arrays), exact: x in two 32-bit halves, so no int64 sum overflows."""
    return int((w * (x >> 32)).sum()) * _HALF + int((w * (x & (_HALF - 1))).sum())


class RootOrder:
    """States whose margin is ``alpha + d * p * beta`` (``beta`` > 0) in the order of their
    roots ``-alpha / (d * beta)``, with exact running sums of ``weight x alpha``, ``weight x
    beta``, the weight, and of ``weight x`` each of ``extra`` (int64 per state, like alpha)."""

    def __init__(
        self, alpha: np.ndarray, beta: np.ndarray, weight: np.ndarray, d: int, extra: tuple[np.ndarray, ...] = ()
    ) -> None:
        roots = -alpha / (d * beta.astype(np.float64))
        self.order = np.argsort(roots, kind="stable")
        self.roots, self.alpha, self.beta = roots[self.order], alpha[self.order], beta[self.order]
        self.weight, self.d = weight[self.order], d
        # every sum of weight x a state's number in two 32-bit halves: a plain int64 sum of
        # millions of states could overflow when a pay's denominator is large
        self._alpha, self._beta, self._w = self._halves(self.alpha), self._halves(self.beta), running(self.weight)
        self.extra = [x[self.order] for x in extra]
        self._extra = [self._halves(x) for x in self.extra]

    def _halves(self, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Running sums of weight x x as two 32-bit halves, exact in int64."""
        return running(self.weight * (x >> 32)), running(self.weight * (x & (_HALF - 1)))

    def __len__(self) -> int:
        return len(self.roots)

    def split(self, p: Fraction) -> tuple[int, list[int]]:
        """(k, near): the first ``k`` states call at ``p``, and so do the states ``near``
        after them, decided in whole numbers within rounding of ``p`` (a tie folds)."""
        x, near = float(p), _NEAR * max(1.0, abs(float(p)))
        start = int(np.searchsorted(self.roots, x - near, side="left"))
        stop = int(np.searchsorted(self.roots, x + near, side="right"))
        calls = [
            i
            for i in range(start, stop)
            if int(self.alpha[i]) * p.denominator + self.d * int(self.beta[i]) * p.numerator > 0
        ]
        return start, calls

    def called(self, k: int, near: list[int]) -> tuple[int, int, int, list[int]]:
        """Exact sums over the first ``k`` states and ``near``: (weight x alpha, weight x
        beta, weight, [weight x each extra])."""
        a = int(self._alpha[0][k]) * _HALF + int(self._alpha[1][k])
        b, w = int(self._beta[0][k]) * _HALF + int(self._beta[1][k]), int(self._w[k])
        extra = [int(hi[k]) * _HALF + int(lo[k]) for hi, lo in self._extra]
        for i in near:
            wi = int(self.weight[i])
            a, b, w = a + wi * int(self.alpha[i]), b + wi * int(self.beta[i]), w + wi
            extra = [e + wi * int(x[i]) for e, x in zip(extra, self.extra)]
        return a, b, w, extra

    def steps(self, low: float, high: float) -> tuple[np.ndarray, np.ndarray]:
        """Every root in [low, high] with the ends (floats), and the states called just above
        each: for drawing a curve that is straight between roots."""
        if not 0 <= low <= high:  # the states that call at p = 0 were set apart as always calling
            raise InputError(f"a curve is drawn for pays from 0 up, not from {low:g} to {high:g}")
        k0, k1 = np.searchsorted(self.roots, [low, high], side="right")
        pays = np.unique(np.concatenate([[low], self.roots[k0:k1], [high]]))
        return pays, np.searchsorted(self.roots, pays, side="right")

    def alpha_sums(self, k: np.ndarray) -> np.ndarray:
        """Sums of weight x alpha over the first ``k`` states (float64, for drawing)."""
        return self._alpha[0][k].astype(np.float64) * _HALF + self._alpha[1][k]

    def beta_sums(self, k: np.ndarray) -> np.ndarray:
        """Sums of weight x beta over the first ``k`` states (float64, for drawing)."""
        return self._beta[0][k].astype(np.float64) * _HALF + self._beta[1][k]

    def extra_sums(self, j: int, k: np.ndarray) -> np.ndarray:
        """Sums of weight x extra ``j`` over the first ``k`` states (float64, for drawing)."""
        hi, lo = self._extra[j]
        return hi[k].astype(np.float64) * _HALF + lo[k]


class PayCurve:
    """The optimal house edge, call rate and element of risk of ``engine`` as ``category``'s
    pay varies, the rest of ``paytable`` fixed (see the module docstring). Building it is one
    pass over the states and one sort; a value is then a search."""

    def __init__(self, engine: ReturnEngine, paytable: PayTableSpec, category: str, pays_on: str = "ante") -> None:
        if category not in CATEGORIES:
            raise InputError(f"unknown category {category!r} (known: {', '.join(CATEGORIES)})")
        table = PayTable.load(paytable)
        self.engine, self.category, self.pays_on, self.paytable = engine, category, pays_on, table
        rules = engine.rules
        coef0, base0, d = engine.coefficients(table.with_pays({category: 0}), pays_on)
        coef1, base1, d1 = engine.coefficients(table.with_pays({category: 1}), pays_on)
        # the pay enters every payoff linearly: its slope per column at the scale of p = 0
        slope = [Fraction(c1, d1) - Fraction(c0, d) for c0, c1 in zip(coef0, coef1)]
        if any(s.denominator != 1 or s < 0 for s in slope) or base1 * d != base0 * d1:
            raise AssertionError("a pay enters the payoffs as a whole, non-negative multiple")
        try:
            alpha = engine.pay.linear(coef0)  # margin x completions x d at p = 0, less base0
            beta = engine.pay.linear([int(s) for s in slope])  # d(margin x completions) / dp
            wide = int(np.abs(alpha).max(initial=0)) + abs(base0) >= _INT64
        except OverflowError:
            wide = True
        if wide:
            raise InputError(
                f"the pays of {table.name} have too large a common denominator ({d}) for the exact curve's "
                f"64-bit sums in the {category} pay; round them to fewer decimals"
            )
        alpha += base0
        w = engine.weight.astype(np.int64)
        self.d, self.total_weight, self.completions = d, int(w.sum()), rules.completions
        self.call_multiple = rules.call_multiple
        # pays are >= 0 and beta >= 0: a state that calls at p = 0 calls at every pay, one with
        # beta = 0 that folds there folds at every pay; only the others have a root to sort
        calls_fixed, folds_fixed = alpha > 0, (alpha <= 0) & (beta == 0)
        self.fixed_sum = weighted_sum(w[calls_fixed], alpha[calls_fixed])
        self.fixed_beta = weighted_sum(w[calls_fixed], beta[calls_fixed])
        self.fixed_weight = int(w[calls_fixed].sum())
        moving = np.flatnonzero(~calls_fixed & ~folds_fixed)
        self.states = RootOrder(alpha[moving], beta[moving], w[moving], d)
        self.roots, self.alpha, self.beta = self.states.roots, self.states.alpha, self.states.beta
        # the return table's sums: states in root order by block, the fixed calls apart
        self._sorted = moving[self.states.order]
        self._rank = np.full(len(alpha), len(moving), dtype=np.int32)  # a fixed fold: never called
        self._rank[calls_fixed] = -1  # a fixed call: always
        self._rank[self._sorted] = np.arange(len(moving), dtype=np.int32)
        blocks = -(-len(moving) // BLOCK)
        groups = np.where(self._rank >= 0, self._rank // BLOCK, blocks).astype(np.int32)
        groups[folds_fixed] = -1
        sums = engine.pay.group_sums(engine.weight, groups, blocks + 1)
        self._fixed_sums = sums[blocks]
        self._block_sums = np.cumsum(np.vstack([np.zeros_like(sums[:1]), sums[:blocks]]), axis=0)

    def __len__(self) -> int:
        """The states whose decision depends on the pay (one breakpoint each)."""
        return len(self.states)

    def _split(self, pay: NumberLike) -> tuple[Fraction, int, list[int]]:
        """(p, k, near) of :meth:`RootOrder.split`, the pay checked."""
        p = as_fraction(pay, f"{self.category} pay")
        if p < 0:
            raise InputError(f"{self.category} pay must be at least 0, not {p}")
        return (p, *self.states.split(p))

    def at(self, pay: NumberLike) -> CurvePoint:
        """The exact optimal figures with the pay at ``pay``."""
        p, start, near = self._split(pay)
        a_sum, b_sum, weight, _ = self.states.called(start, near)
        called = a_sum + self.fixed_sum + self.d * p * (b_sum + self.fixed_beta)
        house_edge = 1 - called / (self.total_weight * self.completions * self.d)
        call_rate = Fraction(weight + self.fixed_weight, self.total_weight)
        return CurvePoint(p, house_edge, call_rate, house_edge / (1 + self.call_multiple * call_rate))

    def result(self, pay: NumberLike) -> GameResult:
        """The optimal strategy's whole result with the pay at ``pay`` (the return table, every
        exact figure and the decisions), equal to the engine's pass for that table."""
        p, start, near = self._split(pay)
        block = start // BLOCK
        rows = np.concatenate([self._sorted[block * BLOCK : start], self._sorted[near]]).astype(np.int64)
        part = self.engine.pay.unpack(rows) * self.engine.weight[rows, None].astype(np.int64)
        sums = self._fixed_sums + self._block_sums[block]
        sums = sums + np.append(part.sum(axis=0), int(self.engine.weight[rows].astype(np.int64).sum()))
        calls = self._rank < start
        calls[self._sorted[near]] = True
        table = self.paytable.with_pays({self.category: p})
        combos = self.engine.combos_of_sums(sums)
        return game_result(self.engine.rules, table, "optimal", self.pays_on, combos, calls)

    def breakpoints(self, low: float, high: float) -> tuple[np.ndarray, np.ndarray]:
        """Every breakpoint of the house edge with the pay in [low, high], with the ends:
        (pays, house edges) as floats, for drawing the curve exactly (it is straight between)."""
        pays, k = self.states.steps(low, high)
        betas = self.states.beta_sums(k) + self.fixed_beta
        called = self.states.alpha_sums(k) + self.fixed_sum + self.d * pays * betas
        return pays, 1 - called / (self.total_weight * self.completions * self.d)
