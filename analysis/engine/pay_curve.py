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
        alpha = engine.pay.linear(coef0) + base0  # margin x completions x d at p = 0
        beta = engine.pay.linear([int(s) for s in slope])  # d(margin x completions) / dp
        w = engine.weight.astype(np.int64)
        self.d, self.total_weight, self.completions = d, int(w.sum()), rules.completions
        self.call_multiple = rules.call_multiple
        fixed = beta == 0
        calls_fixed = fixed & (alpha > 0)
        self.fixed_sum = int((w[calls_fixed] * (alpha[calls_fixed] >> 32)).sum()) * _HALF + int(
            (w[calls_fixed] * (alpha[calls_fixed] & (_HALF - 1))).sum()
        )
        self.fixed_weight = int(w[calls_fixed].sum())
        moving = np.flatnonzero(~fixed)
        a, b = alpha[moving], beta[moving]
        roots = -a / (d * b.astype(np.float64))
        order = np.argsort(roots, kind="stable")
        self.roots, self.alpha, self.beta, w = roots[order], a[order], b[order], w[moving][order]

        def running(x: np.ndarray) -> np.ndarray:
            return np.concatenate([[0], np.cumsum(x, dtype=np.int64)])

        self._hi, self._lo = running(w * (self.alpha >> 32)), running(w * (self.alpha & (_HALF - 1)))
        self._beta, self._w, self.weight = running(w * self.beta), running(w), w
        # the return table's sums: states in root order by block, the fixed calls apart
        self._sorted = moving[order]
        self._rank = np.full(len(alpha), len(moving), dtype=np.int32)  # a fixed fold: never called
        self._rank[calls_fixed] = -1  # a fixed call: always
        self._rank[self._sorted] = np.arange(len(moving), dtype=np.int32)
        blocks = -(-len(moving) // BLOCK)
        groups = np.where(self._rank >= 0, self._rank // BLOCK, blocks).astype(np.int32)
        groups[fixed & ~calls_fixed] = -1
        sums = engine.pay.group_sums(engine.weight, groups, blocks + 1)
        self._fixed_sums = sums[blocks]
        self._block_sums = np.cumsum(np.vstack([np.zeros_like(sums[:1]), sums[:blocks]]), axis=0)

    def __len__(self) -> int:
        """The states whose decision depends on the pay (one breakpoint each)."""
        return len(self.roots)

    def _called(self, k: int) -> tuple[int, int, int]:
        """(sum of weight x alpha, of weight x beta, the weight) over the first ``k`` states."""
        return int(self._hi[k]) * _HALF + int(self._lo[k]), int(self._beta[k]), int(self._w[k])

    def _split(self, pay: NumberLike) -> tuple[Fraction, int, list[int]]:
        """(p, k, near): the first ``k`` states in root order call at ``p``, and so do the
        states ``near`` after them, decided in whole numbers within rounding of ``p``."""
        p = as_fraction(pay, f"{self.category} pay")
        if p < 0:
            raise InputError(f"{self.category} pay must be at least 0, not {p}")
        x, near = float(p), _NEAR * max(1.0, abs(float(p)))
        start = int(np.searchsorted(self.roots, x - near, side="left"))
        stop = int(np.searchsorted(self.roots, x + near, side="right"))
        calls = [
            i
            for i in range(start, stop)
            if int(self.alpha[i]) * p.denominator + self.d * int(self.beta[i]) * p.numerator > 0
        ]
        return p, start, calls

    def at(self, pay: NumberLike) -> CurvePoint:
        """The exact optimal figures with the pay at ``pay``."""
        p, start, near = self._split(pay)
        a_sum, b_sum, weight = self._called(start)
        for i in near:
            w = int(self.weight[i])
            a_sum, b_sum, weight = a_sum + w * int(self.alpha[i]), b_sum + w * int(self.beta[i]), weight + w
        called = a_sum + self.fixed_sum + self.d * p * b_sum
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
        k0, k1 = np.searchsorted(self.roots, [low, high], side="right")
        pays = np.unique(np.concatenate([[low], self.roots[k0:k1], [high]]))
        k = np.searchsorted(self.roots, pays, side="right")  # states called just above each pay
        a = self._hi[k].astype(np.float64) * _HALF + self._lo[k] + self.fixed_sum
        called = a + self.d * pays * self._beta[k]
        return pays, 1 - called / (self.total_weight * self.completions * self.d)
