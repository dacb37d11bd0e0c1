"""Field-trial monitoring: each live table's hold against the game's exact figures.

A table's **hold** is the house win divided by the total wagered (the handle: antes plus
call bets; a "drop" given instead is taken as the amount wagered). The **theoretical hold**
is the house edge per ante divided by the average wager per hand in antes, i.e. the element
of risk.

Convention for the bands. Over ``n`` independent hands the house's total win has standard
deviation ``sqrt(n) x SD`` antes, SD the game's exact standard deviation per hand. The ante
size is taken as the one the wagered total implies at the game's average wager:
``ante = wagered / (n x average wager)``, so the total wagered counts as fixed at
``n x average wager`` antes and the standard deviation of the hold is
``SD / (average wager x sqrt(n))``, whatever the currency. The 95% and 99% bands are
``theoretical hold -/+ z x that`` (normal approximation, z = 1.960 and 2.576); a table is
flagged when its hold is outside a band. The z-score is ``(hold - theoretical hold) / SD of
the hold``.

Everything here returns data; nothing prints. Inputs are checked at the boundary: numbers
through :func:`analysis.model.numbers.as_fraction` (bounded), hands a whole number >= 1,
the wagered total positive, the house win at most the wagered total; a sessions CSV's
errors name the file, row and column.
"""

from __future__ import annotations

import csv
from collections.abc import Iterable
from dataclasses import dataclass, field
from fractions import Fraction
from math import sqrt
from pathlib import Path

import pandas as pd

from analysis.engine.simulation import Simulation
from analysis.engine.statistics import ExactFigures, z_score
from analysis.model.errors import InputError
from analysis.model.numbers import NumberLike, as_fraction, shown

#: The confidence levels of the bands.
LEVELS = (0.95, 0.99)
#: The columns a sessions CSV must have (others are ignored).
SESSION_COLUMNS = ("table", "day", "hands", "wagered", "house_win")
#: The most hands one table or session may report (a billion; a whole year of a busy
#: table is a few hundred thousand).
MAX_HANDS = 10**9
#: The most rows a sessions file may have.
MAX_ROWS = 1_000_000


@dataclass(frozen=True)
class Expected:
    """What a table should hold, from the game's exact figures per hand (in antes)."""

    house_edge: Fraction  # per ante
    average_wager: Fraction  # antes wagered per hand
    standard_deviation: float  # of the house's result of a hand, in antes

    @classmethod
    def from_figures(cls, figures: ExactFigures) -> Expected:
        return cls(figures.house_edge, figures.average_wager, figures.standard_deviation)

    @property
    def hold(self) -> Fraction:
        """The theoretical hold: house edge / average wager (the element of risk)."""
        return self.house_edge / self.average_wager

    def hold_sd(self, hands: int) -> float:
        """Standard deviation of the hold over ``hands`` hands: SD / (average wager x sqrt(hands))."""
        return self.standard_deviation / (float(self.average_wager) * sqrt(hands))

    def band(self, hands: int, level: float) -> tuple[float, float]:
        """The hold's range at a confidence level after ``hands`` hands."""
        half = z_score(level) * self.hold_sd(hands)
        return float(self.hold) - half, float(self.hold) + half


@dataclass(frozen=True)
class Observed:
    """One table's observed results (sessions already added up): money in any currency."""

    table: str
    hands: int
    wagered: Fraction
    house_win: Fraction
    sessions: int = 1

    def __post_init__(self) -> None:
        # exact numbers from ints, text or floats too (bounded: see analysis.model.numbers)
        object.__setattr__(self, "wagered", as_fraction(self.wagered, f"{self.table}: wagered"))
        object.__setattr__(self, "house_win", as_fraction(self.house_win, f"{self.table}: house win"))
        check_observed(self.table, self.hands, self.wagered, self.house_win)

    @property
    def hold(self) -> Fraction:
        return self.house_win / self.wagered


