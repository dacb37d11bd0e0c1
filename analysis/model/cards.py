"""Cards: ints 0..51 inside (``rank * 4 + suit``), text like ``"As Td 7h"`` outside.

Ranks 0..12 are 2..A; suits 0..3 are clubs, diamonds, hearts, spades.

>>> parse_cards("As Td 7h")
[51, 33, 22]
>>> format_cards([51, 33, 22])
'As Td 7h'
>>> parse_cards("As As")
Traceback (most recent call last):
...
analysis.model.errors.InputError: duplicate card 'As' in 'As As'
"""

from __future__ import annotations

from collections.abc import Iterable

from analysis.model.errors import InputError

RANKS = "23456789TJQKA"
SUITS = "cdhs"
_SUIT_SYMBOLS = {"♣": "c", "♦": "d", "♥": "h", "♠": "s"}


def card(rank: int, suit: int) -> int:
    return rank * 4 + suit


def rank_of(c: int) -> int:
    return c >> 2


def suit_of(c: int) -> int:
    return c & 3


def parse_card(token: str) -> int:
    """One card from text such as ``"As"``, ``"td"``, ``"10h"`` or ``"Q♠"``."""
    text = token.strip()
    if text[:2] == "10":
        text = "T" + text[2:]
    if len(text) != 2:
        raise InputError(f"bad card {token!r}: expected a rank and a suit, like 'As' or 'Td'")
    rank_char, suit_char = text[0].upper(), _SUIT_SYMBOLS.get(text[1], text[1].lower())
    if rank_char not in RANKS:
        raise InputError(f"bad card {token!r}: unknown rank {text[0]!r} (ranks are {RANKS})")
    if suit_char not in SUITS:
        raise InputError(f"bad card {token!r}: unknown suit {text[1]!r} (suits are {SUITS})")
    return card(RANKS.index(rank_char), SUITS.index(suit_char))


def parse_cards(text: str | Iterable[str], count: int | None = None, what: str = "cards") -> list[int]:
    """Cards from ``"As Td 7h"`` (spaces or commas) or a list of tokens.

    Raises ValueError naming the bad token, a duplicate, or a wrong number of cards.
    """
    if isinstance(text, str):
        tokens = text.replace(",", " ").split()
        shown = text
    else:
        tokens = list(text)
        shown = " ".join(tokens)
    cards = []
    for token in tokens:
        c = parse_card(token)
        if c in cards:
            raise InputError(f"duplicate card {token!r} in {shown!r}")
        cards.append(c)
    if count is not None and len(cards) != count:
        raise InputError(f"{what} {shown!r}: expected {count} cards, got {len(cards)}")
    return cards


def format_card(c: int) -> str:
    if not 0 <= c < 52:
        raise InputError(f"card int {c} is outside 0..51")
    return RANKS[rank_of(c)] + SUITS[suit_of(c)]


def format_cards(cards: Iterable[int]) -> str:
    return " ".join(format_card(int(c)) for c in cards)


def disjoint(*groups: Iterable[int]) -> None:
    """Raise ValueError if a card appears in more than one group."""
    seen: dict[int, int] = {}
    for i, group in enumerate(groups):
        for c in group:
            if c in seen:
                raise InputError(f"card {format_card(c)} is dealt twice")
            seen[c] = i
