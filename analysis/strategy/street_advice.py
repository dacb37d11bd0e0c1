"""Advice at any decision point of a game with several streets: the exact EV of every
option and the best one, before the flop (from the solved game's class sums), at the flop
(the state enumerated on its own: every turn/river, the river played optimally) or at the
river (every dealer hand from the unseen cards).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations

import numpy as np
import pandas as pd

from analysis.counting.enumeration import single_state
from analysis.counting.streets import NCOLS6, RESULTS6, count_streets, preflop_classes
from analysis.engine.streets import StreetFigures, StreetValues, street_values
from analysis.hands.evaluate import best_strength, category_of, omaha_strength
from analysis.hands.lookup import dealer_qualifier
from analysis.model.cards import disjoint, format_cards, parse_cards
from analysis.model.errors import InputError
from analysis.model.game import GameSpec, Option


@dataclass(frozen=True)
class StreetAdvice:
    """The exact EV (antes per hand, from this point, ante and blind included) of each option
    at one decision point, and the best (an exact tie goes to the option that risks less)."""

    game: str
    street: str
    hole: str
    board: str
    evs: dict[str, Fraction]

    @property
    def best(self) -> str:
        return max(self.evs, key=lambda o: self.evs[o])  # options are in risk order: first best

    def frame(self) -> pd.DataFrame:
        return pd.DataFrame(
            {"ev": [float(v) for v in self.evs.values()], "ev_exact": list(self.evs.values())},
            index=pd.Index(list(self.evs), name="option"),
        ).assign(optimal=lambda d: d.index == self.best)


def advise_street(
    game: GameSpec, hole: str, board: str = "", figures: StreetFigures | None = None, threads: int = 1
) -> StreetAdvice:
    """Advice before the flop (``board`` empty: needs the solved ``figures``), at the flop
    (3 board cards) or at the river (5)."""
    rules = game.rules
    h = parse_cards(hole, rules.hole_cards, "hole cards")
    b = parse_cards(board, what="board cards") if board.strip() else []
    disjoint(h, b)
    if not set(h + b) <= set(rules.deck):
        raise InputError(f"{game.name}: cards that are not in the game's deck")
    v = street_values(game)
    if len(b) == 0:
        if figures is None or figures.game != game:
            raise InputError("advice before the flop needs the solved game (solve_streets)")
        klass = int(preflop_classes(rules).of(np.array([h]), rules)[0])
        row = figures.preflop.iloc[klass]
        evs = {str(o): Fraction(row[f"EV({o})"]) for o in v.preflop}
        street = "preflop"
    elif len(b) == 3:
        sc = count_streets(single_state(rules, h, b), v.river_coef, preflop_classes(rules), threads)
        values = v.flop_values(sc.bet.astype(np.int64), sc.river.astype(np.int64))[0]
        deals = int(sc.bet.sum())
        evs = {str(o): v.exact(int(x), deals) for o, x in zip(v.flop, values)}
        street = "flop"
    elif len(b) == 5:
        evs = _river(v, h, b)
        street = "river"
    else:
        raise InputError(f"board: 0 cards (before the flop), 3 (the flop) or 5 (the river), not {len(b)}")
    return StreetAdvice(game.name, street, format_cards(h), format_cards(b), evs)


def _river(v: StreetValues, hole: list[int], board: list[int]) -> dict[str, Fraction]:
    """Each river option's EV over every dealer hand from the unseen cards."""
    rules = v.game.rules
    unseen = [c for c in rules.deck if c not in hole and c not in board]
    dealers = np.array(list(combinations(unseen, rules.hole_cards)), dtype=np.int8)

    def strength(holes: np.ndarray) -> np.ndarray:
        boards = np.tile(np.array(board, dtype=np.int8), (len(holes), 1))
        if rules.omaha:
            return omaha_strength(holes, boards)
        return best_strength(np.concatenate([holes, boards], axis=1))

    p = int(strength(np.array([hole], dtype=np.int8))[0])
    d = strength(dealers).astype(np.int64)
    qualifies = d >= dealer_qualifier(rules.qualifier_rank)
    result = np.where(d < p, 0, np.where(d == p, 1, 2)) + 3 * qualifies
    table = np.zeros(NCOLS6, dtype=np.int64)
    cat = int(category_of([p])[0])
    np.add.at(table, cat * len(RESULTS6) + result, 1)
    options: tuple[Option, ...] = v.river
    return {
        str(o): v.exact(len(dealers) * v.fold if o.kind == "fold" else int(table @ v.show[o.multiple]), len(dealers))
        for o in options
    }
