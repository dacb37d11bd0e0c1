"""Field-trial monitoring: each live table's hold against the game's exact figures.

What a casino records at a table game is not what was wagered. The **drop** is the cash (and
markers) exchanged for chips at the table, the **win** the house's result; win / drop is the
hold percentage a floor reports, commonly 12% to 25%. The house edge is a share of the
**handle**, the total wagered, which is many times the drop because chips are bet again and
again. So a table is checked on its win / handle, and the handle comes from one of three
records:

* ``"hands"``: the hands played and the average wager per hand (a rating system's figures):
  handle = hands x average wager, and the hands are known;
* ``"handle"``: the drop, the handle and the ante: the drop-to-handle ratio is measured;
* ``"drop"``: the drop and the ante: handle = drop / an assumed drop-to-handle ratio,
  :data:`DROP_TO_HANDLE` unless given.

With the ante the hands follow: hands = handle / (ante x the game's exact average wager per
hand in antes).

The bands. Over n hands at an ante a the house's win has mean n x house edge x a and standard
deviation sqrt(n x variance) x a, the variance being the game's exact variance of a hand in
antes squared; sessions at different stakes add their means and variances. So a table's win
has mean theoretical hold x handle (the theoretical hold = house edge / average wager, the
element of risk), and its hold a standard deviation sqrt(variance of the win) / handle. The
95% and 99% bands are theoretical hold -/+ z x that (normal approximation, z = 1.960 and
2.576); at one stake they are the familiar theoretical hold -/+ z x SD / (average wager x
sqrt(hands)). The z-score is (win - theoretical hold x handle) / the win's standard
deviation. Everything is exact Fractions up to that one square root.

Everything here returns data; nothing prints. Inputs are checked at the boundary: numbers
through :func:`analysis.model.numbers.as_fraction` (bounded), the exact sums bounded too,
hands whole numbers; a sessions file's errors name the file, row and column, a table's (once
the game is known) the file and table.
"""

from __future__ import annotations

import csv
from collections.abc import Callable, Collection, Iterable, Mapping
from dataclasses import dataclass, field, replace
from fractions import Fraction
from functools import partial
from math import sqrt
from pathlib import Path
from typing import TYPE_CHECKING, Literal, cast

from analysis.engine.statistics import ExactFigures, z_score
from analysis.model.errors import InputError
from analysis.model.numbers import NumberLike, as_fraction, shown

if TYPE_CHECKING:
    import pandas as pd

    from analysis.engine.simulation import Simulation

#: The confidence levels of the bands.
LEVELS = (0.95, 0.99)
#: What a table's handle comes from (see the module's docstring).
HandleFrom = Literal["hands", "handle", "drop"]
#: The drop as a share of the handle, assumed for a table recorded by its drop alone: the
#: handle 25 times the drop, what a table holding 20% of its drop (a usual table-game
#: figure) implies for Casino Hold'em played well (theoretical hold 0.8173%; 20% / 25 = 0.8%).
#: An assumption, stated with every result; a casino that records the handle, or the hands
#: and the average wager, measures it instead.
DROP_TO_HANDLE = Fraction(1, 25)
#: The columns every sessions file has.
KEY_COLUMNS = ("table", "session", "win")
#: The columns (and the function's parameters) each record needs, and may add.
NEEDS: dict[HandleFrom, tuple[str, ...]] = {
    "hands": ("hands", "average_wager"),
    "handle": ("drop", "handle", "ante"),
    "drop": ("drop", "ante"),
}
MAY_ADD: dict[HandleFrom, tuple[str, ...]] = {"hands": ("drop",), "handle": (), "drop": ()}
#: Every column a record may have beside the key columns.
RECORD_COLUMNS = ("hands", "average_wager", "drop", "handle", "ante")
WAYS = (
    "give the hands and the average wager per hand (and the drop, if recorded), "
    "or the drop, the handle and the ante, or the drop and the ante (the handle then assumed from the drop)"
)
#: The most hands one table may have played (a billion; a busy table's year is a few
#: hundred thousand).
MAX_HANDS = 10**9
#: The most rows a sessions file may have.
MAX_ROWS = 1_000_000
#: The most bits a table's exact sums may reach (sums of many fractions with different
#: denominators grow without bound; money and antes written as decimals stay far below).
MAX_BITS = 4096


