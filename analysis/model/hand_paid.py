"""A game without a dealer (Mississippi Stud, Let It Ride): the player's five cards are his
hole cards and community cards turned street by street; before each street he decides,
and every unit still in action is paid on his final five cards by one pay table. What its
game file states, validated on load (errors name the file and the key):

- ``[cards] hole`` and ``streets``: the community cards turned at each street, in order
  (hole + streets = 5 cards); ``ranks``/``suits`` a small deck;
- ``[wagers] start``: the units in action when the cards are dealt (an ante of 1; Let It
  Ride's three equal bets, 3) and ``unit``, their name in words;
- ``[betting] before``: one list of options per street, decided before its cards are
  turned (an empty list: no decision there): ``fold`` (every unit in action is lost),
  ``bet M`` (M more units, added to those in action: the betting goes on), ``let it ride``
  (nothing changes) and ``pull back`` (one unit of the starting bets taken back);
- ``[pays]``: per unit in action, by the final hand: a category (``flush = 6``) or a pair
  by its rank (``"pair J-A" = 1``, ``"pair 6-10" = "push"``); ``"push"`` returns the
  units, any hand not named loses them;
- ``[hand_bets.NAME]``: a bet on the player's first ``cards`` cards alone (3, 4 or 5; his
  hole cards by default), ranked as hands of that many cards (three cards: a straight over
  a flush), its ``title`` and ``pays`` (``mini_royal`` for an ace, king and queen of a suit).

>>> doc = {"name": "t", "cards": {"hole": 2, "streets": [1, 1, 1]}, "wagers": {"start": 1},
...        "betting": {"before": [["fold", "bet 1"], [], ["fold", "bet 2"]]},
...        "pays": {"flush": 6, "pair J-A": 1, "pair 6-10": "push"}}
>>> rules, hp = hand_paid_from_document(doc, "t.toml")
>>> [str(m) for m in hp.before[2]], hp.lines[-1].name, hp.lines[-1].net, hp.stakes
(['fold', 'bet 2'], 'pair 6-10', Fraction(0, 1), ((1,), (2,), (2,), (4,)))
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any

from analysis.model.cards import RANKS, SUITS
from analysis.model.categories import CATEGORIES
from analysis.model.errors import InputError
from analysis.model.no_board import RANKINGS as NO_BOARD_RANKINGS
from analysis.model.no_board import HandBet, hand_bet_of, hand_bet_tables
from analysis.model.numbers import as_fraction
from analysis.model.pay_lines import PayLine, best_first, check_pairs, pay_line
from analysis.model.rules import Rules, game_table

#: The most units a hand may have in action (a game is a page of text, not data).
MAX_STAKE = 60


@dataclass(frozen=True, order=True)
class Move:
    """One option before a street: ``kind`` is ``fold``, ``bet`` (``units`` more), ``ride``
    (let it ride) or ``pull`` (pull back one unit)."""

    kind: str
    units: int = 0

    def __str__(self) -> str:
        return {"bet": f"bet {self.units}", "ride": "let it ride", "pull": "pull back"}.get(self.kind, self.kind)

    @property
    def change(self) -> int:
        """Units this option adds to those in action (a fold: none; it ends the hand)."""
        return {"bet": self.units, "pull": -1}.get(self.kind, 0)

    @property
    def risk(self) -> int:
        """The order in which exact ties are broken: the option that risks less wins."""
        return -(10**6) if self.kind == "fold" else self.change


#: What happens at a street where the file names no decision: the hand rides on.
RIDE = Move("ride")


#: The ranking of a bet on the player's first cards, by how many cards it is on.
FIRST_CARDS = {3: "three-card", 4: "four-card", 5: "five-card"}


@dataclass(frozen=True)
class FirstCardsBet:
    """A bet on the player's first ``cards`` cards alone (Let It Ride's 3-Card Bonus on his
    three), ranked as hands of that many cards, settled whatever he decides."""

    bet: HandBet
    cards: int

    @property
    def ranking(self) -> str:
        return FIRST_CARDS[self.cards]


@dataclass(frozen=True)
class HandPaid:
    """How a game without a dealer deals, decides and pays."""

    hole: int
    streets: tuple[int, ...]
    start: int
    unit: str
    before: tuple[tuple[Move, ...], ...]
    lines: tuple[PayLine, ...]  # best first
    hand_bets: Mapping[str, FirstCardsBet] = field(default_factory=dict)

    @property
    def seen(self) -> tuple[int, ...]:
        """Cards the player holds at each decision point (before that street is turned)."""
        return tuple(self.hole + sum(self.streets[:i]) for i in range(len(self.streets)))

    def options(self, point: int) -> tuple[Move, ...]:
        """The options at a decision point; where the file names none, the hand rides on."""
        return self.before[point] or (RIDE,)

    def units_after(self, path: tuple[int, ...]) -> int:
        """Units in action after taking option ``path[j]`` at each decision point ``j``."""
        return self.start + sum(self.options(j)[m].change for j, m in enumerate(path))

    def net(self, units: int, line: str) -> Fraction:
        """The net result of ``units`` in action on a final hand of pay line ``line``
        (the name of a line; any other text loses; ``""`` a fold: every unit lost)."""
        if not line:
            return Fraction(-units)
        return units * next((p.net for p in self.lines if p.name == line), Fraction(-1))

    @property
    def stakes(self) -> tuple[tuple[int, ...], ...]:
        """The units that may be in action at each decision point, and (last) at the end."""
        out: list[tuple[int, ...]] = [(self.start,)]
        for moves in self.before:
            changes = {m.change for m in moves if m.kind != "fold"} or {0}
            out.append(tuple(sorted({s + c for s in out[-1] for c in changes})))
        return tuple(out)


def has_hand_paid(doc: Mapping[str, Any]) -> bool:
    """Whether a game file states a game without a dealer (a ``[pays]`` table)."""
    return "pays" in doc


def hand_paid_from_document(doc: Mapping[str, Any], where: str) -> tuple[Rules, HandPaid]:
    """The deck (as :class:`Rules`, its name and cards) and the rest of a game without a dealer."""
    name = doc.get("name")
    if not isinstance(name, str) or not re.fullmatch(r"[a-z0-9][a-z0-9-]{0,39}", name):
        raise InputError(f"{where}: 'name' must be a lower-case name of letters, digits and '-' (at most 40)")
    if "dealer" in doc:
        raise InputError(f"{where}: a game paid on a [pays] table has no [dealer]")
    cards = game_table(doc, "cards", where, {"hole", "streets", "ranks", "suits"})
    hole, streets = cards.get("hole"), cards.get("streets")
    if not isinstance(hole, int) or isinstance(hole, bool) or not 1 <= hole <= 5:
        raise InputError(f"{where}: [cards] hole is 1 to 5 cards, not {hole!r}")
    if (
        not isinstance(streets, list)
        or not streets
        or any(not isinstance(n, int) or isinstance(n, bool) or n < 1 for n in streets)
        or hole + sum(streets) != 5
    ):
        raise InputError(f"{where}: [cards] streets: the cards turned at each street, with the hole cards 5 in all")
    ranks, suits = cards.get("ranks", RANKS), cards.get("suits", SUITS)
    for key, text, allowed in (("ranks", ranks, RANKS), ("suits", suits, SUITS)):
        if not isinstance(text, str) or not text or set(text) - set(allowed) or len(set(text)) != len(text):
            raise InputError(f"{where}: [cards] {key} must be distinct letters of {allowed!r}, not {text!r}")
    if len(ranks) * len(suits) < 12:
        raise InputError(f"{where}: [cards] a deck of at least 12 cards, not {len(ranks) * len(suits)}")
    wagers = game_table(doc, "wagers", where, {"start", "unit"})
    start, unit = wagers.get("start", 1), wagers.get("unit", "ante")
    if not isinstance(start, int) or isinstance(start, bool) or not 1 <= start <= 9:
        raise InputError(f"{where}: [wagers] start: the units in action at the deal, 1 to 9, not {start!r}")
    if not isinstance(unit, str) or not re.fullmatch(r"[a-z ]{1,20}", unit):
        raise InputError(f'{where}: [wagers] unit: the unit\'s name in lower-case words ("ante"), not {unit!r}')
    betting = game_table(doc, "betting", where, {"before"})
    before = betting.get("before")
    if not isinstance(before, list) or len(before) != len(streets):
        raise InputError(f"{where}: [betting] before: one list of options per street ({len(streets)})")
    moves = tuple(_moves(opts, f"{where}: [betting] before street {i + 1}") for i, opts in enumerate(before))
    if not any(moves):
        raise InputError(f"{where}: [betting] names no decision")
    pulls = sum(any(m.kind == "pull" for m in ms) for ms in moves)
    if start - pulls < 1:
        raise InputError(f"{where}: [betting] pulls back {pulls} of {start} starting units: one must stay in action")
    if start + sum(max((m.change for m in ms), default=0) for ms in moves) > MAX_STAKE:
        raise InputError(f"{where}: [betting] at most {MAX_STAKE} units in action")
    lines = _pay_lines(doc.get("pays"), f"{where}: [pays]")
    rules = Rules(name, 2, None, None, 1)
    if (ranks, suits) != (RANKS, SUITS):
        rules = replace(rules.small_deck(ranks, suits), name=name)
    hand_bets = {}
    for key, bet, at in hand_bet_tables(doc, where):
        cards = bet.get("cards", hole)
        if cards not in FIRST_CARDS or isinstance(cards, bool):
            raise InputError(f"{at} cards: the player's first 3, 4 or 5 cards the bet is on, not {str(cards)[:20]!r}")
        categories = NO_BOARD_RANKINGS[FIRST_CARDS[cards]][1]
        hand_bets[key] = FirstCardsBet(hand_bet_of(bet, categories, at, frozenset({"cards"})), cards)
    return rules, HandPaid(hole, tuple(streets), start, unit, moves, lines, hand_bets)


def _moves(value: object, where: str) -> tuple[Move, ...]:
    if not isinstance(value, list) or len(value) > 6:
        raise InputError(f"{where}: a list of at most 6 options ('fold', 'bet M', 'let it ride', 'pull back')")
    out = []
    for item in value:
        text = str(item).strip()[:20]
        match = re.fullmatch(r"bet ([1-9])", text)
        if match:
            out.append(Move("bet", int(match.group(1))))
        elif text in ("fold", "let it ride", "pull back"):
            out.append(Move({"let it ride": "ride", "pull back": "pull"}.get(text, text)))
        else:
            raise InputError(f"{where}: option {text!r}: use 'fold', 'bet M' (M = 1..9), 'let it ride' or 'pull back'")
    if len(set(out)) != len(out):
        raise InputError(f"{where}: an option appears twice")
    if len(out) == 1:
        raise InputError(f"{where}: a decision needs at least two options (or none: [])")
    return tuple(sorted(out, key=lambda m: m.risk))


def _pay_lines(value: object, where: str) -> tuple[PayLine, ...]:
    if not isinstance(value, dict) or not value or len(value) > 20:
        raise InputError(f'{where}: a table of at most 20 lines {{category or "pair R-R" = pays to 1 or "push"}}')
    lines = []
    for key, pay in value.items():
        text = str(key)[:30]
        if pay == "push":
            net = Fraction(0)
        else:
            net = as_fraction(pay)
            if net <= 0 or net > 100_000:
                raise InputError(f"{where}: {text}: pays 'push' or more than 0 and at most 100,000 to 1, not {pay!r}")
        lines.append(pay_line(text, net, CATEGORIES, where))
    check_pairs(lines, where)
    return best_first(lines)
