"""A game without a board (Three Card Poker, Caribbean Stud): the player and the dealer each
get a hand, all of whose cards play; one decision on the player's hand (and on the dealer's
cards he sees). What its game file states beyond the board games' keys, validated on load
(errors name the file and the key):

- ``[cards] board = 0`` and ``hand``, the ranking (``"three-card"``: three cards, a
  straight over a flush; ``"five-card"``: five-card poker; ``"four-card"``: the best four
  of 4 to 6 cards, three of a kind over a flush), ``hole`` the cards of each hand;
- ``[dealer] qualifier``: ``"queen-high"`` (any rank, ``-high``: that high card or any
  better hand), ``"ace-king"`` (an ace and a king, or any better hand), a category of the
  ranking (``"pair"``: a pair or any better hand) or ``"none"``;
  ``up``: how many of the dealer's cards are dealt face up before the decision (0 or 1);
  ``hole``: the dealer's cards, when not as many as the player's (Four Card Poker's six);
  ``ties``: ``"push"`` (a tied hand pushes the ante and the play bet) or ``"player"``
  (a tie is the player's win);
- ``[ante] bonus``: pays (to 1) on the player's hand when he plays, whatever the dealer
  holds;
- ``[hand_bets.NAME]``: a bet on the player's hand alone (Pair Plus, Aces Up), its
  ``title`` and ``pays`` by category or by a pair's ranks (``"pair A-A" = 1``), settled
  without the dealer and without the decision.

>>> doc = {"name": "t", "cards": {"hole": 3, "board": 0, "hand": "three-card"}, "dealer": {"qualifier": "queen-high"}}
>>> rules, nb = no_board_from_document(doc, "t.toml")
>>> nb.qualifier_ranks, nb.categories[-1], len(rules.deck), nb.up
((10,), 'straight_flush', 52, 0)
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any

from analysis.model.cards import RANKS, SUITS
from analysis.model.categories import CATEGORIES, FOUR_CARD_CATEGORIES, THREE_CARD_CATEGORIES
from analysis.model.errors import InputError
from analysis.model.numbers import as_fraction
from analysis.model.pay_lines import PayLine, best_first, check_pairs, pay_line
from analysis.model.rules import Rules, game_table

#: The hand rankings a game without a board may name: the cards of a hand and its categories.
RANKINGS = {
    "three-card": (3, THREE_CARD_CATEGORIES),
    "five-card": (5, CATEGORIES),
    "four-card": (4, FOUR_CARD_CATEGORIES),
}
#: The rankings whose hand is the best of more cards: the most cards a hand may hold.
BEST_OF = {"four-card": 6}
#: Who a tied hand goes to: it pushes, or the player wins it.
TIES = ("push", "player")
#: High-card qualifiers by the rank's name in words.
RANK_WORDS = ("two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "jack", "queen", "king", "ace")


@dataclass(frozen=True)
class HandBet:
    """A bet on the player's hand alone: pays (to 1) by line, a category or a pair by its
    rank (``"pair A-A"``: Aces Up's "pair of aces or better"); any other hand loses."""

    title: str
    pays: Mapping[str, Fraction]

    def lines(self, categories: tuple[str, ...]) -> tuple[PayLine, ...]:
        """The bet's pay lines, best first."""
        return best_first((pay_line(name, net, categories) for name, net in self.pays.items()), categories)


@dataclass(frozen=True)
class NoBoard:
    """How a game without a board deals, ranks and pays beyond the board games' wagers."""

    ranking: str
    hole: int
    #: the dealer qualifies with these high ranks (best first) or better; None: always
    qualifier_ranks: tuple[int, ...] | None
    ante_bonus: Mapping[str, Fraction] = field(default_factory=dict)
    hand_bets: Mapping[str, HandBet] = field(default_factory=dict)
    #: the dealer's cards dealt face up before the decision (Caribbean Stud's one)
    up: int = 0
    #: the dealer's cards (0: as many as the player's)
    dealer_hole: int = 0
    #: a tie pushes ("push") or is the player's win ("player")
    ties: str = "push"
    #: the dealer qualifies with a hand of this category or better (instead of high ranks)
    qualifier_category: str | None = None

    @property
    def dealer_cards(self) -> int:
        """How many cards the dealer's hand holds."""
        return self.dealer_hole or self.hole

    @property
    def categories(self) -> tuple[str, ...]:
        """The ranking's categories, weakest first."""
        return RANKINGS[self.ranking][1]

    @property
    def qualifier_phrase(self) -> str:
        if self.qualifier_category is not None:
            return f"the dealer qualifies with {_a(self.qualifier_category.replace('_', ' '))} or better"
        if self.qualifier_ranks is None:
            return "the dealer always qualifies"
        if len(self.qualifier_ranks) == 1:
            return f"the dealer qualifies with {RANK_WORDS[self.qualifier_ranks[0]]} high or better"
        return f"the dealer qualifies with {' and '.join(RANK_WORDS[r] for r in self.qualifier_ranks)} or better"


def _a(words: str) -> str:
    """``"a pair"``, ``"two pair"``, ``"a straight"``: the article a hand's name takes."""
    return words if words.startswith(("two ", "three ", "four ")) else f"a {words}"


def has_no_board(doc: Mapping[str, Any]) -> bool:
    """Whether a game file states a game without a board (``[cards] board = 0``)."""
    cards = doc.get("cards")
    return isinstance(cards, dict) and "board" in cards


def no_board_from_document(doc: Mapping[str, Any], where: str) -> tuple[Rules, NoBoard]:
    """The deck (as :class:`Rules`: the name and the cards; its hand-making fields are the
    board games' and do not apply) and the no-board part of a game file."""
    name = doc.get("name")
    if not isinstance(name, str) or not re.fullmatch(r"[a-z0-9][a-z0-9-]{0,39}", name):
        raise InputError(f"{where}: 'name' must be a lower-case name of letters, digits and '-' (at most 40)")
    cards = game_table(doc, "cards", where, {"hole", "board", "hand", "ranks", "suits"})
    if cards.get("board") != 0 or isinstance(cards.get("board"), bool):
        raise InputError(f"{where}: [cards] board is 0 for a game without a board (else leave it out)")
    ranking = cards.get("hand")
    if ranking not in RANKINGS:
        raise InputError(f"{where}: [cards] hand of a game without a board is one of {', '.join(RANKINGS)}")
    hole = _hole(cards.get("hole"), ranking, f"{where}: [cards] hole")
    ranks, suits = cards.get("ranks", RANKS), cards.get("suits", SUITS)
    for key, text, allowed in (("ranks", ranks, RANKS), ("suits", suits, SUITS)):
        if not isinstance(text, str) or not text or set(text) - set(allowed) or len(set(text)) != len(text):
            raise InputError(f"{where}: [cards] {key} must be distinct letters of {allowed!r}, not {text!r}")
    if len(ranks) * len(suits) < 12:
        raise InputError(f"{where}: [cards] a deck of at least 12 cards, not {len(ranks) * len(suits)}")
    dealer = game_table(doc, "dealer", where, {"qualifier", "up", "hole", "ties"})
    categories = RANKINGS[ranking][1]
    qualifier_category = dealer.get("qualifier") if dealer.get("qualifier") in categories[1:] else None
    qualifier = (
        None if qualifier_category else _qualifier(dealer.get("qualifier"), f"{where}: [dealer] qualifier", categories)
    )
    if qualifier is not None and len(qualifier) >= RANKINGS[ranking][0]:
        raise InputError(f"{where}: [dealer] qualifier: names fewer high cards than a hand's {RANKINGS[ranking][0]}")
    up = dealer.get("up", 0)
    if up not in (0, 1) or isinstance(up, bool):
        raise InputError(f"{where}: [dealer] up: the dealer's cards dealt face up before the decision, 0 or 1")
    dealer_hole = _hole(dealer.get("hole", hole), ranking, f"{where}: [dealer] hole")
    ties = dealer.get("ties", "push")
    if ties not in TIES:
        raise InputError(
            f"{where}: [dealer] ties: 'push' (a tie pushes) or 'player' (the player wins it), not {ties!r}"
        )
    if hole + dealer_hole > len(ranks) * len(suits):
        raise InputError(
            f"{where}: [cards] the player's {hole} cards and the dealer's {dealer_hole} are more than the deck"
        )
    rules = Rules(name, 3, 2, None, 1)
    if (ranks, suits) != (RANKS, SUITS):
        rules = replace(rules.small_deck(ranks, suits), name=name)
    ante = doc.get("ante", {})
    bonus = (
        _pays(ante.get("bonus", {}), categories, f"{where}: [ante] bonus", empty=True) if isinstance(ante, dict) else {}
    )
    hand_bets = {key: hand_bet_of(bet, categories, at) for key, bet, at in hand_bet_tables(doc, where)}
    nb = NoBoard(
        ranking,
        hole,
        qualifier,
        bonus,
        hand_bets,
        up,
        0 if dealer_hole == hole else dealer_hole,
        ties,
        qualifier_category,
    )
    return rules, nb


def _hole(value: object, ranking: str, where: str) -> int:
    """A hand's cards: as many as the ranking's hand, or up to its most where it takes the best."""
    least = RANKINGS[ranking][0]
    most = BEST_OF.get(ranking, least)
    if not isinstance(value, int) or isinstance(value, bool) or not least <= value <= most:
        cards = f"{least} cards" if most == least else f"the best {least} of {least} to {most} cards"
        raise InputError(f"{where}: a {ranking} hand is {cards}, not {str(value)[:20]!r}")
    return value


def _qualifier(value: object, where: str, categories: tuple[str, ...]) -> tuple[int, ...] | None:
    text = str(value).strip().lower() if isinstance(value, str) else ""
    if text == "none":
        return None
    words = text.removesuffix("-high").split("-")
    ranks = tuple(RANK_WORDS.index(w) for w in words if w in RANK_WORDS)
    named = len(words) == 2 or (len(words) == 1 and text.endswith("-high"))  # "queen" alone could be a pair
    if named and len(ranks) == len(words) and ranks == tuple(sorted(set(ranks), reverse=True)):
        return ranks
    raise InputError(
        f"{where}: 'RANK-high' (e.g. 'queen-high': that high card or better), two ranks highest first "
        f"('ace-king': an ace and a king or better), a category ({', '.join(categories[1:])}: that hand or "
        f"better) or 'none', not {str(value)[:40]!r}"
    )


def hand_bet_tables(doc: Mapping[str, Any], where: str) -> list[tuple[str, dict[str, Any], str]]:
    """The file's ``[hand_bets.NAME]`` tables: (name, table, where to name in errors)."""
    bets = doc.get("hand_bets", {})
    if not isinstance(bets, dict) or len(bets) > 8:
        raise InputError(f"{where}: [hand_bets] is a table of at most 8 bets, e.g. [hand_bets.pair-plus]")
    out = []
    for key, bet in bets.items():
        at = f"{where}: [hand_bets.{str(key)[:30]}]"
        if not isinstance(bet, dict):
            raise InputError(f"{at}: a table of 'title' and 'pays'")
        out.append((str(key)[:30], bet, at))
    return out


def hand_bet_of(
    bet: Mapping[str, Any], categories: tuple[str, ...], at: str, more: frozenset[str] = frozenset()
) -> HandBet:
    """One bet on the hand from its table: ``title`` and ``pays`` in the ranking's
    ``categories`` (the keys ``more`` are the caller's to read)."""
    if set(bet) - {"title", "pays"} - more:
        *first, last = map(repr, ["title", "pays", *sorted(more)])
        raise InputError(f"{at}: a table of {', '.join(first)} and {last}")
    title = bet.get("title", at)
    if not isinstance(title, str) or len(title) > 60:
        raise InputError(f"{at} title: text of at most 60 characters")
    pays = _pays(bet.get("pays"), categories, f"{at} pays", pair_lines=True)
    check_pairs([pay_line(name, net, categories, f"{at} pays") for name, net in pays.items()], f"{at} pays")
    return HandBet(title, pays)


def _pays(
    value: object, categories: tuple[str, ...], where: str, empty: bool = False, pair_lines: bool = False
) -> dict[str, Fraction]:
    """A table of pays (to 1) by category; with ``pair_lines``, pairs by rank too ("pair A-A")."""
    if not isinstance(value, dict) or (not value and not empty) or len(value) > 20:
        raise InputError(f"{where}: a table {{category = pays to 1}} of the paid categories (at most 20)")
    out = {}
    for category, pay in value.items():
        if pair_lines:
            pay_line(str(category), Fraction(0), categories, where)  # a category, "pair R-R", "mini_royal"
        elif category not in categories:
            raise InputError(f"{where}: {str(category)[:40]!r} is not a category here ({', '.join(categories)})")
        number = as_fraction(pay)
        if number < 0 or number > 1_000_000:
            raise InputError(f"{where}: {category}: a pay is between 0 and 1,000,000 to 1, not {pay}")
        out[category] = number
    return out
