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
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from analysis.engine.return_engine import ReturnEngine
from analysis.model.categories import CATEGORIES
from analysis.model.errors import InputError
from analysis.model.numbers import NumberLike, as_fraction
from analysis.model.paytable import PayTable, PayTableSpec

#: Splits each alpha into two 32-bit halves, so the running sums stay exact in int64.
_HALF = 1 << 32
#: Floating roots within this relative distance of a queried pay are decided exactly.
_NEAR = 1e-9


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

    def __len__(self) -> int:
        """The states whose decision depends on the pay (one breakpoint each)."""
        return len(self.roots)

    def _called(self, k: int) -> tuple[int, int, int]:
        """(sum of weight x alpha, of weight x beta, the weight) over the first ``k`` states."""
        return int(self._hi[k]) * _HALF + int(self._lo[k]), int(self._beta[k]), int(self._w[k])

    def at(self, pay: NumberLike) -> CurvePoint:
        """The exact optimal figures with the pay at ``pay``."""
        p = as_fraction(pay, f"{self.category} pay")
        if p < 0:
            raise InputError(f"{self.category} pay must be at least 0, not {p}")
        x, near = float(p), _NEAR * max(1.0, abs(float(p)))
        start = int(np.searchsorted(self.roots, x - near, side="left"))
        stop = int(np.searchsorted(self.roots, x + near, side="right"))
        a_sum, b_sum, weight = self._called(start)
        for i in range(start, stop):  # within rounding of p: decided in whole numbers
            a, b = int(self.alpha[i]), int(self.beta[i])
            if a * p.denominator + self.d * b * p.numerator > 0:
                w = int(self.weight[i])
                a_sum, b_sum, weight = a_sum + w * a, b_sum + w * b, weight + w
        called = a_sum + self.fixed_sum + self.d * p * b_sum
        house_edge = 1 - called / (self.total_weight * self.completions * self.d)
        call_rate = Fraction(weight + self.fixed_weight, self.total_weight)
        return CurvePoint(p, house_edge, call_rate, house_edge / (1 + self.call_multiple * call_rate))

    def breakpoints(self, low: float, high: float) -> tuple[np.ndarray, np.ndarray]:
        """Every breakpoint of the house edge with the pay in [low, high], with the ends:
        (pays, house edges) as floats, for drawing the curve exactly (it is straight between)."""
        k0, k1 = np.searchsorted(self.roots, [low, high], side="right")
        pays = np.unique(np.concatenate([[low], self.roots[k0:k1], [high]]))
        k = np.searchsorted(self.roots, pays, side="right")  # states called just above each pay
        a = self._hi[k].astype(np.float64) * _HALF + self._lo[k] + self.fixed_sum
        called = a + self.d * pays * self._beta[k]
        return pays, 1 - called / (self.total_weight * self.completions * self.d)
