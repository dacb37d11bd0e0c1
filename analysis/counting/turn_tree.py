"""The independent oracle of the games whose bets add up (Texas Hold'em Bonus): every deal
of a small deck played through the whole game tree, node by node. Each option at the turn
is valued by averaging over every river and dealer hand, each option at the flop over
every turn (played at its best), each bet before the flop over every flop; every hand is
settled here from the game file's words (a winning ante paid its table, every bet even
money, a tie pushing all), with no margins, no classes and no suit symmetry. What the
turn kernel and :mod:`analysis.engine.turns` must equal on every count and every pre-flop
EV. The test suite and ``casino-omaha verify`` run it.
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from functools import cache
from itertools import combinations, permutations

from analysis.hands.evaluate import best_strength, category_of
from analysis.model.categories import CATEGORIES
from analysis.model.errors import InputError
from analysis.model.game import GameSpec

#: The most cards a deck may have for the tree to be played node by node (10: about 3 s).
MAX_DECK = 11

Key = tuple[str, int, str, str]  # as the street engine's outcomes: ("showdown", bets, category, result)


def turn_tree(game: GameSpec) -> tuple[Counter[Key], dict[tuple[int, ...], dict[str, Fraction]]]:
    """Every deal of ``game`` by outcome, and each holding's pre-flop EVs (per ante)."""
    if not game.adds:
        raise InputError(f"{game.title}: its bets end the betting; its oracle is analysis.counting.game_tree")
    deck = game.rules.deck
    if len(deck) > MAX_DECK:
        raise InputError(f"the game tree is played on a deck of at most {MAX_DECK} cards")
    strength = {frozenset(seven): int(best_strength([list(seven)])[0]) for seven in combinations(deck, 7)}
    pays = dict(game.ante_pays.pays) if game.ante_pays is not None else {c: Fraction(1) for c in CATEGORIES}
    turn_bet = max((o.multiple for o in game.turn), default=0)
    flop_bets = [o.multiple for o in game.flop] or [0]

    def outcome(hole: tuple[int, ...], board: tuple[int, ...], dealer: tuple[int, ...]) -> tuple[str, int]:
        mine, theirs = strength[frozenset(hole + board)], strength[frozenset(dealer + board)]
        return CATEGORIES[int(category_of([mine])[0])], (mine > theirs) - (mine < theirs)

    def net(category: str, sign: int, bets: int) -> Fraction:
        ante = Fraction(-1) if sign < 0 else Fraction(pays.get(category, 0)) if sign > 0 else Fraction(0)
        return ante + sign * bets

    def rest(used: tuple[int, ...]) -> list[int]:
        return [c for c in deck if c not in used]

    @cache
    def at_turn(hole: tuple[int, ...], board4: tuple[int, ...], bets: int) -> list[Fraction]:
        """The EV of checking, and of betting, at the turn."""
        out = []
        for extra in (0, turn_bet) if game.turn else (0,):
            total, n = Fraction(0), 0
            for river in rest(hole + board4):
                for dealer in combinations(rest(hole + board4 + (river,)), 2):
                    total += net(*outcome(hole, board4 + (river,), dealer), bets + extra)
                    n += 1
            out.append(total / n)
        return out

    @cache
    def at_flop(hole: tuple[int, ...], flop: tuple[int, ...], bets: int) -> list[Fraction]:
        turns = rest(hole + flop)
        return [
            sum((max(at_turn(hole, flop + (t,), bets + m)) for t in turns), Fraction(0)) / len(turns) for m in flop_bets
        ]

    counts: Counter[Key] = Counter()
    preflop: dict[tuple[int, ...], dict[str, Fraction]] = {}
    for hole in combinations(deck, 2):
        flops = list(combinations(rest(hole), 3))
        values = {
            str(o): Fraction(-1)
            if o.kind == "fold"
            else sum((max(at_flop(hole, f, o.multiple)) for f in flops), Fraction(0)) / len(flops)
            for o in game.preflop
        }
        preflop[hole] = values
        choice = max(game.preflop, key=lambda o: values[str(o)])  # the first best: least risk
        left = len(rest(hole)) - 3
        if choice.kind == "fold":
            counts[("fold", 0, "", "")] += len(flops) * left * (left - 1) * (left - 2) * (left - 3) // 2
            continue
        for flop in flops:
            fv = at_flop(hole, flop, choice.multiple)
            m = flop_bets[fv.index(max(fv))]
            for turn, river in permutations(rest(hole + flop), 2):
                tv = at_turn(hole, flop + (turn,), choice.multiple + m)
                bets = choice.multiple + m + (0, turn_bet)[tv.index(max(tv))]
                board = flop + (turn, river)
                for dealer in combinations(rest(hole + board), 2):
                    category, sign = outcome(hole, board, dealer)
                    counts[("showdown", bets, category, {1: "win", 0: "tie", -1: "loss"}[sign])] += 1
    return counts, preflop
