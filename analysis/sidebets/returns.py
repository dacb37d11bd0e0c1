"""The exact return of a side bet, alone and with the main game, and the main game's strategy
when the player forfeits the side bet by folding.

A side bet's return table comes from the deals counted by side outcome and main-game row
(:mod:`analysis.sidebets.counts`); every count is an exact integer and every figure a Fraction
until shown. Figures per unit of side stake: house edge, return (1 - house edge), hit and
push frequency, standard deviation, and per line the combinations, probability,
contribution and "1 in N" odds. With the main game, per hand (in antes, the side stake
being ``stake`` antes) and per unit wagered.

**Forfeited bets.** When the player loses the side bet by folding, calling is worth the
side bet's expected result plus the stake he keeps in play, ``stake x (E[side | call] +
1)`` more than before, a per-state amount known at the decision (exactly the bet's net for
a first-six bet). The ``joint`` strategy adds it to EV(call) - EV(fold) (a
:class:`analysis.engine.strategies.StateTerm`), which can only raise the player's total; ``separate``
plays the main game's optimal strategy and lets the side bet follow.
"""

from __future__ import annotations

from fractions import Fraction
from math import lcm

import numpy as np
import pandas as pd

from analysis.engine.result import GameResult
from analysis.engine.return_engine import ReturnEngine
from analysis.engine.solve import Solved
from analysis.engine.strategies import StateTerm
from analysis.model.categories import CATEGORIES
from analysis.model.errors import InputError
from analysis.model.numbers import NumberLike, as_fraction
from analysis.model.outcomes import COLUMNS, ColumnKey
from analysis.model.payoffs import outcome_payoffs, row_keys
from analysis.model.paytable import PayTable, PayTableSpec
from analysis.model.rules import Rules
from analysis.sidebets.bet import SideBet, SideBetSpec
from analysis.sidebets.counts import outcome_counts, outcome_lines, state_first_six
from analysis.sidebets.result import SideBetResult, combined_figures, side_figures

_INT64 = 2**63
#: Strategies for the main game when a side bet is in play (see the module docstring).
SIDE_STRATEGIES = ("joint", "separate")
#: GLI-11: an advertised award must be achievable at least once in this many games (or its odds shown).
GLI_ODDS = 100_000_000
#: Evaluations a SideBetEngine keeps (a joint one holds the decisions of every state).
MEMO = 8


class _LabelTerm:
    """A per-state amount taken from a few values by a label per state (first-six bets)."""

    def __init__(self, labels: np.ndarray, values: list[Fraction]) -> None:
        self.labels, self.values = labels, values
        self.denominator = lcm(*(v.denominator for v in values))

    def numerators(self, factor: int) -> np.ndarray | None:
        ints = [int(v * self.denominator) * factor for v in self.values]
        return None if max(map(abs, ints)) >= _INT64 else np.array(ints, dtype=np.int64)[self.labels]

    def approx(self) -> np.ndarray:
        return np.array([float(v) for v in self.values])[self.labels]

    def exact(self, rows: np.ndarray) -> list[Fraction]:
        return [self.values[self.labels[i]] for i in rows]


class _CountTerm:
    """A per-state amount linear in the state's counts: ``sum values[column] x count /
    completions`` (final-hand bets)."""

    def __init__(self, engine: ReturnEngine, values: dict[ColumnKey, Fraction]) -> None:
        self.engine, self.values = engine, values
        self.q = lcm(*(v.denominator for v in values.values()))
        self.denominator = self.q * engine.rules.completions

    def numerators(self, factor: int) -> np.ndarray | None:
        try:
            return self.engine.count_sums({k: int(v * self.q) * factor for k, v in self.values.items()})
        except OverflowError:
            return None

    def approx(self) -> np.ndarray:
        z = self.engine.rules.completions
        return self.engine.count_sums_float({k: float(v) for k, v in self.values.items()}) / z

    def exact(self, rows: np.ndarray) -> list[Fraction]:
        coef = [int(self.values.get(column.key, 0) * self.q) for column in COLUMNS]
        return [
            Fraction(sum(v * int(n) for v, n in zip(coef, row)), self.denominator)
            for row in self.engine.state_counts(rows)
        ]


