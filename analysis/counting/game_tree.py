"""The street engine's independent oracle: a game file's every deal played through its whole
game tree, deal by deal, with no suit symmetry, no inclusion-exclusion and no classes of
hole cards: what the fast counts (:mod:`analysis.counting.streets`) and the backward
induction (:mod:`analysis.engine.streets`) must equal on every count and every decision of
a small deck. The test suite and ``casino-omaha verify`` run it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from fractions import Fraction
from functools import cache
from itertools import combinations

import numpy as np

from analysis.counting.streets import RESULTS6
from analysis.hands.evaluate import best_strength, category_of, omaha_strength
from analysis.hands.lookup import dealer_qualifier
from analysis.model.categories import CATEGORIES
from analysis.model.errors import InputError
from analysis.model.game import GameSpec, Option

Table = Counter[tuple[str, str]]  # (category, dealer result) -> deals
Paths = Counter[tuple[Option | None, tuple[str, str]]]  # (river option, (category, result)) -> deals

#: The most cards a deck may have for the game tree to be played deal by deal (a 13-card
#: deck of Ultimate Texas Hold'em is about a minute).
MAX_DECK = 13


def hand_values(game: GameSpec, holds: list[tuple[int, ...]], board: tuple[int, ...]) -> dict[tuple[int, ...], int]:
    """The strength of each holding's final hand on a full board, as the game makes hands."""
    h = np.array(holds, dtype=np.int8)
    b = np.tile(np.array(board, dtype=np.int8), (len(holds), 1))
    v = omaha_strength(h, b) if game.rules.omaha else best_strength(np.concatenate([h, b], axis=1))
    return dict(zip(holds, (int(x) for x in v)))


@cache
def category_name(value: int) -> str:
    """The category of a hand's strength (``"flush"``)."""
    return CATEGORIES[int(category_of([value])[0])]


def game_tree(game: GameSpec) -> tuple[dict[tuple[str, int, str, str], int], dict[tuple[str, str], int]]:
    """(counts, decisions) keyed as :class:`~analysis.engine.streets.StreetFigures`'
    ``counts`` and ``decisions``, by playing every deal of the game's deck through its
    whole tree: every player holding, flop, turn and river and dealer holding, each hand
    evaluated by the batch evaluators, each decision the best of its options' exact totals
    (the first best: options are in risk order). Only small decks are cheap."""
    rules = game.rules
    deck, k = rules.deck, rules.hole_cards
    if len(deck) > MAX_DECK:
        raise InputError(
            f"{game.name}: the game tree is played deal by deal on at most {MAX_DECK} cards, not {len(deck)}"
        )
    q = dealer_qualifier(rules.qualifier_rank)
    show = {m: game.showdown_values(m) for m in range(10)}
    fold = game.fold_value
    river = game.river or ()
    flop_opts = game.flop or ()
    pre_opts = game.preflop or ()

    def best(options: Sequence[Option], values: list[Fraction]) -> Option:
        top = max(values)
        return options[values.index(top)]  # options are in risk order: the first best risks least

    def tally(p: int, dealers: list[int]) -> Table:
        cat = category_name(p)
        out: Table = Counter()
        for d in dealers:
            qual = d >= q
            res = "win" if p > d else "tie" if p == d else "loss"
            out[(cat, res if qual else f"noqual_{res}")] += 1
        return out

    def worth(table: Table, m: int) -> Fraction:
        return sum(
            (n * show[m][CATEGORIES.index(c) * 6 + RESULTS6.index(r)] for (c, r), n in table.items()), Fraction(0)
        )

    board_values: dict[tuple[int, ...], dict[tuple[int, ...], int]] = {}
    counts: Counter[tuple[str, int, str, str]] = Counter()
    decisions: Counter[tuple[str, str]] = Counter()
    for hole in combinations(deck, k):
        rest = [c for c in deck if c not in hole]
        per_flop: list[tuple[Table, Paths, int]] = []  # (bet table, river-path tables, deals)
        for flop in combinations(rest, 3):
            rest2 = [c for c in rest if c not in flop]
            bet_table: Table = Counter()
            river_paths: Paths = Counter()
            deals = 0
            for tr in combinations(rest2, 2):
                board = flop + tr
                left = [c for c in deck if c not in board]
                if board not in board_values:
                    board_values[board] = hand_values(game, list(combinations(left, k)), board)
                vals = board_values[board]
                dealers = [vals[d] for d in combinations([c for c in left if c not in hole], k)]
                table = tally(vals[hole], dealers)
                bet_table.update(table)
                deals += len(dealers)
                choice: Option | None = None
                if river:
                    choice = best(
                        river, [fold * len(dealers) if o.kind == "fold" else worth(table, o.multiple) for o in river]
                    )
                for key, n in table.items():
                    river_paths[(choice, key)] += n
            per_flop.append((bet_table, river_paths, deals))

        def river_value(paths: Paths) -> Fraction:
            return sum(
                (
                    fold * n
                    if o is not None and o.kind == "fold"
                    else n * show[o.multiple if o is not None else 0][CATEGORIES.index(c) * 6 + RESULTS6.index(r)]
                    for (o, (c, r)), n in paths.items()
                ),
                Fraction(0),
            )

        flop_choice: list[Option | None] = []
        for bet_table, paths, deals in per_flop:
            if not flop_opts:
                flop_choice.append(None)
                continue
            values = [
                fold * deals
                if o.kind == "fold"
                else worth(bet_table, o.multiple)
                if o.kind == "bet"
                else river_value(paths)
                for o in flop_opts
            ]
            flop_choice.append(best(flop_opts, values))
        total_bet: Table = sum((t for t, _, _ in per_flop), Counter())
        deals_all = sum(d for _, _, d in per_flop)
        pre: Option | None = None
        if pre_opts:
            check = Fraction(0)
            for (bet_table, paths, deals), c in zip(per_flop, flop_choice):
                check += (
                    fold * deals
                    if c is not None and c.kind == "fold"
                    else worth(bet_table, c.multiple)
                    if c is not None and c.kind == "bet"
                    else river_value(paths)
                )
            values = [
                fold * deals_all if o.kind == "fold" else worth(total_bet, o.multiple) if o.kind == "bet" else check
                for o in pre_opts
            ]
            pre = best(pre_opts, values)
            decisions[("preflop", str(pre))] += deals_all
        if pre is not None and pre.kind == "bet":
            for (cat, r), n in total_bet.items():
                counts[("preflop", pre.multiple, cat, r)] += n
            continue
        if pre is not None and pre.kind == "fold":
            counts[("fold", 0, "", "")] += deals_all
            continue
        for (bet_table, paths, deals), c in zip(per_flop, flop_choice):
            if c is not None:
                decisions[("flop", str(c))] += deals
            if c is not None and c.kind == "fold":
                counts[("fold", 0, "", "")] += deals
            elif c is not None and c.kind == "bet":
                for (cat, r), n in bet_table.items():
                    counts[("flop", c.multiple, cat, r)] += n
            else:
                for (o, (cat, r)), n in paths.items():
                    if o is not None:
                        decisions[("river", str(o))] += n
                    if o is not None and o.kind == "fold":
                        counts[("fold", 0, "", "")] += n
                    else:
                        counts[("river", o.multiple if o is not None else 0, cat, r)] += n
    return dict(counts), {key: n for key, n in decisions.items() if n}