@dataclass(frozen=True)
class Expected:
    """What a table should hold, from the game's exact figures per hand (in antes)."""

    house_edge: Fraction  # per ante
    average_wager: Fraction  # antes wagered per hand
    variance: Fraction  # of the house's result of a hand, antes squared

    @classmethod
    def from_figures(cls, figures: ExactFigures) -> Expected:
        return cls(figures.house_edge, figures.average_wager, figures.variance)

    @property
    def hold(self) -> Fraction:
        """The theoretical hold: house edge / average wager (the element of risk)."""
        return self.house_edge / self.average_wager

    @property
    def standard_deviation(self) -> float:
        """Of the house's result of a hand, in antes."""
        return sqrt(self.variance)

    def hold_sd(self, hands: float) -> float:
        """Standard deviation of the hold over ``hands`` hands at one stake:
        SD / (average wager x sqrt(hands))."""
        return self.standard_deviation / (float(self.average_wager) * sqrt(hands))

    def band(self, hands: float, level: float) -> tuple[float, float]:
        """The hold's range at a confidence level after ``hands`` hands at one stake."""
        half = z_score(level) * self.hold_sd(hands)
        return float(self.hold) - half, float(self.hold) + half


@dataclass(frozen=True)
class Recorded:
    """One table's records, its sessions added up (money in the file's one currency).

    ``money`` is the handle (recorded, or hands x average wager) or, for a table recorded by
    its drop alone, the drop. ``per_stake`` and ``times_stake`` are the sums over sessions of
    money / stake and money x stake, the stake being the average wager per hand (a ``"hands"``
    record; ``per_stake`` is then the hands) or the ante: what the hands and their spread
    need once the game's average wager (and the drop-to-handle ratio) is known."""

    table: str
    handle_from: HandleFrom
    win: Fraction
    drop: Fraction | None
    money: Fraction
    per_stake: Fraction
    times_stake: Fraction
    sessions: int = 1
    where: str = ""  # how errors name the table: its file and name

    def __add__(self, other: Recorded) -> Recorded:
        """Two sessions of one table, of one kind of record (see :func:`read_sessions`)."""
        if (other.table, other.handle_from) != (self.table, self.handle_from):
            raise InputError(f"{self.where or self.table}: only sessions of one table and one kind of record add up")
        drop = None if self.drop is None or other.drop is None else self.drop + other.drop
        total = Recorded(
            self.table,
            self.handle_from,
            self.win + other.win,
            drop,
            self.money + other.money,
            self.per_stake + other.per_stake,
            self.times_stake + other.times_stake,
            self.sessions + other.sessions,
            self.where,
        )
        for value in (total.win, total.money, total.per_stake, total.times_stake, drop or Fraction(0)):
            if max(abs(value.numerator), value.denominator).bit_length() > MAX_BITS:
                raise InputError(
                    f"{self.where or self.table}: its exact sums outgrow {MAX_BITS} bits; "
                    "give money and antes as decimals"
                )
        return total


def recorded(
    table: str,
    win: NumberLike,
    *,
    hands: int | str | None = None,
    average_wager: NumberLike | None = None,
    drop: NumberLike | None = None,
    handle: NumberLike | None = None,
    ante: NumberLike | None = None,
) -> Recorded:
    """One table's records from numbers or text (exact: ``"1250.50"``, ``"3/2"``), checked as
    a sessions file's row is: ``hands`` and ``average_wager`` (and ``drop``), or ``drop``,
    ``handle`` and ``ante``, or ``drop`` and ``ante``."""
    given = {"hands": hands, "average_wager": average_wager, "drop": drop, "handle": handle, "ante": ante}
    values = {k: v for k, v in given.items() if v is not None}
    kind = handle_from(values, table, lambda c: c.replace("_", " "))
    return _session(table, kind, {"win": win, **values}, lambda c: f"{table}: {c.replace('_', ' ')}", table)


