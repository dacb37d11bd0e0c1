"""Game rules: a small immutable description of one game of the family.

>>> r = preset("casino-omaha")
>>> r.hole_cards, r.must_use, r.qualifier_rank, r.call_multiple
(3, 2, 5, 2)
>>> r.total_combinations == comb(52, 3) * comb(49, 3) * comb(46, 2) * comb(44, 3)
True
>>> replace(r, qualifier_rank=None, call_multiple=3).variant
'qualifier-none-call-3x'
>>> parse_qualifier("9s"), parse_qualifier("none"), parse_qualifier("A")
(7, None, 12)
>>> preset("baccarat")
Traceback (most recent call last):
...
analysis.model.errors.InputError: unknown game 'baccarat'; choose one of: casino-omaha, casino-holdem
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterator, Mapping
from dataclasses import asdict, dataclass, replace
from math import comb
from pathlib import Path
from typing import Any, Protocol

from analysis.model.cards import RANKS, SUITS
from analysis.model.errors import InputError
from analysis.model.numbers import shown

#: Which bet a pay table pays: the ante (AnteWin, the Casino Omaha rule) or the call
#: (the Caribbean convention); see :mod:`analysis.model.payoffs`.
PAYS_ON = ("ante", "call")


@dataclass(frozen=True)
class Rules:
    """One game: hole cards per hand, how many must be used, the dealer's qualifier.

    ``ranks`` and ``suits`` select the deck (all 52 cards by default); small decks make
    naive brute-force checks cheap.
    """

    name: str
    hole_cards: int
    must_use: int | None  # exactly this many hole cards (Omaha); None: best 5 of all
    qualifier_rank: int | None  # the dealer qualifies with a pair of this rank (0 = deuces) or better; None: always
    call_multiple: int = 2  # the call bet, in antes (pay-side only: the counts do not depend on it)
    ranks: tuple[int, ...] = tuple(range(13))
    suits: tuple[int, ...] = (0, 1, 2, 3)

    def __post_init__(self) -> None:
        if self.hole_cards not in (2, 3):
            raise InputError(f"{self.name}: the enumerator handles 2 or 3 hole cards, not {self.hole_cards}")
        if self.must_use not in (None, 2):
            raise InputError(f"{self.name}: must_use is 2 (Omaha style) or None (best 5 of all)")
        if self.hole_cards == 3 and self.must_use is None:
            raise InputError(f"{self.name}: 3 hole cards are played Omaha style (must_use=2)")
        if self.qualifier_rank is not None and (
            isinstance(self.qualifier_rank, bool) or self.qualifier_rank not in range(13)
        ):
            raise InputError(f"{self.name}: qualifier rank must be 0..12 (deuces to aces) or None (no qualifier)")
        if isinstance(self.call_multiple, bool) or not isinstance(self.call_multiple, int) or self.call_multiple < 1:
            raise InputError(
                f"{self.name}: the call bet is a whole number of antes (at least 1), not {self.call_multiple!r}"
            )
        if len(self.deck) < 5 + 2 * self.hole_cards + 1:
            raise InputError(f"{self.name}: a deck of {len(self.deck)} cards is too small")

    @property
    def omaha(self) -> bool:
        return self.must_use == 2

    @property
    def deck(self) -> tuple[int, ...]:
        return tuple(sorted(r * 4 + s for r in self.ranks for s in self.suits))

    @property
    def qualifying_pair(self) -> int:
        """Rank of the smallest pair that qualifies the dealer (0, deuces, with no qualifier)."""
        return 0 if self.qualifier_rank is None else self.qualifier_rank

    @property
    def qualifier_phrase(self) -> str:
        """``"the dealer qualifies with a pair of 7s or better"`` or ``"the dealer always qualifies"``."""
        if self.qualifier_rank is None:
            return "the dealer always qualifies"
        return f"the dealer qualifies with a pair of {RANKS[self.qualifier_rank]}s or better"

    @property
    def variant(self) -> str:
        """What differs from the preset of the same name, for file names: ``""`` for the
        preset itself, else e.g. ``"qualifier-9s"``, ``"call-3x"``, ``"qualifier-none-call-1x"``."""
        base = PRESETS.get(self.name)
        if base is None:
            return ""
        parts = []
        if self.qualifier_rank != base.qualifier_rank:
            parts.append(f"qualifier-{qualifier_text(self.qualifier_rank)}")
        if self.call_multiple != base.call_multiple:
            parts.append(f"call-{self.call_multiple}x")
        return "-".join(parts)

    @property
    def states(self) -> int:
        """Decision states: (player hole cards, flop) pairs."""
        n, k = len(self.deck), self.hole_cards
        return comb(n, k) * comb(n - k, 3)

    @property
    def dealer_holdings(self) -> int:
        n, k = len(self.deck), self.hole_cards
        return comb(n - k - 5, k)

    @property
    def completions(self) -> int:
        """Deals per decision state: turn and river, then the dealer's cards."""
        n, k = len(self.deck), self.hole_cards
        return comb(n - k - 3, 2) * self.dealer_holdings

    @property
    def total_combinations(self) -> int:
        return self.states * self.completions

    def small_deck(self, ranks: str, suits: str = SUITS) -> Rules:
        """The same game on a deck of the given ranks and suits, e.g. ``("A2345", "cd")``."""
        return replace(
            self,
            name=f"{self.name}[{ranks}/{suits}]",
            ranks=_letters(ranks, RANKS, "ranks"),
            suits=_letters(suits, SUITS, "suits"),
        )

    def describe(self) -> dict[str, object]:
        d = asdict(self)
        d["qualifier"] = (
            "none (the dealer always qualifies)"
            if self.qualifier_rank is None
            else f"pair of {RANKS[self.qualifier_rank]}s or better"
        )
        d["deck_size"] = len(self.deck)
        return d

    def fingerprint(self) -> str:
        """Short hash of everything the enumeration depends on."""
        payload = {k: v for k, v in asdict(self).items() if k not in ("name", "call_multiple")}
        return hashlib.sha256(json.dumps(payload, sort_keys=True).encode()).hexdigest()[:10]


