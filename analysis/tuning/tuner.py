"""Pay-table tuning: re-optimise the strategy for any pay table, sweep pays, and solve for
the pay table that hits a target house edge.

No re-enumeration: every table is one pass of the return engine (:mod:`analysis.engine.return_engine`)
over the per-state counts, exact for any rational pays.

>>> from analysis.engine.return_engine import ReturnEngine
>>> from analysis.counting.enumeration import count_flops, plan
>>> from analysis.model.rules import preset
>>> rules = preset("casino-holdem").small_deck("9TJQKA", "cd")
>>> tuner = Tuner(ReturnEngine.from_counts(count_flops(rules, plan(rules)), rules))
>>> tuner.house_edge(tuner.evaluate(None).paytable.replace(flush=5)) < tuner.house_edge(None)
True
"""

from __future__ import annotations

import itertools
import math
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Mapping
from fractions import Fraction
from typing import Any

import numpy as np
import pandas as pd
from scipy.optimize import brentq

from analysis.engine.result import GameResult
from analysis.engine.return_engine import ReturnEngine, load_engine
from analysis.engine.solve import Solved
from analysis.engine.statistics import exact_figures
from analysis.engine.strategies import Strategy
from analysis.model.categories import CATEGORIES
from analysis.model.errors import InputError, SolveError
from analysis.model.numbers import NumberLike, as_bounds, as_fraction
from analysis.model.payoffs import PAYS_ON, check_pays_on, outcome_payoffs
from analysis.model.paytable import PayTable, PayTableSpec
from analysis.parallel.options import RunOptions
from analysis.strategy.registry import strategy_named

SUMMARY_FIELDS = ("house_edge", "element_of_risk", "call_rate", "standard_deviation", "hit_frequency")
#: A sweep evaluates at most this many tables (each a full pass over the states).
MAX_SWEEP = 10_000

#: Bounds of a solve: (low, high) for every pay varied, or per category.
Bounds = tuple[NumberLike, NumberLike] | Mapping[str, tuple[NumberLike, NumberLike]]


def _check_categories(names: Iterable[str]) -> list[str]:
    names = list(names)
    unknown = [c for c in names if c not in CATEGORIES]
    if unknown:
        raise InputError(f"unknown categories: {', '.join(map(str, unknown))} (known: {', '.join(CATEGORIES)})")
    twice = sorted({c for c in names if names.count(c) > 1})
    if twice:
        raise InputError(f"categories named more than once: {', '.join(twice)}")
    return names