@dataclass(frozen=True)
class TableCheck:
    """One table against the game: its hold, the theoretical hold, the bands, z and flag."""

    observed: Observed
    expected: Expected
    bands: dict[float, tuple[float, float]] = field(default_factory=dict)

    @property
    def hold(self) -> float:
        return float(self.observed.hold)

    @property
    def hold_sd(self) -> float:
        return self.expected.hold_sd(self.observed.hands)

    @property
    def z(self) -> float:
        return (self.hold - float(self.expected.hold)) / self.hold_sd

    @property
    def ante(self) -> Fraction:
        """The ante size the wagered total implies at the game's average wager."""
        return self.observed.wagered / (self.observed.hands * self.expected.average_wager)

    @property
    def expected_win(self) -> Fraction:
        """The house win the theoretical hold gives on the wagered total."""
        return self.expected.hold * self.observed.wagered

    def outside(self, level: float) -> bool:
        low, high = self.bands[level]
        return not low <= self.hold <= high

    @property
    def flag(self) -> str:
        """``"inside"``, or the widest band the hold is outside, e.g. ``"outside 99%"``."""
        for level in sorted(self.bands, reverse=True):
            if self.outside(level):
                return f"outside {level:.0%}"
        return "inside"


@dataclass
class FieldTrial:
    """Every table checked against one game."""

    expected: Expected
    tables: list[TableCheck]

    def outside(self, level: float = 0.99) -> list[str]:
        """The tables whose hold is outside the band at ``level``."""
        return [t.observed.table for t in self.tables if t.outside(level)]

    def frame(self) -> pd.DataFrame:
        """One row per table: hands, wagered, house win, hold, theoretical hold, SD of the
        hold, the bands, z and the flag (floats; money in the input's currency)."""
        rows = []
        for t in self.tables:
            row: dict[str, object] = {
                "table": t.observed.table,
                "sessions": t.observed.sessions,
                "hands": t.observed.hands,
                "wagered": float(t.observed.wagered),
                "house_win": float(t.observed.house_win),
                "expected_win": float(t.expected_win),
                "hold": t.hold,
                "theoretical_hold": float(self.expected.hold),
                "hold_sd": t.hold_sd,
            }
            for level, (low, high) in t.bands.items():
                row[f"low_{level:.0%}"] = low
                row[f"high_{level:.0%}"] = high
            row["z"] = t.z
            row["flag"] = t.flag
            rows.append(row)
        return pd.DataFrame(rows)


def check_observed(table: str, hands: object, wagered: object, house_win: object) -> None:
    """Raise InputError unless the results make sense (see the module's docstring)."""
    if isinstance(hands, bool) or not isinstance(hands, int) or not 1 <= hands <= MAX_HANDS:
        raise InputError(f"{table}: hands must be a whole number from 1 to {MAX_HANDS:,}, got {shown(hands)}")
    if not isinstance(wagered, Fraction) or wagered <= 0:
        raise InputError(f"{table}: the total wagered must be a positive number, got {shown(wagered)}")
    if not isinstance(house_win, Fraction) or house_win > wagered:
        raise InputError(f"{table}: the house win ({shown(house_win)}) cannot exceed the total wagered")


def observed(table: str, hands: int, wagered: NumberLike, house_win: NumberLike) -> Observed:
    """One table's results from numbers or text (exact: ``"1250.50"``, ``"3/2"``)."""
    return Observed(
        table, hands, as_fraction(wagered, f"{table}: wagered"), as_fraction(house_win, f"{table}: house win")
    )


def observed_from_simulation(table: str, sim: Simulation, call_multiple: int, ante: int = 1) -> Observed:
    """A simulated table's results (see :func:`analysis.engine.simulation.simulate_table`):
    ``hands x (1 + call multiple x call rate)`` antes wagered, ``-mean x hands`` antes won."""
    wagered = as_fraction(sim.hands * (1 + call_multiple * sim.call_rate) * ante)
    return Observed(table, sim.hands, wagered, as_fraction(round(-sim.mean * sim.hands * ante, 6)))


