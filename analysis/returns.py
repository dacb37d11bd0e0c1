"""Strategy and returns: from per-state counts and a pay table to the return table.

Money is counted in antes. A folding player loses the ante. A calling player puts up
``call_multiple`` more antes and, for each completion, nets:

==================================  ==============================  ===========================
outcome                             ``pays_on="ante"`` (AnteWin)    ``pays_on="call"`` (Caribbean)
==================================  ==============================  ===========================
dealer does not qualify, category   ante pays the table, call push  ante pays 1, call push
player beats a qualifying dealer    ante pays the table, call 1:1   ante 1:1, call pays the table
tie with a qualifying dealer        push                            push
dealer wins                         lose ante and call              lose ante and call
==================================  ==============================  ===========================

Optimal strategy: call exactly when EV(call) > EV(fold); on an exact tie the player
folds (the same edge, less money at risk). Decisions are made in exact integer
arithmetic (pays scaled by their common denominator; the sums stay below 2**53, so
float64 holds them exactly), and every figure of the return table is an exact integer
count of deals or an exact Fraction until it is shown.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from math import sqrt

import numpy as np
import pandas as pd

from .enumeration import COLUMNS, StateCounts
from .paytable import PayTable
from .rules import Rules
from .tables import CATEGORIES

PAYS_ON = ("ante", "call")
STRATEGIES = ("optimal", "always-call")
OUTCOMES = ("fold", "dealer_not_qualifying", "player_wins", "tie", "dealer_wins")

_EXACT_LIMIT = 2**53


def _column(result: str, category: str) -> int:
    return COLUMNS.index(f"{result}_{category}")


def outcome_payoffs(paytable: PayTable, rules: Rules, pays_on: str = "ante") -> dict[tuple[str, str], Fraction]:
    """Net payoff in antes of every row of the return table, keyed (outcome, category)."""
    if pays_on not in PAYS_ON:
        raise ValueError(f"pays_on must be one of {PAYS_ON}, not {pays_on!r}")
    m = rules.call_multiple
    pay = paytable.pays
    out: dict[tuple[str, str], Fraction] = {("fold", ""): Fraction(-1)}
    for c in reversed(CATEGORIES):
        out[("dealer_not_qualifying", c)] = pay[c] if pays_on == "ante" else Fraction(1)
    for c in reversed(CATEGORIES):
        out[("player_wins", c)] = pay[c] + m if pays_on == "ante" else 1 + m * pay[c]
    out[("tie", "")] = Fraction(0)
    out[("dealer_wins", "")] = Fraction(-1 - m)
    return out


def column_payoffs(paytable: PayTable, rules: Rules, pays_on: str = "ante") -> list[Fraction]:
    """Net payoff of a called completion counted in each of the 40 count columns."""
    p = outcome_payoffs(paytable, rules, pays_on)
    by_result = {"noqual": "dealer_not_qualifying", "win": "player_wins"}
    out = []
    for name in COLUMNS:
        result, category = name.split("_", 1)
        if result in by_result:
            out.append(p[(by_result[result], category)])
        else:
            out.append(p[("tie" if result == "tie" else "dealer_wins", "")])
    return out


def call_margin(sc: StateCounts, paytable: PayTable, rules: Rules, pays_on: str = "ante") -> np.ndarray:
    """(EV(call) - EV(fold)) x completions x d per state, an exact integer in float64.

    d is the pays' common denominator; only the sign and ties matter to the strategy.
    """
    pays = column_payoffs(paytable, rules, pays_on)
    d = int(np.lcm.reduce([p.denominator for p in pays]))
    coef = [int(p * d) for p in pays]
    if (max(abs(c) for c in coef) + d) * rules.completions >= _EXACT_LIMIT:  # a state's counts add up to its completions
        raise ValueError("pays too large for exact strategy decisions (|pay| x completions must stay below 2**53)")
    margin = np.full(len(sc), float(d * rules.completions))  # EV(fold) is -1 per completion
    for j, c in enumerate(coef):
        if c:
            margin += c * sc.counts[:, j].astype(np.float64)
    return margin


def decide(sc: StateCounts, paytable: PayTable, rules: Rules, strategy="optimal", pays_on: str = "ante") -> np.ndarray:
    """Boolean call decision per state for a named strategy or a callable(sc) -> bool array."""
    if callable(strategy):
        calls = np.asarray(strategy(sc), dtype=bool)
        if calls.shape != (len(sc),):
            raise ValueError("a strategy callable must return one decision per state")
        return calls
    if strategy == "optimal":
        return call_margin(sc, paytable, rules, pays_on) > 0
    if strategy == "always-call":
        return np.ones(len(sc), dtype=bool)
    if strategy == "always-fold":
        return np.zeros(len(sc), dtype=bool)
    raise ValueError(f"unknown strategy {strategy!r}; choose one of: {', '.join(STRATEGIES)}")


def weighted_column_sums(sc: StateCounts, selected: np.ndarray) -> np.ndarray:
    """Exact sum over the selected states of weight x count, for each of the 40 columns.

    Every term is a non-negative integer and every sum is at most the game's total
    combinations (< 2**53), so float64 sums are exact; they are returned as int64.
    """
    w = np.where(selected, sc.weight, 0).astype(np.float64)
    sums = np.array([np.dot(sc.counts[:, j].astype(np.float64), w) for j in range(len(COLUMNS))])
    if sums.sum() >= _EXACT_LIMIT:
        raise OverflowError("column sums too large for exact float64 accumulation")
    return sums.astype(np.int64)


@dataclass
class GameResult:
    """The exact return of one game, pay table and strategy."""

    rules: Rules
    paytable: PayTable
    strategy: str
    pays_on: str
    table: pd.DataFrame  # the return table
    exact: dict  # exact figures: Fractions and ints
    calls: np.ndarray  # the decision per state

    def summary(self) -> dict:
        """Figures for display and JSON: floats, plus exact values as strings."""
        e = self.exact
        out = {
            "game": self.rules.name,
            "paytable": self.paytable.name,
            "pays_on": self.pays_on,
            "strategy": self.strategy,
            "total_combinations": e["total_combinations"],
            "house_edge": float(e["house_edge"]),
            "element_of_risk": float(e["element_of_risk"]),
            "call_rate": float(e["call_rate"]),
            "average_wager": float(e["average_wager"]),
            "std_dev": e["std_dev"],
            "hit_frequency": float(e["hit_frequency"]),
            "house_edge_exact": str(e["house_edge"]),
            "element_of_risk_exact": str(e["element_of_risk"]),
        }
        return out


def evaluate_strategy(
    sc: StateCounts,
    rules: Rules,
    paytable: PayTable | None = None,
    strategy: str | Callable = "optimal",
    pays_on: str = "ante",
) -> GameResult:
    """Return table and exact summary of a strategy on a game's per-state counts."""
    paytable = PayTable.load(paytable)
    calls = decide(sc, paytable, rules, strategy, pays_on)
    sums = weighted_column_sums(sc, calls)
    called = {("dealer_not_qualifying", c): int(sums[_column("noqual", c)]) for c in CATEGORIES}
    called |= {("player_wins", c): int(sums[_column("win", c)]) for c in CATEGORIES}
    called[("tie", "")] = int(sum(sums[_column("tie", c)] for c in CATEGORIES))
    called[("dealer_wins", "")] = int(sum(sums[_column("loss", c)] for c in CATEGORIES))
    name = strategy if isinstance(strategy, str) else getattr(strategy, "__name__", "custom")
    return game_result(rules, paytable, name, pays_on, called, int(sc.weight[calls].sum()), calls)


