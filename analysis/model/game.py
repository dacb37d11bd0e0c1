"""A game as data: a TOML file that states the cards, the dealer's qualifier, the decision
points and how each wager is settled, validated on load (errors name the file and the key).

>>> g = load_game("ultimate-texas-holdem")
>>> [str(o) for o in g.preflop], g.blind.pays["flush"], g.rules.qualifier_rank
(['check', 'bet 3', 'bet 4'], Fraction(3, 2), 0)
>>> sorted(shipped_games())[:3]
['caribbean-stud', 'casino-holdem', 'casino-omaha']
"""

from __future__ import annotations

import re
import sys
from collections.abc import Mapping
from dataclasses import dataclass, replace
from fractions import Fraction
from pathlib import Path
from typing import Any

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib  # type: ignore[import-not-found, unused-ignore]

from analysis.model.categories import CATEGORIES
from analysis.model.errors import InputError
from analysis.model.hand_paid import HandPaid, hand_paid_from_document, has_hand_paid
from analysis.model.no_board import NoBoard, has_no_board, no_board_from_document
from analysis.model.numbers import as_fraction
from analysis.model.paytable import PayTable
from analysis.model.rules import GAMES_DIR, Rules, game_table, parse_qualifier, rules_from_document
from analysis.model.settlement import ONE_DECISION, Settlement

#: The streets at which a game whose bet ends the betting may ask for a decision, in play order.
STREETS = ("preflop", "flop", "river")
#: The decision points a game file may name: a decision at the turn is for a game whose bets
#: add up (``[betting] bets = "add up"``, Texas Hold'em Bonus).
BETTING_POINTS = ("preflop", "flop", "turn", "river")
#: River options the compiled kernel decides among (ext/streets.pyx MAXOPT).
MAX_RIVER_OPTIONS = 4
#: The most a game file may be (a game is a page of text, not data).
MAX_GAME_FILE = 64 * 1024


@dataclass(frozen=True, order=True)
class Option:
    """One choice at a decision point: fold, check, or a play bet of ``multiple`` antes."""

    kind: str  # "fold", "check" or "bet"
    multiple: int = 0

    def __str__(self) -> str:
        return f"bet {self.multiple}" if self.kind == "bet" else self.kind

    @property
    def risk(self) -> int:
        """Money this option puts in play, in antes (fold -1, check 0): the order in which
        exact ties are broken (the option that risks less wins)."""
        return {"fold": -1, "check": 0}.get(self.kind, self.multiple)


@dataclass(frozen=True)
class Blind:
    """A blind wager of one ante: a winning hand is paid ``pays`` of its category (to 1);
    a win with a category that has no pay pushes; a loss loses it; a tie pushes."""

    pays: Mapping[str, Fraction]


