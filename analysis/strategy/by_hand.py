"""The optimal strategy in plain terms, and what the simple strategy costs against it.

For one game and pay table: the optimal call rate of every hand class and of every cell of
the made-hand x draw grid, the simple strategy (:mod:`analysis.strategy.simple`) with the
exact cost of each of its rules, and optimal, simple and always-call side by side. Every
sum is exact: the return engine adds up EV(call) - EV(fold) per group of states in
integers, and the costs are Fractions.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction
from typing import SupportsInt

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike

from analysis.engine.result import GameResult
from analysis.engine.return_engine import ReturnEngine
from analysis.hands.classes import DRAWS, HAND_CLASSES, MADE_HANDS
from analysis.model.paytable import PayTable, PayTableSpec
from analysis.model.rules import Rules
from analysis.strategy.simple import RULE_OF_CLASS, SIMPLE_RULES, SimpleStrategy, derive_simple_strategy

#: The strategies compared.
COMPARED = ("optimal", "simple", "always-call")


@dataclass
class StrategyAnalysis:
    """The optimal strategy in plain terms and the simple strategy, for one game and pay table."""

    rules: Rules
    paytable: PayTable
    pays_on: str
    engine: ReturnEngine
    simple: SimpleStrategy
    profile: pd.DataFrame  # per hand class: share, optimal and simple call rates, mean EV(call) - EV(fold)
    grid: pd.DataFrame  # optimal call rate by made hand and draw
    rule_costs: pd.DataFrame  # per simple rule: share, call rates, exact cost against optimal
    comparison: pd.DataFrame  # optimal, simple, always call: exact house edge and cost
    results: dict[str, GameResult]

    def margin_antes(self) -> np.ndarray:
        """EV(call) - EV(fold) of every state, in antes (floats, for plots)."""
        return self.engine.margins(self.paytable, self.pays_on)


def _by(group_of: np.ndarray, values: ArrayLike, n: int) -> np.ndarray:
    """Sum of ``values`` (one per fine group) into ``n`` coarse groups."""
    out = np.zeros(n, dtype=object)
    np.add.at(out, group_of, np.asarray(values, dtype=object))
    return out


def _rates(called: Iterable[SupportsInt], states: Iterable[SupportsInt]) -> list[float]:
    return [float(Fraction(int(c), int(s))) if s else float("nan") for c, s in zip(called, states)]


def _weights(engine: ReturnEngine, groups: np.ndarray, n: int) -> np.ndarray:
    """Real states in each group (exact: the sums stay far below 2**53)."""
    return np.bincount(groups, weights=engine.weight, minlength=n).astype(np.int64)


def call_rates(engine: ReturnEngine, calls: np.ndarray, groups: np.ndarray, n: int) -> list[float]:
    """Call rate of ``calls`` in each group 0..n-1 of states."""
    weight = _weights(engine, groups.astype(np.int64) * 2 + calls, 2 * n).reshape(-1, 2)
    return _rates(weight[:, 1], weight.sum(axis=1))


def analyse_strategy(engine: ReturnEngine, paytable: PayTableSpec = None, pays_on: str = "ante") -> StrategyAnalysis:
    """Characterise the optimal strategy and derive and evaluate the simple one."""
    paytable, rules = PayTable.load(paytable), engine.rules
    simple = derive_simple_strategy(engine, paytable, pays_on)
    results = {name: engine.decide(paytable, name, pays_on) for name in ("optimal", "always-call")}
    results["simple"] = engine.decide(paytable, lambda e, *_: simple.decide(e.hand_profile()), pays_on, "simple")
    results = {name: results[name] for name in COMPARED}
    optimal, simple_calls = results["optimal"].calls, results["simple"].calls
    profile_arrays = engine.hand_profile()

    # one pass: per hand class x optimal call x simple call, the weight and the margin sum
    classes = profile_arrays.hand_class.astype(np.int32)
    groups = classes * 4 + optimal * 2 + simple_calls
    margin_sums, weight_sums, scale = engine.margin_sums(paytable, pays_on, groups, 4 * len(HAND_CLASSES))
    margin, weight = np.array(margin_sums, dtype=object).reshape(-1, 4), weight_sums.reshape(-1, 4)
    states = weight.sum(axis=1)
    total = int(states.sum())
    profile = pd.DataFrame(
        {
            "hand": list(HAND_CLASSES),
            "states": states,
            "share": states / total,
            "optimal_call_rate": _rates(weight[:, 2] + weight[:, 3], states),
            "simple_call_rate": _rates(weight[:, 1] + weight[:, 3], states),
            "mean_call_minus_fold": [
                float(Fraction(int(m), int(s) * scale)) if s else float("nan")
                for m, s in zip(margin.sum(axis=1), states)
            ],
        }
    )

    # the simple strategy's cost, rule by rule: states the two play differently
    lost = _by(RULE_OF_CLASS, margin[:, 2] - margin[:, 1], len(SIMPLE_RULES))
    rule_states = _by(RULE_OF_CLASS, states, len(SIMPLE_RULES))
    costs = [Fraction(int(x), rules.states * scale) for x in lost]
    rule_costs = pd.DataFrame(
        {
            "rule": simple.describe(),
            "share": [float(Fraction(int(s), total)) for s in rule_states],
            "simple_call_rate": _rates(_by(RULE_OF_CLASS, weight[:, 1] + weight[:, 3], len(SIMPLE_RULES)), rule_states),
            "optimal_call_rate": _rates(
                _by(RULE_OF_CLASS, weight[:, 2] + weight[:, 3], len(SIMPLE_RULES)), rule_states
            ),
            "cost_vs_optimal": [float(c) for c in costs],
            "cost_vs_optimal_exact": [str(c) for c in costs],
        }
    )

    # optimal call rate by made hand and draw
    rates = call_rates(engine, optimal, profile_arrays.cell, len(MADE_HANDS) * len(DRAWS))
    grid = pd.DataFrame(
        np.reshape(rates, (len(MADE_HANDS), len(DRAWS))),
        index=pd.Index(MADE_HANDS, name="made hand"),
        columns=pd.Index(DRAWS, name="draw"),
    )

    base = results["optimal"].exact.house_edge
    comparison = pd.DataFrame(
        [
            {
                "strategy": name,
                "house_edge": float(r.exact.house_edge),
                "element_of_risk": float(r.exact.element_of_risk),
                "call_rate": float(r.exact.call_rate),
                "standard_deviation": r.exact.standard_deviation,
                "cost_vs_optimal": float(r.exact.house_edge - base),
                "house_edge_exact": str(r.exact.house_edge),
                "cost_vs_optimal_exact": str(r.exact.house_edge - base),
            }
            for name, r in results.items()
        ]
    )
    return StrategyAnalysis(rules, paytable, pays_on, engine, simple, profile, grid, rule_costs, comparison, results)