def game_result(
    rules: Rules,
    paytable: PayTable,
    strategy: str,
    pays_on: str,
    called: dict[tuple[str, str], int],
    called_states: int,
    calls: np.ndarray,
) -> GameResult:
    """Return table and exact figures from the completions of the called states, counted
    per outcome (``called``), and the number of states called."""
    payoffs = outcome_payoffs(paytable, rules, pays_on)
    combos = {k: (rules.states - called_states) * rules.completions if k == ("fold", "") else called[k]
              for k in payoffs}
    total = sum(combos.values())
    if total != rules.total_combinations:
        raise AssertionError(f"combinations add up to {total}, expected {rules.total_combinations}")
    ev = Fraction(sum(n * payoffs[k] for k, n in combos.items()), total)
    ev2 = Fraction(sum(n * payoffs[k] ** 2 for k, n in combos.items()), total)
    call_rate = Fraction(called_states, rules.states)
    average_wager = 1 + rules.call_multiple * call_rate
    exact = {
        "total_combinations": total,
        "ev": ev,
        "house_edge": -ev,
        "call_rate": call_rate,
        "average_wager": average_wager,
        "element_of_risk": -ev / average_wager,
        "variance": ev2 - ev**2,
        "std_dev": sqrt(ev2 - ev**2),
        "hit_frequency": Fraction(sum(n for k, n in combos.items() if payoffs[k] > 0), total),
    }
    table = pd.DataFrame(
        {
            "outcome": [k[0] for k in combos],
            "category": [k[1] for k in combos],
            "combinations": np.array(list(combos.values()), dtype=np.int64),
            "probability": [n / total for n in combos.values()],
            "payoff": [float(payoffs[k]) for k in combos],
            "contribution": [float(Fraction(n, total) * payoffs[k]) for k, n in combos.items()],
        }
    )
    return GameResult(rules, paytable, strategy, pays_on, table, exact, calls)
