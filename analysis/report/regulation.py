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

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction

from analysis.model.cards import RANKS, SUITS
from analysis.model.categories import CATEGORIES
from analysis.model.game import GameSpec, Option, game_title
from analysis.model.paytable import PayTable
from analysis.model.rules import Rules
from analysis.model.settlement import ONE_DECISION, Settlement
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
    """The rules of play of a one-decision game of ``rules`` with ``paytable`` paid on the
    ante (AnteWin: the call pays 1 to 1) or on the call (the ante pays 1 to 1)."""
    settlement = ONE_DECISION.with_table(paytable, pays_on)
    streets = {"flop": (Option("fold"), Option("bet", rules.call_multiple))}
    return _Writer(rules, settlement, streets, title or game_title(rules.name)).sections()


def game_rules_of_play(game: GameSpec) -> tuple[RuleSection, ...]:
    """The rules of play of any game file in regulation form: its decision points, wagers
    and their settlement (:mod:`analysis.model.settlement`), its pay tables."""
    return _Writer(game.rules, game.settlement, game.streets, game.title, game.adds).sections()


#: When each decision point comes, in words.
MOMENTS = {
    "preflop": "After seeing the hole cards and before the flop",
    "flop": "After the flop",
    "turn": "After the turn and before the river",
    "river": "After the turn and the river",
}
#: What the dealer deals after each decision point of a game whose bets add up.
NEXT_CARDS = {
    "preflop": "the flop: three cards of the board, face up",
    "flop": "the turn: the fourth card of the board, face up",
    "turn": "the river: the fifth card of the board, face up",
}


