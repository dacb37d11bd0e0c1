"""Pay-table tuning of a game with several decision points (Ultimate Texas Hold'em,
Mississippi Stud, any designer's file): the same sweeps and exact target solves as a
one-decision game, each table priced by an exact solve of the whole game (every decision
point re-optimised).

The table tuned is the game's one pay table: the blind's when the game has a blind, else
the ante's; a game without a dealer's [pays] by category (its lines of pairs by rank stay
as the file has them); a game without a board's play bet table (Caribbean Stud) or ante bonus
(Three Card Poker), priced on counts made once (they do not depend on the pays: a new table
is a second or less). Each new table is counted once (a few seconds to minutes) and kept in the
result store, so a sweep or a solve run again reads it back. A target is solved exactly:
the optimal house edge is concave and piecewise linear in one pay (the least of the edges
of every strategy, each linear in the pay), so Newton's step from any pay, taken on the
counts of that pay's optimal play, reaches the exact root of the last piece in a few solves.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import replace
from fractions import Fraction

from analysis.counting.no_board import NoBoardCounts
from analysis.engine.hand_paid import HandPaidFigures, solve_hand_paid
from analysis.engine.no_board import NoBoardFigures, no_board_counts, solve_no_board
from analysis.engine.no_board_curve import NoBoardCurve
from analysis.engine.strategies import Strategy
from analysis.engine.streets import StreetFigures, solve_streets
from analysis.model.categories import CATEGORIES
from analysis.model.errors import InputError, SolveError
from analysis.model.game import Blind, GameSpec
from analysis.model.hand_paid import HandPaid
from analysis.model.pay_lines import PayLine, best_first
from analysis.model.paytable import PayTable, PayTableSpec
from analysis.parallel.options import RunOptions
from analysis.tuning.tuner import PayTuner

#: The finest step of a pay solved for (a table's pays are exact integers in the sums).
GRID = 10**6
#: Newton steps before a solve gives up (each is two or three exact solves of the game).
MAX_STEPS = 12


class StreetTuner(PayTuner):
    """Optimal play and returns of a multi-street game for any pay table of its tuned wager."""

    def __init__(self, game: GameSpec, options: RunOptions | None = None) -> None:
        nb = game.no_board
        boardless = nb is not None and (game.play_pays is not None or bool(nb.ante_bonus))
        if game.blind is None and game.ante_pays is None and game.hand_paid is None and not boardless:
            raise InputError(f"{game.title}: no wager is paid by a table (the ante pays even money): nothing to tune")
        self.game, self.options = game, options or RunOptions(progress=False)
        #: the wager whose table is tuned
        self.wager = (
            "blind"
            if game.blind is not None
            else "pay table"
            if game.hand_paid is not None
            else "play"
            if game.play_pays is not None
            else "ante bonus"
            if boardless
            else "ante"
        )
        self._counts: NoBoardCounts | None = None
        self._curves: dict[tuple[object, ...], NoBoardCurve] = {}

    def table(self, base: PayTableSpec = None) -> PayTable:
        if base is not None:
            return PayTable.load(base)
        if self.game.hand_paid is not None:
            lines = {x.category: x.net for x in self.game.hand_paid.lines if x.name == x.category}
            return PayTable.from_mapping({c: lines.get(c, Fraction(0)) for c in CATEGORIES}, name=self.game.title)
        if self.game.blind is not None:
            pays = {c: self.game.blind.pays.get(c, Fraction(0)) for c in CATEGORIES}
            return PayTable.from_mapping(pays, name=f"{self.game.title} blind")
        if self.wager == "play":
            assert self.game.play_pays is not None
            return self.game.play_pays
        if self.wager == "ante bonus":
            assert self.game.no_board is not None
            bonus = {c: self.game.no_board.ante_bonus.get(c, Fraction(0)) for c in CATEGORIES}
            return PayTable.from_mapping(bonus, name=f"{self.game.title} ante bonus")
        assert self.game.ante_pays is not None  # the constructor refuses a game without a table
        return self.game.ante_pays

    def game_with(self, table: PayTableSpec) -> GameSpec:
        """The game with ``table`` as its tuned wager's pays."""
        pays = self.table(table)
        if self.game.hand_paid is not None:
            return replace(self.game, name=f"{self.game.name}*", hand_paid=self._lines(pays))
        if self.wager == "blind":
            blind = Blind({c: p for c, p in pays.pays.items() if p})
            return replace(self.game, name=f"{self.game.name}*", blind=blind)
        if self.wager in ("play", "ante bonus"):
            nb = self.game.no_board
            assert nb is not None
            other = sorted(c for c, p in pays.pays.items() if p and c not in nb.categories)
            if other:
                raise InputError(
                    f"{self.game.title} has no {', '.join(other)}: its hands are {', '.join(nb.categories)}"
                )
            if self.wager == "play":
                return replace(self.game, name=f"{self.game.name}*", play_pays=pays)
            bonus = {c: p for c, p in pays.pays.items() if p}
            return replace(self.game, name=f"{self.game.name}*", no_board=replace(nb, ante_bonus=bonus))
        return replace(self.game, name=f"{self.game.name}*", ante_pays=pays)

    def _lines(self, pays: PayTable) -> HandPaid:
        """A game without a dealer's [pays] with the categories' lines of ``pays``: a line
        paid 0 pushes, a category without a line loses; a line of pairs by rank stays."""
        hp = self.game.hand_paid
        assert hp is not None
        by_rank = [x for x in hp.lines if x.name != x.category]
        if pays.pays["pair"] and by_rank:
            raise InputError(f"{self.game.title} pays pairs by rank: change its [pays] lines of pairs in the file")
        had = {x.category for x in hp.lines if x.name == x.category}
        lines = [PayLine(c, c, p) for c, p in pays.pays.items() if p or c in had]
        return replace(hp, lines=best_first([*lines, *by_rank]))

    def evaluate(
        self, paytable: PayTableSpec = None, strategy: str | Strategy = "optimal"
    ) -> StreetFigures | HandPaidFigures | NoBoardFigures:
        if strategy != "optimal":
            raise InputError(f"{self.game.title}: a multi-street game is tuned with the optimal strategy only")
        game = self.game_with(paytable)
        if game.no_board is not None:
            if self._counts is None:
                self._counts = no_board_counts(game, options=self.options)
            return solve_no_board(game, counted=self._counts)
        return solve_hand_paid(game) if game.hand_paid is not None else solve_streets(game, self.options)

    def curve(self, category: str, base: PayTableSpec = None) -> NoBoardCurve:
        """The exact curve of the optimal house edge in ``category``'s pay (the other pays
        ``base``'s), every breakpoint of it: games without a board, from their counts."""
        if self.game.no_board is None:
            raise InputError(
                f"{self.game.title}: the exact curve of one pay is drawn for games without a board here; "
                "this game is swept a solve per point (--sweep)"
            )
        table, hands = self.table(base), self.game.no_board.categories
        if category not in hands:
            raise InputError(f"{self.game.title} has no {category}: its hands are {', '.join(hands)}")
        key = (category, tuple(sorted((c, p) for c, p in table.pays.items() if c != category)))
        if key not in self._curves:
            if self._counts is None:
                self._counts = no_board_counts(self.game, options=self.options)
            at_zero, at_one = (self.game_with(table.with_pays({category: Fraction(p)})) for p in (0, 1))
            self._curves = {key: NoBoardCurve(at_zero, at_one, self._counts)}  # the last one drawn is kept
        return self._curves[key]

    def _solve_continuous(
        self, target: Fraction, category: str, limits: tuple[Fraction, Fraction], base: PayTable
    ) -> list[tuple[dict[str, Fraction], Fraction]]:
        """The exact pay of ``target``: for a game without a board read off its exact curve;
        else when it can be certified, or the two pays a millionth apart that bracket it
        (a decision turns between them).

        Newton's step from a pay, on the counts of its optimal play, gives a root r; the
        pays a <= r <= b a millionth apart are solved (a table's pays enter the exact
        integer sums, so their denominators stay small). When a and b play alike (the same
        deals in every outcome), the edge is that one line on [a, b] (it is concave: at
        least the chord, at most each strategy's line), so r is the exact root."""
        lo, hi = limits
        if self.game.no_board is not None:
            curve = self.curve(category, base)
            pay = curve.pay_for(target, lo, hi)
            if pay is None:  # the tuner checked the ends reach the target
                raise SolveError(f"no pay of {category} between {lo} and {hi} gives {target}")
            return [({category: pay}, curve.house_edge(pay))]
        guess = min(max(base.pays[category], lo), hi)
        for _ in range(MAX_STEPS):
            root = self._root(self.evaluate(base.with_pays({category: guess})), target, category, base)
            a = max(lo, Fraction(math.floor(root * GRID), GRID))
            b = min(hi, Fraction(math.ceil(root * GRID), GRID))
            at_a, at_b = self.evaluate(base.with_pays({category: a})), self.evaluate(base.with_pays({category: b}))
            edge_a, edge_b = at_a.exact.house_edge, at_b.exact.house_edge
            if at_a.counts == at_b.counts:
                exact = self._root(at_a, target, category, base)
                if a <= exact <= b:
                    return [({category: exact}, self._edge_with(at_a, base, category)(exact))]
            elif edge_a >= target >= edge_b:
                return [({category: a}, edge_a), ({category: b}, edge_b)]
            guess = a if edge_a < target else b
        raise SolveError(f"no exact root for {category}: decisions keep changing near {float(guess)}")

    def _root(
        self, played: StreetFigures | HandPaidFigures | NoBoardFigures, target: Fraction, category: str, base: PayTable
    ) -> Fraction:
        """The pay where the edge of ``played``'s strategy (a line in the pay) is ``target``."""
        edge = self._edge_with(played, base, category)
        at0, slope = edge(Fraction(0)), edge(Fraction(1)) - edge(Fraction(0))
        if slope == 0:
            raise InputError(f"{self.game.title}: the {category} pay of the {self.wager} does not move the house edge")
        return (target - at0) / slope

    def _decisions(self, table: PayTable) -> StreetFigures | HandPaidFigures | NoBoardFigures:
        return self.evaluate(table)

    def _same(self, a: StreetFigures | HandPaidFigures | NoBoardFigures, b: StreetFigures | HandPaidFigures) -> bool:
        # the same deals ending in each outcome: the same edge as a function of any pay
        return a.counts == b.counts

    def _edge_with(
        self, decisions: StreetFigures | HandPaidFigures | NoBoardFigures, base: PayTable, category: str
    ) -> Callable[[Fraction], Fraction]:
        def edge(pay: Fraction) -> Fraction:
            return replace(decisions, game=self.game_with(base.with_pays({category: pay}))).exact.house_edge

        return edge
