"""The rules of play of a one-decision game in numbered regulation form, as a gaming
regulation writes house-banked poker rules: what a submission files beside the figures.

The text is generated from the game's :class:`~analysis.model.rules.Rules`, its pay table
and which wager the table pays (see :mod:`analysis.model.payoffs` for the settlement), so a
variant's text follows its rules: a game with no qualifier has no qualifier clause, a call
bet of 3 antes says so, three hole cards are played two with three of the board.

>>> from analysis.model.rules import preset
>>> sections = rules_of_play(preset("casino-holdem"), PayTable.load(None))
>>> [s.heading for s in sections][:3]
['Definitions', 'Wagers', 'The shuffle and the deal']
>>> pay_table_lines(PayTable.load(None))[:2]
(('Royal flush', '100 to 1'), ('Straight flush', '20 to 1'))
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from analysis.model.cards import RANKS, SUITS
from analysis.model.categories import CATEGORIES
from analysis.model.game import game_title
from analysis.model.payoffs import check_pays_on
from analysis.model.paytable import PayTable
from analysis.model.rules import Rules
from analysis.report.wording import category_words

#: Numbers of cards and antes in words, as regulations write them.
NUMBER_WORDS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")
#: Each rank in words, and a pair of it: "10", "10s"; "ace", "aces".
RANK_WORDS = dict(zip(RANKS, [*(str(n) for n in range(2, 11)), "jack", "queen", "king", "ace"]))
PAIR_WORDS = {r: f"{w}s" for r, w in RANK_WORDS.items()}
#: Each suit in words.
SUIT_WORDS = dict(zip(SUITS, ("clubs", "diamonds", "hearts", "spades")))

#: How each hand is made, highest first (the ace plays high, or low in 5-4-3-2-A).
HAND_DEFINITIONS = {
    "royal_flush": "an ace, king, queen, jack and 10, all of the same suit",
    "straight_flush": "five cards in sequence, all of the same suit, other than a royal flush",
    "four_of_a_kind": "four cards of the same rank",
    "full_house": "three cards of one rank and two cards of another rank",
    "flush": "five cards of the same suit, not in sequence",
    "straight": "five cards in sequence, not all of the same suit",
    "three_of_a_kind": "three cards of the same rank and two cards of two other ranks",
    "two_pair": "two cards of one rank, two cards of another rank and a fifth card of a third rank",
    "pair": "two cards of the same rank and three cards of three other ranks",
    "high_card": "any hand that is none of the above",
}


#: The heading of the section that says how a hand is made (other sections refer to it).
HOW_MADE_HEADING = "Hand rankings and how a hand is made"
HOW_MADE = f"\u201c{HOW_MADE_HEADING}\u201d"


@dataclass(frozen=True)
class RuleSection:
    """One numbered section: a heading, its clauses (numbered by the renderer) and, for
    the pay table, its lines (hand, odds) printed after the clauses."""

    heading: str
    clauses: tuple[str, ...]
    table: tuple[tuple[str, str], ...] = ()


def odds_words(pays: Fraction) -> str:
    """Pay odds as a table writes them: ``"100 to 1"``, ``"5 to 2"``."""
    return f"{pays.numerator} to {pays.denominator}"


def number_words(n: int) -> str:
    return NUMBER_WORDS[n] if n < len(NUMBER_WORDS) else str(n)


def times_the_ante(multiple: int) -> str:
    """A bet of ``multiple`` antes in words: ``"equal to the ante"``, ``"twice the ante"``,
    ``"three times the ante"``."""
    return {1: "equal to the ante", 2: "twice the ante"}.get(multiple, f"{number_words(multiple)} times the ante")


def pay_table_lines(paytable: PayTable) -> tuple[tuple[str, str], ...]:
    """The lines of the pay table, best hand first: ("Royal flush", "100 to 1"); a hand that
    pays nothing has no line (the wager pushes on it, see :func:`rules_of_play`)."""
    return tuple(
        (category_words(c).capitalize(), odds_words(paytable.pays[c]))
        for c in reversed(CATEGORIES)
        if paytable.pays[c] > 0
    )


def rules_of_play(
    rules: Rules, paytable: PayTable, pays_on: str = "ante", title: str | None = None
) -> tuple[RuleSection, ...]:
    """The rules of play of ``rules`` with ``paytable`` paid on the ante (AnteWin: the call
    pays 1 to 1) or on the call (the ante pays 1 to 1), in regulation form."""
    check_pays_on(pays_on)
    return _Writer(rules, paytable, pays_on, title or game_title(rules.name)).sections()


@dataclass(frozen=True)
class _Writer:
    """The sections of one game's rules; each method writes one section."""

    rules: Rules
    paytable: PayTable
    pays_on: str
    title: str

    @property
    def hole(self) -> str:
        return number_words(self.rules.hole_cards)

    @property
    def call(self) -> str:
        return times_the_ante(self.rules.call_multiple)

    @property
    def qualifier(self) -> str:
        """``"a pair of 4s or better"`` (only for a game with a qualifier)."""
        return f"a pair of {PAIR_WORDS[RANKS[self.rules.qualifying_pair]]} or better"

    @property
    def table_wager(self) -> str:
        return "ante" if self.pays_on == "ante" else "call bet"

    def sections(self) -> tuple[RuleSection, ...]:
        return (
            self.definitions(),
            self.wagers(),
            self.deal(),
            self.decision(),
            self.dealer_hand(),
            self.settlement(),
            self.pay_table(),
            self.rankings(),
            self.ties(),
        )

    def definitions(self) -> RuleSection:
        clauses = [
            f"{self.title} is a house-banked poker game in which each player plays a hand against the dealer's "
            "hand only. In these rules the following words have the meanings given below.",
            "\u201cAnte\u201d means the wager a player places before any card is dealt.",
            f"\u201cCall bet\u201d means the wager, {self.call}, that a player places after the flop to play the "
            "hand against the dealer.",
            "\u201cFold\u201d means to give up the hand and the ante instead of placing a call bet.",
            f"\u201cHole cards\u201d means the {self.hole} cards dealt face down to each player and to the dealer.",
            "\u201cBoard\u201d means the five cards dealt face up in the middle of the table, which belong to the "
            "hand of every player and of the dealer: the \u201cflop\u201d (the first three), the \u201cturn\u201d "
            "(the fourth) and the \u201criver\u201d (the fifth).",
            f"\u201cHand\u201d means the five cards of a player or of the dealer, made as set out under {HOW_MADE}.",
        ]
        clauses += [
            "\u201cPush\u201d means that a wager neither wins nor loses and is returned to the player.",
            f"\u201cPay table\u201d means the odds under \u201cPay table\u201d at which the {self.table_wager} "
            "is paid by the player's hand.",
        ]
        return RuleSection("Definitions", tuple(clauses))

    def wagers(self) -> RuleSection:
        return RuleSection(
            "Wagers",
            (
                "Before any card is dealt, each player who wishes to play shall place an ante within the minimum and "
                "maximum wagers posted at the table.",
                f"After seeing the hole cards and the flop, each player shall either fold or place a call bet of "
                f"exactly {self.call}; there is no other wager on the hand.",
                "No wager may be placed, changed or withdrawn after the first card is dealt, other than by a call "
                "bet or a fold as above.",
            ),
        )

    def deal(self) -> RuleSection:
        return RuleSection(
            "The shuffle and the deal",
            (
                f"The game is played with {self._deck()}, shuffled before each round.",
                f"The dealer shall deal {self.hole} hole cards face down to each player who has placed an ante and "
                f"{self.hole} hole cards face down to the dealer.",
                "The dealer shall then deal the flop: three cards of the board, face up.",
            ),
        )

    def decision(self) -> RuleSection:
        return RuleSection(
            "The decision",
            (
                f"After the flop, each player in turn shall decide to fold or to place a call bet of {self.call}.",
                "A player who folds loses the ante at once; the player's cards are collected and take no further "
                "part in the round.",
                "When every player has decided, the dealer shall deal the turn and the river face up: the board of "
                "five cards.",
            ),
        )

    def dealer_hand(self) -> RuleSection:
        clauses = [
            "The dealer shall then turn the dealer's hole cards face up and make the dealer's hand as set out under "
            f"{HOW_MADE}, and each player's hand that placed a "
            "call bet shall be made in the same way."
        ]
        if self.rules.qualifier_rank is None:
            return RuleSection("The dealer's hand", tuple(clauses))
        clauses.append(f"The dealer's hand qualifies when it is {self.qualifier}; a lower hand does not qualify.")
        return RuleSection("The dealer's hand and the qualifier", tuple(clauses))

    def settlement(self) -> RuleSection:
        ante_wins = "the ante shall be paid according to the pay table for the player's hand"
        call_wins = "the call bet shall be paid according to the pay table for the player's hand"
        ante_even, call_even = "the ante shall be paid at 1 to 1", "the call bet shall be paid at 1 to 1"
        win = f"{ante_wins} and {call_even}" if self.pays_on == "ante" else f"{ante_even} and {call_wins}"
        clauses = ["A player who folded has lost the ante; the wagers of every other player are settled as follows."]
        if self.rules.qualifier_rank is None:
            clauses.append(
                "The dealer's hand always plays: there is no qualifier, and every call bet is settled "
                "against the dealer's hand."
            )
            against = "the dealer's hand"
        else:
            not_qualifying = ante_wins if self.pays_on == "ante" else ante_even
            clauses.append(
                f"If the dealer's hand does not qualify, {not_qualifying} (whether or not the player's hand ranks "
                "higher than the dealer's), and the call bet is a push."
            )
            against = "the dealer's qualifying hand"
        clauses += [
            f"If the player's hand ranks higher than {against}, {win}.",
            f"If the player's hand ties {against}, the ante and the call bet are a push.",
            f"If {against} ranks higher than the player's hand, the player loses the ante and the call bet.",
        ]
        if any(p == 0 for p in self.paytable.pays.values()):
            clauses.append(
                f"Where the {self.table_wager} would be paid by the pay table on a hand that the pay table does not "
                f"list, the {self.table_wager} is a push."
            )
        return RuleSection("Settlement", tuple(clauses))

    def pay_table(self) -> RuleSection:
        when = (
            "when the dealer's hand does not qualify or the player's hand ranks higher than the dealer's"
            if self.pays_on == "ante" and self.rules.qualifier_rank is not None
            else "when the player's hand ranks higher than the dealer's"
        )
        return RuleSection(
            "Pay table",
            (
                f"The {self.table_wager}, {when}, shall be paid at odds no less than those in the pay table below, "
                "by the player's hand:",
            ),
            pay_table_lines(self.paytable),
        )

    def rankings(self) -> RuleSection:
        if self.rules.omaha:
            made = (
                f"The hand of each player and of the dealer is the highest-ranking hand made of exactly two of its "
                f"{self.hole} hole cards and exactly three of the five cards of the board; no other hand is played "
                "(four cards of a suit on the board and one in the hole make no flush)."
            )
        else:
            made = (
                f"The hand of each player and of the dealer is the highest-ranking hand made of any five of its "
                f"{self.hole} hole cards and the five cards of the board, using both, one or none of the hole cards."
            )
        order = [f"{category_words(c).capitalize()}: {HAND_DEFINITIONS[c]}." for c in reversed(CATEGORIES)]
        return RuleSection(
            HOW_MADE_HEADING,
            (
                made,
                "The cards rank, from highest to lowest: ace, king, queen, jack, 10, 9, 8, 7, 6, 5, 4, 3, 2. The ace "
                "also ranks low in the straight 5, 4, 3, 2, ace, the lowest straight; a sequence does not run from "
                "the ace to the 2 (queen, king, ace, 2, 3 is not a straight).",
                "The hands rank, from highest to lowest, as listed below.",
                *order,
                "Two hands of the same kind rank by the cards that make the kind, then by the remaining cards, each "
                "time the highest first (two pair by the higher pair, then the lower pair, then the fifth card; a "
                "full house by its three cards, then its pair).",
            ),
        )

    def ties(self) -> RuleSection:
        return RuleSection(
            "Ties",
            (
                "Two hands whose five cards have the same ranks tie: suits do not rank, and no suit breaks a tie.",
                "Only the five cards of a hand count: the other cards held or on the board do not break a tie.",
            ),
        )

    def _deck(self) -> str:
        deck = len(self.rules.deck)
        if deck == 52:
            return "one standard deck of 52 cards with no joker"
        ranks = ", ".join(RANK_WORDS[RANKS[r]] for r in self.rules.ranks)
        suits = ", ".join(SUIT_WORDS[SUITS[s]] for s in self.rules.suits)
        return f"one deck of {deck} cards: the ranks {ranks} in the suits {suits}"
