"""The exact optimal strategy and return of a game without a board (Three Card Poker):
each player hand's counts against every dealer hand (:mod:`analysis.counting.no_board`)
priced by the game file's one settlement, the decision taken hand by hand (an exact tie
goes to the option that risks less), and the bets on the player's hand alone.

The result has the shape of every game's (:class:`analysis.engine.solve.Solved`): the
outcomes keyed as the street engine's, (street the betting ended, play bet, the player's
final category, the dealer's result), the decision being the pre-flop one.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property

import numpy as np
import pandas as pd

from analysis.counting.no_board import NoBoardCounts, count_no_board
from analysis.counting.streets import RESULTS6
from analysis.counting.symmetry import canonical_codes, suit_permutations
from analysis.engine.result import Outcome
from analysis.engine.statistics import ExactFigures, figures_of
from analysis.hands.three_card import high_card_floor, three_card_category, three_card_values
from analysis.model.cards import format_cards, parse_cards
from analysis.model.errors import InputError
from analysis.model.game import GameSpec
from analysis.model.no_board import HandBet, NoBoard
from analysis.model.settlement import Settlement

#: The street of the one decision, in the vocabulary of every game's outcomes.
DECISION = "preflop"
#: The player's result against the dealer of each of the six dealer results, and whether
#: the dealer qualifies.
_SHOWDOWN = [(r.startswith("noqual") is False, {"win": 1, "tie": 0, "loss": -1}[r.split("_")[-1]]) for r in RESULTS6]

Key = tuple[str, int, str, str]


def no_board_counts(game: GameSpec) -> NoBoardCounts:
    """The counts of a game without a board, on its deck, by its ranking and qualifier."""
    nb = _no_board(game)
    floor = 0 if nb.qualifier_rank is None else high_card_floor(nb.qualifier_rank)
    return count_no_board(game.rules.deck, nb.hole, three_card_values, floor)


@dataclass(frozen=True)
class HandBetFigures:
    """A bet on the player's hand alone: the hands of each category and the exact figures
    (per unit bet; every hand of the deck is one deal)."""

    bet: HandBet
    hands: dict[str, int]
    exact: ExactFigures


@dataclass(frozen=True)
class NoBoardFigures:
    """The exact figures of a game without a board under its optimal strategy: ``counts``
    maps each outcome to its deals (``("fold", 0, "", "")`` for folds), ``decisions`` the
    deals of each option, ``strategy`` one row per class of player hands."""

    game: GameSpec
    total: int
    counts: dict[Key, int]
    decisions: dict[tuple[str, str], int]
    strategy: pd.DataFrame = field(repr=False)

    @property
    def settlement(self) -> Settlement:
        """How the game file's wagers settle."""
        return self.game.settlement

    def value(self, key: Key) -> Fraction:
        """Net result in antes of one outcome."""
        street, multiple, category, result = key
        if street == "fold":
            return self.settlement.fold
        qualifies, sign = _SHOWDOWN[RESULTS6.index(result)]
        return self.settlement.net(category, qualifies, sign, multiple)

    @cached_property
    def exact(self) -> ExactFigures:
        """House edge, element of risk, ... with the same names as every game's."""
        payoffs = {k: self.value(k) for k in self.counts}
        played = self.total - self.counts.get(("fold", 0, "", ""), 0)
        wager = 1 + Fraction(sum(n * k[1] for k, n in self.counts.items()), self.total)
        return figures_of(self.counts, payoffs, Fraction(played, self.total), wager)

    def outcomes(self) -> list[Outcome]:
        """Every outcome: folds first, then the larger bet, the better hand, the dealer's result."""
        categories = _no_board(self.game).categories

        def order(key: Key) -> tuple[int, int, int, int]:
            street, multiple, category, result = key
            hand = -categories.index(category) if category else 0
            return street != "fold", -multiple, hand, RESULTS6.index(result) if result else 0

        return [Outcome(*k, n, self.value(k)) for k, n in sorted(self.counts.items(), key=lambda kv: order(kv[0]))]

    def evs(self, cards: str) -> dict[str, Fraction]:
        """The exact expected net result of each option of one player hand given as text
        (``"Qh 6d 4c"``), in antes per hand, in the options' order (the first best is taken)."""
        hand = parse_cards(cards, _no_board(self.game).hole, "the player's hand")
        if set(hand) - set(self.game.rules.deck):
            raise InputError(f"{cards[:40]!r}: a card that is not in {self.game.title}'s deck")
        code = canonical_codes(np.array([hand]), suit_permutations(self.game.rules.suits))[0]
        row = self.strategy.loc[self.strategy["code"] == code].iloc[0]
        return {str(o): row[f"EV({o})"] for o in self.game.preflop}

    def play_bets(self, hands: np.ndarray) -> np.ndarray:
        """The strategy's play bet in antes (0: fold) of each row of player cards."""
        codes = canonical_codes(np.atleast_2d(hands), suit_permutations(self.game.rules.suits))
        table = self.strategy.sort_values("code")
        at = np.searchsorted(table["code"].to_numpy(), codes)
        bets = np.array([0 if o == "fold" else int(o.split()[1]) for o in table["option"]], dtype=np.int64)
        return bets[at]

    def hand_bets(self, pays: dict[str, dict[str, Fraction]] | None = None) -> dict[str, HandBetFigures]:
        """The exact figures of each bet on the player's hand alone, with the file's pays or
        ``pays[name]`` instead."""
        nb = _no_board(self.game)
        by_category = self.strategy.groupby("category")["hands"].sum()
        hands = {c: int(by_category.get(c, 0)) for c in reversed(nb.categories)}
        out = {}
        for name, bet in nb.hand_bets.items():
            table = bet.pays if pays is None or name not in pays else pays[name]
            payoffs = {c: Fraction(table.get(c, -1)) for c in hands}
            out[name] = HandBetFigures(
                HandBet(bet.title, table), hands, figures_of(hands, payoffs, Fraction(1), Fraction(1))
            )
        return out