class PayTuner(ABC):
    """Sweeps and target solves of one pay table of a game, whatever engine prices it: a
    subclass says how a table is evaluated, which decisions it leads to, and the house
    edge as a function of one pay with those decisions held fixed (linear in the pay)."""

    @abstractmethod
    def evaluate(self, paytable: PayTableSpec = None, strategy: str | Strategy = "optimal") -> Solved:
        """The exact result of a pay table, the strategy re-optimised for it."""

    @abstractmethod
    def table(self, base: PayTableSpec = None) -> PayTable:
        """The table tuned: ``base`` (None: the game's own)."""

    @abstractmethod
    def _decisions(self, table: PayTable) -> Any:
        """What the optimal decisions for ``table`` are (compared by :meth:`_same`)."""

    @abstractmethod
    def _same(self, a: Any, b: Any) -> bool:
        """Whether two tables' decisions give the same edge function of a pay."""

    @abstractmethod
    def _edge_with(self, decisions: Any, base: PayTable, category: str) -> Callable[[Fraction], Fraction]:
        """House edge as a function of one pay, the decisions held fixed."""

    def _first_guess(
        self, target: Fraction, category: str, limits: tuple[Fraction, Fraction], base: PayTable
    ) -> Fraction:
        """Where the exact solve starts: near the root, by root finding on pays of at most 4
        decimals (each step one evaluation)."""
        lo, hi = limits

        def gap(pay: float) -> float:
            table = base.with_pays({category: Fraction(pay).limit_denominator(10**4)})
            return float(self.house_edge(table) - target)

        return Fraction(brentq(gap, float(lo), float(hi), xtol=1e-7)).limit_denominator(10**4) if lo < hi else lo

    def house_edge(self, paytable: PayTableSpec) -> Fraction:
        return self.evaluate(paytable).exact.house_edge

    def sweep(
        self, base: PayTableSpec = None, strategy: str = "optimal", /, **ranges: Iterable[NumberLike]
    ) -> pd.DataFrame:
        """Re-optimised figures over a grid of one or two pays, e.g.
        ``sweep(flush=range(1, 8))`` or ``sweep(flush=[2, 3], full_house=[3, 4, 5])``
        (``strategy``: played at every point, re-derived for each table where it depends on pays;
        ``base`` and ``strategy`` are given by position, so that every keyword is a pay).

        Returns one tidy row per pay combination: the varied pays, then house edge,
        element of risk, call rate, standard deviation and hit frequency.
        """
        base = self.table(base)
        if not 1 <= len(ranges) <= 2:
            raise InputError("sweep varies one or two pays")
        _check_categories(ranges)
        values = {c: [as_fraction(v, f"sweep {c}") for v in vs] for c, vs in ranges.items()}
        points = int(np.prod([len(v) for v in values.values()]))
        if points > MAX_SWEEP:
            raise InputError(f"a sweep of {points:,} tables is too large (at most {MAX_SWEEP:,}): widen the step")
        rows = []
        for combination in itertools.product(*values.values()):
            pays = dict(zip(values, combination))
            s = self.evaluate(base.with_pays(pays, name=f"{base.name} sweep"), strategy).exact.summary()
            rows.append({**{c: float(v) for c, v in pays.items()}, **{f: s[f] for f in SUMMARY_FIELDS}})
        return pd.DataFrame(rows)

    def solve(
        self,
        target_house_edge: NumberLike,
        vary: str | Iterable[str],
        bounds: Bounds = (0, 1000),
        integer: bool = False,
        base: PayTableSpec = None,
        best: int = 3,
    ) -> pd.DataFrame:
        """Pay tables whose re-optimised house edge hits ``target_house_edge``.

        ``vary``: a category or a list of categories; ``bounds``: (low, high) for all of
        them or a dict of bounds per category. One continuous pay is solved exactly (root
        finding, then the exact root of the final linear piece, as a Fraction). With
        ``integer=True`` the pays are whole numbers: for every combination of the other
        pays the last one is found by bisection (the edge never rises when a pay rises);
        the ``best`` tables closest to the target are returned. Raises ValueError when the
        target is out of reach within the bounds.
        """
        base = self.table(base)
        vary = _check_categories([vary] if isinstance(vary, str) else vary)
        if not vary:
            raise InputError(f"vary names pay-table categories (known: {', '.join(CATEGORIES)})")
        if not integer and len(vary) > 1:
            raise InputError("a continuous solve varies one pay; give integer=True to search several")
        each = bounds.get if isinstance(bounds, Mapping) else lambda c: bounds
        limits = {c: as_bounds(each(c), f"bounds of {c}") for c in vary}
        for c, (lo, hi) in limits.items():
            if not 0 <= lo <= hi:
                raise InputError(f"bounds for {c} must satisfy 0 <= low <= high, got {lo}, {hi}")
        target = as_fraction(target_house_edge, "target house edge")
        low_edge = self.house_edge(base.with_pays({c: limits[c][1] for c in vary}))
        high_edge = self.house_edge(base.with_pays({c: limits[c][0] for c in vary}))
        if not low_edge <= target <= high_edge:
            raise InputError(
                f"target house edge {float(target):.4%} is out of reach: with "
                f"{', '.join(f'{c} paying {float(lo):g} to {float(hi):g}' for c, (lo, hi) in limits.items())} "
                f"the house edge ranges from {float(low_edge):.4%} to {float(high_edge):.4%}"
            )
        found: list[tuple[Mapping[str, int | Fraction], Fraction]] = []
        if integer:
            found.extend(self._solve_integer(target, vary, limits, base))
        else:
            found.extend(self._solve_continuous(target, vary[0], limits[vary[0]], base))
        rows = []
        for pays, edge in sorted(found, key=lambda f: abs(f[1] - target))[:best]:
            rows.append(
                {
                    **{c: float(pays[c]) for c in vary},
                    "house_edge": float(edge),
                    "error": float(edge - target),
                    "exact_pays": {c: pays[c] for c in vary},
                    "exact_house_edge": edge,
                }
            )
        return pd.DataFrame(rows)

    def solved_table(
        self, frame: pd.DataFrame, row: int = 0, base: PayTableSpec = None, name: str = "solved"
    ) -> PayTable:
        """The full pay table of one row of :meth:`solve`'s answer (exact pays)."""
        return self.table(base).with_pays(frame["exact_pays"].iloc[row], name=name)

    def _solve_continuous(
        self, target: Fraction, category: str, limits: tuple[Fraction, Fraction], base: PayTable
    ) -> list[tuple[dict[str, Fraction], Fraction]]:
        """Exact pay in [low, high] whose re-optimised house edge equals the target."""
        lo, hi = limits
        guess = self._first_guess(target, category, limits, base)
        # while the decisions stay the same, the edge is linear in the pay: solve that piece
        # exactly, then check the decisions at the exact root (repeat if they changed)
        for _ in range(50):
            decisions = self._decisions(base.with_pays({category: guess}))
            edge = self._edge_with(decisions, base, category)
            at0, slope = edge(Fraction(0)), edge(Fraction(1)) - edge(Fraction(0))
            root = guess if slope == 0 else min(max((target - at0) / slope, lo), hi)
            if root == guess or self._same(self._decisions(base.with_pays({category: root})), decisions):
                return [({category: root}, edge(root))]
            guess = root
        raise SolveError(f"no exact root for {category}: decisions keep changing near {float(guess)}")

    def _solve_integer(
        self, target: Fraction, vary: list[str], limits: dict[str, tuple[Fraction, Fraction]], base: PayTable
    ) -> list[tuple[dict[str, int], Fraction]]:
        *outer, last = vary
        lo_last, hi_last = math.ceil(limits[last][0]), math.floor(limits[last][1])
        grids = [range(math.ceil(limits[c][0]), math.floor(limits[c][1]) + 1) for c in outer]
        if np.prod([len(g) for g in grids], dtype=float) > 2000:
            raise InputError("integer search grid too large: narrow the bounds of the outer pays")
        found: list[tuple[dict[str, int], Fraction]] = []
        for values in itertools.product(*grids):
            pays = dict(zip(outer, values))

            def edge(v: int, pays: dict[str, int] = pays) -> Fraction:
                return self.house_edge(base.with_pays({**pays, last: v}))

            # the edge does not rise with the pay: bisect for the last pay whose edge >= target
            a, b = lo_last, hi_last
            if edge(a) < target:
                found.append(({**pays, last: a}, edge(a)))
                continue
            while b - a > 1:
                mid = (a + b) // 2
                if edge(mid) >= target:
                    a = mid
                else:
                    b = mid
            for v in {a, b}:
                found.append(({**pays, last: v}, edge(v)))
        return found


