"""Exact counts for games with several decision points: drives ``analysis._streets`` over
flop classes, with the same canonical states and weights as :mod:`.enumeration`.

Per state (hole cards + flop) the kernel returns the ``bet`` table (every completion, by
player category x six dealer results) and one ``river`` table per river option (the
completions whose board makes that option best, decided board by board in exact integers).
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations

import numpy as np

import analysis._streets as _streets
from analysis.counting.enumeration import Prepared
from analysis.counting.symmetry import canonical_codes, suit_permutations
from analysis.hands.lookup import hand_tables, tables
from analysis.hands.written import RIVER_OUTS
from analysis.model.categories import CATEGORIES
from analysis.model.outcomes import colex_codes
from analysis.model.rules import Rules
from analysis.parallel.threads import check_threads

#: The dealer results of a multi-street game, in the kernel's order: a non-qualifying dealer
#: (the ante may push, the play bet still has action) and a qualifying one, each against the
#: player's hand.
RESULTS6 = ("noqual_win", "noqual_tie", "noqual_loss", "win", "tie", "loss")
#: Columns of a table: category-major, as the kernel writes them.
NCOLS6 = len(CATEGORIES) * len(RESULTS6)


@dataclass
class StreetCounts:
    """Counts of some canonical states: ``weight`` real states each, pre-flop class ``klass``."""

    weight: np.ndarray  # states (int64)
    klass: np.ndarray  # states: pre-flop class of the hole cards (int64)
    bet: np.ndarray  # states x NCOLS6 (uint32)
    river: np.ndarray  # states x river options x NCOLS6 (uint32)


@dataclass(frozen=True)
class PreflopClasses:
    """The hole-card holdings of a deck up to suit permutations: the pre-flop decision units."""

    codes: np.ndarray  # canonical colex code of each class, sorted
    size: np.ndarray  # holdings in each class
    example: np.ndarray  # classes x k: one holding of each class
    by_code: np.ndarray  # the class of every holding of the deck, by the holding's colex code (-1: none)

    def of(self, holdings: np.ndarray, rules: Rules) -> np.ndarray:
        """Class index of each row of holdings (of the deck of ``rules``)."""
        code = colex_codes(holdings)
        klass = np.where(code < len(self.by_code), self.by_code[np.minimum(code, len(self.by_code) - 1)], -1)
        if np.any(klass < 0):
            raise ValueError("a holding with cards outside the deck has no pre-flop class")
        return klass


def preflop_classes(rules: Rules) -> PreflopClasses:
    holds = np.array(list(combinations(rules.deck, rules.hole_cards)), dtype=np.int64)
    canon = canonical_codes(holds, suit_permutations(rules.suits))
    codes, size = np.unique(canon, return_counts=True)
    own = colex_codes(holds)
    reps = holds[own == canon]  # the member whose own code is its class's
    reps = reps[np.argsort(colex_codes(reps))]
    # a table by colex code: a state's class is then one lookup, not 24 suit permutations
    by_code = np.full(int(own.max(initial=-1)) + 1, -1, dtype=np.int64)
    by_code[own] = np.searchsorted(codes, canon)
    return PreflopClasses(codes=codes, size=size.astype(np.int64), example=reps, by_code=by_code)


def count_streets(
    p: Prepared,
    coef: np.ndarray,
    classes: PreflopClasses,
    threads: int | None = None,
    by_class: bool | None = None,
    river_bet: int = -1,
) -> StreetCounts:
    """Run the multi-street kernel on prepared flop classes (releases the GIL). ``by_class``:
    sum each flop's pairs by class (True) or add them holding by holding (False); by default
    by the flop's number of holdings (the two ways count the same, as a test checks).
    ``river_bet`` >= 0: the river played by the written rule (:mod:`analysis.hands.written`),
    that option taken on a hidden pair or better or on a hand that fewer than 21 in 45 of
    the cards unseen beat with the board (``RIVER_OUTS``), option 0 otherwise."""
    rules = p.rules
    nopt = coef.shape[0]
    out = np.zeros((len(p.holdings), NCOLS6 * nopt + len(RESULTS6)), dtype=np.uint32)
    t = tables()
    _streets.count_streets(
        *p.game_args(),
        np.ascontiguousarray(coef, dtype=np.int64),
        *p.layout_args(),
        *hand_tables(rules.omaha),
        out,
        check_threads(threads),
        -1 if by_class is None else int(by_class),
        river_bet,
        *RIVER_OUTS,
        t.made,
        t.rank5,
        t.rank6,
    )
    bet = out[:, :NCOLS6]
    others = out[:, NCOLS6 : NCOLS6 * nopt].reshape(len(out), nopt - 1, NCOLS6)
    first = bet - others.sum(axis=1, dtype=np.uint32)  # option 0: every completion the others did not take
    return StreetCounts(
        weight=p.weights.astype(np.int64),
        klass=classes.of(p.holdings, rules),
        bet=bet,
        river=np.concatenate([first[:, None, :], others], axis=1),
    )


@dataclass
class TurnCounts:
    """Counts of some canonical states of a game whose bets add up: ``weight`` real states
    each, pre-flop class ``klass``; per state, every completion (turn and river in order,
    then the dealer's cards) by category x result, in two tables: the turns the player
    checks and those he bets (he bets when he beats more dealer hands than he loses to
    over the rivers of that turn)."""

    weight: np.ndarray  # states (int64)
    klass: np.ndarray  # states: pre-flop class of the hole cards (int64)
    turn: np.ndarray  # states x 2 (check, bet) x NCOLS6 (uint32)
    bets: np.ndarray  # states: the turn cards on which it bets, bit c for card c (uint64)


def count_turns(
    p: Prepared, classes: PreflopClasses, threads: int | None = None, given: np.ndarray | None = None
) -> TurnCounts:
    """Run the turn kernel on prepared flop classes (releases the GIL); ``given``: per
    holding, the turn cards it bets on (bit t for card t), decided by a strategy in words
    in place of the margins."""
    rules = p.rules
    if rules.qualifier_rank is not None:
        raise ValueError("count_turns: the dealer always qualifies in a game whose bets add up")
    out = np.zeros((len(p.holdings), 2 * NCOLS6), dtype=np.uint32)
    bets = np.zeros(len(p.holdings), dtype=np.uint64)
    given = np.zeros(0, dtype=np.uint64) if given is None else np.ascontiguousarray(given, dtype=np.uint64)
    _streets.count_turns(
        *p.game_args(), *p.layout_args(), *hand_tables(rules.omaha), out, bets, given, check_threads(threads)
    )
    return TurnCounts(
        weight=p.weights.astype(np.int64),
        klass=classes.of(p.holdings, rules),
        turn=out.reshape(len(out), 2, NCOLS6),
        bets=bets,
    )