@dataclass(frozen=True)
class GameSpec:
    """Everything a game file states. ``ante_pays`` is None for even money, else the pay
    table of the player's final hand; ``ante_when_no_qualifier`` is ``"push"`` or ``"pays"``
    (paid as a win, the Casino Hold'em rule); ``play_when_no_qualifier`` is ``"push"`` or
    ``"action"`` (settled against the dealer's hand, the Ultimate rule)."""

    name: str
    title: str
    source: str
    rules: Rules
    preflop: tuple[Option, ...]
    flop: tuple[Option, ...]
    river: tuple[Option, ...]
    ante_pays: PayTable | None
    ante_when_no_qualifier: str
    play_when_no_qualifier: str
    blind: Blind | None
    #: a game without a board (Three Card Poker): its ranking, qualifier, ante bonus and
    #: hand bets; ``rules`` then holds only its name and deck
    no_board: NoBoard | None = None
    #: a game without a dealer (Mississippi Stud, Let It Ride): its streets, bets and pay
    #: table; ``rules`` then holds only its name and deck
    hand_paid: HandPaid | None = None
    #: the options at the turn, for a game whose bets add up (``adds``): each street's bet is
    #: added to those in action and the betting goes on to the showdown
    turn: tuple[Option, ...] = ()
    adds: bool = False
    #: the play bet's pay table of the player's final hand (None: even money), stated by a
    #: game without a board (Caribbean Stud's call bet)
    play_pays: PayTable | None = None

    @property
    def streets(self) -> dict[str, tuple[Option, ...]]:
        """The decision points the game has, in play order."""
        points = (self.preflop, self.flop, self.turn, self.river)
        return {s: opts for s, opts in zip(BETTING_POINTS, points) if opts}

    @property
    def settlement(self) -> Settlement:
        """How the file's wagers settle (:mod:`analysis.model.settlement`)."""
        return Settlement(
            ante=self.ante_pays,
            ante_when_no_qualifier=self.ante_when_no_qualifier,
            play=self.play_pays,
            play_when_no_qualifier=self.play_when_no_qualifier,
            blind=None if self.blind is None else self.blind.pays,
            ante_bonus=self.no_board.ante_bonus if self.no_board is not None and self.no_board.ante_bonus else None,
            ties="push" if self.no_board is None else self.no_board.ties,
        )

    @property
    def fold_value(self) -> Fraction:
        """What a fold nets, in antes: the ante and the blind are lost."""
        return self.settlement.fold

    def showdown_values(self, multiple: int) -> list[Fraction]:
        """Net result in antes of a showdown with a play bet of ``multiple`` antes, for each
        (player category, dealer result) in the order of the multi-street counts."""
        return self.settlement.showdown_values(multiple)

    def with_blind(self, pays: Mapping[str, object]) -> GameSpec:
        """This game with some blind pays changed (a designer's what-if)."""
        if self.blind is None:
            raise InputError(f"{self.name} has no blind wager")
        changed = dict(self.blind.pays) | _pays(dict(pays), f"{self.name}: blind pays")
        return replace(self, name=f"{self.name}*", blind=Blind({c: p for c, p in changed.items() if p}))

    def with_qualifier(self, qualifier: str) -> GameSpec:
        """This game with another dealer qualifier (``"7"``, ``"none"``)."""
        rules = replace(self.rules, qualifier_rank=parse_qualifier(qualifier))
        return replace(self, name=f"{self.name}*", rules=rules)

    @property
    def single_decision(self) -> bool:
        """The one rule of which games the one-decision engine plays: one decision, a fold
        or a call at the flop, an ante pay table and the family's settlement (the ante paid,
        the call pushed, when the dealer does not qualify; no blind), which its counts
        settle. Every other game file is solved by the street engine."""
        shape = not self.preflop and not self.river and len(self.flop) == 2 and self.flop[0].kind == "fold"
        return shape and self.ante_pays is not None and replace(self.settlement, ante=None) == ONE_DECISION


def shipped_games() -> dict[str, Path]:
    """The game files that ship with the package, by name."""
    return {p.stem: p for p in sorted(GAMES_DIR.glob("*.toml"), key=lambda p: p.stem)}


def single_decision_rules() -> dict[str, Rules]:
    """The counting rules of the shipped one-decision games, by name, Casino Omaha first."""
    games = [load_game(name) for name in sorted(shipped_games(), key=lambda n: n != "casino-omaha")]
    return {g.name: g.rules for g in games if g.single_decision}


def game_title(name: str) -> str:
    """A shipped game's title ("Casino Omaha Poker"), else the name itself."""
    return load_game(name).title if name in shipped_games() else name


def load_game(spec: str | Path) -> GameSpec:
    """A game from a shipped name (``"ultimate-texas-holdem"``) or a TOML file."""
    if not isinstance(spec, (str, Path)):
        raise InputError(f"game: give a shipped game's name or a .toml file, not {type(spec).__name__}")
    shipped = shipped_games()
    path = shipped.get(str(spec)) if isinstance(spec, str) and not Path(spec).exists() else Path(spec)
    if path is None:
        raise InputError(f"unknown game {str(spec)[:60]!r}; choose one of: {', '.join(shipped)} or a .toml file")
    where = path.name if path.parent == GAMES_DIR else str(path)
    try:
        if path.stat().st_size > MAX_GAME_FILE:
            raise InputError(f"{where}: a game file is at most {MAX_GAME_FILE // 1024} KiB")
        doc = tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as e:
        raise InputError(f"{where}: not a valid TOML file: {e}") from None
    except UnicodeDecodeError:
        raise InputError(f"{where}: not a text file (UTF-8)") from None
    return game_from_document(doc, where)