def handle_from(given: Collection[str], where: str, name: Callable[[str], str]) -> HandleFrom:
    """Which record ``given`` (the columns or values at hand) is, or InputError naming what
    is missing or does not belong with the rest."""
    kind: HandleFrom = "hands" if {"hands", "average_wager"} & set(given) else "handle" if "handle" in given else "drop"
    missing = [name(c) for c in NEEDS[kind] if c not in given]
    extra = [name(c) for c in RECORD_COLUMNS if c in given and c not in NEEDS[kind] + MAY_ADD[kind]]
    if missing or extra:
        problem = f"missing {', '.join(missing)}" if missing else f"{', '.join(extra)} does not go with the rest"
        raise InputError(f"{where}: {problem}; {WAYS}")
    return kind


def _session(
    table: str, kind: HandleFrom, values: Mapping[str, object], at: Callable[[str], str], where: str
) -> Recorded:
    """One session's record, each value checked (``at(column)`` names it in errors)."""
    win = as_fraction(values["win"], at("win"))
    drop = None if values.get("drop") is None else _amount(values["drop"], at("drop"), zero=True)
    if kind == "hands":
        hands = _hands(values["hands"], at("hands"))
        wager = _amount(values["average_wager"], at("average_wager"))
        money, per, times = hands * wager, Fraction(hands), hands * wager * wager
    else:
        ante = _amount(values["ante"], at("ante"))
        money = _amount(values["handle"], at("handle")) if kind == "handle" else cast(Fraction, drop)
        per, times = money / ante, money * ante
    if kind != "drop" and win > money:
        raise InputError(f"{at('win')}: {_given(values['win'], win)} is more than the handle ({float(money):,.2f})")
    return Recorded(table, kind, win, drop, money, per, times, 1, where)


def _amount(value: object, where: str, zero: bool = False) -> Fraction:
    """A positive (or, with ``zero``, non-negative) exact amount."""
    amount = as_fraction(value, where)
    if amount < 0 or (amount == 0 and not zero):
        raise InputError(f"{where}: must be {'zero or more' if zero else 'positive'}, got {_given(value, amount)}")
    return amount


def _given(value: object, exact: Fraction) -> str:
    """How an error shows a value: the text as given, or the exact number."""
    return shown(value) if isinstance(value, str) else str(exact)


def _hands(value: object, where: str) -> int:
    if isinstance(value, str):
        value = int(value) if value.isdigit() and len(value) <= 12 else value
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_HANDS:
        raise InputError(f"{where}: must be a whole number of hands from 1 to {MAX_HANDS:,}, got {shown(value)}")
    return value


def recorded_from_simulation(table: str, sim: Simulation, call_multiple: int, ante: int = 1) -> Recorded:
    """A simulated table's records (see :func:`analysis.engine.simulation.simulate_table`):
    its hands at an average wager of ``(1 + call multiple x call rate) x ante``, and a win of
    ``-mean x hands x ante``."""
    wager = as_fraction((1 + call_multiple * sim.call_rate) * ante)
    return recorded(table, round(-sim.mean * sim.hands * ante, 6), hands=sim.hands, average_wager=wager)