class SideBetEngine:
    """Side bets of one game with the main game's pay table and convention.

    The main game's optimal decisions and the deals by side outcome under them are computed
    once; a side bet that is not forfeited (or is played ``separate``) is then a sum over
    those counts. A forfeited bet played ``joint`` re-optimises the main game with it.
    """

    def __init__(
        self, engine: ReturnEngine, paytable: PayTableSpec = None, pays_on: str = "ante", main: GameResult | None = None
    ) -> None:
        self.engine, self.rules = engine, engine.rules
        self.paytable, self.pays_on = PayTable.load(paytable), pays_on
        self._main = main
        self._counts: dict[str, np.ndarray] = {}
        # the last MEMO evaluations, by (bet, stake, meter, strategy)
        self._results: dict[tuple[SideBet, Fraction, Fraction | None, str], SideBetResult] = {}

    @property
    def main(self) -> GameResult:
        """The main game alone, optimal strategy (or the result given at construction)."""
        if self._main is None:
            self._main = self.engine.decide(self.paytable, "optimal", self.pays_on)
        return self._main

    def evaluate(
        self, bet: SideBetSpec, stake: NumberLike = 1, meter: NumberLike | None = None, strategy: str = "joint"
    ) -> SideBetResult:
        """The side bet's return (a SideBet, file or name), the side stake ``stake`` antes,
        a progressive at ``meter`` (default its seed)."""
        bet, stake = SideBet.load(bet), as_fraction(stake, "stake")
        if strategy not in SIDE_STRATEGIES:
            raise InputError(f"unknown side-bet strategy {strategy!r}; choose one of: {', '.join(SIDE_STRATEGIES)}")
        if stake <= 0:
            raise InputError(f"the side stake must be positive, got {stake}")
        meter = bet_meter(bet, meter)
        key = (bet, stake, meter, strategy if bet.forfeit else "")
        if key not in self._results:
            if len(self._results) >= MEMO:
                self._results.pop(next(iter(self._results)))
            self._results[key] = self._evaluate(bet, stake, meter, strategy)
        return self._results[key]

    def _evaluate(self, bet: SideBet, stake: Fraction, meter: Fraction | None, strategy: str) -> SideBetResult:
        if bet.forfeit and strategy == "joint":
            main = self.engine.decide(self.paytable, "optimal", self.pays_on, "joint", self.term(bet, stake, meter))
            counts = outcome_counts(self.engine, bet.kind, main.calls)
        else:
            main = self.main
            if bet.kind not in self._counts:
                self._counts[bet.kind] = outcome_counts(self.engine, bet.kind, main.calls)
            counts = self._counts[bet.kind]
        name = strategy if bet.forfeit else main.strategy
        payoffs = list(outcome_payoffs(self.paytable, main.rules, self.pays_on).values())
        return settle(bet, counts, main, main.rules, payoffs, row_keys().index(("fold", "")), stake, meter, name)

    def compare(self, bet: SideBetSpec, stake: NumberLike = 1, meter: NumberLike | None = None) -> pd.DataFrame:
        """A forfeited bet under both strategies: the side bet's and the combined figures."""
        rows = []
        for strategy in SIDE_STRATEGIES:
            s = self.evaluate(bet, stake, meter, strategy).summary()
            rows.append(
                {
                    "strategy": strategy,
                    "call_rate": s["main_call_rate"],
                    "main_house_edge": s["main_house_edge"],
                    "side_house_edge": s["house_edge"],
                    "combined_house_edge_per_hand": s["combined_house_edge_per_hand"],
                    "combined_house_edge_exact": s["combined_house_edge_exact"],
                }
            )
        return pd.DataFrame(rows)

    def term(self, bet: SideBet, stake: Fraction, meter: Fraction | None) -> StateTerm:
        """What calling is worth more than folding through a forfeited side bet, per state:
        ``stake x (E[side net | call] + 1)`` antes."""
        nets = line_nets(bet, meter)
        if bet.kind == "first-six":
            lines = outcome_lines(bet)
            labels = np.where(lines >= 0, lines, len(bet.lines))[state_first_six(self.engine)]
            return _LabelTerm(labels.astype(np.int16), [stake * (v + 1) for v in nets] + [Fraction(0)])
        by_category = bet.category_lines()
        values: dict[ColumnKey, Fraction] = {}
        for c, category in enumerate(CATEGORIES):
            for result in ("noqual", "win", "tie", "loss"):
                paid = by_category[c] >= 0 and (bet.kind == "final" or result == "loss")
                values[(result, category)] = stake * (nets[by_category[c]] + 1) if paid else Fraction(0)
        return _CountTerm(self.engine, values)


