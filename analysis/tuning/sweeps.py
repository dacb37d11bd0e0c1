"""The house edge against one pay, as the panel draws it: for the optimal strategy the exact
curve (:class:`analysis.engine.pay_curve.PayCurve`, kept so a drag of that pay reads its
whole result from it), for the others a sweep of engine passes that stops when told to. Both
are cached per game, convention, pay and the other pays."""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import Any

import pandas as pd

from analysis.engine.pay_curve import PayCurve
from analysis.engine.result import GameResult
from analysis.engine.return_engine import ReturnEngine
from analysis.model.errors import InputError
from analysis.model.paytable import PayTable
from analysis.model.rules import Rules
from analysis.tuning.inputs import bounded_put
from analysis.tuning.tuner import Tuner

#: Exact pay curves kept (each key: rules, convention, the pay and the other pays).
CURVE_CACHE = 16
#: Sampled sweeps kept (each key: rules, strategy, convention, the pay, its range, the other pays).
SWEEP_CACHE = 64


def _others(table: PayTable, category: str) -> tuple[tuple[str, Fraction], ...]:
    return tuple(sorted((k, v) for k, v in table.pays.items() if k != category))


class Sweeps:
    """The curves and sweeps of one panel; ``points``: engine passes of a sampled sweep."""

    def __init__(self, points: int) -> None:
        self.points = points
        self._curves: dict[tuple[Any, ...], PayCurve | None] = {}  # None: refused (too wide), swept instead
        self._sweeps: dict[tuple[Any, ...], pd.DataFrame] = {}

    def result(self, rules: Rules, table: PayTable, category: str, pays_on: str) -> GameResult | None:
        """The optimal result of ``table`` from ``category``'s curve, when it was drawn at
        the table's other pays (else None)."""
        curve = self._curves.get((rules, pays_on, category, _others(table, category)))
        return None if curve is None else curve.result(table.pays[category])

    def frame(
        self,
        engine: ReturnEngine,
        table: PayTable,
        category: str,
        top: float,
        strategy: str,
        pays_on: str,
        superseded: Callable[[], bool],
    ) -> pd.DataFrame | None:
        """The house edge against ``category``'s pay from 0 to ``top`` (columns: the
        category, ``house_edge``): every breakpoint of the exact curve for the optimal
        strategy (when the other pays' denominators let its sums stay in 64 bits), else
        ``points`` engine passes; None when ``superseded()`` stops a sweep."""
        key = (engine.rules, pays_on, category, _others(table, category))
        if strategy == "optimal" and key not in self._curves:
            try:
                made: PayCurve | None = PayCurve(engine, table, category, pays_on)
            except InputError:  # pays beyond the curve's 64-bit sums (an exact solve's fraction): sampled
                made = None
            bounded_put(self._curves, key, made, CURVE_CACHE)
        curve = self._curves.get(key) if strategy == "optimal" else None
        if curve is not None:
            pays, edges = curve.breakpoints(0.0, float(top))
            return pd.DataFrame({category: pays, "house_edge": edges})
        sweep_key = (engine.rules, strategy, pays_on, category, top, _others(table, category))
        if sweep_key not in self._sweeps:
            tuner, rows = Tuner(engine, pays_on), []
            for i in range(self.points):
                if superseded():
                    return None
                pay = Fraction(top).limit_denominator(100) * i / (self.points - 1)
                rows.append(tuner.sweep(table, strategy, **{category: [pay]}))
            bounded_put(self._sweeps, sweep_key, pd.concat(rows, ignore_index=True), SWEEP_CACHE)
        return self._sweeps[sweep_key]