class CountedGame(Protocol):
    """What a return table is counted over: a game's :class:`Rules`, or the same game with
    more states (one dealer card seen: :class:`analysis.protection.exposure.ExposedGame`)."""

    @property
    def call_multiple(self) -> int: ...

    @property
    def states(self) -> int:
        """Decision states."""
        ...

    @property
    def completions(self) -> int:
        """Deals per decision state."""
        ...

    @property
    def total_combinations(self) -> int: ...


#: The game files shipped with the package (one TOML file per game, see analysis.model.game).
GAMES_DIR = Path(__file__).parent / "games"

#: The hand-making rules a game file may name, and the hole cards each must use.
HANDS = {"best-five": None, "two-hole-three-board": 2}


def rules_from_document(doc: Mapping[str, Any], where: str, call_multiple: int = 2) -> Rules:
    """The counting rules of a game file's ``name``, ``[cards]`` and ``[dealer]`` tables;
    errors name the file and the key."""
    name = doc.get("name")
    if not isinstance(name, str) or not re.fullmatch(r"[a-z0-9][a-z0-9-]{0,39}", name):
        raise InputError(f"{where}: 'name' must be a lower-case name of letters, digits and '-' (at most 40)")
    cards = game_table(doc, "cards", where, {"hole", "hand", "ranks", "suits"})
    hole = cards.get("hole")
    if isinstance(hole, bool) or hole not in (2, 3):
        raise InputError(f"{where}: [cards] hole must be 2 or 3 (the hole cards of player and dealer), not {hole!r}")
    hand = cards.get("hand")
    if hand not in HANDS:
        raise InputError(f"{where}: [cards] hand must be one of {', '.join(HANDS)}, not {hand!r}")
    ranks, suits = cards.get("ranks", RANKS), cards.get("suits", SUITS)
    for key, text, allowed in (("ranks", ranks, RANKS), ("suits", suits, SUITS)):
        if not isinstance(text, str) or not text or set(text) - set(allowed) or len(set(text)) != len(text):
            raise InputError(f"{where}: [cards] {key} must be distinct letters of {allowed!r}, not {text!r}")
    dealer = game_table(doc, "dealer", where, {"qualifier"})
    qualifier = dealer.get("qualifier")
    if not isinstance(qualifier, str):
        raise InputError(f"{where}: [dealer] qualifier must be a rank (a pair of it or better) or 'none'")
    try:
        rules = Rules(name, hole, HANDS[hand], parse_qualifier(qualifier), call_multiple)
        return rules if (ranks, suits) == (RANKS, SUITS) else replace(rules.small_deck(ranks, suits), name=name)
    except InputError as e:
        raise InputError(f"{where}: {e}") from None


