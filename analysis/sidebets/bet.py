"""Side bets as data: what a side bet is paid on, its pay lines, whether the player
forfeits it by folding, and its progressive meter.

A side-bet file is CSV like a pay table (``#`` comments, exact pays): first ``key,value``
settings, then the header ``line,pays`` and one row per pay line.

Settings: ``kind`` (required), ``bet`` (its name; default the file's), ``forfeit`` (``yes``:
lost when the player folds; default ``no``, settled whether he folds or not), ``game``
(the game it was designed for, the default game to play it with), and for a progressive
``seed``, ``reset``, ``contribution`` and ``stake`` (see :class:`Meter`).

Kinds (:data:`KINDS`):

* ``first-six``: the player's best five-card hand of his hole cards and the flop under the
  game's rule (Casino Omaha: exactly two of his three hole cards with the three flop cards;
  Casino Hold'em: his two cards and the flop), known when he decides;
* ``final``: the player's final hand;
* ``bad-beat``: the player's final hand when it loses to a qualifying dealer.

Lines: a category (``full_house``) or, for ``first-six``, a category and the ranks that name
the hand (``pair:A`` a pair of aces; ``pair:J+`` jacks or better; ``pair:9-Q``;
``two_pair:AK``), the naming rank being :data:`analysis.hands.lookup` ``primary``. Final-hand
counts are kept by category, so ``final`` and ``bad-beat`` lines are whole categories. A
hand is paid by the first line that names it, top to bottom; a hand no line names loses.

Pays are "to 1" (the stake comes back with the pay), exact: ``7``, ``3/2``, ``1.5``; ``0``
or ``push`` returns the stake; ``meter`` or ``meter*SHARE`` (``meter*10%``, ``meter*1/10``)
pays that share of the progressive meter.

>>> bet = SideBet.load("aa-bonus")
>>> bet.kind, bet.forfeit, [line.name for line in bet.lines][-2:]
('first-six', False, ['two_pair', 'pair:A'])
>>> SideBet.from_text("kind,final\\nline,pays\\npair:A,7")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
analysis.sidebets.bet.SideBetError: custom: row 3: line 'pair:A': final-hand lines pay whole categories (...)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import cache
from os import PathLike
from pathlib import Path
from typing import Any, TypeAlias

import numpy as np

from analysis.hands.lookup import tables
from analysis.model.cards import RANKS
from analysis.model.categories import CATEGORIES
from analysis.model.errors import InputError
from analysis.model.files import builtin_files, csv_rows, read_csv_text
from analysis.model.game import shipped_games
from analysis.model.numbers import NumberLike, as_fraction, shown

KINDS = ("first-six", "final", "bad-beat")
SETTINGS = ("bet", "kind", "forfeit", "game", "seed", "reset", "contribution", "stake")
_YES, _NO = ("yes", "true", "1"), ("no", "false", "0")


class SideBetError(InputError):
    """A side bet that cannot be used; the message names the file, row and problem."""


def shipped_sidebets(game: str | None = None) -> list[str]:
    """Names of the side bets that ship with the package (only those designed for ``game``)."""
    return sorted(
        n for n in builtin_files("analysis.sidebets", "shipped") if game is None or SideBet.load(n).game == game
    )


@cache
def naming_ranks() -> tuple[frozenset[int], ...]:
    """The ranks that can name a hand of each category (e.g. straights: 5 to A)."""
    t = tables()
    return tuple(frozenset(int(r) for r in np.unique(t.primary[1:][t.category[1:] == c])) for c in range(10))


@dataclass(frozen=True)
class Line:
    """One pay line: the hands it names (category, naming ranks) and what it pays."""

    name: str
    category: int
    ranks: frozenset[int]
    pays: Fraction = Fraction(0)  # "to 1"; 0 is a push
    share: Fraction | None = None  # pays this share of the meter instead

    @property
    def whole(self) -> bool:
        return self.ranks >= naming_ranks()[self.category]

    @property
    def pays_text(self) -> str:
        if self.share is not None:
            if self.share == 1:
                return "meter"
            percent = self.share * 100
            return f"meter*{percent}%" if percent.denominator == 1 else f"meter*{self.share}"
        return "push" if self.pays == 0 else str(self.pays)

    @property
    def pays_words(self) -> str:
        """The pay as a table shows it: ``"7"``, ``"push"``, ``"the meter"``, ``"10% of the meter"``."""
        if self.share is None or self.share == 1:
            return "the meter" if self.share == 1 else self.pays_text
        percent = self.share * 100
        return f"{percent}% of the meter" if percent.denominator == 1 else f"{self.share} of the meter"

    def net(self, meter: Fraction | None, stake: Fraction = Fraction(1)) -> Fraction:
        """The player's net win per unit staked when this line pays (meter in the stake's units)."""
        if self.share is None:
            return self.pays
        if meter is None:
            raise InputError(f"line {self.name!r} pays from the meter: give the meter's value")
        return self.share * meter / stake


@dataclass(frozen=True)
class Meter:
    """A progressive meter: ``seed`` (its value when it starts), ``reset`` (its value after a
    line paying the whole meter; default the seed), ``contribution`` (the share of every
    stake added to it) and ``stake`` (the side bet's stake, in the meter's units)."""

    seed: Fraction
    reset: Fraction
    contribution: Fraction = Fraction(0)
    stake: Fraction = Fraction(1)


@dataclass(frozen=True)
class SideBet:
    name: str
    kind: str
    lines: tuple[Line, ...]
    forfeit: bool = False
    game: str | None = None
    meter: Meter | None = None
    source: str = ""

    @classmethod
    def load(cls, spec: SideBetSpec) -> SideBet:
        """A side bet from a SideBet, a CSV path, or the name of one that ships with the
        package (``analysis/sidebets/shipped/*.csv``: ``aa-bonus``, ...)."""
        if isinstance(spec, SideBet):
            return spec
        builtin = builtin_files("analysis.sidebets", "shipped")
        if not isinstance(spec, (str, PathLike)):
            raise SideBetError(
                f"side bet {shown(spec)} ({type(spec).__name__}): give a SideBet, a CSV path or the name of one "
                f"that ships ({', '.join(sorted(builtin))})"
            )
        if isinstance(spec, str) and spec in builtin and not Path(spec).exists():
            return cls.from_text(builtin[spec], name=spec, source=f"analysis/sidebets/shipped/{spec}.csv (package)")
        if not Path(spec).exists():
            raise SideBetError(
                f"{spec}: no such side-bet file, and no side bet of that name ships with the package "
                f"(those that do: {', '.join(sorted(builtin))})"
            )
        return cls.from_text(read_csv_text(spec, "side bet", SideBetError), name=Path(spec).stem, source=str(spec))

    @classmethod
    def from_text(cls, text: str, name: str = "custom", source: str = "") -> SideBet:
        where = source or name
        rows = csv_rows(text)
        at = next((i for i, (_, f) in enumerate(rows) if [x.lower() for x in f] == ["line", "pays"]), None)
        if at is None:
            raise SideBetError(f"{where}: no 'line,pays' header: settings come first, then the header and the lines")
        settings = _settings(rows[:at], where)
        kind = settings.get("kind")
        if kind is None:
            raise SideBetError(f"{where}: missing the setting 'kind' (one of {', '.join(KINDS)})")
        lines = tuple(_line(n, fields, kind, where) for n, fields in rows[at + 1 :])
        if not lines:
            raise SideBetError(f"{where}: the side bet has no pay lines")
        _check_reachable(lines, [n for n, _ in rows[at + 1 :]], where)
        meter = _meter(settings, where)
        if any(line.share is not None for line in lines) != (meter is not None):
            raise SideBetError(
                f"{where}: a progressive needs both 'meter' lines and a 'seed' setting"
                if meter is None
                else f"{where}: meter settings but no line pays from the meter"
            )
        return cls(
            settings.get("bet", name), kind, lines, settings.get("forfeit", False), settings.get("game"), meter, source
        )

    def with_pays(self, pays: Mapping[str, NumberLike], name: str | None = None) -> SideBet:
        """This bet with some lines paying other fixed amounts ({line name: pay})."""
        known = {line.name for line in self.lines}
        unknown = [k for k in pays if k not in known]
        if unknown:
            raise SideBetError(f"{self.name}: unknown lines {', '.join(unknown)} (lines: {', '.join(known)})")
        lines = []
        for line in self.lines:
            if line.name in pays:
                try:
                    value = as_fraction(pays[line.name])
                except InputError as e:
                    raise SideBetError(f"{self.name}: line {line.name!r}: pay {e}") from None
                if value < 0:
                    raise SideBetError(f"{self.name}: line {line.name!r}: pay {value} is negative")
                line = replace(line, pays=value, share=None)
            lines.append(line)
        return replace(self, name=name or f"{self.name}*", lines=tuple(lines), source="")

    def line(self, name: str) -> Line:
        for line in self.lines:
            if line.name == name:
                return line
        raise SideBetError(f"{self.name}: no line {name!r} (lines: {', '.join(x.name for x in self.lines)})")

    def strength_lines(self) -> np.ndarray:
        """The line (index) that pays each hand strength 0..7462, -1 where none does."""
        t = tables()
        out = np.full(len(t.category), -1, dtype=np.int16)
        for i, line in reversed(list(enumerate(self.lines))):  # the first line that names a hand pays it
            named = (t.category == line.category) & np.isin(t.primary, list(line.ranks))
            out[named] = i
        out[0] = -1
        return out

    def category_lines(self) -> np.ndarray:
        """The line (index) that pays each category, -1 where none does (whole-category lines)."""
        out = np.full(len(CATEGORIES), -1, dtype=np.int16)
        for i, line in reversed(list(enumerate(self.lines))):
            out[line.category] = i
        return out

    def to_csv(self) -> str:
        """The bet as CSV text that :meth:`load` reads back exactly."""
        rows = [f"bet,{self.name}", f"kind,{self.kind}", f"forfeit,{'yes' if self.forfeit else 'no'}"]
        rows += [f"game,{self.game}"] if self.game else []
        if self.meter is not None:
            m = self.meter
            rows += [f"seed,{m.seed}", f"reset,{m.reset}", f"contribution,{m.contribution}", f"stake,{m.stake}"]
        return "\n".join(rows + ["line,pays"] + [f"{x.name},{x.pays_text}" for x in self.lines]) + "\n"


def _settings(rows: list[tuple[int, list[str]]], where: str) -> dict[str, Any]:
    """The settings by key: text, ``forfeit`` a bool, the meter's numbers Fractions."""
    out: dict[str, Any] = {}
    for n, fields in rows:
        if len(fields) != 2:
            raise SideBetError(f"{where}: row {n}: a setting is 'key,value', got {len(fields)} fields")
        key, text = fields[0].lower(), fields[1]
        value: str | bool | Fraction = text
        if key not in SETTINGS:
            raise SideBetError(f"{where}: row {n}: unknown setting {fields[0]!r} (known: {', '.join(SETTINGS)})")
        if key in out:
            raise SideBetError(f"{where}: row {n}: setting {key!r} appears twice")
        if key == "kind" and text not in KINDS:
            raise SideBetError(f"{where}: row {n}: kind {text!r} is not one of {', '.join(KINDS)}")
        if key == "game" and text not in shipped_games():
            raise SideBetError(f"{where}: row {n}: unknown game {text!r} (known: {', '.join(shipped_games())})")
        if key == "forfeit":
            if text.lower() not in _YES + _NO:
                raise SideBetError(f"{where}: row {n}: forfeit is 'yes' or 'no', not {text!r}")
            value = text.lower() in _YES
        if key in ("seed", "reset", "contribution", "stake"):
            number = _number(text, f"{where}: row {n}: {key}")
            if number < 0 or (key == "stake" and number == 0) or (key == "contribution" and number >= 1):
                raise SideBetError(f"{where}: row {n}: {key} {number} is out of range")
            value = number
        out[key] = value
    return out


def _number(text: str, where: str) -> Fraction:
    """An exact number, or a percentage (``10%``), from a side-bet file."""
    try:
        return as_fraction(text[:-1]) / 100 if text.endswith("%") else as_fraction(text)
    except InputError as e:
        raise SideBetError(f"{where}: {e}") from None


def _line(n: int, fields: list[str], kind: str, where: str) -> Line:
    if len(fields) != 2:
        raise SideBetError(f"{where}: row {n}: expected 2 fields (line,pays), got {len(fields)}")
    name, pays = fields
    category, _, rank_text = name.partition(":")
    if category not in CATEGORIES:
        raise SideBetError(f"{where}: row {n}: unknown category {category!r} (known: {', '.join(CATEGORIES)})")
    c = CATEGORIES.index(category)
    ranks = _ranks(rank_text, f"{where}: row {n}: line {name!r}") if rank_text else frozenset(range(13))
    if not ranks & naming_ranks()[c]:
        raise SideBetError(
            f"{where}: row {n}: line {name!r} names no hand ({category} is named by ranks "
            f"{''.join(RANKS[r] for r in sorted(naming_ranks()[c]))})"
        )
    if kind != "first-six" and rank_text and not ranks >= naming_ranks()[c]:
        raise SideBetError(
            f"{where}: row {n}: line {name!r}: final-hand lines pay whole categories (the counts are kept by category)"
        )
    text = pays.lower().replace(" ", "")
    if text == "push":
        return Line(name, c, ranks)
    if text.startswith("meter"):
        share = _number(text[6:], f"{where}: row {n}: meter share") if text[5:6] == "*" else Fraction(1)
        if text[5:] and text[5:6] != "*" or not 0 < share <= 1:
            raise SideBetError(
                f"{where}: row {n}: {pays!r}: a meter line pays 'meter' or 'meter*SHARE', 0 < SHARE <= 1"
            )
        return Line(name, c, ranks, share=share)
    value = _number(pays, f"{where}: row {n}: pay for {name}")
    if value < 0:
        raise SideBetError(f"{where}: row {n}: pay {pays} for {name} is negative")
    return Line(name, c, ranks, value)


def _ranks(text: str, where: str) -> frozenset[int]:
    """``A``, ``AKQ``, ``J+`` (J or better), ``9-Q`` -> rank ints."""
    try:
        if text.endswith("+") and len(text) == 2:
            return frozenset(range(RANKS.index(text[0].upper()), 13))
        if "-" in text:
            lo, hi = (RANKS.index(x.upper()) for x in text.split("-"))
            if lo > hi:
                raise ValueError
            return frozenset(range(lo, hi + 1))
        return frozenset(RANKS.index(x.upper()) for x in text)
    except ValueError:
        raise SideBetError(f"{where}: bad ranks {text!r}: use A, AKQ, J+ or 9-Q (ranks {RANKS})") from None


def _check_reachable(lines: tuple[Line, ...], numbers: list[int], where: str) -> None:
    """Every line must pay some hand that no line above it pays."""
    taken: set[tuple[int, int]] = set()
    for line, n in zip(lines, numbers):
        hands = {(line.category, r) for r in line.ranks & naming_ranks()[line.category]}
        if hands <= taken:
            raise SideBetError(f"{where}: row {n}: line {line.name!r} is never paid: the lines above pay all its hands")
        taken |= hands


def _meter(settings: dict[str, Any], where: str) -> Meter | None:
    keys = {"seed", "reset", "contribution", "stake"} & set(settings)
    if not keys:
        return None
    if "seed" not in settings:
        raise SideBetError(f"{where}: a progressive needs a 'seed' setting (its meter's starting value)")
    seed = settings["seed"]
    return Meter(
        seed, settings.get("reset", seed), settings.get("contribution", Fraction(0)), settings.get("stake", Fraction(1))
    )


#: Anything :meth:`SideBet.load` takes: a bet, a CSV path, or the name of a shipped bet.
SideBetSpec: TypeAlias = SideBet | str | Path
