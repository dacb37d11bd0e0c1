"""Exact equity of 2 to 6 four-card Omaha hands: every completion of the board is dealt.

The compiled core counts the boards of each *outcome*: which hands tie for the best high
and which for the best qualifying low (none when no low qualifies). Every figure below is
an exact function of those integer counts.

Pot shares (``equity``): the pot of every board is shared by the hands that win it.
Omaha high: the best high hands split the pot equally. Omaha Hi/Lo (seed 004): half the
pot to the best high hands, half to the best low hands, each half split equally among
tied hands; when no low qualifies the best high hands share the whole pot. Shares are
kept as integer numbers of pot *units* (``units_per_pot`` = lcm(1..n) units in a pot for
high, 2 lcm(1..n) for Hi/Lo, so every split is whole), and ``equity`` is the exact
fraction ``pot_units / (units_per_pot * boards)``.

Hi/Lo frequencies, per hand, in boards (each board counts once per hand):

* ``high_win`` / ``high_tie``: the only best high hand / one of several;
  ``low_win`` / ``low_tie`` likewise for the best low; ``no_low``: no low qualifies.
* A partition of the boards: ``scoop`` (the whole pot, alone), ``high_only`` (a share of
  the high half and nothing of the low half, which another hand wins), ``low_only`` (a
  share of the low half only), ``split`` (shares of both halves without scooping,
  including a tie for the whole pot when no low qualifies) and ``nothing``.
* ``quarter``: boards on which the hand receives exactly a quarter of the pot (usually
  a low or high half shared with one other hand), a subset of the above.

Chips: real pots are whole chips. Seed 004 gives the odd chip of an odd pot to the high
half. With ``pot_chips`` = N, a half of h chips split among k tied hands gives each
h // k chips and the h % k remaining chips one each to the tied hands in seat order (the
order the hands are given, first = first seat left of the button: the usual card-room
rule; the seed does not settle ties within a half). ``chips`` is the exact expected
number of chips won, and ``odd_chip_effect`` = chips / N - equity.

>>> r = compute_equity(["As Ah Ks Kh", "7c 8d 9c Td"], board="Tc 9d 2c 3h", hilo=True)
>>> r.boards, [str(e) for e in r.equities()], r.pot_units(), r.units_per_pot
(40, ['13/80', '67/80'], [26, 134], 4)
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction
from math import comb, lcm
from typing import TypeAlias

import numpy as np
import pandas as pd

import analysis._omaha as _omaha
from analysis.hands.lookup import tables
from analysis.model.cards import disjoint, format_card, format_cards, parse_cards
from analysis.model.errors import InputError
from analysis.omaha4.evaluators import LOW_BIT, omaha_tables
from analysis.parallel.threads import check_threads

#: Cards as text (``"As Ah"``), a list of tokens or a list of card ints.
CardSpec: TypeAlias = str | Iterable[str | int]

MAX_HANDS = 6
BOARD_SIZES = (0, 3, 4, 5)
HIGH_COUNTS = ("win", "tie", "lose")
HILO_COUNTS = (
    "scoop",
    "high_only",
    "low_only",
    "split",
    "nothing",
    "quarter",
    "high_win",
    "high_tie",
    "low_win",
    "low_tie",
)


@dataclass(frozen=True)
class EquityResult:
    """Exact outcome counts of every board completion, and everything derived from them."""

    hands: tuple[tuple[int, ...], ...]
    board: tuple[int, ...]
    dead: tuple[int, ...]
    hilo: bool
    #: (bit set of the best high hands, bit set of the best low hands or 0) -> boards
    outcomes: dict[tuple[int, int], int]

    @property
    def boards(self) -> int:
        return sum(self.outcomes.values())

    @property
    def no_low(self) -> int:
        """Boards on which no hand makes a qualifying low (all boards for Omaha high)."""
        return sum(count for (_, low), count in self.outcomes.items() if low == 0)

    @property
    def units_per_pot(self) -> int:
        return lcm(*range(1, len(self.hands) + 1)) * (2 if self.hilo else 1)

    def _shares(self, high: int, low: int) -> list[Fraction]:
        """Each hand's share of the pot in one outcome."""
        n = len(self.hands)
        winners_high = [h for h in range(n) if high >> h & 1]
        winners_low = [h for h in range(n) if low >> h & 1]
        shares = [Fraction(0)] * n
        high_part = Fraction(1, 2) if low else Fraction(1)
        for h in winners_high:
            shares[h] += high_part / len(winners_high)
        for h in winners_low:
            shares[h] += Fraction(1, 2) / len(winners_low)
        return shares

    def pot_units(self) -> list[int]:
        """Per hand, the exact sum over boards of its pot share, in units of 1/units_per_pot."""
        totals = [0] * len(self.hands)
        for (high, low), count in self.outcomes.items():
            for h, share in enumerate(self._shares(high, low)):
                units = share * self.units_per_pot
                if units.denominator != 1:
                    raise AssertionError(f"a pot share of {units} units is not whole")
                totals[h] += int(units) * count
        return totals

    def equities(self) -> list[Fraction]:
        """Per hand, the exact expected share of the pot."""
        return [Fraction(u, self.units_per_pot * self.boards) for u in self.pot_units()]

    def counts(self) -> list[dict[str, int]]:
        """Per hand, the exact board counts of the module docstring."""
        rows = []
        for h in range(len(self.hands)):
            bit = 1 << h
            c = dict.fromkeys(HILO_COUNTS if self.hilo else HIGH_COUNTS, 0)
            for (high, low), count in self.outcomes.items():
                in_high, in_low = bool(high & bit), bool(low & bit)
                if not self.hilo:
                    key = "lose" if not in_high else ("win" if high == bit else "tie")
                    c[key] += count
                    continue
                if in_high:
                    c["high_win" if high == bit else "high_tie"] += count
                if in_low:
                    c["low_win" if low == bit else "low_tie"] += count
                if high == bit and (low == bit or low == 0):
                    c["scoop"] += count
                elif in_high and low and not in_low:
                    c["high_only"] += count
                elif in_low and not in_high:
                    c["low_only"] += count
                elif in_high:
                    c["split"] += count
                else:
                    c["nothing"] += count
                if self._shares(high, low)[h] == Fraction(1, 4):
                    c["quarter"] += count
            rows.append(c)
        return rows

    def chips(self, pot_chips: int) -> list[Fraction]:
        """Per hand, the exact expected chips won from a pot of ``pot_chips`` whole chips."""
        if pot_chips < 1:
            raise InputError(f"pot_chips must be a positive number of chips, got {pot_chips}")
        n = len(self.hands)
        totals = [0] * n
        for (high, low), count in self.outcomes.items():
            halves = [(high, (pot_chips + 1) // 2), (low, pot_chips // 2)] if low else [(high, pot_chips)]
            for winners, chips in halves:
                seats = [h for h in range(n) if winners >> h & 1]
                each, odd = divmod(chips, len(seats))
                for i, h in enumerate(seats):
                    totals[h] += (each + (i < odd)) * count
        return [Fraction(t, self.boards) for t in totals]

    def odd_chip_effects(self, pot_sizes: Iterable[int]) -> pd.DataFrame:
        """Per pot size in chips (rows), each hand's chips / pot - equity (columns: hands)."""
        equities = self.equities()
        rows = {n: [float(c / n - e) for c, e in zip(self.chips(n), equities)] for n in pot_sizes}
        df = pd.DataFrame.from_dict(rows, orient="index", columns=[format_cards(h) for h in self.hands])
        df.index.name = "pot_chips"
        return df

    def frame(self, pot_chips: int | None = None) -> pd.DataFrame:
        """One row per hand: cards, equity (float and exact), exact counts, chips (the boards,
        units per pot and the board itself are this result's attributes)."""
        equities = self.equities()
        df = pd.DataFrame(
            {
                "hand": [format_cards(h) for h in self.hands],
                "equity": [float(e) for e in equities],
                "equity_exact": equities,
                "pot_units": self.pot_units(),
            }
        )
        df = pd.concat([df, pd.DataFrame(self.counts())], axis=1)
        if pot_chips is not None:
            chips = self.chips(pot_chips)
            df["chips"] = [float(c) for c in chips]
            df["odd_chip_effect"] = [float(c / pot_chips - e) for c, e in zip(chips, equities)]
        return df

    def to_dict(self, pot_chips: int | None = None) -> dict[str, object]:
        """JSON-ready: every figure as exact integers, with the equities also as floats."""
        out: dict[str, object] = {
            "game": "omaha-hi-lo" if self.hilo else "omaha-high",
            "board": format_cards(self.board),
            "dead": format_cards(self.dead),
            "boards": self.boards,
            "units_per_pot": self.units_per_pot,
            "equity_is": "pot_units / (units_per_pot * boards)",
        }
        if self.hilo:
            out["no_low"] = self.no_low
        chips = self.chips(pot_chips) if pot_chips is not None else []
        out["pot_chips"] = pot_chips
        hands = []
        for h, (cards, e, units, counts) in enumerate(
            zip(self.hands, self.equities(), self.pot_units(), self.counts())
        ):
            row: dict[str, object] = {
                "cards": format_cards(cards),
                "equity": float(e),
                "equity_fraction": str(e),
                "pot_units": units,
                "counts": counts,
            }
            if pot_chips is not None:
                row["chips"] = str(chips[h])
                row["odd_chip_effect"] = float(chips[h] / pot_chips - e)
            hands.append(row)
        out["hands"] = hands
        return out


def card_list(spec: CardSpec, what: str, count: int | None = None) -> list[int]:
    """Cards from text (``"As Ah"``), a list of tokens or a list of card ints, checked."""
    if isinstance(spec, str):
        return parse_cards(spec, count, what)
    items = list(spec)
    if not all(isinstance(c, (int, np.integer)) for c in items):
        return parse_cards([str(c) for c in items], count, what)
    cards = [int(c) for c in items]
    for c in cards:
        format_card(c)  # raises on ints outside 0..51
    return parse_cards(format_cards(cards), count, what)


def parse_hands(hands: Iterable[CardSpec]) -> list[list[int]]:
    """2 to 6 hands of 4 cards each (text, tokens or card ints)."""
    parsed = [card_list(h, f"hand {i + 1}", 4) for i, h in enumerate(hands)]
    if not 2 <= len(parsed) <= MAX_HANDS:
        raise InputError(f"equity needs 2 to {MAX_HANDS} hands, got {len(parsed)}")
    return parsed


def compute_equity(
    hands: Iterable[CardSpec],
    board: CardSpec = "",
    dead: CardSpec = "",
    hilo: bool = False,
    threads: int | None = None,
) -> EquityResult:
    """Exact outcome counts over every completion of the board (0, 3, 4 or 5 known cards)."""
    hand_cards = parse_hands(hands)
    board_cards = card_list(board, "board")
    dead_cards = card_list(dead, "dead cards")
    if len(board_cards) not in BOARD_SIZES:
        raise InputError(f"board {format_cards(board_cards)!r}: expected 0, 3, 4 or 5 cards, got {len(board_cards)}")
    disjoint(*hand_cards, board_cards, dead_cards)
    used = {c for group in (*hand_cards, board_cards, dead_cards) for c in group}
    rest = [c for c in range(52) if c not in used]
    draw = 5 - len(board_cards)
    if len(rest) < draw:
        raise InputError(f"only {len(rest)} cards left to deal {draw} board cards")
    t, o = tables(), omaha_tables()
    hist = _omaha.equity_histogram(
        np.array(hand_cards, dtype=np.int8),
        np.array(board_cards + rest, dtype=np.int8),
        len(board_cards),
        hilo,
        t.omaha_pair,
        t.flush,
        o.low_best,
        LOW_BIT.astype(np.uint8),
        check_threads(threads),
    )
    outcomes = _omaha.outcome_sets(hist)
    result = EquityResult(tuple(map(tuple, hand_cards)), tuple(board_cards), tuple(dead_cards), hilo, outcomes)
    if result.boards != comb(len(rest), draw):
        raise AssertionError(f"{result.boards} boards counted, {comb(len(rest), draw)} dealt")
    return result


def equity(
    hands: Iterable[CardSpec],
    board: CardSpec = "",
    dead: CardSpec = "",
    hilo: bool = False,
    pot_chips: int | None = None,
    threads: int | None = None,
) -> pd.DataFrame:
    """Exact equity table, one row per hand (see the module docstring for the columns).

    >>> equity(["As Ah Ks Kh", "7c 8d 9c Td"], board="Tc 9d 2c 3h")[["hand", "equity", "win", "tie"]]
              hand  equity  win  tie
    0  As Ah Ks Kh   0.175    7    0
    1  7c 8d 9c Td   0.825   33    0
    """
    return compute_equity(hands, board, dead, hilo, threads).frame(pot_chips)