def game_table(
    doc: Mapping[str, Any], key: str, where: str, known: set[str], required: bool = True
) -> Mapping[str, Any]:
    """A table of a game file (an optional one missing is empty); a key it does not know is
    refused, not ignored: a misspelt key would solve another game than the file meant."""
    value = doc.get(key, None if required else {})
    if value is None:
        raise InputError(f"{where}: the table [{key}] is missing")
    if not isinstance(value, dict):
        raise InputError(f"{where}: [{key}] must be a table")
    unknown = sorted(set(value) - known)
    if unknown:
        raise InputError(
            f"{where}: [{key}] has unknown keys {', '.join(shown(k) for k in unknown)} "
            f"(known: {', '.join(sorted(known))})"
        )
    return value


def qualifier_text(rank: int | None) -> str:
    """``"none"`` or the pair's rank with an s: ``"7s"``, ``"As"``."""
    return "none" if rank is None else f"{RANKS[rank]}s"


def parse_qualifier(text: str) -> int | None:
    """The dealer's qualifier from text: a rank (``7``, ``T``, ``A``, also ``7s`` or
    ``10``) for a pair of that rank or better, or ``none`` (the dealer always qualifies)."""
    t = text.strip().upper()
    if t == "NONE":
        return None
    rank = t.removesuffix("S").replace("10", "T")
    if len(rank) != 1 or rank not in RANKS.upper():
        raise InputError(f"qualifier {text!r}: give a rank 2..9, T, J, Q, K, A (a pair of it or better) or 'none'")
    return RANKS.upper().index(rank)


def _letters(text: object, known: str, what: str) -> tuple[int, ...]:
    """The sorted indexes in ``known`` of the letters of ``text``, each named once."""
    if not isinstance(text, str):
        raise InputError(f"small deck: {what} are a text of letters from {known!r}, not {shown(text)}")
    unknown = sorted({c for c in text if c not in known})
    if unknown:
        raise InputError(f"small deck: unknown {what} {shown(''.join(unknown))} (known: {known})")
    twice = sorted({c for c in text if text.count(c) > 1}, key=known.index)
    if twice:
        raise InputError(f"small deck: {what} {''.join(twice)} named more than once in {shown(text)}")
    return tuple(sorted(known.index(c) for c in text))


def as_rules(game: object, what: str = "game") -> Rules:
    """The rules of a game given by name (``"casino-omaha"``) or as :class:`Rules`."""
    if isinstance(game, Rules):
        return game
    if isinstance(game, str):
        return preset(game)
    raise InputError(
        f"{what}: {shown(game)} ({type(game).__name__}) is not a game: give a name ({', '.join(PRESETS)}) or Rules"
    )


def preset(name: str) -> Rules:
    try:
        return PRESETS[name]
    except KeyError:
        raise InputError(f"unknown game {name!r}; choose one of: {', '.join(PRESETS)}") from None


class _Presets(Mapping[str, Rules]):
    """The shipped games the one-decision engine plays, by name (Casino Omaha first), read
    from their game files on first use: :attr:`analysis.model.game.GameSpec.single_decision`
    is the one rule that decides which (game.py imports this module, hence the late import)."""

    def __init__(self) -> None:
        self._rules: dict[str, Rules] | None = None

    def _load(self) -> dict[str, Rules]:
        if self._rules is None:
            from analysis.model.game import single_decision_rules

            self._rules = single_decision_rules()
        return self._rules

    def __getitem__(self, name: str) -> Rules:
        return self._load()[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._load())

    def __len__(self) -> int:
        return len(self._load())


#: The shipped single-decision games, by name (Casino Omaha first): what the return engine plays.
PRESETS: Mapping[str, Rules] = _Presets()