class Tuner(PayTuner):
    """Optimal play and returns of one game, for one pay convention, for any pay table."""

    def __init__(self, engine: ReturnEngine, pays_on: str = "ante") -> None:
        self.engine, self.rules, self.pays_on = engine, engine.rules, check_pays_on(pays_on)

    def evaluate(self, paytable: PayTableSpec = None, strategy: str | Strategy = "optimal") -> GameResult:
        """The return table and summary of a pay table (PayTable, CSV path, table name,
        dict or DataFrame; None for the default) with the strategy re-optimised for it."""
        return self.engine.decide(
            paytable, strategy_named(strategy) if isinstance(strategy, str) else strategy, self.pays_on
        )

    def table(self, base: PayTableSpec = None) -> PayTable:
        """The table tuned: ``base`` (None: the default table)."""
        return PayTable.load(base)

    def _decisions(self, table: PayTable) -> np.ndarray:
        return self.engine.optimal_calls(table, self.pays_on)

    def _same(self, a: np.ndarray, b: np.ndarray) -> bool:
        return bool(np.array_equal(a, b))

    def _edge_with(self, calls: np.ndarray, base: PayTable, category: str) -> Callable[[Fraction], Fraction]:
        """House edge as a function of one pay, the decisions held fixed."""
        combos = self.engine.combos(calls)
        called_states = int(np.where(calls, self.engine.weight, 0).sum())

        def edge(pay: Fraction) -> Fraction:
            payoffs = outcome_payoffs(base.with_pays({category: pay}), self.rules, self.pays_on)
            return exact_figures(combos, payoffs, self.rules, called_states).house_edge

        return edge


def solve_paytable(
    target_house_edge: NumberLike,
    vary: str | Iterable[str],
    bounds: Bounds = (0, 1000),
    integer: bool = False,
    *,
    game: str = "casino-omaha",
    base: PayTableSpec = None,
    pays_on: str = "ante",
    tuner: Tuner | None = None,
    best: int = 3,
) -> pd.DataFrame:
    """The pay table(s) of ``game`` whose re-optimised house edge hits the target, and how
    close they come (see :meth:`Tuner.solve`); pass ``tuner`` to reuse a loaded game."""
    tuner = tuner or Tuner(load_engine(game), pays_on)
    return tuner.solve(target_house_edge, vary, bounds, integer, base, best)


def compare_paytables(
    games: Iterable[str],
    paytables: Iterable[PayTableSpec],
    conventions: Iterable[str] = PAYS_ON,
    engines: dict[str, ReturnEngine] | None = None,
    options: RunOptions | None = None,
) -> pd.DataFrame:
    """Optimal-play figures of every game x pay table x convention, side by side.

    ``engines`` may hold already loaded engines by game name.
    """
    paytables, conventions = list(paytables), list(conventions)  # each is gone through once per game
    rows = []
    for game in games:
        engine = (engines or {}).get(game) or load_engine(game, options)
        for pays_on in conventions:
            for spec in paytables:
                s = engine.decide(spec, "optimal", pays_on).summary()
                rows.append(
                    {"game": game, "paytable": s["paytable"], "pays_on": pays_on, **{f: s[f] for f in SUMMARY_FIELDS}}
                )
    return pd.DataFrame(rows)
