"""Advice at any decision point of a game with several streets: the exact EV of every
option and the best one, before the flop (from the solved game's class sums), at the flop
(the state enumerated on its own: every turn/river, the river played optimally) or at the
river (every dealer hand from the unseen cards). A game whose bets add up (Texas Hold'em
Bonus) decides at the flop and at the turn instead: each option's EV from every river and
dealer hand still to come (at the flop every turn too, played at its best), the bets made
so far in action.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations

import numpy as np
import pandas as pd

from analysis.counting.enumeration import single_state
from analysis.counting.streets import NCOLS6, RESULTS6, count_streets, preflop_classes
from analysis.engine.streets import StreetFigures, StreetValues, has_written_strategy, street_values
from analysis.hands import written_turn
from analysis.hands.evaluate import best_strength, category_of, omaha_strength
from analysis.hands.lookup import dealer_qualifier
from analysis.hands.written import flop_bets, river_bets
from analysis.model.cards import disjoint, format_cards, parse_cards
from analysis.model.categories import CATEGORIES
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
    #: the bets already made, in antes (a game whose bets add up; its EVs include them)
    bets: int = 0
    #: the option the strategy in words takes here (:mod:`analysis.hands.written`,
    #: :mod:`analysis.hands.written_turn`), for a game that has one, after the flop
    written: str | None = None
    #: the dealer card the player saw (game protection), if any
    seen: str = ""
    #: a board card he saw before it was dealt ("flop card 7h", "turn or river card 7h"), if any
    board_seen: str = ""

    @property
    def best(self) -> str:
        return max(self.evs, key=lambda o: self.evs[o])  # options are in risk order: first best

    def frame(self) -> pd.DataFrame:
        return pd.DataFrame(
            {"ev": [float(v) for v in self.evs.values()], "ev_exact": list(self.evs.values())},
            index=pd.Index(list(self.evs), name="option"),
        ).assign(optimal=lambda d: d.index == self.best)


def advise_street(
    game: GameSpec,
    hole: str,
    board: str = "",
    figures: StreetFigures | None = None,
    threads: int = 1,
    taken: tuple[str, ...] | None = None,
) -> StreetAdvice:
    """Advice before the flop (``board`` empty: needs the solved ``figures``), at the flop
    (3 board cards) or at the river (5); for a game whose bets add up at the flop or at the
    turn (4), with ``taken`` the options taken at the earlier decisions (by default the
    pre-flop bet when the game has one, and at the turn the flop's best option)."""
    rules = game.rules
    h = parse_cards(hole, rules.hole_cards, "hole cards")
    b = parse_cards(board, what="board cards") if board.strip() else []
    disjoint(h, b)
    if not set(h + b) <= set(rules.deck):
        raise InputError(f"{game.name}: cards that are not in the game's deck")
    if taken is not None and not (game.adds and b):
        raise InputError("the options taken earlier are given for a game whose bets add up, after the flop")
    if game.adds and b:
        return _adding(game, h, b, taken)
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
    written = None
    if b and has_written_strategy(game):
        hand, cards = np.array([h]), np.array([b])
        bets = flop_bets(hand, cards)[0] if len(b) == 3 else river_bets(hand, cards, rules.deck)[0]
        written = str((game.flop if len(b) == 3 else game.river)[1 if bets else 0])
    return StreetAdvice(game.name, street, format_cards(h), format_cards(b), evs, written=written)


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


def _adding(game: GameSpec, hole: list[int], board: list[int], taken: tuple[str, ...] | None) -> StreetAdvice:
    """Advice at the flop or the turn of a game whose bets add up."""
    if len(board) not in (3, 4):
        raise InputError(
            f"{game.title} decides at the flop (3 board cards) and at the turn (4), not with {len(board)} board cards"
        )
    points = [("preflop", game.preflop), ("flop", game.flop or (Option("check"),))][: len(board) - 2]
    given = list(taken or ())
    if len(given) > len(points):
        raise InputError(f"taken: at most {len(points)} earlier option(s) at this point, not {len(given)}")
    bets = 0
    turns: dict[int, tuple[Fraction, int, int]] = {}  # the turns' sums, when the flop was valued
    for i, (point, options) in enumerate(points):
        names = [str(o) for o in options if o.kind != "fold"]
        if i < len(given):
            choice = given[i].strip()
            if choice not in names:
                raise InputError(f"taken: {choice!r} is not an option of the {point} that goes on ({', '.join(names)})")
        elif point == "preflop":
            if len(names) != 1:
                raise InputError(f"taken: name the bet made before the flop ({', '.join(names)})")
            choice = names[0]
        else:  # the flop's best option
            evs, turns = flop_evs(game, tuple(hole), tuple(board[:3]), bets)
            choice = max(evs, key=lambda o: evs[o])
        bets += next(o.multiple for o in options if str(o) == choice)
    if len(board) == 3:
        evs, _ = flop_evs(game, tuple(hole), tuple(board), bets)
        street = "flop"
    else:
        sums = turns[board[3]] if turns else turn_sums(game, tuple(hole), tuple(board))
        evs = turn_evs(game, sums, bets)
        street = "turn"
    written = None
    if has_written_strategy(game):
        hand, cards = np.array([hole]), np.array([board])
        rule = written_turn.flop_bets(hand, cards) if street == "flop" else written_turn.turn_bets(hand, cards)
        written = str(game.streets[street][1 if rule[0] else 0])
    return StreetAdvice(game.name, street, format_cards(hole), format_cards(board), evs, bets, written)


def turn_sums(game: GameSpec, hole: tuple[int, ...], board4: tuple[int, ...]) -> tuple[Fraction, int, int]:
    """Over every river and dealer hand left after the turn: the ante's summed net, the
    summed sign of the player's hand against the dealer's (a win 1, a loss -1) and the number
    of hands; each hand settled by the game file's settlement."""
    rest = [c for c in game.rules.deck if c not in (*hole, *board4)]
    pairs = np.array(list(combinations(rest, 2)))
    mine = best_strength(np.array([[*hole, *board4, r] for r in rest]))
    ante_win = {c: game.settlement.wager_nets(c, True, 1, 0)["ante"] for c in CATEGORIES}
    ante, sign, hands = Fraction(0), 0, 0
    for river, strength, category in zip(rest, mine.tolist(), category_of(mine).tolist()):
        dealers = pairs[(pairs[:, 0] != river) & (pairs[:, 1] != river)]
        theirs = best_strength(np.column_stack([dealers, np.tile([*board4, river], (len(dealers), 1))]))
        wins, losses = int((theirs < strength).sum()), int((theirs > strength).sum())
        ante += wins * ante_win[CATEGORIES[category]] - losses
        sign += wins - losses
        hands += len(dealers)
    return ante, sign, hands


def turn_evs(game: GameSpec, sums: tuple[Fraction, int, int], bets: int) -> dict[str, Fraction]:
    """Each turn option's EV in antes (from here on, the ante and the ``bets`` made included)
    from the turn's :func:`turn_sums`."""
    ante, sign, hands = sums
    return {str(o): (ante + (bets + o.multiple) * sign) / Fraction(hands) for o in game.turn or (Option("check"),)}


def flop_evs(
    game: GameSpec, hole: tuple[int, ...], flop: tuple[int, ...], bets: int
) -> tuple[dict[str, Fraction], dict[int, tuple[Fraction, int, int]]]:
    """Each flop option's EV in antes (the ante and the ``bets`` made included), every turn
    played at its best (an exact tie checks); and per turn card its :func:`turn_sums`."""
    turn_bet = max((o.multiple for o in game.turn), default=0)
    sums = {t: turn_sums(game, hole, (*flop, t)) for t in game.rules.deck if t not in (*hole, *flop)}
    evs = {}
    for o in game.flop or (Option("check"),):
        total = Fraction(0)
        for ante, sign, hands in sums.values():
            total += (ante + (bets + o.multiple) * sign + max(0, turn_bet * sign)) / Fraction(hands)
        evs[str(o)] = total / len(sums)
    return evs, sums