def bet_meter(bet: SideBet, meter: NumberLike | None) -> Fraction | None:
    """The meter value to play a bet at: the one given, else its seed (None without a meter)."""
    if bet.meter is None:
        if meter is not None:
            raise InputError(f"{bet.name} has no progressive meter")
        return None
    value = bet.meter.seed if meter is None else as_fraction(meter, "meter")
    if value < 0:
        raise InputError(f"the meter must not be negative, got {value}")
    return value


def line_nets(bet: SideBet, meter: Fraction | None) -> list[Fraction]:
    """Net win per unit staked of each line of the bet."""
    stake = bet.meter.stake if bet.meter is not None else Fraction(1)
    return [line.net(meter, stake) for line in bet.lines]


def settle(
    bet: SideBet,
    counts: np.ndarray,
    main: Solved,
    rules: Rules,
    payoffs: list[Fraction],
    fold: int,
    stake: Fraction,
    meter: Fraction | None,
    strategy: str,
) -> SideBetResult:
    """The side bet's return table and figures, and the combined ones, from the deals by
    side outcome and main-game row (``payoffs``: each row's net in antes; ``fold``: the
    row of the folded deals)."""
    n = len(bet.lines)
    lines = outcome_lines(bet)
    by_row = np.zeros((n + 2, len(payoffs)), dtype=np.int64)  # lines, then "no line pays", then "forfeited"
    np.add.at(by_row, np.where(lines >= 0, lines, n), counts)
    if bet.forfeit:
        by_row[n + 1, fold] = by_row[:, fold].sum()
        by_row[: n + 1, fold] = 0
    total = int(by_row.sum())
    if total != main.exact.deals:  # every deal of the main game (its turn and river in order, when they decide)
        raise AssertionError(f"side-bet deals add up to {total}, expected {main.exact.deals}")
    nets = line_nets(bet, meter) + [Fraction(-1), Fraction(-1)]
    combos = [int(x) for x in by_row.sum(axis=1)]
    names = [line.name for line in bet.lines] + ["no line pays", "forfeited (player folds)"]
    pays = [line.pays_words for line in bet.lines] + ["loses", "loses"]
    keep = [i for i in range(n + 2) if i < n + 1 or bet.forfeit]
    table = pd.DataFrame(
        {
            "line": [names[i] for i in keep],
            "pays": [pays[i] for i in keep],
            "net": [float(nets[i]) for i in keep],
            "combinations": np.array([combos[i] for i in keep], dtype=np.int64),
            "probability": [combos[i] / total for i in keep],
            "probability_exact": [str(Fraction(combos[i], total)) for i in keep],
            "one_in": [total / combos[i] if combos[i] else float("nan") for i in keep],
            "contribution": [float(Fraction(combos[i], total) * nets[i]) for i in keep],
        }
    )
    table["at_least_1_in_100m"] = [bool(c) and total / c <= GLI_ODDS for c in table["combinations"]]
    combined = combined_figures(by_row, nets, payoffs, stake, main)
    return SideBetResult(bet, rules, strategy, stake, meter, table, side_figures(combos, nets), combined, main)
