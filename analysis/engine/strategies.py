"""What a strategy is to the return engine: a function that gives one decision (call or
fold) per state for a pay table and pay rule, and the strategies the engine plays by name.
A :class:`StateTerm` is an exact per-state amount added to the optimal decision's margin
(a side bet lost on a fold, see :mod:`analysis.sidebets.returns`). Strategies derived above
the engine (the simple strategy) are named in :mod:`analysis.strategy.registry`.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import TYPE_CHECKING, Protocol, TypeAlias

import numpy as np

from analysis.model.paytable import PayTable

if TYPE_CHECKING:
    from analysis.engine.return_engine import ReturnEngine

Strategy: TypeAlias = Callable[["ReturnEngine", PayTable, str], np.ndarray]


class StateTerm(Protocol):
    """An exact amount added to EV(call) - EV(fold) of every state, in antes: state i's is
    ``numerators(1)[i] / denominator``."""

    denominator: int

    def numerators(self, factor: int) -> np.ndarray | None:
        """``factor`` x the numerator of every state (int64), or None when beyond 64 bits."""

    def approx(self) -> np.ndarray:
        """The amount of every state in float64 (to find near-ties when numerators do not fit)."""

    def exact(self, rows: np.ndarray) -> list[Fraction]:
        """The exact amount of the given states."""


#: The strategies the engine plays by name (see the module docstring).
BASIC_STRATEGIES: dict[str, Strategy] = {
    "optimal": lambda engine, paytable, pays_on: engine.optimal_calls(paytable, pays_on),
    "always-call": lambda engine, paytable, pays_on: np.ones(engine.states, dtype=bool),
    "always-fold": lambda engine, paytable, pays_on: np.zeros(engine.states, dtype=bool),
}
