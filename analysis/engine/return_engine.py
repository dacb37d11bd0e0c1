"""The return engine: built once from the per-state counts, it plays any strategy with any
pay table and gives the exact return table.

The counts do not depend on pays, so a new pay table is a re-optimisation, not a
re-enumeration. The engine keeps one compact matrix of the 21 pay-relevant counts per
state (dealer not qualifying and player wins per category, dealer wins; ties are what is
left), packed 3 bytes a count for the compiled core (:mod:`analysis._engine`). For a pay
table the optimal decisions and the return table's counts come from one pass over it.

Exactness: pays are scaled by their common denominator d, so EV(call) - EV(fold) of a
state, times d and its completions, is the integer ``base + sum_j coef_j * count_j``; the
core sums it in 64-bit integers when that cannot overflow, else in 128-bit ones.
Coefficients beyond 64 bits (pays with huge denominators) are decided in float64 and every
state within rounding of a tie is settled in exact integers. Every count of the return
table is an exact integer and every figure an exact Fraction until it is shown; no valid
pay table is refused.

Strategies: the engine plays ``optimal`` (call when EV(call) > EV(fold); an exact tie
folds), ``always-call``, ``always-fold`` (:data:`BASIC_STRATEGIES`), or any callable
``f(engine, paytable, pays_on) -> bool per state``; :data:`analysis.STRATEGIES` adds the
strategies derived above the engine (``simple``).

A :class:`StateTerm` adds a per-state amount to EV(call) - EV(fold) of the optimal
decision, exactly: a side bet that the player forfeits by folding is worth its expected
result plus the stake to calling (see :mod:`analysis.sidebets.returns`).

>>> from analysis.counting.enumeration import count_flops, plan
>>> from analysis.model.rules import preset
>>> rules = preset("casino-holdem").small_deck("9TJQKA", "cd")
>>> engine = ReturnEngine.from_counts(count_flops(rules, plan(rules)), rules)
>>> base = engine.decide()
>>> richer = engine.decide(base.paytable.replace(flush=5))
>>> richer.exact.house_edge < base.exact.house_edge
True
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from fractions import Fraction
from math import lcm
from typing import TypeAlias, TypeVar

import numpy as np
from numpy.typing import ArrayLike

from analysis.engine.packed import PAY_SOURCES, REST_SOURCES, Packed, count_width, counts_of, small_weights
from analysis.engine.result import GameResult, game_result
from analysis.engine.strategies import BASIC_STRATEGIES, StateTerm, Strategy
from analysis.hands.classes import HandProfile, hand_profile
from analysis.model.categories import CATEGORIES
from analysis.model.errors import InputError
from analysis.model.numbers import shown
from analysis.model.outcomes import COLUMNS, RESULTS, ColumnKey, StateCounts
from analysis.model.payoffs import RowKey, check_pays_on, margin_coefficients, row_keys, row_of
from analysis.model.paytable import PayTable, PayTableSpec
from analysis.model.rules import Rules, as_rules
from analysis.parallel.options import RunOptions
from analysis.store.outcome_store import OutcomeStore
from analysis.store.runs import ensure_store

_INT64 = 2**63

#: Where an engine's states live: counts in memory, or a complete store on disk.
StateSource: TypeAlias = StateCounts | OutcomeStore
#: Per-column values: exact ints, or floats.
_Value = TypeVar("_Value", int, float)


class ReturnEngine:
    """Exact returns of one game for any pay table and strategy (see the module docstring).

    Build it with :meth:`from_counts` (states in memory) or :meth:`from_store` (a complete
    outcome store, whose packed matrix is cached beside the shards and mapped).
    """

    def __init__(
        self, rules: Rules, pay: Packed, rest: Packed, weight: np.ndarray, totals: np.ndarray, source: StateSource
    ) -> None:
        self.rules, self.pay, self.rest, self.weight, self.source = rules, pay, rest, weight, source
        # deals of the whole game
        self.totals = {column.key: int(n) for column, n in zip(COLUMNS, totals)}
        self._profile: HandProfile | None = None

    @classmethod
    def from_counts(cls, sc: StateCounts, rules: Rules) -> ReturnEngine:
        width = count_width(rules)
        weight = small_weights(sc.weight)
        return cls(
            rules,
            Packed.pack(sc.counts, PAY_SOURCES, width),
            Packed.pack(sc.counts, REST_SOURCES, width),
            weight,
            weighted_totals(sc),
            sc,
        )

    @classmethod
    def from_store(cls, store: OutcomeStore) -> ReturnEngine:
        """The engine of a complete store. Its packed matrices are built on first use and
        kept beside the shards; they are mapped, so only what a question reads is loaded."""
        rules, width = store.rules, count_width(store.rules)

        def build(_store: OutcomeStore) -> dict[str, np.ndarray]:
            rows = store.rows
            pay = np.zeros(rows * len(PAY_SOURCES) * width + 1, dtype=np.uint8)
            rest = np.zeros(rows * len(REST_SOURCES) * width + 1, dtype=np.uint8)
            weight = np.zeros(rows, dtype=np.uint8)
            totals = np.zeros(len(COLUMNS), dtype=np.int64)
            for start, part in store.iter_shards():
                Packed.fill(pay, rows, start, part.counts, PAY_SOURCES, width)
                Packed.fill(rest, rows, start, part.counts, REST_SOURCES, width)
                weight[start : start + len(part)] = small_weights(part.weight)
                totals += weighted_totals(part)
            return {"pay": pay, "rest": rest, "weight": weight, "totals": totals}

        arrays = store.derived("engine", build)
        rows = len(arrays["weight"])
        return cls(
            rules,
            Packed(arrays["pay"], rows, len(PAY_SOURCES), width),
            Packed(arrays["rest"], rows, len(REST_SOURCES), width),
            arrays["weight"],
            arrays["totals"],
            store,
        )

    def with_rules(self, rules: Rules) -> ReturnEngine:
        """The same counts played under rules that do not change them (another call bet):
        a re-optimisation, no re-enumeration. Rules whose counts differ (another qualifier
        or deck) need their own store, and raise InputError."""
        if rules.fingerprint() != self.rules.fingerprint():
            raise InputError(
                f"{rules.name} where {rules.qualifier_phrase} is counted apart from "
                f"{self.rules.name} where {self.rules.qualifier_phrase}: load its own store"
            )
        other = copy.copy(self)  # shares the mapped counts and the cached hand profile
        other.rules = rules
        return other

    @property
    def states(self) -> int:
        """Stored (canonical) states."""
        return self.pay.rows

    def cards(self) -> tuple[np.ndarray, np.ndarray]:
        """(hole, flop) of every stored state."""
        return self.source.cards()

    def hand_profile(self) -> HandProfile:
        """Hand class, top two hole ranks and draws of every state (pay-independent, cached)."""
        if self._profile is None:
            rules = self.rules
            arrays = self.source.derived("hand-profile", lambda src: hand_profile(rules, *src.cards()).arrays())
            self._profile = HandProfile(**arrays)
        return self._profile

    # --- pays -------------------------------------------------------------------------

    def coefficients(self, paytable: PayTable, pays_on: str) -> tuple[list[int], int, int]:
        """(coef, base, d): EV(call) - EV(fold) of a state, times d x completions, is
        ``base + coef . counts`` over the pay-relevant columns."""
        coef, base, d = margin_coefficients(paytable, self.rules, pays_on, self.rules.completions)
        return [coef[cols[0]] for cols in PAY_SOURCES], base, d  # the columns of a source pay alike

    def optimal_calls(self, paytable: PayTable, pays_on: str = "ante", extra: StateTerm | None = None) -> np.ndarray:
        return self._play(paytable, pays_on, None, extra)[1]

    def margins(self, paytable: PayTableSpec = None, pays_on: str = "ante") -> np.ndarray:
        """EV(call) - EV(fold) of every state, in antes (float64: for plots)."""
        coef, base, d = self.coefficients(PayTable.load(paytable), pays_on)
        scale = d * self.rules.completions
        return self.pay.margins([c / scale for c in coef], base / scale)

    def margin_sums(
        self, paytable: PayTable, pays_on: str, groups: np.ndarray, n: int
    ) -> tuple[list[int], np.ndarray, int]:
        """Exact sums of weight x (EV(call) - EV(fold)) x scale per group, with the weight
        of each group and the scale (d x completions); rows of group -1 are left out."""
        coef, base, d = self.coefficients(paytable, pays_on)
        sums = self.pay.group_sums(self.weight, groups, n)
        margin = [sum(c * int(s) for c, s in zip(coef, row[:-1])) + base * int(row[-1]) for row in sums]
        return margin, sums[:, -1], d * self.rules.completions

    # --- playing ----------------------------------------------------------------------

    def decide(
        self,
        paytable: PayTableSpec = None,
        strategy: str | Strategy = "optimal",
        pays_on: str = "ante",
        name: str | None = None,
        extra: StateTerm | None = None,
    ) -> GameResult:
        """The return table and exact figures of a strategy with a pay table (PayTable,
        CSV path, table name, dict or DataFrame; None for the default AnteWin table).
        ``name`` names the strategy in the result (default: its name, or the callable's).
        ``extra`` (optimal strategy only) is added to EV(call) - EV(fold) of every state
        when deciding; the return table is the main game's alone."""
        paytable = PayTable.load(paytable)
        check_pays_on(pays_on)
        # a basic strategy passed as its function is played (and named) as by its name
        strategy = next((key for key, basic in BASIC_STRATEGIES.items() if basic is strategy), strategy)
        if extra is not None and strategy != "optimal":
            raise InputError("a per-state term changes only the optimal strategy's decisions")
        if strategy == "optimal":
            sums, calls = self._play(paytable, pays_on, None, extra)
        else:
            calls = self._strategy(strategy)(self, paytable, pays_on)
            calls = np.ascontiguousarray(calls, dtype=bool)
            if calls.shape != (self.states,):
                raise InputError(f"a strategy must give one decision per state ({self.states}), got {calls.shape}")
            sums, calls = self._play(paytable, pays_on, calls)
        label = name or (strategy if isinstance(strategy, str) else str(getattr(strategy, "__name__", "custom")))
        return game_result(self.rules, paytable, label, pays_on, self.combos_of_sums(sums), calls)

    def combos(self, calls: np.ndarray) -> dict[RowKey, int]:
        """Deals per return-table row when the player calls exactly the ``calls`` states."""
        return self.combos_of_sums(self.pay.play(self.weight, np.ascontiguousarray(calls, dtype=bool)))

    def _strategy(self, strategy: str | Strategy) -> Strategy:
        if callable(strategy):
            return strategy
        try:
            return BASIC_STRATEGIES[strategy]
        except (KeyError, TypeError):
            raise InputError(
                f"unknown strategy {strategy!r}: the engine plays {', '.join(BASIC_STRATEGIES)} or a function "
                "f(engine, paytable, pays_on) -> decisions (analysis.STRATEGIES has the others, e.g. 'simple')"
            ) from None

    def _play(
        self, paytable: PayTable, pays_on: str, calls: np.ndarray | None, extra: StateTerm | None = None
    ) -> tuple[np.ndarray, np.ndarray]:
        """Column sums over the called states (and the called weight) and the decisions;
        ``calls`` None plays the optimal strategy (with ``extra`` added to every margin)."""
        if calls is not None:
            return self.pay.play(self.weight, calls), calls
        calls = np.empty(self.states, dtype=bool)
        coef, base, d = self.coefficients(paytable, pays_on)
        common, offset = d * self.rules.completions, None
        if extra is not None:  # margin and term on one scale: lcm(d x completions, the term's denominator)
            common = lcm(common, extra.denominator)
            factor = common // (d * self.rules.completions)
            coef, base = [c * factor for c in coef], base * factor
            if max(abs(c) for c in coef + [base]) < _INT64:
                offset = extra.numerators(common // extra.denominator)
        if max(abs(c) for c in coef + [base]) < _INT64 and (extra is None or offset is not None):
            return self.pay.play(self.weight, calls, coef, base, offset=offset), calls
        calls[:] = self._decide_huge(coef, base, common, extra)
        return self.pay.play(self.weight, calls), calls

    def _decide_huge(self, coef: list[int], base: int, common: int, extra: StateTerm | None = None) -> np.ndarray:
        """Decisions for coefficients beyond 64 bits: float64 margins, then exact margins
        for every state within rounding of a tie. ``base + coef . counts`` is EV(call) -
        EV(fold) times ``common``; ``extra`` is added in antes."""
        scale = max(abs(c) for c in coef + [base])
        approx = self.pay.margins([c / scale for c in coef], base / scale)
        # a float64 sum of these terms (counts below 2^32) errs by far less than this bound; a
        # bound in counts alone would send millions of states to the exact path when base dominates
        tolerance = 1e-13 * len(coef) * (max(map(abs, coef)) / scale * (1 << 32) + abs(base) / scale)
        if extra is not None:  # to antes
            to_antes = float(Fraction(scale, common))
            approx, tolerance = approx * to_antes + extra.approx(), tolerance * to_antes + 1e-9
        calls = approx > 0
        near = np.flatnonzero(np.abs(approx) <= tolerance)
        terms = extra.exact(near) if extra is not None else [Fraction(0)] * len(near)
        for i, row, term in zip(near, self.pay.unpack(near), terms):
            calls[i] = Fraction(sum(c * int(n) for c, n in zip(coef, row)) + base, common) + term > 0
        return calls

    def combos_of_sums(self, sums: np.ndarray) -> dict[RowKey, int]:
        """Deals per return-table row from the called sums of the pay-relevant columns (the
        called weight last), as :meth:`Packed.play` gives them."""
        folded = self.rules.states - int(sums[-1])
        return dict(zip(row_keys(), map(int, self._row_counts(sums[None, :], np.array([folded]))[0])))

    def _row_counts(self, sums: np.ndarray, folded: np.ndarray) -> np.ndarray:
        """Deals per return-table row (columns in ``row_keys()`` order) of groups of states,
        from each group's called sums of the pay-relevant columns (and called weight, last)
        and its folded weight."""
        keys, z = row_keys(), self.rules.completions
        out = np.zeros((len(sums), len(keys)), dtype=np.int64)
        out[:, keys.index(("fold", ""))] = np.asarray(folded, dtype=np.int64) * z
        for cols, s in zip(PAY_SOURCES, sums[:, :-1].T):
            out[:, keys.index(row_of(COLUMNS[cols[0]]))] += s
        out[:, keys.index(("tie", ""))] = sums[:, -1] * z - sums[:, :-1].sum(axis=1)
        return out

    def combos_by_group(self, calls: np.ndarray, groups: np.ndarray, n: int) -> np.ndarray:
        """Deals per return-table row (columns in ``row_keys()`` order) of each group
        0..n-1 of states, when the player calls exactly the ``calls`` states."""
        calls = np.ascontiguousarray(calls, dtype=bool)
        groups = np.asarray(groups, dtype=np.int32)
        sums = self.pay.group_sums(self.weight, np.where(calls, groups, -1), n)
        folded = np.bincount(groups[~calls], weights=self.weight[~calls], minlength=n)  # exact: < 2**53
        return self._row_counts(sums, folded.astype(np.int64))

    def count_sums(self, values: Mapping[ColumnKey, int]) -> np.ndarray:
        """``sum over columns of values[column] x count[column]`` of every state, exact
        (int64), for (dealer result, final category) columns; raises OverflowError when a
        state's sum could leave 64 bits."""
        pay, rest = self._split_columns(values)
        if max(map(abs, pay + rest)) * (1 << 8 * self.pay.width) * len(COLUMNS) >= _INT64:
            raise OverflowError("count_sums: values too large for exact 64-bit sums")
        return self.pay.linear(pay) + self.rest.linear(rest)

    def count_sums_float(self, values: Mapping[ColumnKey, float]) -> np.ndarray:
        """:meth:`count_sums` in float64, for any values."""
        pay, rest = self._split_columns(values)
        return self.pay.margins(pay, 0.0) + self.rest.margins(rest, 0.0)

    def state_counts(self, rows: ArrayLike) -> np.ndarray:
        """The 40 counts (COLUMNS order, int64) of the given states."""
        return counts_of(self.pay, self.rest, rows)

    def _split_columns(self, values: Mapping[ColumnKey, _Value]) -> tuple[list[_Value], list[_Value]]:
        """Coefficients of the pay-relevant and the other packed columns for per-column values."""
        unknown = set(values) - {c.key for c in COLUMNS}
        if unknown:
            raise InputError(f"unknown count columns: {sorted(unknown)}")
        pay, rest = (
            [values.get(COLUMNS[cols[0]].key, 0) if len(cols) == 1 else 0 for cols in sources]
            for sources in (PAY_SOURCES, REST_SOURCES)
        )
        return pay, rest

    def column_sums(self, calls: np.ndarray | None = None) -> dict[ColumnKey, int]:
        """Exact deals over the called states (all states when None) by (dealer result,
        player's final category)."""
        if calls is None:
            return dict(self.totals)
        calls = np.ascontiguousarray(calls, dtype=bool)
        pay, rest = self.pay.play(self.weight, calls), self.rest.play(self.weight, calls)
        out: dict[ColumnKey, int] = {}
        for sources, sums in ((PAY_SOURCES, pay), (REST_SOURCES, rest)):
            for cols, s in zip(sources, sums[:-1]):
                if len(cols) == 1:
                    out[COLUMNS[cols[0]].key] = int(s)
        if set(out) != {(r, c) for r in RESULTS for c in CATEGORIES}:
            raise AssertionError("the packed columns do not cover every (dealer result, category)")
        return out


def load_engine(game: str | Rules = "casino-omaha", options: RunOptions | None = None) -> ReturnEngine:
    """The return engine of a game from its outcome store (enumerated first if missing)."""
    if options is not None and not isinstance(options, RunOptions):
        raise InputError(f"options: {shown(options)} ({type(options).__name__}) is not a RunOptions")
    return ReturnEngine.from_store(ensure_store(as_rules(game), options))


def weighted_totals(sc: StateCounts) -> np.ndarray:
    """Sum over the states of weight x count, for each of the 40 columns (exact int64)."""
    return np.array([int(sc.weight @ sc.counts[:, j].astype(np.int64)) for j in range(len(COLUMNS))], dtype=np.int64)