def solve_no_board(game: GameSpec) -> NoBoardFigures:
    """The optimal decision of every player hand of ``game`` and the exact figures."""
    nb = _no_board(game)
    counted = no_board_counts(game)
    settlement, options = game.settlement, game.preflop
    categories = [nb.categories[c] for c in three_card_category(counted.value).tolist()]
    values = []
    for o in options:  # each option's value per hand, summed over its dealer hands
        if o.kind == "fold":
            values.append([settlement.fold * counted.dealer_hands] * len(categories))
            continue
        nets = {c: [settlement.net(c, q, s, o.multiple) for q, s in _SHOWDOWN] for c in set(categories)}
        values.append(
            [
                sum((int(n) * v for n, v in zip(row, nets[c])), Fraction(0))
                for row, c in zip(counted.counts.tolist(), categories)
            ]
        )
    counts: dict[Key, int] = {}
    decisions = {(DECISION, str(o)): 0 for o in options}
    chosen = []
    for h, (row, weight, category) in enumerate(zip(counted.counts.tolist(), counted.weight.tolist(), categories)):
        best = max(range(len(options)), key=lambda i: (values[i][h], -options[i].risk))
        o = options[best]
        chosen.append(str(o))
        decisions[(DECISION, str(o))] += weight * counted.dealer_hands
        if o.kind == "fold":
            counts[("fold", 0, "", "")] = counts.get(("fold", 0, "", ""), 0) + weight * counted.dealer_hands
            continue
        for result, n in zip(RESULTS6, row):
            if n:
                key = (DECISION, o.multiple, category, result)
                counts[key] = counts.get(key, 0) + weight * n
    if sum(counts.values()) != counted.deals:
        raise AssertionError(f"{game.name}: the outcomes add up to {sum(counts.values())} deals, not {counted.deals}")
    strategy = pd.DataFrame(
        {
            "code": canonical_codes(counted.hands, suit_permutations(game.rules.suits)),
            "hand": [format_cards(sorted(h.tolist(), reverse=True)) for h in counted.hands],
            "hands": counted.weight,
            "value": counted.value,
            "category": categories,
            "option": chosen,
        }
        | {f"EV({o})": [v / counted.dealer_hands for v in values[i]] for i, o in enumerate(options)}
    )
    strategy = strategy.sort_values("value", ascending=False, kind="stable").reset_index(drop=True)
    return NoBoardFigures(game, counted.deals, counts, {k: n for k, n in decisions.items() if n}, strategy)


def weakest_played(figures: NoBoardFigures) -> str:
    """The ranks of the weakest hand the strategy plays ("Q-6-4"): the sheet's "plays Q-6-4
    or better", when every better hand is played too, whatever its suits (else an error says
    the strategy is no such threshold)."""
    played = figures.strategy["option"] != "fold"
    ranks = np.flatnonzero(played.to_numpy())
    if len(ranks) == 0 or not played.iloc[: ranks[-1] + 1].all():
        raise InputError(f"{figures.game.title}: the strategy is not 'play this hand or better'")
    return "-".join(card[0] for card in str(figures.strategy["hand"].iloc[ranks[-1]]).split())


def _no_board(game: GameSpec) -> NoBoard:
    if game.no_board is None:
        raise InputError(f"{game.title} has a board: its figures come from the street engine")
    return game.no_board