def game_from_document(doc: Mapping[str, Any], where: str = "game") -> GameSpec:
    """A game from a parsed TOML document; every key checked, errors name the key."""
    if has_hand_paid(doc):
        return _hand_paid_game(doc, where)
    no_board = has_no_board(doc)
    known = {"name", "title", "cards", "dealer", "betting", "ante", "blind", "play"} | (
        {"hand_bets"} if no_board else set()
    )
    unknown = sorted(set(doc) - known)
    if unknown:
        raise InputError(f"{where}: unknown keys: {', '.join(unknown)} (known: {', '.join(sorted(known))})")
    rules, board_less = no_board_from_document(doc, where) if no_board else (rules_from_document(doc, where), None)
    title = doc.get("title", rules.name)
    if not isinstance(title, str) or len(title) > 80:
        raise InputError(f"{where}: 'title' must be text of at most 80 characters")
    betting = doc.get("betting")
    if not isinstance(betting, dict) or not betting:
        raise InputError(f"{where}: the table [betting] is missing (decision points: {', '.join(STREETS)})")
    keys = {*BETTING_POINTS, "bets"}
    if set(betting) - keys:
        raise InputError(
            f"{where}: [betting] knows only {', '.join(sorted(keys))}, not {', '.join(sorted(set(betting) - keys))}"
        )
    adds = _choice(betting.get("bets", "end the betting"), ("end the betting", "add up"), f"{where}: [betting] bets")
    adds_up = adds == "add up"
    streets = {s: _options(betting.get(s, []), f"{where}: [betting] {s}") for s in BETTING_POINTS}
    if adds_up:
        _check_adding(streets, doc, where)
    elif streets["turn"]:
        raise InputError(
            f'{where}: [betting] turn: a decision at the turn needs bets = "add up" (Texas Hold\'em Bonus)'
        )
    _check_structure(streets, where)
    if board_less is not None:
        _check_one_decision(streets, where)
    ante_keys = {"pays", "dealer_not_qualifying"} | ({"bonus"} if no_board else set())
    ante = game_table(doc, "ante", where, ante_keys, required=False)
    ante_pays = _pay_table(ante.get("pays", "even"), f"{where}: [ante] pays")
    ante_nq = _choice(
        ante.get("dealer_not_qualifying", "push"), ("push", "pays"), f"{where}: [ante] dealer_not_qualifying"
    )
    play = game_table(doc, "play", where, {"dealer_not_qualifying"} | ({"pays"} if no_board else set()), required=False)
    play_nq = _choice(
        play.get("dealer_not_qualifying", "push"), ("push", "action"), f"{where}: [play] dealer_not_qualifying"
    )
    play_pays = _pay_table(play.get("pays", "even"), f"{where}: [play] pays", "play")
    blind = None
    if "blind" in doc:
        section = game_table(doc, "blind", where, {"pays"})
        blind = Blind(_pays(section.get("pays"), f"{where}: [blind] pays"))
    game = GameSpec(
        name=rules.name,
        title=title,
        source=where,
        rules=rules,
        preflop=streets["preflop"],
        flop=streets["flop"],
        river=streets["river"],
        ante_pays=ante_pays,
        ante_when_no_qualifier=ante_nq,
        play_when_no_qualifier=play_nq,
        blind=blind,
        no_board=board_less,
        turn=streets["turn"],
        adds=adds_up,
        play_pays=play_pays,
    )
    # the call bet of a one-decision game is what the return engine's Rules carry
    return replace(game, rules=replace(rules, call_multiple=game.flop[1].multiple)) if game.single_decision else game


def _hand_paid_game(doc: Mapping[str, Any], where: str) -> GameSpec:
    """A game without a dealer: its own [cards], [wagers], [betting] and [pays]."""
    rules, hand_paid = hand_paid_from_document(doc, where)
    known = {"name", "title", "cards", "wagers", "betting", "pays", "hand_bets"}
    unknown = sorted(set(doc) - known)
    if unknown:
        raise InputError(f"{where}: unknown keys: {', '.join(unknown)} (known: {', '.join(sorted(known))})")
    title = doc.get("title", rules.name)
    if not isinstance(title, str) or len(title) > 80:
        raise InputError(f"{where}: 'title' must be text of at most 80 characters")
    return GameSpec(rules.name, title, where, rules, (), (), (), None, "push", "push", None, hand_paid=hand_paid)