@dataclass(frozen=True)
class _Writer:
    """The sections of one game's rules; each method writes one section. A game with one
    decision, a fold or a call at the flop, calls its play bet the call bet."""

    rules: Rules
    settlement: Settlement
    streets: Mapping[str, tuple[Option, ...]]
    title: str
    adds: bool = False  # every bet stays in action and the betting goes on (Texas Hold'em Bonus)

    @property
    def single(self) -> bool:
        opts = self.streets.get("flop", ())
        return set(self.streets) == {"flop"} and [o.kind for o in opts] == ["fold", "bet"]

    @property
    def bet(self) -> str:
        return "call bet" if self.single else "play bet"

    @property
    def hole(self) -> str:
        return number_words(self.rules.hole_cards)

    @property
    def call(self) -> str:
        return times_the_ante(self.streets["flop"][1].multiple)

    @property
    def qualifier(self) -> str:
        """``"a pair of 4s or better"`` (only for a game with a qualifier)."""
        return f"a pair of {PAIR_WORDS[RANKS[self.rules.qualifying_pair]]} or better"

    @property
    def staked(self) -> str:
        """The wagers every hand places: ``"the ante"`` or ``"the ante and the blind"``."""
        return "the ante and the blind" if self.settlement.blind is not None else "the ante"

    @property
    def table_wager(self) -> str:
        """The wager the main pay table pays (the ante, or the play bet)."""
        return "ante" if self.settlement.ante is not None else self.bet

    @property
    def tables(self) -> list[tuple[str, dict[str, Fraction]]]:
        """Each wager paid by a table of the player's hand, and its pays."""
        out = [(w, t.pays) for w, t in (("ante", self.settlement.ante), (self.bet, self.settlement.play)) if t]
        if self.settlement.blind is not None:
            out.append(("blind", {c: Fraction(self.settlement.blind.get(c, 0)) for c in CATEGORIES}))
        return out

    def sections(self) -> tuple[RuleSection, ...]:
        return (
            self.definitions(),
            self.wagers(),
            self.deal(),
            self.decision(),
            self.dealer_hand(),
            self.settlement_section(),
            *self.pay_tables(),
            self.rankings(),
            self.ties(),
            self.collecting(),
        )

    def definitions(self) -> RuleSection:
        clauses = [
            f"{self.title} is a house-banked poker game in which each player plays a hand against the dealer's "
            "hand only. In these rules the following words have the meanings given below.",
            "\u201cAnte\u201d means the wager a player places before any card is dealt.",
        ]
        if self.settlement.blind is not None:
            clauses.append("\u201cBlind\u201d means the second wager, equal to the ante, placed with the ante.")
        if self.single:
            clauses += [
                f"\u201cCall bet\u201d means the wager, {self.call}, that a player places after the flop to play the "
                "hand against the dealer.",
                "\u201cFold\u201d means to give up the hand and the ante instead of placing a call bet.",
            ]
        else:
            clauses.append(
                "\u201cPlay bet\u201d means the one wager a player may place at a decision point set out under "
                "\u201cThe decisions\u201d, of the amount set out there, to play the hand against the dealer."
            )
            kinds = {o.kind for opts in self.streets.values() for o in opts}
            if "check" in kinds:
                clauses.append("\u201cCheck\u201d means to place no play bet at a decision point and keep the hand.")
            if "fold" in kinds:
                clauses.append(f"\u201cFold\u201d means to give up the hand, losing {self.staked}.")
        clauses += [
            f"\u201cHole cards\u201d means the {self.hole} cards dealt face down to each player and to the dealer.",
            "\u201cBoard\u201d means the five cards dealt face up in the middle of the table, which belong to the "
            "hand of every player and of the dealer: the \u201cflop\u201d (the first three), the \u201cturn\u201d "
            "(the fourth) and the \u201criver\u201d (the fifth).",
            f"\u201cHand\u201d means the five cards of a player or of the dealer, made as set out under {HOW_MADE}.",
            "\u201cPush\u201d means that a wager neither wins nor loses and is returned to the player.",
        ]
        for wager, _ in self.tables:
            name = "Pay table" if len(self.tables) == 1 else f"{wager.capitalize()} pay table"
            clauses.append(
                f"\u201c{name}\u201d means the odds under \u201c{name}\u201d at which the {wager} is paid by the "
                "player's hand."
            )
        return RuleSection("Definitions", tuple(clauses))

    def wagers(self) -> RuleSection:
        if self.single:
            middle = (
                f"After seeing the hole cards and the flop, each player shall either fold or place a call bet of "
                f"exactly {self.call}; there is no other wager on the hand."
            )
        else:
            middle = (
                "At the decision points set out under \u201cThe decisions\u201d, each player may place one play bet; "
                "there is no other wager on the hand."
            )
        first = "an ante" if self.settlement.blind is None else "an ante and a blind equal to it"
        return RuleSection(
            "Wagers",
            (
                f"Before any card is dealt, each player who wishes to play shall place {first} within the minimum "
                "and maximum wagers posted at the table.",
                middle,
                f"No wager may be placed, changed or withdrawn after the first card is dealt, other than by a "
                f"{self.bet} or a fold as above.",
            ),
        )

    def deal(self) -> RuleSection:
        clauses = [
            f"The game is played with {self._deck()}, shuffled before each round.",
            "After the shuffle the deck shall be cut (or shuffled by an automatic shuffler), and before the flop "
            "and again before the turn the dealer shall burn the top card: place it face down, unseen, aside. The "
            "cut and the burn cards change no chance: every order of the cards is equally likely.",
            f"The dealer shall deal {self.hole} hole cards face down to each player who has placed an ante and "
            f"{self.hole} hole cards face down to the dealer.",
        ]
        if "preflop" not in self.streets:
            clauses.append("The dealer shall then deal the flop: three cards of the board, face up.")
        clauses += [
            "A round is a misdeal, every wager returned and the cards shuffled again, when a card is found face up "
            "in the deck or a hand receives the wrong number of cards before any player has decided.",
            "A hole card of the dealer exposed before every player has decided voids the round for every player, "
            "every wager returned: a player who sees one of the dealer's cards gains the edge. A player's own card "
            "exposed by the dealer plays as dealt.",
        ]
        return RuleSection("The shuffle and the deal", tuple(clauses))

    def decision(self) -> RuleSection:
        if self.single:
            return RuleSection(
                "The decision",
                (
                    f"After the flop, each player in turn shall decide to fold or to place a call bet of {self.call}.",
                    "A player who folds loses the ante at once; the player's cards are collected and take no "
                    "further part in the round.",
                    "When every player has decided, the dealer shall deal the turn and the river face up: the board "
                    "of five cards.",
                ),
            )
        if self.adds:
            return self._adding_decisions()
        clauses = []
        points = list(self.streets.items())
        for i, (street, options) in enumerate(points):
            who = "each player in turn" if i == 0 else "each player in turn who has placed no play bet"
            clauses.append(f"{MOMENTS[street]}, {who} shall {self._choice(options)}.")
            clauses.append(
                {
                    "preflop": "When every player has decided, the dealer shall deal the flop: three cards of the "
                    "board, face up." + (" Then the turn and the river." if len(points) == 1 else ""),
                    "flop": "When every player has decided, the dealer shall deal the turn and the river face up: "
                    "the board of five cards.",
                    "river": "",
                }[street]
            )
        clauses = [c for c in clauses if c]
        clauses.append(
            "A player who places a play bet makes no further decision in the round; a player who folds loses "
            f"{self.staked} at once, and the player's cards are collected and take no further part in the round."
        )
        if any(o.kind == "check" for o in points[-1][1]):
            clauses.append("A player who checks at the last decision point plays the hand with no play bet.")
        return RuleSection("The decisions", tuple(clauses))

    def _adding_decisions(self) -> RuleSection:
        """The decisions of a game whose bets add up: each one at its street, every bet kept."""
        clauses = []
        for i, (street, options) in enumerate(self.streets.items()):
            who = "each player in turn" if i == 0 else "each player in turn who has not folded"
            clauses.append(f"{MOMENTS[street]}, {who} shall {self._choice(options)}.")
            if street in NEXT_CARDS:
                clauses.append(f"When every player has decided, the dealer shall deal {NEXT_CARDS[street]}.")
        if "turn" not in self.streets:
            clauses.append("The dealer shall deal the remaining community cards face up: the board of five cards.")
        clauses.append(
            "Each play bet is added to the player's bets in action, and every bet stays in action to the showdown; "
            f"a player who folds loses {self.staked} at once, and the player's cards are collected and take no "
            "further part in the round."
        )
        return RuleSection("The decisions", tuple(clauses))

    def _choice(self, options: tuple[Option, ...]) -> str:
        """``"check or place a play bet of three or four times the ante"``."""
        bets = [o.multiple for o in options if o.kind == "bet"]
        words = [o.kind for o in options if o.kind != "bet"]
        if bets == [1]:
            words.append("place a play bet equal to the ante")
        elif bets:
            times = [{1: "once", 2: "twice"}.get(m, f"{number_words(m)} times") for m in bets]
            if len(times) > 1 and all(t.endswith(" times") for t in times):
                times = [t.removesuffix(" times") for t in times[:-1]] + [times[-1]]
            words.append(f"place a play bet of {' or '.join(times)} the ante")
        return " or ".join(words)

    def table_name(self, wager: str) -> str:
        """How the rules name the pay table of ``wager``."""
        return "the pay table" if len(self.tables) == 1 else f"the {wager} pay table"

    def dealer_hand(self) -> RuleSection:
        who = "each player's hand that placed a call bet" if self.single else "each player's hand still in play"
        clauses = [
            "The dealer shall then turn the dealer's hole cards face up and make the dealer's hand as set out under "
            f"{HOW_MADE}, and {who} shall be made in the same way."
        ]
        if self.rules.qualifier_rank is None:
            return RuleSection("The dealer's hand", tuple(clauses))
        clauses.append(f"The dealer's hand qualifies when it is {self.qualifier}; a lower hand does not qualify.")
        return RuleSection("The dealer's hand and the qualifier", tuple(clauses))

    def settlement_section(self) -> RuleSection:
        s = self.settlement
        ante_pay = "according to the pay table for the player's hand" if s.ante is not None else "at 1 to 1"
        bet_pay = "according to the pay table for the player's hand" if s.play is not None else "at 1 to 1"
        qualifier = self.rules.qualifier_rank is not None
        # a dealer who does not qualify settles the ante apart while the other wagers play on
        apart = qualifier and (s.play_when_no_qualifier == "action" or s.blind is not None)
        ante = "the ante (when the dealer's hand qualifies)" if apart else "the ante"
        win = f"{ante} shall be paid {ante_pay} and the {self.bet} shall be paid {bet_pay}"
        if s.blind is not None:
            win = (
                f"{ante} shall be paid {ante_pay}, the {self.bet} shall be paid {bet_pay}, and the blind shall be "
                f"paid according to {self.table_name('blind')} for the player's hand (a push on a hand that table does "
                "not list)"
            )
        others = f"the blind and the {self.bet}" if s.blind is not None else f"the {self.bet}"
        clauses = [
            f"A player who folded has lost {self.staked}; the wagers of every other player are settled as follows."
        ]
        if not qualifier:
            clauses.append(
                f"The dealer's hand always plays: there is no qualifier, and every {self.bet} is settled "
                "against the dealer's hand."
            )
            against = "the dealer's hand"
        else:
            ante_nq = (
                f"the ante shall be paid {ante_pay}" if s.ante_when_no_qualifier == "pays" else "the ante is a push"
            )
            if apart:
                clauses.append(
                    f"If the dealer's hand does not qualify, {ante_nq}, whatever the hands; {others} "
                    f"{'are' if s.blind is not None else 'is'} settled against the dealer's hand as set out below."
                )
                against = "the dealer's hand"
            else:
                clauses.append(
                    f"If the dealer's hand does not qualify, {ante_nq} (whether or not the player's hand ranks "
                    f"higher than the dealer's), and the {self.bet} is a push."
                )
                against = "the dealer's qualifying hand"
        lost = f"{others}, and {ante}" if apart else f"{self.staked} and the {self.bet}"
        clauses += [
            f"If the player's hand ranks higher than {against}, {win}.",
            f"If the player's hand ties {against}, "
            + (
                "every wager is a push." if apart or s.blind is not None else f"the ante and the {self.bet} are a push."
            ),
            f"If {against} ranks higher than the player's hand, the player loses {lost}.",
        ]
        for wager, table in (("ante", s.ante), (self.bet, s.play)):
            if table is not None and any(p == 0 for p in table.pays.values()):
                clauses.append(
                    f"Where the {wager} would be paid by the pay table on a hand that the pay table does not list, "
                    f"the {wager} is a push."
                )
        return RuleSection("Settlement", tuple(clauses))

    def pay_tables(self) -> tuple[RuleSection, ...]:
        out = []
        for wager, pays in self.tables:
            if wager == "blind":
                when = "when the player's hand ranks higher than the dealer's"
            elif (
                wager == "ante"
                and self.rules.qualifier_rank is not None
                and (self.settlement.ante_when_no_qualifier == "pays")
            ):
                when = "when the dealer's hand does not qualify or the player's hand ranks higher than the dealer's"
            else:
                when = "when the player's hand ranks higher than the dealer's"
            heading = "Pay table" if len(self.tables) == 1 else f"{wager.capitalize()} pay table"
            out.append(
                RuleSection(
                    heading,
                    (
                        f"The {wager}, {when}, shall be paid at odds no less than those in the pay table below, "
                        "by the player's hand:",
                    ),
                    pay_table_lines(PayTable.from_mapping(pays, name=wager)),
                )
            )
        return tuple(out)

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

    def collecting(self) -> RuleSection:
        return RuleSection(
            "Collecting and paying",
            (
                "When every hand is settled, the dealer shall first collect the losing wagers, from the dealer's "
                "right to the dealer's left, then pay the winning wagers, from the dealer's left to the dealer's "
                "right; a wager that pushes stays in place.",
                "Each winning wager is paid beside it and the player's cards are collected only after the wagers "
                "of that hand are settled.",
            ),
        )

    def _deck(self) -> str:
        deck = len(self.rules.deck)
        if deck == 52:
            return "one standard deck of 52 cards with no joker"
        ranks = ", ".join(RANK_WORDS[RANKS[r]] for r in self.rules.ranks)
        suits = ", ".join(SUIT_WORDS[SUITS[s]] for s in self.rules.suits)
        return f"one deck of {deck} cards: the ranks {ranks} in the suits {suits}"
