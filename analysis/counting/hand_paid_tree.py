"""The independent oracle of the games without a dealer: every deal played through the
whole game tree, card by card as the streets turn them (in order, no sets, no symmetry),
each option valued by averaging over the next street's cards, and each five-card hand
classified here from its ranks and suits alone (not by the package's evaluator). What the
backward induction (:mod:`analysis.engine.hand_paid`) must equal on every count and every
decision of a small deck. The test suite and ``casino-omaha verify`` run it.
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from itertools import combinations, permutations
from math import factorial, prod

from analysis.model.errors import InputError
from analysis.model.game import GameSpec
from analysis.model.hand_paid import HandPaid

#: The most cards a deck may have for the game tree to be played deal by deal.
MAX_DECK = 14
#: What the oracle calls a hand that no pay line names.
NO_LINE = "any other hand"

Node = tuple[int, tuple[int, ...], int]  # decision point, cards held (hole, then as turned), units in action


def line_of(cards: tuple[int, ...], hp: HandPaid) -> str:
    """The pay line of five cards, from their ranks and suits."""
    ranks = sorted((c >> 2 for c in cards), reverse=True)
    counts = sorted(Counter(ranks).values(), reverse=True)
    flush = len({c & 3 for c in cards}) == 1
    straight = len(set(ranks)) == 5 and (ranks[0] - ranks[4] == 4 or ranks == [12, 3, 2, 1, 0])
    if straight and flush:
        hand = "royal_flush" if ranks[4] == 8 else "straight_flush"
    elif counts[0] == 4:
        hand = "four_of_a_kind"
    elif counts[:2] == [3, 2]:
        hand = "full_house"
    else:
        shape = {(3, 1): "three_of_a_kind", (2, 2): "two_pair", (2, 1): "pair"}.get((counts[0], counts[1]), "high_card")
        hand = "flush" if flush else "straight" if straight else shape
    if hand == "royal_flush" and all(line.category != hand for line in hp.lines):
        hand = "straight_flush"  # paid as one
    for line in hp.lines:
        if line.category == hand:
            if hand != "pair" or line.low <= next(r for r in ranks if ranks.count(r) == 2) <= line.high:
                return line.name
    return NO_LINE


class HandPaidTree:
    """A game without a dealer's whole game tree on its deck."""

    def __init__(self, game: GameSpec):
        if game.hand_paid is None:
            raise InputError(f"{game.title} has a dealer: its oracle is analysis.counting.game_tree")
        if len(game.rules.deck) > MAX_DECK:
            raise InputError(f"the game tree is played on a deck of at most {MAX_DECK} cards")
        self.hp, self.deck = game.hand_paid, game.rules.deck
        self.pays = {line.name: line.net for line in self.hp.lines}
        #: every node's options and their exact EVs in units, as the tree valued them
        self.memo: dict[Node, dict[str, Fraction]] = {}

    def options(self, point: int, held: tuple[int, ...], units: int) -> dict[str, Fraction]:
        """Each option's exact EV at a decision point, least risk first."""
        key = (point, held, units)
        if key not in self.memo:
            self.memo[key] = {
                str(m): Fraction(-units) if m.kind == "fold" else self.turn(point, held, units + m.change)
                for m in self.hp.options(point)
            }
        return self.memo[key]

    def turn(self, point: int, held: tuple[int, ...], units: int) -> Fraction:
        """The EV of turning street ``point``'s cards, in every order, then playing on at best."""
        rest = [c for c in self.deck if c not in held]
        turns = list(permutations(rest, self.hp.streets[point]))
        return sum((self.best(point + 1, held + t, units) for t in turns), Fraction(0)) / len(turns)

    def best(self, point: int, held: tuple[int, ...], units: int) -> Fraction:
        if point == len(self.hp.streets):
            return units * self.pays.get(line_of(held, self.hp), Fraction(-1))
        return max(self.options(point, held, units).values())

    def count(self) -> Counter[tuple[tuple[str, ...], str]]:
        """Every deal played by the tree's optimal choices (the first best: least risk):
        deals by (the options taken, the pay line or ``"fold"``); the cards of one street
        turned in any order are one deal."""
        counts: Counter[tuple[tuple[str, ...], str]] = Counter()
        hp = self.hp
        orders = prod(factorial(n) for n in hp.streets)

        def walk(point: int, held: tuple[int, ...], units: int, path: tuple[str, ...]) -> None:
            if point == len(hp.streets):
                counts[(path, line_of(held, hp))] += 1
                return
            options = self.options(point, held, units)
            option = max(options, key=lambda o: options[o])
            move = next(m for m in hp.options(point) if str(m) == option)
            rest = [c for c in self.deck if c not in held]
            if move.kind == "fold":
                left, completions = len(rest), 1
                for n in hp.streets[point:]:
                    completions *= prod(range(left - n + 1, left + 1))
                    left -= n
                counts[((*path, option), "fold")] += completions
                return
            for t in permutations(rest, hp.streets[point]):
                walk(point + 1, held + t, units + move.change, (*path, option))

        for hole in combinations(self.deck, hp.hole):
            walk(0, hole, hp.start, ())
        return Counter({k: n // orders for k, n in counts.items()})