def check_tables(figures: ExactFigures | Expected, tables: Iterable[Observed]) -> FieldTrial:
    """Every table's hold against the game's exact figures, with the 95% and 99% bands."""
    expected = figures if isinstance(figures, Expected) else Expected.from_figures(figures)
    checks = [TableCheck(t, expected, {level: expected.band(t.hands, level) for level in LEVELS}) for t in tables]
    if not checks:
        raise InputError("no tables to check")
    return FieldTrial(expected, checks)


def read_sessions(path: str | Path) -> list[Observed]:
    """The tables of a sessions CSV (columns table, day, hands, wagered, house_win; one row
    per table and day), each table's sessions added up, in the order first seen. Errors name
    the file, row (the file's line) and column."""
    path = Path(path)
    try:
        with path.open(newline="", encoding="utf-8-sig") as f:
            return _tables(path, csv.DictReader(f))
    except UnicodeDecodeError:
        raise InputError(f"{path}: not a text (UTF-8) CSV file") from None
    except csv.Error as e:
        raise InputError(f"{path}: not a readable CSV file ({e})") from None


def _tables(path: Path, reader: csv.DictReader[str]) -> list[Observed]:
    columns = reader.fieldnames or []
    missing = [c for c in SESSION_COLUMNS if c not in [str(x).strip() for x in columns]]
    if missing:
        raise InputError(
            f"{path}: missing column(s) {', '.join(missing)}; a sessions file has {', '.join(SESSION_COLUMNS)}"
        )
    totals: dict[str, list[Fraction | int]] = {}
    seen: set[tuple[str, str]] = set()
    for i, raw in enumerate(reader, start=2):
        if i - 1 > MAX_ROWS:
            raise InputError(f"{path}: more than {MAX_ROWS:,} rows")
        row = {str(k).strip(): (v or "").strip() for k, v in raw.items() if k is not None}
        if None in raw:
            raise InputError(f"{path} row {i}: more values than columns")
        where = f"{path} row {i}"
        table, day = row["table"], row["day"]
        if not table:
            raise InputError(f"{where} column table: empty")
        if not day:
            raise InputError(f"{where} column day: empty")
        if (table, day) in seen:
            raise InputError(f"{where}: table {shown(table)} on day {shown(day)} appears twice")
        seen.add((table, day))
        hands = _hands(row["hands"], f"{where} column hands")
        wagered = _number(row["wagered"], f"{where} column wagered")
        if wagered <= 0:
            raise InputError(f"{where} column wagered: must be positive, got {shown(row['wagered'])}")
        win = _number(row["house_win"], f"{where} column house_win")
        if win > wagered:
            raise InputError(f"{where} column house_win: {shown(row['house_win'])} is more than the total wagered")
        total = totals.setdefault(table, [0, Fraction(0), Fraction(0), 0])
        total[0] += hands
        total[1] += wagered
        total[2] += win
        total[3] += 1
        if total[0] > MAX_HANDS:
            raise InputError(f"{where}: table {shown(table)} has more than {MAX_HANDS:,} hands")
    if not totals:
        raise InputError(f"{path}: no sessions (the file has a header and no rows)")
    return [Observed(t, int(h), Fraction(w), Fraction(x), int(n)) for t, (h, w, x, n) in totals.items()]


def _hands(text: str, where: str) -> int:
    if not text.isdigit() or len(text) > 12:
        raise InputError(f"{where}: must be a whole number of hands (at least 1), got {shown(text)}")
    value = int(text)
    if value < 1:
        raise InputError(f"{where}: must be at least 1, got {value}")
    return value


def _number(text: str, where: str) -> Fraction:
    if not text:
        raise InputError(f"{where}: empty")
    return as_fraction(text, where)