def _options(value: object, where: str) -> tuple[Option, ...]:
    if not isinstance(value, list) or len(value) > 6:
        raise InputError(f"{where}: a list of at most 6 options ('fold', 'check', 'bet M' with M = 1..9)")
    out = []
    for item in value:
        text = str(item).strip()[:20]
        match = re.fullmatch(r"bet ([1-9])", text)
        if match:
            out.append(Option("bet", int(match.group(1))))
        elif text in ("fold", "check"):
            out.append(Option(text))
        else:
            raise InputError(f"{where}: option {text!r}: use 'fold', 'check' or 'bet M' (M = 1..9 antes)")
    if len(set(out)) != len(out):
        raise InputError(f"{where}: an option appears twice")
    return tuple(sorted(out, key=lambda o: o.risk))


def _check_structure(streets: Mapping[str, tuple[Option, ...]], where: str) -> None:
    """What the exact engine plays: betting ends with a bet or a fold, a check moves to the
    next decision point (or to the showdown after the last), and each point has a choice."""
    if not any(streets.values()):
        raise InputError(f"{where}: [betting] names no decision point")
    for street, opts in streets.items():
        if opts and len(opts) < 2:
            raise InputError(f"{where}: [betting] {street}: a decision point needs at least two options")
    if len(streets["river"]) > MAX_RIVER_OPTIONS:
        raise InputError(
            f"{where}: [betting] river: at most {MAX_RIVER_OPTIONS} options (the kernel decides among them)"
        )


def _check_adding(streets: Mapping[str, tuple[Option, ...]], doc: Mapping[str, Any], where: str) -> None:
    """What the exact engine of bets that add up plays (Texas Hold'em Bonus): a fold or a bet
    before the flop, a check or a bet at the flop and at the turn, no river decision, a dealer
    who always qualifies and no blind."""
    pre, flop, turn = streets["preflop"], streets["flop"], streets["turn"]
    if not pre or pre[0].kind != "fold" or any(o.kind != "bet" for o in pre[1:]):
        raise InputError(f"{where}: [betting] preflop: 'fold' and one or more 'bet M' when bets add up")
    for name, opts in (("flop", flop), ("turn", turn)):
        if opts and (opts[0].kind != "check" or any(o.kind != "bet" for o in opts[1:])):
            raise InputError(f"{where}: [betting] {name}: 'check' and one or more 'bet M' when bets add up")
    if streets["river"]:
        raise InputError(f"{where}: [betting] river: no decision after the river when bets add up")
    dealer = doc.get("dealer", {})
    if not isinstance(dealer, dict) or str(dealer.get("qualifier", "")).strip().lower() != "none":
        raise InputError(f'{where}: [dealer] qualifier = "none" when bets add up (the dealer always qualifies)')
    if "blind" in doc:
        raise InputError(f"{where}: [blind]: not with bets that add up")


def _check_one_decision(streets: Mapping[str, tuple[Option, ...]], where: str) -> None:
    """A game without a board decides once, on the player's hand (its pre-flop: before any
    other card is seen), to fold or to make a play bet."""
    if streets["flop"] or streets["river"] or any(o.kind == "check" for o in streets["preflop"]):
        raise InputError(
            f"{where}: [betting] a game without a board decides once: preflop = ['fold', 'bet M', ...] (no check)"
        )


def _choice(value: object, allowed: tuple[str, ...], where: str) -> str:
    if value not in allowed:
        raise InputError(f"{where}: one of {', '.join(allowed)}, not {str(value)[:40]!r}")
    return str(value)


def _pay_table(value: object, where: str, name: str = "ante") -> PayTable | None:
    if value == "even":
        return None
    if isinstance(value, dict):
        pays: dict[str, Fraction] = {c: Fraction(0) for c in CATEGORIES}
        return PayTable.from_mapping(pays | _pays(value, where), name=name)
    if isinstance(value, str):
        try:
            return PayTable.load(value)
        except InputError as e:
            raise InputError(f"{where}: {e}") from None
    raise InputError(f"{where}: 'even', a pay table's name or file, or {{category = pays}}")


def _pays(value: object, where: str) -> dict[str, Fraction]:
    if not isinstance(value, dict) or not value:
        raise InputError(f"{where}: a table {{category = pays to 1}} of the paid categories")
    out = {}
    for category, pay in value.items():
        if category not in CATEGORIES:
            raise InputError(f"{where}: unknown category {str(category)[:40]!r} (known: {', '.join(CATEGORIES)})")
        number = as_fraction(pay)
        if number < 0 or number > 1_000_000:
            raise InputError(f"{where}: {category}: a pay is between 0 and 1,000,000 to 1, not {pay}")
        out[category] = number
    return out