@dataclass(frozen=True)
class TableCheck:
    """One table against the game: its handle and hands, hold, bands, z and flag."""

    recorded: Recorded
    expected: Expected
    handle: Fraction
    hands: Fraction  # recorded, or the handle / (ante x the game's average wager)
    win_variance: Fraction  # of the house's win at this table under the game, money squared
    drop_to_handle: Fraction | None  # measured, or assumed (a "drop" record); None: no drop
    bands: dict[float, tuple[float, float]] = field(default_factory=dict)

    @property
    def table(self) -> str:
        return self.recorded.table

    @property
    def hold(self) -> Fraction:
        """The win / the handle."""
        return self.recorded.win / self.handle

    @property
    def win_over_drop(self) -> Fraction | None:
        """The floor's hold percentage (None when the drop is not recorded)."""
        return None if not self.recorded.drop else self.recorded.win / self.recorded.drop

    @property
    def expected_win(self) -> Fraction:
        """The house win the theoretical hold gives on the handle."""
        return self.expected.hold * self.handle

    @property
    def win_sd(self) -> float:
        return sqrt(self.win_variance)

    @property
    def hold_sd(self) -> float:
        return self.win_sd / float(self.handle)

    @property
    def z(self) -> float:
        return float(self.recorded.win - self.expected_win) / self.win_sd

    @property
    def equivalent_hands(self) -> float:
        """The hands at one stake whose band is this table's (its hands when its stake did
        not change): where the funnel plot puts it."""
        return float(self.expected.variance * self.handle**2 / (self.expected.average_wager**2 * self.win_variance))

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
    """Every table checked against one game (``assumed``: the drop-to-handle ratio taken for
    tables recorded by their drop alone, None when there are none)."""

    expected: Expected
    tables: list[TableCheck]
    assumed: Fraction | None = None

    def outside(self, level: float = 0.99) -> list[str]:
        """The tables whose hold is outside the band at ``level``."""
        return [t.table for t in self.tables if t.outside(level)]

    @property
    def handles_from(self) -> list[HandleFrom]:
        """The kinds of record the tables' handles come from, in the order first seen."""
        return list(dict.fromkeys(t.recorded.handle_from for t in self.tables))

    def frame(self) -> pd.DataFrame:
        """One row per table: what its handle comes from, hands, drop, handle, drop-to-handle
        ratio, win, win / drop, hold, theoretical hold, SD of the hold, the bands, z and the
        flag (floats; money in the input's currency; None where the drop is not recorded)."""
        import pandas as pd

        rows = []
        for t in self.tables:
            r = t.recorded
            row: dict[str, object] = {
                "table": t.table,
                "sessions": r.sessions,
                "handle_from": r.handle_from,
                "hands": float(t.hands),
                "drop": None if r.drop is None else float(r.drop),
                "handle": float(t.handle),
                "drop_to_handle": None if t.drop_to_handle is None else float(t.drop_to_handle),
                "win": float(r.win),
                "win_over_drop": None if t.win_over_drop is None else float(t.win_over_drop),
                "expected_win": float(t.expected_win),
                "win_sd": t.win_sd,
                "hold": float(t.hold),
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


def check_tables(
    figures: ExactFigures | Expected, tables: Iterable[Recorded], drop_to_handle: NumberLike | None = None
) -> FieldTrial:
    """Every table's hold against the game's exact figures, with the 95% and 99% bands.
    ``drop_to_handle`` (default :data:`DROP_TO_HANDLE`) is assumed for the tables recorded by
    their drop alone, and refused when there are none."""
    expected = figures if isinstance(figures, Expected) else Expected.from_figures(figures)
    tables = list(tables)
    if not tables:
        raise InputError("no tables to check")
    assumed = None
    if any(t.handle_from == "drop" for t in tables):
        assumed = DROP_TO_HANDLE if drop_to_handle is None else as_fraction(drop_to_handle, "drop-to-handle ratio")
        if not 0 < assumed <= 1:
            raise InputError(f"drop-to-handle ratio: must be above 0 and at most 1, got {assumed}")
    elif drop_to_handle is not None:
        raise InputError(
            "a drop-to-handle ratio is assumed only for tables recorded by their drop alone; "
            "these record the handle (or the hands and the average wager), so it is measured"
        )
    return FieldTrial(expected, [_check(t, expected, assumed) for t in tables], assumed)


def _check(t: Recorded, expected: Expected, assumed: Fraction | None) -> TableCheck:
    """One table's handle, hands and spread of the win under the game (module docstring)."""
    scale = 1 / assumed if t.handle_from == "drop" and assumed is not None else Fraction(1)
    # the money per hand is the stake (average wager), or the ante x the game's average wager
    unit = Fraction(1) if t.handle_from == "hands" else expected.average_wager
    handle, hands = t.money * scale, t.per_stake * scale / unit
    name = t.where or t.table
    if not 1 <= hands <= MAX_HANDS:
        raise InputError(
            f"{name}: {float(hands):,.1f} hands (the handle / (ante x {float(expected.average_wager):.4f}, "
            f"the game's average wager)): a table needs from 1 to {MAX_HANDS:,}"
        )
    if t.win > handle:
        raise InputError(
            f"{name}: the win ({float(t.win):,.2f}) is more than the handle the drop gives at a "
            f"drop-to-handle ratio of {assumed} ({float(handle):,.2f})"
        )
    # Var(win) = variance x sum of hands x ante^2, ante = money per hand / the game's average wager
    win_variance = expected.variance * t.times_stake * scale * unit / expected.average_wager**2
    ratio = assumed if t.handle_from == "drop" else None if t.drop is None else t.drop / handle
    check = TableCheck(t, expected, handle, hands, win_variance, ratio)
    half = {level: z_score(level) * check.hold_sd for level in LEVELS}
    hold = float(expected.hold)
    return replace(check, bands={level: (hold - h, hold + h) for level, h in half.items()})


def read_sessions(path: str | Path) -> list[Recorded]:
    """The tables of a sessions file: a CSV with columns table, session, win and one of the
    records (hands, average_wager [, drop]; drop, handle, ante; drop, ante), one row per
    table and session, each table's sessions added up, in the order first seen. Errors name
    the file, row (the file's line) and column."""
    path = Path(path)
    try:
        with path.open(newline="", encoding="utf-8-sig") as f:
            return _tables(path, csv.DictReader(f))
    except UnicodeDecodeError:
        raise InputError(f"{path}: not a text (UTF-8) CSV file") from None
    except csv.Error as e:
        raise InputError(f"{path}: not a readable CSV file ({e})") from None


def _tables(path: Path, reader: csv.DictReader[str]) -> list[Recorded]:
    header = [str(c).strip().lower() for c in reader.fieldnames or []]
    twice = sorted({c for c in header if header.count(c) > 1 and c in KEY_COLUMNS + RECORD_COLUMNS})
    if twice:
        raise InputError(f"{path}: column(s) {', '.join(twice)} appear twice")
    missing = [c for c in KEY_COLUMNS if c not in header]
    if missing:
        raise InputError(
            f"{path}: missing column(s) {', '.join(missing)}; a sessions file has {', '.join(KEY_COLUMNS)}"
        )
    kind = handle_from([c for c in header if c in RECORD_COLUMNS], f"{path}: columns", lambda c: c)
    columns = ("win", *NEEDS[kind], *(c for c in MAY_ADD[kind] if c in header))
    totals: dict[str, Recorded] = {}
    seen: set[tuple[str, str]] = set()
    for i, raw in enumerate(reader, start=2):
        if i - 1 > MAX_ROWS:
            raise InputError(f"{path}: more than {MAX_ROWS:,} rows")
        where = f"{path} row {i}"
        if None in raw:
            raise InputError(f"{where}: more values than columns")
        row = {str(k).strip().lower(): (v or "").strip() for k, v in raw.items()}
        for c in ("table", "session", *columns):
            if not row[c]:
                raise InputError(f"{where} column {c}: empty")
        table, session = row["table"], row["session"]
        if (table, session) in seen:
            raise InputError(f"{where}: table {shown(table)} session {shown(session)} appears twice")
        seen.add((table, session))
        values = {c: row[c] for c in columns}
        before = totals.get(table)
        named = before.where if before else f"{path} table {shown(table)}"
        one = _session(table, kind, values, partial("{} column {}".format, where), named)
        total = totals[table] = before + one if before else one
        if kind == "hands" and total.per_stake > MAX_HANDS:
            raise InputError(f"{where}: table {shown(table)} has more than {MAX_HANDS:,} hands")
    if not totals:
        raise InputError(f"{path}: no sessions (the file has a header and no rows)")
    return list(totals.values())
